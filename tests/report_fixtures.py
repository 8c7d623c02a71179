"""A hand-written evaluate folder over the football fixture: its fails, heatmaps and tests are worked by hand.

Retrieval (CCR per q1..q4): bm25 1 0 1 0, graph 1 1 0 0, dense 0 0 0 0, oracle (control) 1 1 1 1.
Answers (A per q1..q4): extractive@bm25 0 0 1 0 (outcome classes in ``CLASS``, the join hop in ``HOP``). Only q4
is wrong for every non-control system.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from answer_fixtures import FACTS, doc, questions, write_fixture
from chronoqa.artifacts.metrics import (
    AnswerVerdict,
    EvaluationMetrics,
    MetricsRecord,
    RetrievalVerdict,
    RunRef,
    write_metrics,
    write_verdicts,
)
from chronoqa.artifacts.release import FunctionalFlags, write_release
from chronoqa.records import Triple

TEST_IDS = ("q1", "q2", "q3", "q4")
HEADER: dict[str, Any] = {
    "n_questions": 4, "functional_only": False, "split": "test", "seed": 0, "n_bootstrap": 0, "confidence": 0.95,
    "min_slice": 30, "validity_mode": "certain", "warnings": [],
}  # fmt: skip
"""The fields every metrics file has (these hand-written ones carry no metrics: the report reads the verdicts)."""
EVIL = "</script><img src=x onerror=window.__pwned=1><script>window.__pwned=2</script>"
"""Markup a label may carry: escaped, it shows as text and runs nothing (``window.__pwned`` stays unset)."""
CCR = {"bm25": (1, 0, 1, 0), "graph": (1, 1, 0, 0), "dense": (0, 0, 0, 0), "oracle": (1, 1, 1, 1)}
A = (0, 0, 1, 0)
T = (0, None, 1, 0)
CLASS = ("outdated_wrong_date", None, "right_holder_right_date", "other_wrong")
"""The outcome class of each answer (None where the question has no T), and whether it names a join's hop."""
HOP = (None, None, None, False)
PHRASINGS: dict[str, list[tuple[str, str, int, str | None]]] = {
    "q3": [("q3~p1", "When did Ann Lee start playing for Blue FC, in which year?", 1, "2005"),
           ("q3~p2", "In what year did Ann Lee start playing for Blue FC?", 0, "2004")],
}  # fmt: skip
"""A paraphrase set answered by extractive@bm25: q3 right in its original and first paraphrase, wrong in its second."""
# [fact index, rank]: fact order is S*, S_dist, S_stale, S_anchor (q1: S* d2, S_dist d1; q2: S* d1, d4)
MARKS: dict[str, dict[str, list[list[int]]]] = {
    "bm25": {"q1": [[1, 1], [0, 2]], "q2": [[1, 1], [0, 2]], "q3": [[0, 2]], "q4": []},
    "graph": {"q1": [[0, 1]], "q2": [[0, 1], [1, 3]], "q3": [], "q4": []},
    "dense": {"q1": [[1, 4]], "q2": [], "q3": [], "q4": []},
    "oracle": {"q1": [[0, 1]], "q2": [[0, 1], [1, 2]], "q3": [[0, 1]], "q4": [[0, 1]]},
}


def write_eval_folder(root: Path, *, release: Path | None = None) -> tuple[Path, Path]:
    """Write the football release (unless given) and the hand-written evaluate folder; returns both."""
    rel = release if release is not None else write_fixture(root)[0]
    ev = root / "evaluate"
    for name, ccr in CCR.items():
        meta = {"spec": name, "control": name == "oracle"}
        metrics = EvaluationMetrics(**HEADER, run=RunRef(name=name, meta=meta))
        write_metrics(ev, "retrieval", MetricsRecord(name, metrics))
        rows = [
            RetrievalVerdict(qid=q, CCR=c, stale_hit=None, dist_hit=q == "q1" and name != "oracle", n_retrieved=3,
                             marks=MARKS[name][q])
            for q, c in zip(TEST_IDS, ccr, strict=True)
        ]  # fmt: skip
        write_verdicts(ev, "retrieval", name, rows)
    ans_meta = {"answerer": "extractive", "run": {"spec": "bm25", "control": False}}
    write_metrics(ev, "answers", MetricsRecord("extractive@bm25", EvaluationMetrics(**HEADER), ans_meta))
    answers = {"q1": "Red FC", "q2": None, "q3": "2005", "q4": "Paris"}
    write_verdicts(
        ev,
        "answers",
        "extractive@bm25",
        [
            AnswerVerdict(
                qid=q,
                outcome="correct" if a else "wrong",
                A=a,
                T=t,
                answer=answers[q],
                outcome_class=c,
                intermediate=h,
                phrasings=PHRASINGS.get(q),
            )
            for q, a, t, c, h in zip(TEST_IDS, A, T, CLASS, HOP, strict=True)
        ],
    )
    return rel, ev


def n_star(qid: str) -> int:
    """S* size of a fixture question (from the hand-written questions, not from the report)."""
    return next(len(q.S_star) for q in questions() if q.id == qid)


def evil_release(root: Path, evil: str = EVIL) -> Path:
    """The football release with ``evil`` in q4's text, relation, object, answer and template, and the name."""
    qs = questions()
    d7 = doc(6)
    evil_t = Triple(d7.s, "wasBornIn" + evil, "Lyon" + evil, d7.t_start, d7.t_end, doc_id=d7.doc_id)
    qs[3] = replace(qs[3], question="Where was Bob Ray born?" + evil, S_star=(evil_t,), answers=("Lyon" + evil,),
                    template_id="born_1" + evil)  # fmt: skip
    rel = root / "release"
    corpus = [doc(i) for i in range(len(FACTS))]
    write_release(rel, qs, corpus, [FunctionalFlags(q.id, True, True) for q in qs], {"name": "f" + evil}, "")
    return rel


def write_answer_folder(ev: Path, name: str, answers: dict[str, str | None]) -> None:
    """One more answer folder ``name`` in the evaluate folder ``ev``, every answer scored wrong."""
    write_metrics(ev, "answers", MetricsRecord(name, EvaluationMetrics(**HEADER), {"answerer": name}))
    rows = [AnswerVerdict(qid=q, outcome="wrong", A=0, T=0, answer=answers.get(q)) for q in TEST_IDS]
    write_verdicts(ev, "answers", name, rows)
