"""TempBench's release layout, so that the quickstart of TempBench's README runs on a chronoqa release unchanged.

Layout (TempBench v1.0.1's)::

    benchmark/benchmark_labelled.jsonl    one question per line, human-readable labels
    benchmark/benchmark.jsonl             the same questions with raw ids (s/r/o and answers as QIDs/PIDs)
    benchmark/functional_negatives.jsonl  {"id", "dist_functional", "stale_functional"} per question
    benchmark/labels.tsv                  "id<TAB>label" for every id the raw file names
    benchmark/ids.txt                     those ids, one a line
    code/tempbench_eval.py                ``score_question`` and ``aggregate``, scored by chronoqa's definitions
    DATACARD.md                           the release's data card (with when and why ``S_stale`` is empty)
    annotation/low_confidence.jsonl       with ``--validation``: the human validation's per-question flags

``t_query`` is a float year (``1994.0``) as TempBench's; a triple is the five keys ``s``, ``r``, ``o``,
``t_start``, ``t_end`` (times as the release's ISO strings, a year or a date, ``null`` when unknown, which
``tempbench_eval`` reads as the same times). TempBench's times are years, so a release whose ``t_query`` is
finer than a year, or missing (TDBench-style table releases), is refused: export it with ``--to hf`` or
``--to beir``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from chronoqa.artifacts.release import Release
from chronoqa.errors import ChronoqaError
from chronoqa.export.provenance import LOW_CONFIDENCE_FILE
from chronoqa.generate.kg.datacard import STALE_HEADING, stale_section
from chronoqa.io import write_jsonl, write_text
from chronoqa.records import Question, Triple
from chronoqa.score.evidence import has_time_valid_chain
from chronoqa.time import TimeParseError, float_year

__all__ = ["EVAL_SCRIPT", "write_tempbench"]

_SETS = ("S_star", "S_dist", "S_stale")

#: ``code/tempbench_eval.py``: TempBench's scorer names over chronoqa's implementation, with its self-check.
EVAL_SCRIPT = '''"""TRP and CCR scorers of this benchmark: TempBench's names, chronoqa's implementation.

    from tempbench_eval import score_question, aggregate
    rows = [score_question(q, my_retriever(q['question'], q['t_query'])) for q in test]
    print(aggregate(rows))

``python code/tempbench_eval.py`` runs a self-check on synthetic data and needs no files.
The definitions are chronoqa's (``chronoqa.score.evidence``); this file needs ``pip install chronoqa``.
"""

try:
    from chronoqa.score.tempbench import aggregate, score_question
except ImportError as exc:  # pragma: no cover - depends on the reader's environment
    raise SystemExit(f"tempbench_eval needs chronoqa ({exc}). Fix: pip install chronoqa") from None

__all__ = ["aggregate", "score_question"]


def _self_check():
    gold = {"s": "A", "r": "member of", "o": "B", "t_start": "1990", "t_end": "1999"}
    stale = {"s": "A", "r": "member of", "o": "B", "t_start": "2005", "t_end": "2006"}
    q = {"id": "q1", "t_query": 1994.0, "S_star": [gold], "S_dist": [], "S_stale": [stale], "hops": 1,
         "operator": "point_in_time"}
    full = score_question(q, [gold, ("X", "r", "Y", 1994.0, 1994.0)])
    assert (full["TRP"], full["CCR"]) == (0.5, 1.0), full
    wrong = score_question(q, [stale])
    assert (wrong["TRP"], wrong["CCR"], wrong["stale_hit"]) == (0.0, 0.0, True), wrong
    empty = score_question(q, [])
    assert (empty["TRP"], empty["CCR"]) == (None, 0.0), empty
    agg = aggregate([full, wrong, empty])
    assert agg["n_questions"] == 3 and abs(agg["coverage"] - 2 / 3) < 1e-12, agg
    assert agg["TRP_macro"] == 0.25 and abs(agg["CCR"] - 1 / 3) < 1e-12, agg
    print("tempbench_eval self-check passed")


if __name__ == "__main__":
    _self_check()
'''


def _t_query(q: Question) -> float:
    try:
        year = float_year(q.t_query)
    except TimeParseError:
        year = None
    if year is None:
        raise ChronoqaError(
            f"question {q.id!r} has t_query {q.t_query!r}: TempBench's layout carries a year (a float such as "
            "1994.0) for every question, so this release (a table release, or one built at a finer granularity) "
            "has no TempBench form. Fix: export it with `chronoqa export RELEASE --to hf` or `--to beir`"
        )
    return year


def _triple(t: Triple, raw: bool) -> dict[str, Any]:
    if raw and not (t.s_id and t.r_id and t.o_id):
        raise ChronoqaError(
            f"triple ({t.s!r}, {t.r!r}, {t.o!r}) has no raw ids (s_id/r_id/o_id), which benchmark.jsonl needs. "
            "Fix: rebuild the release with `chronoqa build kg`, which records the graph's ids"
        )
    s, r, o = (t.s_id, t.r_id, t.o_id) if raw else (t.s, t.r, t.o)
    return {"s": s, "r": r, "o": o, "t_start": t.t_start, "t_end": t.t_end}


def _record(q: Question, raw: bool) -> dict[str, Any]:
    answers = q.answer_ids if raw and q.answer_ids else q.answers
    return {
        "id": q.id,
        "split": q.split,
        "question": q.question,
        "t_query": _t_query(q),
        **{name: [_triple(t, raw) for t in getattr(q, name)] for name in _SETS},
        "operator": q.operator,
        "hops": q.hops,
        "complexity": q.complexity,
        "answers": list(answers),
        "answer_type": q.answer_type,
        "render_time": q.render_time,
        "template_id": q.template_id,
        "granularity": q.granularity,
        "as_of": q.as_of,
    }


def _labels(questions: Iterable[Question]) -> dict[str, str]:
    """Every raw id the raw file names, with its label (the graph's: one label per id in the triples, checked)."""
    out: dict[str, str] = {}

    def add(ident: str, label: str) -> None:
        if any(c in ident + label for c in "\t\r\n"):
            raise ChronoqaError(
                f"id {ident!r} or its label {label!r} holds a tab or a line break, which labels.tsv cannot carry. "
                "Fix: correct the label in the graph's label file and rebuild the release"
            )
        if out.setdefault(ident, label) != label:
            raise ChronoqaError(
                f"id {ident!r} has two labels ({out[ident]!r} and {label!r}) in the release's questions. "
                "Fix: rebuild the release with `chronoqa build kg`"
            )

    for q in questions:
        for name in _SETS:
            for t in getattr(q, name):
                add(t.s_id, t.s)
                add(t.r_id, t.r)
                add(t.o_id, t.o)
    for q in questions:  # an answer may read shorter than the graph's label ("Ruth Nelson"): the graph's wins
        if q.answer_type == "entity" and len(q.answer_ids) == len(q.answers):
            for ident, label in zip(q.answer_ids, q.answers, strict=True):
                if ident not in out:
                    add(ident, label)
    return out


def _flags(release: Release, questions: Iterable[Question]) -> Iterator[Mapping[str, Any]]:
    flags = release.flags
    for q in questions:
        f = flags.get(q.id)
        if f is None:
            raise ChronoqaError(
                f"{release.path}: question {q.id!r} has no line in functional_negatives.jsonl, which TempBench's "
                "layout needs for every question. Fix: rebuild the release with `chronoqa build kg`"
            )
        yield {"id": q.id, "dist_functional": f.dist_functional, "stale_functional": f.stale_functional}


_LAYOUT_NOTE = [
    "## This export: TempBench's layout",
    "",
    "`benchmark/benchmark_labelled.jsonl` holds labels, `benchmark/benchmark.jsonl` the graph's raw ids (resolved by "
    "`benchmark/labels.tsv`). `t_query` is a float year (`1994.0`) as TempBench's; a triple's `t_start`/`t_end` "
    "are the release's ISO times (a year or a date; `null` when unknown), which `tempbench_eval` reads as the same "
    "times. `code/tempbench_eval.py` scores with chronoqa's definitions of TRP and CCR, so it needs "
    "`pip install chronoqa`; `python code/tempbench_eval.py` runs its self-check. Questions without evidence that "
    "holds at `t_query` (an empty gold set; a yes/no question answered no) are left out: TRP and CCR are not "
    "defined on them.",
    "",
]


def _datacard(release: Release) -> str:
    card = release.path / "DATACARD.md"
    text = card.read_text(encoding="utf-8").rstrip("\n") if card.is_file() else ""
    extra = [] if STALE_HEADING in text else stale_section(release.questions)
    return "\n".join([*([text, ""] if text else []), *extra, *_LAYOUT_NOTE]).rstrip("\n") + "\n"


def write_tempbench(release: Release, out: Path, validation: Path | None = None) -> Path:
    """Write TempBench's layout of ``release`` into ``out`` (``validation``'s flags go to ``annotation/``)."""
    questions = [q for q in release.questions if has_time_valid_chain(q)]  # what TRP and CCR are defined over
    labelled = [_record(q, raw=False) for q in questions]  # checks every t_query before anything is written
    raw = [_record(q, raw=True) for q in questions]
    labels = _labels(questions)
    flags = list(_flags(release, questions))
    bench = out / "benchmark"
    bench.mkdir(parents=True, exist_ok=True)
    (out / "code").mkdir(exist_ok=True)
    write_jsonl(bench / "benchmark_labelled.jsonl", labelled)
    write_jsonl(bench / "benchmark.jsonl", raw)
    write_jsonl(bench / "functional_negatives.jsonl", flags)
    write_text(bench / "labels.tsv", "".join(f"{i}\t{labels[i]}\n" for i in sorted(labels)))
    write_text(bench / "ids.txt", "".join(f"{i}\n" for i in sorted(labels)))
    write_text(out / "code" / "tempbench_eval.py", EVAL_SCRIPT)
    write_text(out / "DATACARD.md", _datacard(release))
    if validation is not None:  # where TempBench keeps its pilot's low-confidence flags
        (out / "annotation").mkdir(exist_ok=True)
        text = (validation / LOW_CONFIDENCE_FILE).read_text(encoding="utf-8")
        write_text(out / "annotation" / LOW_CONFIDENCE_FILE, text)
    return out
