"""``chronoqa refresh``: a release rebuilt on newer data, every old question re-grounded and classified.

Three snapshot pairs, each made here in a tmp folder (never committed): a small hand-edited graph whose expected
classes follow from the edits alone; TDBench's leaders table as of two dates, its old questions' new gold worked
out by the test's own oracle (``table_oracle``: calendar units and Allen relations from scratch); Wikidata12k with
its facts after 2008 cut, checked against the raw fact files. Plus: refreshing against the same data changes
nothing, and evaluate scores old answers under both golds.
"""

from __future__ import annotations

import csv
import html
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from chronoqa.artifacts.answers import AnswerRecord, write_answers
from chronoqa.artifacts.changes import CHANGES_FILE, ChangeRecord, read_changes
from chronoqa.artifacts.metrics import EvaluationMetrics
from chronoqa.artifacts.release import load_release
from chronoqa.generate.refresh import refresh
from chronoqa.generate.refresh.keys import next_version, question_key
from chronoqa.records import Question
from cli_in_process import cli
from table_oracle import oracle_gold

PHRASES = Path(__file__).parent / "fixtures" / "tdbench_phrases.json"
DATA_FILES = ("benchmark.jsonl", "corpus.jsonl", "qrels", "functional_negatives.jsonl", "implausible_facts.jsonl")
HEADER = "subject\trelation\tobject\tstart\tend\ts_label\tr_label\to_label\n"
# A small graph; the "new" snapshot edits three facts (worked by hand below)
HAND = [
    ("Ann", "playsFor", "Reds", "2000", "2004"),
    ("Ann", "playsFor", "Blues", "2005", "2008"),
    ("Ann", "isMarriedTo", "Bob", "2001", ""),
    ("Bob", "worksAt", "Uni", "1999", "2003"),
    ("Ann", "hasWonPrize", "Prize", "2003", ""),
    ("Cid", "hasWonPrize", "Prize", "2003", ""),
    ("Ann", "hasWonPrize", "Medal", "1998", ""),
    ("Dan", "playsFor", "Reds", "1990", "1995"),
    ("Eve", "playsFor", "Reds", "2010", ""),
    ("Ann", "wasBornIn", "Town", "1975", ""),
    ("Gus", "playsFor", "Greens", "1996", "2002"),
    ("Gus", "playsFor", "Reds", "2003", "2007"),
    ("Hal", "worksAt", "Uni", "2004", "2009"),
    ("Hal", "worksAt", "Lab", "2010", "2015"),
]
REDATED = ("<Gus>", "<playsFor>", "<Reds>", "2003", "2007")  # now 2003..2005
REMOVED = ("<Hal>", "<worksAt>", "<Lab>", "2010", "2015")
ADDED = ("Bob", "worksAt", "Lab", "2000", "2002")  # a second workplace of Bob's in 2000-2002


def run_cli(args: list[str]) -> tuple[int, str, str]:
    """``chronoqa ARGS`` in this process: exit status, output, output (stdout and stderr together)."""
    r = cli(*args)
    return r.exit_code, r.output, r.output


def write_facts(path: Path, facts: list[tuple[str, str, str, str, str]]) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        fh.write(HEADER)
        for s, r, o, a, b in facts:
            fh.write(f"<{s}>\t<{r}>\t<{o}>\t{a}\t{b}\t{s}\t{r}\t{o}\n")
    return path


def hand_new() -> list[tuple[str, str, str, str, str]]:
    out = []
    for f in HAND:
        key = tuple(f"<{x}>" for x in f[:3]) + f[3:]
        if key == REMOVED:
            continue
        out.append((*f[:3], "2003", "2005") if key == REDATED else f)
    return [*out, ADDED]


def build_kg(facts: Path, out: Path, seed: int = 3) -> Path:
    args = ["build", "kg", "--input", str(facts), "--phrases", "yago11k", "--n-questions", "400"]
    code, _, err = run_cli([*args, "--seed", str(seed), "--open-end", "ongoing", "--out", str(out)])
    assert code == 0, err
    return out


def star_keys(q: Question) -> set[tuple[str, str, str, str | None, str | None]]:
    return {(t.s_id, t.r_id, t.o_id, t.t_start, t.t_end) for t in q.S_star}


def changes_by_id(folder: Path) -> dict[str, ChangeRecord]:
    return {c.id: c for c in read_changes(folder / CHANGES_FILE)}


def assert_same_release(old: Path, new: Path) -> None:
    """The data files byte for byte; the manifest but for the refresh's own keys; the card extended, not changed."""
    for name in DATA_FILES:
        if (old / name).exists():
            assert (old / name).read_bytes() == (new / name).read_bytes(), name
    m_old, m_new = (json.loads((p / "manifest.json").read_text()) for p in (old, new))
    for key in ("refresh", "release_version", "as_of_source"):  # as_of_source: the old as_of is now given
        m_old.pop(key, None)
        m_new.pop(key, None)
    assert m_old == m_new
    assert (new / "DATACARD.md").read_text().startswith((old / "DATACARD.md").read_text().rstrip("\n"))


# -- the same data: nothing changes ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 3, 11])
def test_refresh_on_the_same_graph_changes_nothing(tmp_path: Path, seed: int) -> None:
    facts = write_facts(tmp_path / "hand.tsv", list(HAND))
    old = build_kg(facts, tmp_path / "old", seed)
    r = refresh(old, facts, tmp_path / "new")
    assert r.counts == {"unchanged": len(load_release(old).questions), "gold_changed": 0, "retired": 0, "new": 0}
    assert r.version == r.old_version == "1.0.0"
    assert_same_release(old, tmp_path / "new")
    assert {c.change for c in read_changes(tmp_path / "new" / CHANGES_FILE)} == {"unchanged"}


def test_refresh_on_the_same_table_changes_nothing(tmp_path: Path, leaders: dict[str, Path]) -> None:
    r = refresh(leaders["old"], leaders["d1"], tmp_path / "new", phrases=PHRASES)
    assert r.counts["unchanged"] == len(load_release(leaders["old"]).questions) and r.version == "1.0.0"
    assert_same_release(leaders["old"], tmp_path / "new")


def test_table_manifest_records_its_phrase_file_and_a_rebuild_uses_it(tmp_path: Path, leaders: dict[str, Path]) -> None:
    """Without --phrases, refresh and twin read the phrase file the manifest records, checked by its sha256."""
    import hashlib
    import shutil

    from chronoqa.generate.twin import make_twin

    manifest = json.loads((leaders["old"] / "manifest.json").read_text())
    assert manifest["phrases"] == {"file": str(PHRASES), "sha256": hashlib.sha256(PHRASES.read_bytes()).hexdigest()}
    refresh(leaders["old"], leaders["d1"], tmp_path / "same")  # no --phrases: the recorded file
    assert_same_release(leaders["old"], tmp_path / "same")
    # the twin keeps the phrase file it was built with (the release's, transformed) and records it
    make_twin(leaders["old"], "rename_entities", tmp_path / "twin", seed=5)
    given = make_twin(leaders["old"], "rename_entities", tmp_path / "twin-given", seed=5, phrases=PHRASES)
    assert given["questions"] > 0
    for name in DATA_FILES:
        if (tmp_path / "twin" / name).exists():
            assert (tmp_path / "twin" / name).read_bytes() == (tmp_path / "twin-given" / name).read_bytes(), name
    twin_manifest = json.loads((tmp_path / "twin" / "manifest.json").read_text())
    kept = tmp_path / "twin" / "twin_phrases.json"
    assert twin_manifest["phrases"] == {
        "file": "twin_phrases.json",
        "sha256": hashlib.sha256(kept.read_bytes()).hexdigest(),
    }
    table = tmp_path / "twin-data" / "dyknow_leaders.csv"  # the twin's table, under its table's name
    table.parent.mkdir()
    shutil.copy(tmp_path / "twin" / "twin_table.csv", table)
    r = refresh(tmp_path / "twin", table, tmp_path / "twin-again")
    assert r.counts["unchanged"] == len(load_release(tmp_path / "twin").questions)
    # a release whose recorded phrase file changed since the build: one line naming it, exit 2
    moved = tmp_path / "moved"
    shutil.copytree(leaders["old"], moved)
    edited = tmp_path / "phrases.json"
    edited.write_text(PHRASES.read_text() + "\n")
    (moved / "manifest.json").write_text(
        json.dumps({**manifest, "phrases": {**manifest["phrases"], "file": str(edited)}})
    )
    code, _, err = run_cli(["refresh", str(moved), "--input", str(leaders["d1"]), "--out", str(tmp_path / "x")])
    assert code == 2 and "is not the file the build read" in err and str(edited) in err and "--phrases" in err


# -- the hand-edited graph ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hand(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("hand")
    old = build_kg(write_facts(d / "old.tsv", list(HAND)), d / "old")
    new_facts = write_facts(d / "new.tsv", hand_new())
    code, _, err = run_cli(["refresh", str(old), "--input", str(new_facts), "--out", str(d / "new")])
    assert code == 0, err
    return {"old": old, "new": d / "new"}


def expected_hand(q: Question) -> set[str]:
    """The classes the three edits allow for an old question, from its S* facts alone."""
    keys = star_keys(q)
    if REMOVED in keys:
        return {"retired"}
    if REDATED in keys:  # a time or duration answer too: drawn again from the new dates (expected_dated)
        return {"gold_changed", "retired"}
    t = q.t_query_point
    bob_hop = any(k[0] == "<Bob>" and k[1] == "<worksAt>" for k in keys) and q.logical_form.get("anchor") == "<Bob>"
    if bob_hop and q.answer_type == "entity" and t is not None and 2000 <= t.year <= 2002:
        return {"retired"}
    return {"unchanged"}


def test_hand_edits_give_the_expected_classes(hand: dict[str, Path]) -> None:
    changes = changes_by_id(hand["new"])
    old = load_release(hand["old"]).questions
    for q in old:
        c = changes[q.id]
        assert c.change in expected_hand(q), (q.question, c.change, c.reason)
        if c.change == "gold_changed":  # the re-dated fact, its answers kept unless they are its dates
            assert c.facts_redated == ("Gus | playsFor | Reds | 2003..2007 -> 2003..2005",)
            assert c.old_answers == c.new_answers or q.answer_type in ("time", "duration")
    assert any(c.change == "retired" for c in changes.values())
    new = load_release(hand["new"])
    kept = {q.id for q in old if changes[q.id].change in ("unchanged", "gold_changed")}
    assert kept <= {q.id for q in new.questions}  # old ids kept
    assert not {q.id for q in old if changes[q.id].change == "retired"} & {q.id for q in new.questions}
    assert {c.id for c in changes.values() if c.change == "new"} == {q.id for q in new.questions} - kept
    assert new.manifest["release_version"] == "2.0.0"
    text = (hand["new"] / "CHANGES.md").read_text()
    assert all(f"`{c.id}`" in text for c in changes.values() if c.change == "retired")


def expected_dated(q: Question, facts: list[tuple[str, str, str, str, str]]) -> tuple[str, ...] | None:
    """A time or duration question's gold on ``facts``, worked from the facts list alone (``None``: retired).

    Its answer fact is its chain's final S* fact; it must be the one spell of its (s, r, o). A time answer is the
    asked year (start or end); a duration the closed spell's length in years, at least one.
    """
    last = q.S_star[-1]
    spells = [f for f in facts if tuple(f"<{x}>" for x in f[:3]) == (last.s_id, last.r_id, last.o_id)]
    if len(spells) != 1:
        return None
    start, end = spells[0][3], spells[0][4]
    if q.answer_type == "duration":
        return (f"{int(end) - int(start)} years",) if end and int(end) - int(start) >= 1 else None
    (which,) = {r["which"] for r in q.time_refs}
    year = end if which == "end" else start
    return (year,) if year else None


def dated_changes(old: Path, new: Path, facts: list[tuple[str, str, str, str, str]]) -> list[tuple[str, str]]:
    """(question, what went wrong) for each old time or duration question the refresh re-grounded otherwise."""
    changes = changes_by_id(new)
    wrong = []
    for q in load_release(old).questions:
        if q.answer_type not in ("time", "duration") or q.operator not in ("interval", "duration"):
            continue
        c, want = changes[q.id], expected_dated(q, facts)
        if want is None and c.change != "retired":
            wrong.append((q.question, f"{c.change} {c.new_answers}, expected retired"))
        if want is not None and (c.change == "retired" or c.new_answers != want):
            wrong.append((q.question, f"{c.change} {c.new_answers} ({c.reason}), expected {want}"))
        if want is not None and c.change != ("unchanged" if star_keys(q) <= star_keys_of(facts) else "gold_changed"):
            wrong.append(
                (q.question, f"{c.change}: its facts {'did not change' if c.change != 'unchanged' else 'did'}")
            )
    return wrong


def star_keys_of(facts: list[tuple[str, str, str, str, str]]) -> set[tuple[str, str, str, str | None, str | None]]:
    return {(f"<{s}>", f"<{r}>", f"<{o}>", a or None, b or None) for s, r, o, a, b in facts}


def test_redated_time_and_duration_answers_are_regrounded(hand: dict[str, Path]) -> None:
    """Gus left Reds in 2007, now 2005: "When did Gus leave Reds?" is 2005 and the spell 2 years, not retired."""
    assert dated_changes(hand["old"], hand["new"], hand_new()) == []
    changes = changes_by_id(hand["new"])
    regrounded = [c for c in changes.values() if c.change == "gold_changed" and c.new_answers != c.old_answers]
    assert {(c.old_answers, c.new_answers) for c in regrounded} == {
        (("2007",), ("2005",)),
        (("4 years",), ("2 years",)),
    }
    new = {q.id: q for q in load_release(hand["new"]).questions}
    for c in regrounded:  # the question's record follows its new answer: t_query, time references, logical form
        q = new[c.id]
        assert q.answers == c.new_answers and q.logical_form["t_query"] == q.t_query
        assert {r["value"] for r in q.time_refs} <= {"2003", "2005"}


# A second snapshot of the same graph: a spell added to a fact an interval question asks about (no longer unique),
# and an end no longer known (the year it asks for is gone; the spell is no longer closed).
SPELL = ("Dan", "playsFor", "Reds", "2012", "2014")
OPENED = ("Ann", "playsFor", "Blues", "2005", "2008")


def test_an_added_spell_or_a_lost_end_retires_the_dated_questions(tmp_path: Path) -> None:
    old = build_kg(write_facts(tmp_path / "old.tsv", list(HAND)), tmp_path / "old")
    facts = [(*f[:4], "") if f == OPENED else f for f in HAND] + [SPELL]
    new_facts = write_facts(tmp_path / "new.tsv", facts)
    code, _, err = run_cli(["refresh", str(old), "--input", str(new_facts), "--out", str(tmp_path / "new")])
    assert code == 0, err
    assert dated_changes(old, tmp_path / "new", facts) == []
    changes = changes_by_id(tmp_path / "new")
    qs = {q.id: q for q in load_release(old).questions if q.answer_type in ("time", "duration")}
    on = {f: [i for i, q in qs.items() if q.S_star[-1].s == f[0] and q.S_star[-1].o == f[2]] for f in (SPELL, OPENED)}
    assert on[SPELL] and on[OPENED]  # the draw asks about both facts
    assert all("no longer unique" in changes[i].reason for i in on[SPELL])
    asks_end = [i for i in on[OPENED] if any(r["which"] == "end" for r in qs[i].time_refs)]
    assert asks_end and all(changes[i].change == "retired" for i in asks_end)


def test_a_retired_question_lists_only_what_the_newer_data_did_to_its_facts(tmp_path: Path) -> None:
    """A question retired as no longer unique keeps its facts in the newer data: none is listed as removed."""
    old = build_kg(write_facts(tmp_path / "old.tsv", list(HAND)), tmp_path / "old")
    facts = [(*f[:4], "") if f == OPENED else f for f in HAND] + [SPELL]  # one spell added, one end lost
    new_facts = write_facts(tmp_path / "new.tsv", facts)
    code, _, err = run_cli(["refresh", str(old), "--input", str(new_facts), "--out", str(tmp_path / "new")])
    assert code == 0, err
    held = {tuple(f"<{x}>" for x in f[:3]) + tuple(x or None for x in f[3:]) for f in facts}
    retired = [c for c in changes_by_id(tmp_path / "new").values() if c.change == "retired"]
    by_id = {q.id: q for q in load_release(old).questions}
    assert retired
    for c in retired:
        kept = [t for t in by_id[c.id].S_star if (t.s_id, t.r_id, t.o_id, t.t_start, t.t_end) in held]
        assert not any(f"{t.s} | {t.r} | {t.o} | {t.t_start or '?'}..{t.t_end or ''}" in c.facts_removed for t in kept)
    lost_end = [c for c in retired if any(t.s == "Ann" and t.o == "Blues" for t in by_id[c.id].S_star)]
    assert lost_end and all(c.facts_redated == ("Ann | playsFor | Blues | 2005..2008 -> 2005..",) for c in lost_end)


def test_matched_questions_keep_ids_and_negatives_point_into_the_new_corpus(hand: dict[str, Path]) -> None:
    new = load_release(hand["new"])
    docs = {d.doc_id: d for d in new.corpus}
    for q in new.questions:
        for t in (*q.S_star, *q.S_dist, *q.S_stale, *q.S_anchor):
            d = docs[t.doc_id]
            assert (d.s_id, d.r_id, d.o_id, d.t_start, d.t_end) == (t.s_id, t.r_id, t.o_id, t.t_start, t.t_end)
    assert len({question_key(q) for q in new.questions}) == len(new.questions)


def test_version_follows_the_change() -> None:
    assert next_version("1.0.0", {"unchanged": 5}) == "1.0.0"
    assert next_version("1.0.0", {"new": 2}) == "1.1.0"
    assert next_version("1.3.0", {"new": 2, "retired": 1}) == "2.0.0"
    assert next_version("2.1.0", {"gold_changed": 1}) == "3.0.0"


# -- the leaders table as of two dates ---------------------------------------------------------------------------


def snapshot(src: Path, day: str, out: Path) -> Path:
    """The table as it stood on ``day``: rows begun by then; an end after it not yet known (open)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with src.open(newline="", encoding="utf-8") as fh, out.open("w", newline="", encoding="utf-8") as dst:
        rows = list(csv.reader(fh))
        w = csv.writer(dst)
        w.writerow(rows[0])
        for r in rows[1:]:
            if r[3] and r[3] <= day:
                w.writerow([*r[:4], "" if not r[4] or r[4] > day else r[4]])
    return out


@pytest.fixture(scope="module")
def leaders(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("leaders")
    src = mirror / "tdbench" / "dyknow_leaders.csv"
    d1 = snapshot(src, "2012-01-01", d / "d1" / "dyknow_leaders.csv")
    d2 = snapshot(src, "2019-01-01", d / "d2" / "dyknow_leaders.csv")
    code, _, err = run_cli(["build", "table", str(d1), "--phrases", str(PHRASES), "--out", str(d / "old")])
    assert code == 0, err
    args = ["refresh", str(d / "old"), "--input", str(d2), "--phrases", str(PHRASES), "--as-of", "2019-01-01"]
    code, _, err = run_cli([*args, "--out", str(d / "new")])
    assert code == 0, err
    return {"old": d / "old", "new": d / "new", "d1": d1, "d2": d2}


def test_leaders_old_questions_regrounded_as_the_oracle_says(leaders: dict[str, Path]) -> None:
    with leaders["d2"].open(newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))[1:]
    changes = changes_by_id(leaders["new"])
    new = {q.id: q for q in load_release(leaders["new"]).questions}
    checked = 0
    for q in load_release(leaders["old"]).questions:
        want = oracle_gold(q, rows, "2019-01-01")
        answers = tuple(sorted({name for name, _, _ in want}))
        c = changes[q.id]
        if (len(answers) > 1) != (len(q.answers) > 1):
            assert c.change == "retired", (q.question, answers, c)
            continue
        got = new[q.id]
        assert got.answers == answers, q.question
        assert {(t.o, t.t_start, t.t_end) for t in got.S_star} == want, q.question
        old_star = {(t.o, t.t_start, t.t_end) for t in q.S_star}
        assert c.change == ("unchanged" if answers == q.answers and want == old_star else "gold_changed")
        checked += 1
    assert checked > 150
    counts = load_release(leaders["new"]).manifest["refresh"]["changes"]
    assert counts["gold_changed"] > 0 and counts["new"] > 0


def test_only_drift_adds_questions_sampling_does_not(leaders: dict[str, Path]) -> None:
    # a new question must rest on a row the 2012 snapshot did not hold (a term that began, or got its end, later);
    # the new build's other draws are resampling of unchanged rows: left out and counted, never added
    old, new = load_release(leaders["old"]), load_release(leaders["new"])
    old_facts = {(d.s, d.r, d.o, d.t_start, d.t_end) for d in old.corpus}
    changes = changes_by_id(leaders["new"])
    added = [q for q in new.questions if changes[q.id].change == "new"]
    assert added
    for q in added:
        assert any((t.s, t.r, t.o, t.t_start, t.t_end) not in old_facts for t in q.S_star), q.question
    refresh_section = new.manifest["refresh"]
    assert refresh_section["sampled_left_out"] > 0
    assert len(new.questions) == len(old.questions) - refresh_section["changes"]["retired"] + len(added)


def test_evaluate_scores_old_answers_under_both_golds(tmp_path: Path, leaders: dict[str, Path]) -> None:
    # a corrected cell: one leader renamed in the newer data; answers made for the old release name the old label
    text = leaders["d1"].read_text(encoding="utf-8").replace("Nicolas Sarkozy", "N. Sarkozy")
    fixed = tmp_path / "d1x" / "dyknow_leaders.csv"
    fixed.parent.mkdir()
    fixed.write_text(text, encoding="utf-8")
    refresh(leaders["old"], fixed, tmp_path / "new", phrases=PHRASES)
    old = [q for q in load_release(leaders["old"]).questions if q.cardinality == "unique"]  # one name each
    write_answers(tmp_path / "ans", [AnswerRecord(q.id, "gold", "ok", q.answers[0]) for q in old], {})
    code, out, err = run_cli(
        ["evaluate", "--bench", str(tmp_path / "new"), "--answers", str(tmp_path / "ans"), "--bootstrap", "20",
         "--out", str(tmp_path / "m.json")]
    )  # fmt: skip
    assert code == 0, err
    block = json.loads((tmp_path / "m.json").read_text())["two_gold"]
    renamed = {q.id for q in old if q.answers == ("Nicolas Sarkozy",)}
    n = block["n_questions"]
    assert renamed and block["drift"]["retired"] == 0 and n == len(load_release(leaders["old"]).questions)
    assert block["old_gold"]["A"]["value"] == pytest.approx(len(old) / n)
    assert block["new_gold"]["A"]["value"] == pytest.approx((len(old) - len(renamed)) / n)
    assert "old gold" in out and "new gold" in out
    typed = EvaluationMetrics.from_dict(json.loads((tmp_path / "m.json").read_text()), "m.json").two_gold
    assert typed is not None and typed.retired_answers_dropped == 0 and typed.answered == len(old)


# -- Wikidata12k with its last years cut -------------------------------------------------------------------------


def raw_facts(folder: Path) -> Iterator[tuple[str, str, str, str, str]]:
    ents = dict(line.rstrip("\n").split("\t") for line in (folder / "entities.dict").open(encoding="utf-8"))
    rels = dict(line.rstrip("\n").split("\t") for line in (folder / "relations.dict").open(encoding="utf-8"))
    for line in (folder / "temporal").open(encoding="utf-8"):
        s, r, o, a, b = line.rstrip("\n").split("\t")
        yield ents[s], rels[r], ents[o], a, b


@pytest.fixture(scope="module")
def wikidata(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from chronoqa.datasets import get_spec
    from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
    from chronoqa.generate.kg.order import canonical_graph

    d = tmp_path_factory.mktemp("wd")
    full = mirror / "wikidata12k"
    cut = d / "cut"
    cut.mkdir()
    for name in ("entities.dict", "relations.dict", "entity2name.txt"):
        (cut / name).write_bytes((full / name).read_bytes())
    with (cut / "temporal").open("w", encoding="utf-8") as fh:  # facts after 2008 removed, later ends not yet known
        for line in (full / "temporal").open(encoding="utf-8"):
            s, r, o, a, b = line.rstrip("\n").split("\t")
            if a != "None" and int(a) > 2008:
                continue
            fh.write("\t".join([s, r, o, a, "None" if b != "None" and int(b) > 2008 else b]) + "\n")
    graph = get_spec("wikidata12k").loader(cut, on_bad_row="skip")
    cfg = KGBuildConfig(n_questions=300, seed=0)
    build_kg_benchmark(canonical_graph(graph, 0), cfg, sources={"dataset": "wikidata12k"}).write(d / "old")
    refresh(d / "old", full, d / "new")
    return {"old": d / "old", "new": d / "new", "cut": cut, "full": full}


def test_wikidata12k_cut_changes_only_questions_whose_facts_changed(wikidata: dict[str, Path]) -> None:
    before = {f[:3]: f[3:] for f in raw_facts(wikidata["cut"])}
    after: dict[tuple[str, str, str], set[tuple[str, str]]] = {}
    for f in raw_facts(wikidata["full"]):
        after.setdefault(f[:3], set()).add(f[3:])

    def same(t: tuple[str, str, str]) -> bool:  # the fact has the one dating in both snapshots
        return after.get(t) == {before[t]}

    changes = changes_by_id(wikidata["new"])
    old = load_release(wikidata["old"]).questions
    new = {q.id: q for q in load_release(wikidata["new"]).questions}
    for q in old:
        c = changes[q.id]
        untouched = all(same((t.s_id, t.r_id, t.o_id)) for t in q.S_star)
        if c.change == "gold_changed":
            assert not untouched and c.facts_redated, q.question
        if c.change == "retired" and untouched:
            assert c.reason.startswith("no longer unique"), (q.question, c.reason)
        if c.change == "unchanged":  # the same facts, dated as before, in the new release's record
            assert star_keys(new[q.id]) == star_keys(q) and new[q.id].answers == q.answers
            assert all(after.get((t.s_id, t.r_id, t.o_id)) for t in q.S_star)
        if c.change == "retired":
            assert q.id not in new
    counts = load_release(wikidata["new"]).manifest["refresh"]["changes"]
    assert counts["unchanged"] > len(old) // 2 and counts["gold_changed"] + counts["retired"] > 0
    assert load_release(wikidata["new"]).manifest["release_version"] == "2.0.0"


# -- bad input -----------------------------------------------------------------------------------------------------


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, hand: dict[str, Path]) -> None:
    for args, needle in (
        (["refresh", str(hand["old"]), "--input", str(tmp_path / "none.tsv"), "--out", str(tmp_path / "x")],
         "no such file or folder"),
        (["refresh", str(tmp_path), "--input", str(hand["old"]), "--out", str(tmp_path / "x")], "not a benchmark"),
        (["refresh", str(hand["old"]), "--input", str(hand["old"]), "--out", str(hand["old"])], "is the old release"),
    ):  # fmt: skip
        code, _, err = run_cli(args)
        assert code == 2 and needle in err and "Traceback" not in err, err
        assert len(err.strip().splitlines()) == 1, err


def test_answers_to_retired_questions_are_dropped_and_counted(hand: dict[str, Path], tmp_path: Path) -> None:
    old = load_release(hand["old"]).questions
    retired = {c.id for c in read_changes(hand["new"] / CHANGES_FILE) if c.change == "retired"}
    write_answers(tmp_path / "ans", [AnswerRecord(q.id, "gold", "ok", "x") for q in old], {})
    code, out, err = run_cli(
        ["evaluate", "--bench", str(hand["new"]), "--answers", str(tmp_path / "ans"), "--bootstrap", "0",
         "--out", str(tmp_path / "m.json")]
    )  # fmt: skip
    assert code == 0, err
    typed = EvaluationMetrics.from_dict(json.loads((tmp_path / "m.json").read_text()), "m.json").two_gold
    assert retired and typed is not None and typed.retired_answers_dropped == len(retired)
    assert typed.drift.retired == len(retired) and typed.answered == len(old) - len(retired)
    assert f"{len(retired)} answers are to questions the refresh retired" in out + err


def test_report_shows_the_drift_of_a_refreshed_release(hand: dict[str, Path]) -> None:
    from chronoqa.artifacts.metrics import MetricsFolder
    from chronoqa.report import build_summary
    from chronoqa.report.render import render_html, render_markdown

    counts = {k: 0 for k in ("unchanged", "gold_changed", "retired", "new")}
    for c in read_changes(hand["new"] / CHANGES_FILE):
        counts[c.change] += 1
    summary = build_summary(hand["new"], MetricsFolder())
    assert summary.to_dict()["composition"]["drift"] == {"from": "1.0.0", "to": "2.0.0", "changes": counts}
    line = f"Refreshed release 1.0.0 -> 2.0.0: unchanged {counts['unchanged']}, gold_changed {counts['gold_changed']}"
    assert line in render_markdown(summary) and html.escape(line, quote=False) in render_html(summary)
    assert build_summary(hand["old"], MetricsFolder()).composition.drift is None


def test_refresh_is_deterministic(tmp_path: Path, hand: dict[str, Path]) -> None:
    refresh(hand["old"], hand["new"].parent / "new.tsv", tmp_path / "again")
    names = sorted(p.name for p in hand["new"].iterdir() if not p.name.startswith("."))
    assert names == sorted(p.name for p in (tmp_path / "again").iterdir() if not p.name.startswith("."))
    for name in names:
        assert (hand["new"] / name).read_bytes() == (tmp_path / "again" / name).read_bytes(), name


# -- a newer copy of a registered TDBench table keeps the declarations the old build applied ----------------------


def edit_name(src: Path, old: str, new: str, out: Path) -> Path:
    """``src`` with the name ``old`` replaced by ``new`` in every cell that holds it exactly."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with src.open(newline="", encoding="utf-8") as fh, out.open("w", newline="", encoding="utf-8") as dst:
        csv.writer(dst).writerows([new if c == old else c for c in r] for r in csv.reader(fh))
    return out


def in_gold(q: Question, name: str) -> bool:
    """Whether ``name`` is in the question's text, answers or gold facts (what a refresh compares)."""
    facts = [*q.S_star, *q.S_anchor]
    return name in q.question or name in q.answers or any(name in (f.s, f.o) for f in facts)


@pytest.fixture(scope="module")
def registered(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The release of the registered TDBench leaders file (recognised: its declarations apply)."""
    out = tmp_path_factory.mktemp("registered") / "old"
    code, _, err = run_cli(["build", "table", str(mirror / "tdbench" / "dyknow_leaders.csv"), "--out", str(out)])
    assert code == 0, err
    return out


# a name in no question; a distractor only; the one answer of one question
@pytest.mark.parametrize("name", ["Oscar Luigi Scalfaro", "Yizhak Rabin", "Michel Temer"])
def test_one_edited_name_in_a_tdbench_table_changes_only_the_questions_that_name_it(
    tmp_path: Path, mirror: Path, registered: Path, name: str
) -> None:
    newer = edit_name(mirror / "tdbench" / "dyknow_leaders.csv", name, name + " Jr", tmp_path / "dyknow_leaders.csv")
    r = refresh(registered, newer, tmp_path / "new")
    naming = {q.id for q in load_release(registered).questions if in_gold(q, name)}
    changes = changes_by_id(tmp_path / "new")
    assert {i for i, c in changes.items() if c.change != "unchanged"} == naming
    assert r.counts["retired"] == r.counts["new"] == 0 and r.counts["gold_changed"] == len(naming)
    m_old, m_new = (json.loads((p / "manifest.json").read_text()) for p in (registered, tmp_path / "new"))
    assert m_new["config"]["complete"] == m_old["config"]["complete"] == ["dyknow_leaders"]
    assert m_new["sources"]["dyknow_leaders"]["declarations"] == "tdbench-leaders"
    # refreshed again from the refreshed release: the declarations it recorded still apply
    r2 = refresh(tmp_path / "new", newer, tmp_path / "again")
    assert r2.counts["unchanged"] == len(load_release(registered).questions)
