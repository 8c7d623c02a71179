"""Read the hand-labelled judging set (``tests/judging/*.jsonl``) and measure a scorer's agreement with it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Question

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Item:
    """One labelled answer or explanation with the question context it is judged in."""

    n: int
    question: Question
    candidates: tuple[str, ...]
    group: tuple[str, ...]
    others: tuple[str, ...]
    record: AnswerRecord
    label: bool
    why: str


def _rows(name: str) -> Iterator[dict[str, Any]]:
    with (HERE / name).open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def contexts() -> dict[str, tuple[Question, tuple[str, ...], tuple[str, ...], tuple[str, ...]]]:
    """Every context by id: the question, its candidates, its group and the other entities the release knows."""
    out = {}
    for d in _rows("contexts.jsonl"):
        q = Question.from_dict({"split": "test", "t_query": None, **d})
        out[d["id"]] = (q, tuple(d["candidates"]), tuple(d["group"]), tuple(d["others"]))
    return out


def items(kind: str) -> list[Item]:
    """``kind`` is ``answers`` or ``explanations``."""
    ctx = contexts()
    out = []
    for d in _rows(f"{kind}.jsonl"):
        q, cands, group, others = ctx[d["ctx"]]
        rec = AnswerRecord(q.id, "judging-set", "ok", d["answer"], d.get("explanation"))
        out.append(Item(int(d["n"]), q, cands, group, others, rec, bool(d["label"]), str(d.get("why", ""))))
    return out


@dataclass(frozen=True)
class Agreement:
    """Agreement of a verdict with the labels: false accepts (label false, verdict true) and false rejects."""

    n: int
    agree: int
    false_accepts: tuple[int, ...]
    false_rejects: tuple[int, ...]
    no_verdict: tuple[int, ...] = ()

    @property
    def rate(self) -> float:
        """Fraction of items where the verdict equals the label."""
        return self.agree / self.n if self.n else 0.0


def agreement(rows: list[Item], verdict: Callable[[Item], bool | None]) -> Agreement:
    """Compare ``verdict(item)`` with each item's label (``None``: no verdict, counted as a disagreement)."""
    fa, fr, nv = [], [], []
    agree = 0
    for it in rows:
        v = verdict(it)
        if v is None:
            nv.append(it.n)
        elif v == it.label:
            agree += 1
        elif v:
            fa.append(it.n)
        else:
            fr.append(it.n)
    return Agreement(len(rows), agree, tuple(fa), tuple(fr), tuple(nv))
