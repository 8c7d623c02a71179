"""The candidates a release corpus knows, for careful judging of answers and of their dates.

:class:`CorpusEntities` indexes a release corpus once, so that careful judging
(:func:`chronoqa.score.answers.score_answer`, :func:`chronoqa.score.time_accuracy.score_time`) decides
"another candidate" and "someone else's date" on data:

* the **slot** of a gold answer is the relation and side its S* fact has it on (every object of
  ``playsFor`` for a club; every ``name`` of a leaders table); the slot's other entities are the
  candidates a wrong answer may name;
* the **group** is the part of the slot that shares the answer fact's other end (the other presidents
  of Germany, the other players of FC Porto): a surname names the gold only where none of them shares it;
* every label of the corpus is an entity a date may belong to instead of the answer's fact.

The optional LLM judge, which needs a model client, lives a floor up in :mod:`chronoqa.judge`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Doc, Question
from chronoqa.score.answers import AnswerOutcome, SetRule, aliases_from_corpus, score_answer
from chronoqa.score.judge_names import NameIndex
from chronoqa.score.structured import structured_time
from chronoqa.score.time_accuracy import Judge, TimeRow, score_time

__all__ = ["CorpusEntities", "Judging"]


class CorpusEntities:
    """A release corpus indexed for careful judging (see the module docstring). Built once per evaluation."""

    def __init__(self, corpus: Iterable[Doc]) -> None:
        self._slots: dict[tuple[str, str], set[str]] = {}
        self._groups: dict[tuple[str, str, str], set[str]] = {}
        labels: set[str] = set()
        for d in corpus:
            for side, label, other_label in (("o", d.o, d.s), ("s", d.s, d.o)):
                if not label:
                    continue
                labels.add(label)
                self._slots.setdefault((d.r, side), set()).add(label)
                self._groups.setdefault((d.r, side, other_label), set()).add(label)
        self._labels = labels
        self._slot_index: dict[tuple[str, str], NameIndex] = {}
        self._all: NameIndex | None = None

    def _answer_fact(self, q: Question) -> tuple[str, str, str] | None:
        names = set(q.answers) | set(q.answer_ids)
        for t in q.S_star:
            if t.o in names or (t.o_id and t.o_id in names):
                return t.r, "o", t.s
            if t.s in names or (t.s_id and t.s_id in names):
                return t.r, "s", t.o
        return None

    def answer_kwargs(self, q: Question) -> dict[str, Any]:
        """``candidates`` and ``context`` for :func:`~chronoqa.score.answers.score_answer` on ``q``."""
        where = self._answer_fact(q)
        extra = {t.o for t in q.S_dist} | set(q.outdated_answers)
        if where is None:
            return {"candidates": sorted(extra) or None, "context": sorted(extra) if extra else None}
        r, side, other = where
        slot = (r, side)
        index = self._slot_index.get(slot)
        if index is None:  # the slot's candidates over every entity the corpus knows
            labels = sorted(self._slot_labels(r, side))
            index = NameIndex({label: (label,) for label in labels}, base=self.time_entities())
            self._slot_index[slot] = index
        group = self._groups.get((r, side, other), set()) | extra
        gold = set(q.answers)
        return {"candidates": index, "context": sorted(group - gold)}

    def _slot_labels(self, r: str, side: str) -> set[str]:
        """A slot's entities, both sides of a relation whose sides share entities.

        ``isMarriedTo``: spouses stand on either side, so a spouse on the other side is a candidate too.
        """
        here = self._slots.get((r, side), set())
        there = self._slots.get((r, "s" if side == "o" else "o"), set())
        shared = len(here & there)
        if here and there and shared >= 0.05 * min(len(here), len(there)):
            return here | there
        return here

    def time_entities(self) -> NameIndex:
        """Every entity the corpus knows, for :func:`~chronoqa.score.time_accuracy.score_time`."""
        if self._all is None:
            self._all = NameIndex({label: (label,) for label in sorted(self._labels)})
        return self._all


class Judging:
    """The judging path of ``chronoqa evaluate`` over one release corpus: careful and strict A and T.

    An LLM ``judge`` (:class:`chronoqa.judge.LLMJudge`) decides the answers and explanations the careful
    rules leave ``undecided`` (the reason is kept); its agreement with the rules on the decided ones is
    reported as before.

    Built once per evaluation; :meth:`answer` and :meth:`time` judge one record each. The blind judging
    sets (``tests/judging/blind.py``) call the same methods, so what they measure is what evaluate scores.
    """

    def __init__(
        self,
        corpus: Sequence[Doc],
        *,
        aliases: Mapping[str, Sequence[str]] | None = None,
        rule: SetRule = "all",
        judge: Judge | None = None,
    ) -> None:
        self.entities = CorpusEntities(corpus)
        self.aliases = aliases if aliases is not None else aliases_from_corpus(corpus)
        self.rule: SetRule = rule
        self.judge = judge

    def answer(self, q: Question, rec: AnswerRecord | None) -> AnswerOutcome:
        """The careful outcome of one answer, with the strict rule's verdict beside it."""
        o = score_answer(q, rec, aliases=self.aliases, rule=self.rule, **self.entities.answer_kwargs(q))
        strict = score_answer(q, rec, aliases=self.aliases, rule=self.rule, mode="strict")
        o = o._replace(strict=strict.correct)
        ask = getattr(self.judge, "answer", None)  # an LLM judge decides what the rules leave undecided
        if o.undecided and rec is not None and ask is not None:
            verdict = ask(q, rec)
            if verdict is not None:
                o = o._replace(correct=verdict, outcome="correct" if verdict else "wrong")
        return o

    def time(self, q: Question, rec: AnswerRecord | None, answer_correct: bool) -> TimeRow:
        """The careful time-accuracy row of one explanation, with the strict rule's T beside it.

        A structured reply's dates are read from its fields (:mod:`chronoqa.score.structured`), the same
        under both rules.
        """
        fields = structured_time(q, rec, answer_correct, aliases=self.aliases, judge=self.judge)
        if fields is not None:
            return fields._replace(T_strict=fields.T)
        row = score_time(q, rec, answer_correct, judge=self.judge, entities=self.entities.time_entities())
        loose = score_time(q, rec, answer_correct, mode="strict")
        return row._replace(T_strict=loose.T)
