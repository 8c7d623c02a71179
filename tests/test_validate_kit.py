"""The validation kit round trip: sample a release, annotate in headless Chromium, import two annotators.

Annotator A answers the page through its keyboard in Chromium; annotator B's file is written by hand
with a known disagreement on ``gold_correct``. The agreement figures are checked against the hand
computation of tests/test_validate_agreement.py (kappa 0.4 for the 10 pairs below).
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from chronoqa.artifacts.release import load_release
from chronoqa.validate import JUDGMENTS, JUDGMENTS_FORMAT, cell_of, stratified_sample, write_sheet
from chronoqa.validate.sample import allocate
from publish_fixtures import build_release, chronoqa_cli

CHROMIUM = Path("/usr/bin/chromium")
GOLD_A = "yyyyyynnnn"
GOLD_B = "yyyynnnnny"


@pytest.fixture(scope="module")
def table_release(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_release("table", mirror, tmp_path_factory.mktemp("validate") / "release")


def test_allocation_is_proportional_with_one_per_cell() -> None:
    sizes = {"a": 100, "b": 10, "c": 1, "d": 0}
    got = allocate(sizes, 20)
    assert got == {"a": 17, "b": 2, "c": 1}  # 1 each, then 17 left over 111: a 15.3, b 1.5 -> a 15+1, b 1+1
    assert sum(allocate(sizes, 50).values()) == 50
    assert allocate(sizes, 500) == {"a": 100, "b": 10, "c": 1}
    assert allocate(sizes, 2) == {"a": 1, "b": 1}


def test_sample_is_stratified_and_deterministic(table_release: Path, tmp_path: Path) -> None:
    rel = load_release(table_release)
    qs, cells = stratified_sample(rel, 60, seed=3)
    assert len(qs) == 60 and len({q.id for q in qs}) == 60
    assert sum(c["sample"] for c in cells.values()) == 60
    for cell, c in cells.items():
        assert c["sample"] == sum(1 for q in qs if cell_of(q) == cell) >= 1
        assert c["population"] == sum(1 for q in rel.questions if cell_of(q) == cell)
    write_sheet(rel, tmp_path / "a", 60, seed=3)
    write_sheet(rel, tmp_path / "b", 60, seed=3)
    for name in ("sheet.html", "sheet.csv", "sample.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    other, _ = stratified_sample(rel, 60, seed=4)
    assert [q.id for q in other] != [q.id for q in qs]


def _keys_for_a() -> list[str]:
    keys: list[str] = []
    for g in GOLD_A:
        keys += ["y", g, "y", "y", "n", "j"]  # clear, gold_correct, unique, needs_time, natural = no
    return keys


def _drive(page: Path, keys: list[str], tmp_path: Path) -> dict[str, Any]:
    script = (
        "<script>(function(){const who=document.getElementById('annotator');who.value='alice';"
        "who.dispatchEvent(new Event('input'));"
        f"for (const k of {json.dumps(keys)}) document.dispatchEvent(new KeyboardEvent('keydown',{{key:k}}));"
        "document.dispatchEvent(new KeyboardEvent('keydown',{key:'k'}));"  # back to item 9: comment on it
        "document.dispatchEvent(new KeyboardEvent('keydown',{key:'c'}));"
        "const c=document.activeElement;c.value='date looks off';c.dispatchEvent(new Event('input'));"
        "const pre=document.createElement('pre');pre.id='test-out';"
        "pre.textContent=JSON.stringify(window.chronoqaJudgments());document.body.appendChild(pre);})();</script>"
    )
    test_page = tmp_path / "driven.html"
    test_page.write_text(page.read_text(encoding="utf-8").replace("</body>", script + "</body>"), encoding="utf-8")
    res = subprocess.run(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--dump-dom",
            test_page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    m = re.search(r'<pre id="test-out">(.*?)</pre>', res.stdout, re.S)
    assert m, f"the page did not run: {res.stderr[-1500:]}"
    return json.loads(html.unescape(m.group(1)))


def test_round_trip_through_headless_chromium(table_release: Path, tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("/usr/bin/chromium is missing in CI (.ci/run installs Debian chromium)")
        pytest.skip("/usr/bin/chromium is absent: install Debian's chromium to run the annotation-page test")
    rel = load_release(table_release)
    write_sheet(rel, tmp_path / "sheet", 10, seed=0)
    meta = json.loads((tmp_path / "sheet" / "sample.json").read_text(encoding="utf-8"))
    a = _drive(tmp_path / "sheet" / "sheet.html", _keys_for_a(), tmp_path)
    assert a["format"] == JUDGMENTS_FORMAT and a["annotator"] == "alice"
    assert [r["id"] for r in a["judgments"]] == meta["ids"]
    assert [r["gold_correct"][0] for r in a["judgments"]] == list(GOLD_A)
    assert all(r["clear"] == "yes" and r["natural"] == "no" for r in a["judgments"])
    assert [r["comment"] for r in a["judgments"]] == [""] * 8 + ["date looks off", ""]
    b = {
        "format": JUDGMENTS_FORMAT,
        "annotator": "bob",
        "judgments": [
            {"id": qid, "clear": "yes", "gold_correct": {"y": "yes", "n": "no"}[g], "unique": "yes",
             "needs_time": "yes", "natural": "unsure" if i == 0 else "no", "comment": ""}
            for i, (qid, g) in enumerate(zip(meta["ids"], GOLD_B, strict=True))
        ],
    }  # fmt: skip
    (tmp_path / "alice.json").write_text(json.dumps(a), encoding="utf-8")
    (tmp_path / "bob.json").write_text(json.dumps(b), encoding="utf-8")
    out = tmp_path / "validation"
    res = chronoqa_cli(
        "validate", "import", str(table_release), str(tmp_path / "alice.json"), str(tmp_path / "bob.json"),
        "--out", str(out), "--bootstrap", "200",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    agree = json.loads((out / "agreement.json").read_text(encoding="utf-8"))["judgments"]
    assert agree["gold_correct"]["measure"] == "cohen_kappa"
    assert agree["gold_correct"]["value"] == pytest.approx(0.4)  # hand computation: po 0.7, pe 0.5
    assert agree["gold_correct"]["observed_agreement"] == pytest.approx(0.7)
    assert agree["clear"]["value"] is None and agree["clear"]["observed_agreement"] == 1.0  # all yes: undefined
    assert agree["natural"]["n_items"] == 9  # bob was unsure on the first item
    low = [json.loads(line) for line in (out / "low_confidence.jsonl").read_text(encoding="utf-8").splitlines()]
    flagged = {r["id"] for r in low if r["status"] == "flagged"}
    want = {qid for qid, x, y in zip(meta["ids"], GOLD_A, GOLD_B, strict=True) if x != y}
    assert flagged == want and all(r["disputed"] == ["gold_correct"] for r in low if r["id"] in want)
    rates = json.loads((out / "error_rates.json").read_text(encoding="utf-8"))
    # consensus on gold_correct: 4 yes + 3 no decided, 3 disputed: error rate 3/7
    g = rates["all"]["gold_correct"]
    assert (g["errors"], g["n"], g["disputed"]) == (3, 7, 3)
    assert rates["all"]["natural"]["errors"] == 10 and rates["all"]["natural"]["rate"] == 1.0
    assert sum(c["gold_correct"]["n"] + c["gold_correct"]["disputed"] for c in rates["by_cell"].values()) == 10
    assert "Human validation" in (out / "VALIDATION.md").read_text(encoding="utf-8")


def test_bad_judgment_value_is_one_line(table_release: Path, tmp_path: Path) -> None:
    rel = load_release(table_release)
    qid = rel.questions[0].id
    bad = tmp_path / "bad.json"
    row = {"id": qid, **{j.name: "yes" for j in JUDGMENTS}, "gold_correct": "maybe"}
    bad.write_text(json.dumps({"format": JUDGMENTS_FORMAT, "annotator": "x", "judgments": [row]}), encoding="utf-8")
    res = chronoqa_cli("validate", "import", str(table_release), str(bad), "--out", str(tmp_path / "v"))
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert f"{bad}:1: field 'gold_correct' = 'maybe'" in res.stderr and "yes, no, unsure" in res.stderr


def test_sample_cli_writes_the_sheet(table_release: Path, tmp_path: Path) -> None:
    res = chronoqa_cli("validate", "sample", str(table_release), "--n", "30", "--out", str(tmp_path / "s"))
    assert res.returncode == 0, res.stderr
    page = (tmp_path / "s" / "sheet.html").read_text(encoding="utf-8")
    assert "<script" in page and "http" not in page.split("<script")[0]  # no external resources
    lines = (tmp_path / "s" / "sheet.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("id,cell,question,t_query,gold,S_star,clear,gold_correct")
    assert len(lines) >= 31


def test_validation_travels_with_the_exports(table_release: Path, tmp_path: Path) -> None:
    rel = load_release(table_release)
    ids = [q.id for q in rel.questions[:4]]
    rows = [{"id": qid, **{j.name: "yes" for j in JUDGMENTS}, "comment": ""} for qid in ids]
    rows[0]["gold_correct"] = "no"
    sheet = tmp_path / "one.json"
    sheet.write_text(json.dumps({"format": JUDGMENTS_FORMAT, "annotator": "x", "judgments": rows}), encoding="utf-8")
    res = chronoqa_cli("validate", "import", str(table_release), str(sheet), "--out", str(tmp_path / "v"))
    assert res.returncode == 0, res.stderr
    low = [
        json.loads(line) for line in (tmp_path / "v" / "low_confidence.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert [r["status"] for r in low] == ["single_annotator"] * 4
    res = chronoqa_cli(
        "export", str(table_release), "--to", "all", "--out", str(tmp_path / "e"), "--validation", str(tmp_path / "v")
    )
    assert res.returncode == 0, res.stderr
    card = (tmp_path / "e" / "hf" / "README.md").read_text(encoding="utf-8")
    assert "## Human validation" in card and "1/4 = 0.25" in card  # gold_correct over all cells
    flags = (tmp_path / "v" / "low_confidence.jsonl").read_bytes()
    assert (tmp_path / "e" / "hf" / "validation" / "low_confidence.jsonl").read_bytes() == flags
    assert (tmp_path / "e" / "beir" / "low_confidence.jsonl").read_bytes() == flags
    res = chronoqa_cli(
        "export", str(table_release), "--to", "hf", "--out", str(tmp_path / "f"), "--validation", str(tmp_path)
    )
    assert res.returncode == 2 and "is not a validation folder" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize(
    ("judgments", "expected"),
    [
        ({"q": "yes"}, "field 'judgments' = 'dict': expected a list"),
        ("yes", "field 'judgments' = 'str': expected a list"),
        (["yes"], ":1: field 'judgments' = 'str': expected an object"),
    ],
)
def test_judgments_of_the_wrong_shape_are_one_line(
    table_release: Path, tmp_path: Path, judgments: Any, expected: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": JUDGMENTS_FORMAT, "annotator": "x", "judgments": judgments}), "utf-8")
    res = chronoqa_cli("validate", "import", str(table_release), str(bad), "--out", str(tmp_path / "v"))
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert str(bad) in res.stderr and expected in res.stderr
    assert not (tmp_path / "v").exists()


def test_a_question_judged_twice_in_one_sheet_is_refused(table_release: Path, tmp_path: Path) -> None:
    from chronoqa.errors import DataError
    from chronoqa.validate.importer import read_sheet

    qid = load_release(table_release).questions[0].id
    rows = [{"id": qid, **{j.name: "yes" for j in JUDGMENTS}}, {"id": qid, **{j.name: "no" for j in JUDGMENTS}}]
    twice = tmp_path / "twice.json"
    twice.write_text(json.dumps({"format": JUDGMENTS_FORMAT, "annotator": "x", "judgments": rows}), "utf-8")
    with pytest.raises(DataError, match=r":2: field 'id' .*judged once per sheet \(also judged at item 1\)"):
        read_sheet(twice, {qid})
    named = tmp_path / "named.json"
    named.write_text(json.dumps({"format": JUDGMENTS_FORMAT, "annotator": ["x"], "judgments": []}), "utf-8")
    with pytest.raises(DataError, match="field 'annotator'"):
        read_sheet(named, {qid})


def test_a_negative_bootstrap_is_refused(table_release: Path, tmp_path: Path) -> None:
    sheet = tmp_path / "a.json"
    sheet.write_text(json.dumps({"format": JUDGMENTS_FORMAT, "annotator": "x", "judgments": []}), "utf-8")
    res = chronoqa_cli(
        "validate", "import", str(table_release), str(sheet), "--out", str(tmp_path / "v"), "--bootstrap", "-5"
    )
    assert res.returncode == 2 and "Traceback" not in res.stderr and "--bootstrap" in res.stderr
    assert not (tmp_path / "v").exists()
