"""The report's memory-gap and two-gold sections, rendered from typed metrics over the football fixture.

Each number the sections print is computed again here from the hand-written golds and answers (exact matches),
not read back from the scorer.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from answer_fixtures import questions, write_fixture
from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.artifacts.changes import ChangeRecord, write_changes
from chronoqa.artifacts.metrics import MetricsFolder, MetricsRecord
from chronoqa.artifacts.release import load_release
from chronoqa.generate.twin import TWIN_FILE
from chronoqa.io import read_json, write_json, write_jsonl
from chronoqa.report import build_summary, render_html, render_markdown
from chronoqa.score.drift import two_gold
from chronoqa.score.evaluate import evaluate

TEST = ("q1", "q2", "q3", "q4")
REAL = {"q1": "Blue FC", "q2": "Red Arena", "q3": "2005", "q4": "Paris"}
TWIN = {"q1": "Red FC", "q2": "Red Arena", "q3": "2004", "q4": "Lyon"}
"""Answers to the release and to its twin (the twin keeps the fixture's questions and golds, paired by id)."""
OLD_GOLD = {"q1": ("Red FC",)}
"""The refresh changed q1's gold (it was Red FC); q2..q4 are unchanged."""


def _answers(replies: dict[str, str]) -> dict[str, AnswerRecord]:
    return {q: AnswerRecord(q, "hand", "ok", a) for q, a in replies.items()}


def _right(replies: dict[str, str], golds: dict[str, tuple[str, ...]], ids: tuple[str, ...]) -> list[int]:
    return [int(replies[q] in golds[q]) for q in ids]


def _golds() -> dict[str, tuple[str, ...]]:
    return {q.id: q.answers for q in questions()}


def _mean(xs: list[int]) -> float:
    return sum(xs) / len(xs)


def _twin(root: Path, release: Path) -> Path:
    """The release copied as its own twin: twin_of.jsonl pairs each question with itself."""
    twin = root / "twin"
    shutil.copytree(release, twin)
    manifest = read_json(twin / "manifest.json") | {"twin": {"transform": {"kind": "shift_years", "seed": 0}}}
    write_json(twin / "manifest.json", manifest)
    write_jsonl(twin / TWIN_FILE, ({"twin": q.id, "source": q.id} for q in questions()))
    return twin


def _render(release: Path, record: MetricsRecord) -> tuple[str, str]:
    """The Markdown (its escapes taken out, to read the numbers) and the HTML report of one answer file."""
    summary = build_summary(release, MetricsFolder(answers=(record,)))
    return render_markdown(summary).replace("\\", ""), render_html(summary)


def _section(md: str, title: str) -> str:
    """One ``##`` section of the Markdown report (empty when it has none)."""
    parts = md.split(f"\n## {title}", 1)
    return "" if len(parts) == 1 else parts[1].split("\n## ", 1)[0]


def test_memory_gap_section_shows_the_gap_overall_and_per_large_family(tmp_path: Path) -> None:
    release = write_fixture(tmp_path)[0]
    twin = _twin(tmp_path, release)
    res = evaluate(
        release, answers=_answers(REAL), twin=twin, twin_answers=_answers(TWIN), split="test",
        n_bootstrap=200, min_slice=2,
    )  # fmt: skip
    md, html = _render(release, MetricsRecord("hand", res.metrics, {"answerer": "hand"}))
    md = _section(md, "Memory gap")
    golds = _golds()
    real, tw = _right(REAL, golds, TEST), _right(TWIN, golds, TEST)
    gap = _mean(real) - _mean(tw)
    assert (_mean(real), _mean(tw), gap) == (0.75, 0.5, 0.25)  # the hand count: q4 wrong on the real; q1, q3 twin
    p = res.metrics.memory_gap.paired["A"].all  # type: ignore[union-attr]
    row = f"| hand | all | 4 | {_mean(real):.3f} | {_mean(tw):.3f} | {gap:+.3f} [{p.ci_low:+.3f}, {p.ci_high:+.3f}] |"
    assert row in md
    assert p.ci_low is not None and p.ci_high is not None and p.ci_low <= gap <= p.ci_high
    # the families: point_in_time (q1, q2, q4) has 3 >= min_slice questions and is shown; interval (q3) is not
    pit = [i for i, q in enumerate(TEST) if q != "q3"]
    fam = _mean([real[i] for i in pit]) - _mean([tw[i] for i in pit])
    ra, ta = _mean([real[i] for i in pit]), _mean([tw[i] for i in pit])
    assert f"|  | point_in_time | 3 | {ra:.3f} | {ta:.3f} | {fam:+.3f} [" in md
    assert "|  | interval |" not in md
    assert "1 smaller families not shown" in md and "twin twin (shift_years), 4 questions paired" in md
    for text in ("Memory gap: A(real) − A(twin)", f"<td>{gap:+.3f} [", "<td>point_in_time</td>"):
        assert text in html


def test_two_gold_section_shows_old_and_new_gold_scores(tmp_path: Path) -> None:
    release = write_fixture(tmp_path)[0]
    golds = _golds()
    changes = [
        ChangeRecord(
            q, "gold_changed" if q in OLD_GOLD else "unchanged", f"key:{q}", "cell", q,
            old_answers=OLD_GOLD.get(q, golds[q]), new_answers=golds[q],
        )
        for q in TEST
    ]  # fmt: skip
    write_changes(release / "changes.jsonl", changes)
    rel = load_release(release)
    old_answers = {"q1": "Red FC", "q2": "Red Arena", "q3": "2004", "q4": "Lyon"}  # answers made for the old release
    scored = _answers(old_answers)
    kw = {"seed": 0, "n_bootstrap": 200, "split": "test"}
    block = two_gold(rel, scored, 0, **kw)
    assert block is not None
    metrics = evaluate(rel, answers=scored, **kw).metrics.model_copy(update={"two_gold": block})
    md, html = _render(release, MetricsRecord("hand", metrics, {"answerer": "hand"}))
    md = _section(md, "Two golds")
    old = _mean(_right(old_answers, golds | OLD_GOLD, TEST))
    new = _mean(_right(old_answers, golds, TEST))
    assert (old, new) == (0.75, 0.5)  # q1 right under its old gold only, q3 wrong under both
    line = next(x for x in md.splitlines() if x.startswith("| hand | A |"))
    assert line.startswith(f"| hand | A | {old:.3f} [") and f"| {new:.3f} [" in line
    assert f"| {new - old:+.3f} | 4 |" in line
    assert "4 answers to the 4 carried questions; 0 answers to retired questions not scored" in md
    assert "Two golds: old gold vs new gold" in html and f"<td>{new - old:+.3f}</td>" in html


def test_sections_are_absent_without_a_twin_or_a_refresh(tmp_path: Path) -> None:
    release = write_fixture(tmp_path)[0]
    res = evaluate(release, answers=_answers(REAL), split="test", n_bootstrap=0)
    record = MetricsRecord("hand", res.metrics, {"answerer": "hand"})
    md, html = _render(release, record)
    assert "Memory gap" not in md and "Two golds" not in md and "Memory gap" not in html
    row = build_summary(release, MetricsFolder(answers=(record,))).answers[0].to_dict()
    assert "memory_gap" not in row and "two_gold" not in row  # other rows keep their bytes
