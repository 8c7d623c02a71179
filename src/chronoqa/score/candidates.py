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
from dataclasses import replace
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.artifacts.release import doc_store
from chronoqa.records import Doc, Question
from chronoqa.score.answers import AnswerOutcome, SetRule, aliases_from_corpus, score_answer
from chronoqa.score.judge_names import NameIndex
from chronoqa.score.outcomes import intermediate_hop
from chronoqa.score.structured import structured_time
from chronoqa.score.time_accuracy import Judge, TimeRow, score_time

__all__ = ["CorpusEntities", "Judging"]


class CorpusEntities:
    """A release corpus indexed for careful judging (see the module docstring). Built once per release.

    The index is made from the corpus columns (a :class:`~chronoqa.artifacts.docstore.DocStore`; other
    documents are gathered into one first) with Arrow and numpy, without a Python object per document: every
    subject and object label gets one code, and each side's (relation, other end) groups are a sorted key array
    searched per question. A slot's labels are gathered when a question first asks for that slot;
    :attr:`aliases` (every label of each entity id) when first read. Share one instance across every answer
    file of a release: the name indexes built for the slots asked are kept with it.
    """

    def __init__(self, corpus: Iterable[Doc]) -> None:
        self._store = doc_store(corpus)
        store = self._store
        n = len(store)
        both = pc.dictionary_encode(pa.concat_arrays([store.column("s"), store.column("o")]))
        self._label_list: list[str] = both.dictionary.to_pylist()
        self._code = {label: i for i, label in enumerate(self._label_list)}
        codes = both.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        rel = pc.dictionary_encode(store.column("r"))
        self._rel_code = {r: i for i, r in enumerate(rel.dictionary.to_pylist())}
        r_codes = rel.indices.to_numpy(zero_copy_only=False).astype(np.int64)
        empty = self._code.get("")
        s_codes, o_codes = codes[:n], codes[n:]
        self._labels = frozenset(self._label_list) - {""}
        self._sides = {
            "o": _Side(r_codes, o_codes, s_codes, empty, len(self._label_list)),
            "s": _Side(r_codes, s_codes, o_codes, empty, len(self._label_list)),
        }
        self._slots: dict[tuple[str, str], set[str]] = {}
        self._slot_index: dict[tuple[str, str], NameIndex] = {}
        self._all: NameIndex | None = None
        self._aliases: dict[str, tuple[str, ...]] | None = None

    @property
    def aliases(self) -> dict[str, tuple[str, ...]]:
        """Every label the corpus uses for each entity id (:func:`~chronoqa.score.answers.aliases_from_corpus`)."""
        if self._aliases is None:
            self._aliases = aliases_from_corpus(self._store)
        return self._aliases

    def _group(self, r: str, side: str, other: str) -> set[str]:
        """The labels on ``side`` of ``r``'s documents whose other end is ``other``."""
        rc, oc = self._rel_code.get(r), self._code.get(other)
        if rc is None or oc is None:
            return set()
        return {self._label_list[c] for c in self._sides[side].group(rc, oc).tolist()}

    def _slot(self, r: str, side: str) -> set[str]:
        """The labels on ``side`` of ``r``'s documents."""
        got = self._slots.get((r, side))
        if got is None:
            rc = self._rel_code.get(r)
            codes = () if rc is None else self._sides[side].slot(rc).tolist()
            got = self._slots[(r, side)] = {self._label_list[c] for c in codes}
        return got

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
        group = self._group(r, side, other) | extra
        gold = set(q.answers)
        return {"candidates": index, "context": sorted(group - gold)}

    def _slot_labels(self, r: str, side: str) -> set[str]:
        """A slot's entities, both sides of a relation whose sides share entities.

        ``isMarriedTo``: spouses stand on either side, so a spouse on the other side is a candidate too.
        """
        here = self._slot(r, side)
        there = self._slot(r, "s" if side == "o" else "o")
        shared = len(here & there)
        if here and there and shared >= 0.05 * min(len(here), len(there)):
            return here | there
        return here

    def time_entities(self) -> NameIndex:
        """Every entity the corpus knows, for :func:`~chronoqa.score.time_accuracy.score_time`."""
        if self._all is None:
            self._all = NameIndex({label: (label,) for label in sorted(self._labels)})
        return self._all


class _Side:
    """One side of the documents (the label there, the other end): sorted by (relation, other end)."""

    def __init__(self, rel: np.ndarray, label: np.ndarray, other: np.ndarray, empty: int | None, n_labels: int):
        keep = np.flatnonzero(label != empty) if empty is not None else np.arange(len(label))
        key = rel[keep] * n_labels + other[keep]
        order = np.argsort(key, kind="stable")
        self._n = n_labels
        self._key = key[order]  # sorted by relation first: a relation's documents are one run of it
        self._label = label[keep][order].astype(np.int32)

    def group(self, rel: int, other: int) -> np.ndarray:
        """The distinct label codes of the documents of relation ``rel`` whose other end is ``other``."""
        k = rel * self._n + other
        lo, hi = np.searchsorted(self._key, [k, k + 1])
        return np.unique(self._label[lo:hi])

    def slot(self, rel: int) -> np.ndarray:
        """The distinct label codes of the documents of relation ``rel``."""
        lo, hi = np.searchsorted(self._key, [rel * self._n, (rel + 1) * self._n])
        return np.unique(self._label[lo:hi])


class Judging:
    """The judging path of ``chronoqa evaluate`` over one release corpus: careful and strict A and T.

    An LLM ``judge`` (:class:`chronoqa.judge.LLMJudge`) decides the answers and explanations the careful
    rules leave ``undecided`` (the reason is kept); its agreement with the rules on the decided ones is
    reported as before.

    Built once per answer file over the release's :class:`CorpusEntities` (``entities``, shared by every answer
    file of a release; made from ``corpus`` when not given); :meth:`answer` and :meth:`time` judge one record
    each. The blind judging sets (``tests/judging/blind.py``) call the same methods, so what they measure is what
    evaluate scores.
    """

    def __init__(
        self,
        corpus: Sequence[Doc] | None = None,
        *,
        entities: CorpusEntities | None = None,
        aliases: Mapping[str, Sequence[str]] | None = None,
        rule: SetRule = "all",
        judge: Judge | None = None,
    ) -> None:
        if entities is None:
            if corpus is None:
                raise TypeError("Judging needs the release corpus or its CorpusEntities")
            entities = CorpusEntities(corpus)
        self.entities = entities
        self.aliases = aliases if aliases is not None else entities.aliases
        self.rule: SetRule = rule
        self.judge = judge

    def answer(self, q: Question, rec: AnswerRecord | None) -> AnswerOutcome:
        """The careful outcome of one answer, with the strict rule's verdict beside it."""
        o = score_answer(q, rec, aliases=self.aliases, rule=self.rule, **self.entities.answer_kwargs(q))
        strict = score_answer(q, rec, aliases=self.aliases, rule=self.rule, mode="strict")
        o = o._replace(strict=strict.correct, intermediate=intermediate_hop(q, rec))
        ask = getattr(self.judge, "answer", None)  # an LLM judge decides what the rules leave undecided
        if o.undecided and rec is not None and ask is not None:
            verdict = ask(q, rec)
            if verdict is not None:
                o = o._replace(correct=verdict, outcome="correct" if verdict else "wrong")
        return o

    def time(self, q: Question, rec: AnswerRecord | None, answer_correct: bool, outcome: str = "") -> TimeRow:
        """The careful time-accuracy row of one explanation, with the strict rule's T beside it.

        A structured reply's dates are read from its fields (:mod:`chronoqa.score.structured`), the same
        under both rules. ``outcome == "outdated"``: the row also says whether the outdated holder's own
        dates are right (``TimeRow.outdated_T``).
        """
        fields = structured_time(q, rec, answer_correct, aliases=self.aliases, judge=self.judge)
        if fields is not None:
            row = fields._replace(T_strict=fields.T)
        else:
            row = score_time(q, rec, answer_correct, judge=self.judge, entities=self.entities.time_entities())
            row = row._replace(T_strict=score_time(q, rec, answer_correct, mode="strict").T)
        if outcome == "outdated" and rec is not None and row.T is not None:
            row = row._replace(outdated_T=self._outdated_time(q, rec))
        return row

    def _outdated_time(self, q: Question, rec: AnswerRecord) -> bool:
        """Whether the explanation states the dates of the outdated holder the answer names.

        The question is re-asked of that holder's row (the same ends as the gold references, from its own
        row in ``S_dist``/``S_stale``; any of its rows, for a holder of several terms) and judged by the same
        careful rules as ``T``.
        """
        ends = {str(r.get("which", "")) for r in q.time_refs} or {"start"}
        for t in (*q.S_dist, *q.S_stale):
            if t.o not in q.outdated_answers:
                continue
            refs = tuple(
                {"which": which, "value": value, "answer": t.o}
                for which, value in (("start", t.t_start), ("end", t.t_end))
                if which in ends and value is not None
            )
            held = replace(
                q, answers=(t.o,), answer_ids=(t.o_id or t.o,), S_star=(t,), outdated_answers=(), time_refs=refs
            )
            named = bool(refs) and self.answer(held, rec).correct
            if named and score_time(held, rec, True, entities=self.entities.time_entities()).T:
                return True  # a holder of several terms: any of them
        return False
