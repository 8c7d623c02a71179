"""Counterfactual twins (``chronoqa twin``), ``rebuild_like``, the memory gap and the knowledge-cutoff slices.

Twins of YAGO11k and Wikidata12k releases are built from the mirror and checked like their sources: the
independent checker (``kg_checker``) recomputes every gold of the twin by brute force over the twin's own
facts; shifted dates keep every Allen relation; renamed labels are never real ones; offline baselines score
the same on a release and its twin; the graph retriever's metrics do not change under a year shift. Twins of a
leaders table release: every gold recomputed from the twin's rows by the table oracle (``table_oracle``).
"""

from __future__ import annotations

import csv
import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from chronoqa.answer import answer_release
from chronoqa.answer.registry import make_answerer
from chronoqa.artifacts.metrics import EvaluationMetrics
from chronoqa.artifacts.release import load_release
from chronoqa.errors import ChronoqaError
from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
from chronoqa.generate.kg.order import canonical_graph
from chronoqa.generate.rebuild import rebuild_like
from chronoqa.generate.twin import TWIN_FACTS, make_twin, read_twin_pairs, syllable_names
from chronoqa.records import Question, Triple
from chronoqa.retrieve import run_retrieval
from chronoqa.score.cutoff import gold_time
from chronoqa.score.evaluate import evaluate
from chronoqa.sources import read_graph
from chronoqa.time import Granularity, Interval, TimePoint, parse_time, relate
from cli_in_process import cli
from kg_checker import PHRASES, Checker, check_all, not_years_of, open_end_of

YEARS = 28


def _release_and_twins(name: str, base: Path, n: int, kinds: tuple[str, ...]) -> dict[str, Path]:
    """A release of ``n`` questions of the dataset ``name`` (``base/real``) and its twins (``base/<kind>``)."""
    from chronoqa import datasets

    cfg = KGBuildConfig(n_questions=n, seed=0)
    graph = canonical_graph(datasets.load_graph(name, on_bad_row="skip", as_of=cfg.as_of_point), cfg.seed)
    build_kg_benchmark(graph, cfg, sources={"dataset": name}).write(base / "real")
    for kind in kinds:
        make_twin(base / "real", kind, base / kind, seed=5, years=YEARS)
    return {k: base / k for k in ("real", *kinds)}


@pytest.fixture(scope="module")
def yago(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A YAGO11k release and its three twins."""
    kinds = ("shift_years", "rename_entities", "permute_holders")
    return _release_and_twins("yago11k", tmp_path_factory.mktemp("twin-yago"), 300, kinds)


@pytest.fixture(scope="module")
def wikidata(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A Wikidata12k release and its year-shifted and renamed twins."""
    return _release_and_twins(
        "wikidata12k", tmp_path_factory.mktemp("twin-wd"), 200, ("shift_years", "rename_entities")
    )


def _checker_errors(twin: Path, dataset: str) -> list[str]:
    """The independent checker over the twin's own facts (``twin_facts.tsv``), with the source's phrase table."""
    graph = dataclasses.replace(read_graph(twin / TWIN_FACTS, on_bad_row="raise", on_reversed="keep"), name=dataset)
    manifest = json.loads((twin / "manifest.json").read_text(encoding="utf-8"))
    checker = Checker.from_table(
        graph, PHRASES / f"{dataset}.toml", open_end=open_end_of(manifest), not_years=not_years_of(manifest),
        as_of=manifest["config"]["as_of"],
    )  # fmt: skip
    return check_all(checker, list(load_release(twin).questions))


def _pairs(twin: Path) -> list[tuple[Question, Question]]:
    """(source question, twin question) for every pair of ``twin_of.jsonl``."""
    twin_rel = load_release(twin)
    source = {q.id: q for q in load_release(twin.parent / "real").questions}
    by_id = {q.id: q for q in twin_rel.questions}
    return [(source[s], by_id[t]) for t, s in read_twin_pairs(twin).items()]


# --- the transforms ---------------------------------------------------------------------------------------------

points = st.builds(
    lambda y, m, d, g: TimePoint(y, m if g > 0 else None, min(d, 28) if g > 1 else None),
    st.integers(1000, 2100), st.integers(1, 12), st.integers(1, 31), st.integers(0, 2),
)  # fmt: skip


@given(points, points, points, points, st.integers(-40, 400))
def test_shifting_whole_years_keeps_every_allen_relation(
    a: TimePoint, b: TimePoint, c: TimePoint, d: TimePoint, n: int
) -> None:
    x, y = Interval(a, b), Interval(c, d)
    x2, y2 = Interval(a.shift_years(n), b.shift_years(n)), Interval(c.shift_years(n), d.shift_years(n))
    for g in Granularity:
        try:
            want = relate(x, y, g)
        except ValueError:  # a reversed interval has no relation: neither has its shift
            with pytest.raises(ValueError):
                relate(x2, y2, g)
            continue
        assert relate(x2, y2, g) == want
    assert a.shift_years(n).granularity == a.granularity


@given(st.integers(1901, 2099).filter(lambda y: y % 4 == 0), st.integers(1, 200))
def test_a_leap_day_moves_only_to_a_leap_year(year: int, n: int) -> None:
    leap = TimePoint(year, 2, 29)
    target = year + n
    assume(target <= 2399)
    if target % 4 == 0 and (target % 100 != 0 or target % 400 == 0):
        assert leap.shift_years(n) == TimePoint(target, 2, 29)
    else:
        with pytest.raises(ValueError, match="not a leap year"):
            leap.shift_years(n)


def test_names_are_deterministic_in_the_seed_and_never_taken() -> None:
    taken = ["Kora Vel", "Bano Tum"]
    a, b = syllable_names(200, 1, taken), syllable_names(200, 1, taken)
    assert a == b and len(set(a)) == 200
    assert a != syllable_names(200, 2, taken)
    assert not {n.casefold() for n in a} & {t.casefold() for t in taken}
    assert all(len(n.split()) == 2 and n.replace(" ", "").isalpha() for n in a)


# --- rebuild_like -----------------------------------------------------------------------------------------------


def _unshift_label(label: str) -> str:
    """A shifted twin's label with the years of its disambiguator ("(footballer, born 2011)") moved back."""
    return re.sub(
        r"\([^()]*\)$", lambda m: re.sub(r"\b\d{4}\b", lambda y: str(int(y.group()) - YEARS), m.group()), label
    )


def test_rebuild_like_from_the_same_facts_gives_the_same_questions(yago: dict[str, Path], tmp_path: Path) -> None:
    real = load_release(yago["real"])
    source = tmp_path / "yago11k.tsv"  # the file's stem names the graph, so the question ids are the source's
    with source.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, delimiter="\t", lineterminator="\n")
        w.writerow(["subject", "relation", "object", "start", "end", "s_label", "r_label", "o_label"])
        for row in (yago["shift_years"] / TWIN_FACTS).read_text(encoding="utf-8").splitlines()[1:]:
            s, r, o, start, end, sl, rl, ol = row.split("\t")
            back = [str(int(v[:4]) - YEARS) + v[4:] if v and int(v[:4]) >= 1000 + YEARS else v for v in (start, end)]
            w.writerow([s, r, o, *back, _unshift_label(sl), rl, _unshift_label(ol)])
    out = rebuild_like(yago["real"], source, tmp_path / "again")
    again = load_release(out)
    assert [(q.id, q.question, q.answers) for q in again.questions] == [
        (q.id, q.question, q.answers) for q in real.questions
    ]
    assert again.manifest["config"] == real.manifest["config"]


# --- twins: validity and pairing --------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["shift_years", "rename_entities", "permute_holders"])
def test_yago_twin_passes_the_independent_checker(yago: dict[str, Path], kind: str) -> None:
    assert load_release(yago[kind]).questions
    assert _checker_errors(yago[kind], "yago11k") == []


@pytest.mark.parametrize("kind", ["shift_years", "rename_entities"])
def test_wikidata_twin_passes_the_independent_checker(wikidata: dict[str, Path], kind: str) -> None:
    assert _checker_errors(wikidata[kind], "wikidata12k") == []


def test_shift_and_rename_twins_pair_every_question(yago: dict[str, Path], wikidata: dict[str, Path]) -> None:
    for folder in (yago["shift_years"], yago["rename_entities"], wikidata["shift_years"]):
        n = len(load_release(folder.parent / "real").questions)
        assert len(read_twin_pairs(folder)) == n == len(load_release(folder).questions)
    # Wikidata12k renamed: a few draws differ (a step of the builder reads label words); most questions pair
    assert len(read_twin_pairs(wikidata["rename_entities"])) >= 0.9 * len(load_release(wikidata["real"]).questions)


def test_twin_manifest_and_data_card_record_the_transform(yago: dict[str, Path]) -> None:
    twin = load_release(yago["shift_years"])
    rec = twin.manifest["twin"]
    assert rec["transform"]["kind"] == "shift_years" and rec["transform"]["years"] == YEARS
    assert rec["of"]["dataset"] == "yago11k" and rec["pairs"] == len(read_twin_pairs(yago["shift_years"]))
    assert twin.manifest["config"]["as_of"] == "2054-01-01"
    card = (yago["shift_years"] / "DATACARD.md").read_text(encoding="utf-8")
    assert "## Counterfactual twin" in card and "shift_years" in card


def _related(a: Interval, b: Interval, as_of: str | None) -> str:
    try:
        return str(relate(a, b, Granularity.DAY, as_of=parse_time(as_of)))
    except ValueError:  # an unknown start or a reversed interval: no relation is defined
        return "undefined"


def _intervals(q: Question) -> list[Interval]:
    out = [t.interval for t in (*q.S_star, *q.S_anchor)]
    tq = parse_time(q.t_query)
    return out if tq is None else [*out, Interval.point(tq)]


@pytest.mark.parametrize("data", ["yago", "wikidata"])
def test_shift_keeps_every_allen_relation_between_a_questions_intervals(data: str, request: Any) -> None:
    folder = request.getfixturevalue(data)["shift_years"]
    n = 0
    for real, twin in _pairs(folder):
        a, b = _intervals(real), _intervals(twin)
        assert len(a) == len(b)
        for i in range(len(a)):
            for j in range(len(a)):
                want = _related(a[i], a[j], real.as_of)
                assert _related(b[i], b[j], twin.as_of) == want, (real.id, i, j)
                n += 1
        for x, y in zip(a, b, strict=True):
            assert x.granularity == y.granularity
    assert n > 0


def test_shift_moves_every_date_by_whole_years(yago: dict[str, Path]) -> None:
    for real, twin in _pairs(yago["shift_years"]):
        for x, y in zip(real.S_star, twin.S_star, strict=True):
            for u, v in ((x.t_start, y.t_start), (x.t_end, y.t_end)):
                if u is not None and int(u[:4]) >= 1000:
                    assert v == str(int(u[:4]) + YEARS) + u[4:]


def _labels(folder: Path) -> set[str]:
    return {x.casefold() for d in load_release(folder).corpus for x in (d.s, d.o)}


@pytest.mark.parametrize("data", ["yago", "wikidata"])
def test_renamed_labels_are_never_real_labels(data: str, request: Any, mirror: Path) -> None:
    from chronoqa import datasets

    folders = request.getfixturevalue(data)
    graph = datasets.load_graph({"yago": "yago11k", "wikidata": "wikidata12k"}[data], on_bad_row="skip")
    ents = {e for f in graph.facts for e in (f.s, f.o)}
    real = {graph.entity_label(e).casefold() for e in ents} | {e.casefold() for e in ents}
    twin = _labels(folders["rename_entities"])
    assert twin and not twin & real
    for q_real, q_twin in _pairs(folders["rename_entities"]):
        assert q_twin.answers != q_real.answers or q_real.answer_type != "entity"


# --- scoring: offline baselines, the graph retriever, the memory gap ---------------------------------------------


def _score(folder: Path, tmp: Path, retriever: str = "oracle") -> tuple[Path, Path]:
    runs = tmp / f"runs-{folder.name}"
    run_retrieval(folder, [retriever], runs, k=10)
    run = runs / f"{retriever}.run.jsonl"
    out = tmp / f"ans-{folder.name}-{retriever}"
    answer_release(folder, make_answerer("extractive"), out, run=run, split="all")
    return run, out / "answers.jsonl"


@pytest.mark.parametrize(
    ("data", "kind"),
    [("yago", "shift_years"), ("yago", "rename_entities"),
     ("leaders", "shift_years"), ("leaders", "rename_entities"), ("leaders", "permute_holders")],
)  # fmt: skip
def test_extractive_over_oracle_scores_the_same_on_real_and_twin(
    data: str, kind: str, request: Any, tmp_path: Path
) -> None:
    folders = request.getfixturevalue(data)
    _, real_answers = _score(folders["real"], tmp_path)
    _, twin_answers = _score(folders[kind], tmp_path)
    m = evaluate(
        folders["real"], answers=real_answers, twin=folders[kind], twin_answers=twin_answers, n_bootstrap=200
    ).to_dict()
    gap = m["memory_gap"]["paired"]["A"]["all"]
    assert m["twin"]["paired"] == m["n_questions"] and m["twin"]["unpaired"] == 0
    assert gap["ci_low"] <= 0 <= gap["ci_high"]
    assert gap["a"] == m["answers"]["all"]["A"]["value"]
    if data == "leaders":  # every pair: the same question but for the transform, the same extract from the rows
        assert gap["diff"] == 0


@pytest.mark.parametrize("data", ["yago", "wikidata"])
def test_graph_retrieval_is_identical_on_a_year_shifted_twin(data: str, request: Any, tmp_path: Path) -> None:
    folders = request.getfixturevalue(data)

    def metrics(folder: Path) -> dict[str, Any]:
        run, _ = _score(folder, tmp_path, "graph")
        return evaluate(folder, run=run, n_bootstrap=50).to_dict()["retrieval"]["all"]

    assert metrics(folders["real"]) == metrics(folders["shift_years"])


def test_graph_retrieval_on_a_renamed_twin_differs_only_by_word_stems(yago: dict[str, Path], tmp_path: Path) -> None:
    """Renamed word by word, labels keep their shape; BM25's stemmer still joins real words ("Nacional",
    "national") that the syllable words do not, so the ranking scores move a little and the coverage does not."""

    def metrics(folder: Path) -> dict[str, Any]:
        run, _ = _score(folder, tmp_path, "graph")
        block = evaluate(folder, run=run, n_bootstrap=50).to_dict()["retrieval"]["all"]
        return {k: v["value"] for k, v in block.items() if isinstance(v, dict)}

    real, twin = metrics(yago["real"]), metrics(yago["rename_entities"])
    assert real["coverage"] == twin["coverage"]
    for name in ("R@10", "CCR", "MRR", "nDCG@10"):
        assert abs(real[name] - twin[name]) <= 0.03, name


def test_closed_book_memory_gap_in_the_cli(yago: dict[str, Path], tmp_path: Path) -> None:
    """A 'memorising' fake answerer (right on every real question, on half the twin's) shows a gap with its CI."""
    for folder, spec in ((yago["real"], "fake(correct=1.0)"), (yago["shift_years"], "fake(correct=0.5)")):
        answer_release(folder, make_answerer(spec), tmp_path / folder.name, split="all")
    res = cli(
        "evaluate", "--bench", str(yago["real"]), "--answers", str(tmp_path / "real" / "answers.jsonl"),
        "--twin", str(yago["shift_years"]), "--twin-answers", str(tmp_path / "shift_years" / "answers.jsonl"),
        "--out", str(tmp_path / "m.json"), "--bootstrap", "200",
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "memory gap" in res.output
    data = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    gap = data["memory_gap"]["paired"]["A"]["all"]
    assert gap["a"] == 1.0 and 0 < gap["ci_low"] <= gap["diff"] <= gap["ci_high"]
    twin = EvaluationMetrics.from_dict(data, "m.json").twin  # the file reads back typed
    assert twin is not None and twin.release == yago["shift_years"].name
    assert twin.transform is not None and twin.transform.kind == "shift_years"


# --- knowledge-cutoff slices ------------------------------------------------------------------------------------


def _q(answer_type: str, *facts: tuple[str | None, str | None]) -> Question:
    triples = tuple(Triple("a", "r", "b", s, e) for s, e in facts)
    return Question(id="q", split="test", question="?", t_query="2000", S_star=triples, answer_type=answer_type)


def test_gold_time_per_answer_kind() -> None:
    assert gold_time(_q("entity", ("1990", "1995"), ("2001-03", None))) == TimePoint(2001, 3)
    assert gold_time(_q("time", ("1990", "1995"))) == TimePoint(1990)
    assert gold_time(_q("duration", ("1990", "1995"), ("1991", "1993"))) == TimePoint(1995)
    assert gold_time(_q("duration", ("1990", None))) == TimePoint(1990)
    assert gold_time(_q("entity", (None, "1995"))) is None
    cut = TimePoint(2023, 10)
    assert TimePoint(2023).side_of(cut) == "straddles"
    assert TimePoint(2023, 9, 30).side_of(cut) == "before" and TimePoint(2023, 10, 1).side_of(cut) == "after"


def test_cutoff_slices_count_golds_before_and_after(yago: dict[str, Path], tmp_path: Path) -> None:
    _, answers = _score(yago["real"], tmp_path)
    m = evaluate(yago["real"], answers=answers, cutoff="2000", n_bootstrap=50).to_dict()
    want = {"before": 0, "after": 0, "undated": 0}
    for q in load_release(yago["real"]).questions:  # by hand: year-level dates, the latest start (ends: durations)
        facts = q.S_star if q.answer_type == "duration" else (*q.S_star, *q.S_anchor)
        which = "t_end" if q.answer_type == "duration" and any(t.t_end for t in q.S_star) else "t_start"
        years = [int(getattr(t, which)[:4]) for t in facts if getattr(t, which)]
        want["undated" if not years else "before" if max(years) < 2000 else "after"] += 1
    got = {k: v["n_questions"] for k, v in m["answers"]["by_cutoff"].items()}
    assert got == {k: v for k, v in want.items() if v}
    assert m["cutoff"] == "2000" and "outdated_rate" in m["answers"]["by_cutoff"]["after"]


# --- the command line -------------------------------------------------------------------------------------------


def test_twin_cli_needs_exactly_one_transform(yago: dict[str, Path], tmp_path: Path) -> None:
    for args in ((), ("--rename-entities", "--permute-holders")):
        res = cli("twin", str(yago["real"]), "--out", str(tmp_path / "t"), *args)
        assert res.exit_code == 2 and "exactly one of" in res.output and "Traceback" not in res.output


def test_twin_cli_writes_a_twin(yago: dict[str, Path], tmp_path: Path) -> None:
    res = cli("twin", str(yago["real"]), "--shift-years", "4", "--seed", "1", "--out", str(tmp_path / "t"))
    assert res.exit_code == 0, res.output
    assert len(read_twin_pairs(tmp_path / "t")) == len(load_release(yago["real"]).questions)


def test_evaluate_twin_needs_its_answers(yago: dict[str, Path], tmp_path: Path) -> None:
    res = cli("evaluate", "--bench", str(yago["real"]), "--answers", "a.jsonl", "--twin", str(yago["shift_years"]))
    assert res.exit_code == 2 and "--twin-answers" in res.output and "Traceback" not in res.output


# --- twins of a table release (TDBench's leaders) ---------------------------------------------------------------

TABLE_PHRASES = Path(__file__).parent / "fixtures" / "tdbench_phrases.json"
TABLE_KINDS = ("shift_years", "rename_entities", "permute_holders")
CARETAKERS = ["Bangladesh", "Prime Minister"]  # the key whose rows TDBench's declarations leave out in part


@pytest.fixture(scope="module")
def leaders(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A leaders table release (from the mirror's file) and its three twins, seed 5."""
    base = tmp_path_factory.mktemp("twin-leaders")
    table = mirror / "tdbench" / "dyknow_leaders.csv"
    res = cli("build", "table", str(table), "--phrases", str(TABLE_PHRASES), "--out", str(base / "real"))
    assert res.exit_code == 0, res.output
    for kind in TABLE_KINDS:
        make_twin(base / "real", kind, base / kind, seed=5, years=YEARS, phrases=TABLE_PHRASES)
    return {k: base / k for k in ("real", *TABLE_KINDS)}


def _table_rows(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))[1:]


@pytest.mark.parametrize("kind", TABLE_KINDS)
def test_leaders_twin_gold_is_the_oracle_s_on_the_twin_table(leaders: dict[str, Path], kind: str) -> None:
    """Every gold of the twin recomputed from the twin's own rows (calendar and Allen relations from scratch)."""
    from table_oracle import oracle_gold, validity_findings

    twin = load_release(leaders[kind])
    rows = _table_rows(leaders[kind] / "twin_table.csv")
    checked = 0
    for q in twin.questions:
        assert not validity_findings(q.question, str(q.allen or q.operator), q.cardinality, q.assumes_complete,
                                     q.logical_form.get("form")), q.question  # fmt: skip
        if list(q.logical_form["key"]) == CARETAKERS:
            continue
        want = oracle_gold(q, rows, twin.manifest["config"]["as_of"])
        assert q.answers == tuple(sorted({name for name, _, _ in want})), q.question
        assert {(t.o, t.t_start, t.t_end) for t in q.S_star} == want, q.question
        checked += 1
    assert checked > 180


def _units(start: str | None, end: str | None, as_of: str) -> tuple[int, int]:
    from table_oracle import span

    return span(str(start), end, "day", as_of)


def _allen_matrix(q: Question) -> list[list[str]]:
    """The Allen relation (the oracle's) between every two of a question's intervals: its rows and reference."""
    from table_oracle import BRUTE

    spans = [_units(t.t_start, t.t_end, str(q.as_of)) for t in (*q.S_star, *q.S_dist)]
    if q.reference:
        spans.append(_units(q.reference["start"], q.reference["end"], str(q.as_of)))
    return [[next(r for r, f in BRUTE.items() if f(*a, *b)) for b in spans] for a in spans]


def test_leaders_shift_keeps_every_allen_relation_day_and_month(leaders: dict[str, Path], mirror: Path) -> None:
    pairs = _pairs(leaders["shift_years"])
    assert len(pairs) == len(load_release(leaders["real"]).questions)
    for real, twin in pairs:
        assert len(_allen_matrix(real)) > 1 and _allen_matrix(twin) == _allen_matrix(real), real.question
    shifted = [
        [*row[:3], *(str(int(v[:4]) + YEARS) + v[4:] if v else "" for v in row[3:])]
        for row in _table_rows(mirror / "tdbench" / "dyknow_leaders.csv")
    ]
    assert _table_rows(leaders["shift_years"] / "twin_table.csv") == shifted
    assert load_release(leaders["shift_years"]).manifest["config"]["as_of"] == "2052-12-13"


def test_leaders_shift_refuses_a_shift_that_moves_a_leap_day(leaders: dict[str, Path], tmp_path: Path) -> None:
    res = cli("twin", str(leaders["real"]), "--shift-years", "5", "--phrases", str(TABLE_PHRASES),
              "--out", str(tmp_path / "t"))  # fmt: skip
    assert res.exit_code == 2 and "dyknow_leaders.csv:" in res.output and "--shift-years 28" in res.output
    assert "Traceback" not in res.output and not (tmp_path / "t" / "benchmark.jsonl").exists()


def test_leaders_renamed_holders_are_never_real_names(leaders: dict[str, Path], mirror: Path) -> None:
    real_rows = _table_rows(mirror / "tdbench" / "dyknow_leaders.csv")
    twin_rows = _table_rows(leaders["rename_entities"] / "twin_table.csv")
    cells = {c.casefold() for row in real_rows for c in row}
    names = {row[2] for row in twin_rows}
    assert len(names) == len({row[2] for row in real_rows}) and not {n.casefold() for n in names} & cells
    assert [r[:2] + r[3:] for r in twin_rows] == [r[:2] + r[3:] for r in real_rows]  # keys and dates kept
    pairs = _pairs(leaders["rename_entities"])
    assert len(pairs) == len(load_release(leaders["real"]).questions)
    for real, twin in pairs:
        assert not set(twin.answers) & set(real.answers) and len(twin.answers) == len(real.answers)
        assert not any(a.casefold() in twin.question.casefold() for a in real.answers)


def test_leaders_permutation_keeps_each_office_s_terms_and_holders(leaders: dict[str, Path], mirror: Path) -> None:
    real_rows = _table_rows(mirror / "tdbench" / "dyknow_leaders.csv")
    twin_rows = _table_rows(leaders["permute_holders"] / "twin_table.csv")
    assert [r[:2] + r[3:] for r in twin_rows] == [r[:2] + r[3:] for r in real_rows]
    for key in {tuple(r[:2]) for r in real_rows}:  # the same holders per office, each still holding its terms
        by_name: dict[str, dict[str, list[str]]] = {"real": {}, "twin": {}}
        for which, rows in (("real", real_rows), ("twin", twin_rows)):
            for r in rows:
                if tuple(r[:2]) == key:
                    by_name[which].setdefault(r[2], []).append(r[3])
        assert sorted(by_name["real"]) == sorted(by_name["twin"])
        assert sorted(map(sorted, by_name["real"].values())) == sorted(map(sorted, by_name["twin"].values()))
    assert sum(a[2] != b[2] for a, b in zip(real_rows, twin_rows, strict=True)) > len(real_rows) // 2


def test_leaders_twin_is_deterministic_in_the_seed(leaders: dict[str, Path], tmp_path: Path) -> None:
    for kind in ("rename_entities", "permute_holders"):
        make_twin(leaders["real"], kind, tmp_path / kind, seed=5, phrases=TABLE_PHRASES)
        for name in ("benchmark.jsonl", "corpus.jsonl", "twin_of.jsonl", "twin_table.csv", "manifest.json"):
            assert (tmp_path / kind / name).read_bytes() == (leaders[kind] / name).read_bytes(), (kind, name)
        other = make_twin(leaders["real"], kind, tmp_path / f"{kind}-6", seed=6, phrases=TABLE_PHRASES)
        assert other["transform"]["seed"] == 6
        assert _table_rows(tmp_path / f"{kind}-6" / "twin_table.csv") != _table_rows(leaders[kind] / "twin_table.csv")


def test_twin_cli_refuses_a_phrase_file_for_a_kg_release(yago: dict[str, Path], tmp_path: Path) -> None:
    res = cli("twin", str(yago["real"]), "--shift-years", "4", "--phrases", str(TABLE_PHRASES),
              "--out", str(tmp_path / "t"))  # fmt: skip
    assert res.exit_code == 2 and "leave out --phrases" in res.output and "Traceback" not in res.output


def test_a_release_without_its_manifest_is_refused_with_the_fix(tmp_path: Path) -> None:
    release = tmp_path / "rel"
    release.mkdir()
    (release / "benchmark.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(ChronoqaError, match=r"no manifest\.json.*chronoqa build"):
        make_twin(release, "shift_years", tmp_path / "twin", years=28)
    assert not (tmp_path / "twin").exists()
