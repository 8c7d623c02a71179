"""Corpus: every fact of the graph verbalised once, with a stable doc id (``F<fact id>``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from chronoqa.generate.kg.phrases import RelationPhrases, fill
from chronoqa.generate.kg.templates import render_time_text
from chronoqa.records import Doc, Fact, Triple, time_str
from chronoqa.time import TimePoint

__all__ = ["fact_triple", "iter_corpus", "verbalise"]


def _time_phrase(fact: Fact, is_event: bool, as_of: TimePoint, open_end: str = "ongoing") -> str:
    s, e = fact.start, fact.end
    if s is not None and e is not None and s.lo(s.granularity) > e.hi(s.granularity):
        return f" (recorded from {render_time_text(s)} to {render_time_text(e)}: start after end, invalid)"
    if s is not None and ((e is None and is_event) or e == s):
        return f" {'on' if s.day is not None else 'in'} {render_time_text(s)}"
    if s is not None and e is not None:
        return f" from {render_time_text(s)} to {render_time_text(e)}"
    if s is not None:
        if open_end == "unknown":
            return f" from {render_time_text(s)} (end not recorded)"
        return f" from {render_time_text(s)}, ongoing as of {as_of.isoformat()}"
    if e is not None:
        return f" until {render_time_text(e)} (start unknown)"
    return " (time unknown)"


def verbalise(
    fact: Fact, phrases: RelationPhrases, labels: Callable[[str], str], as_of: TimePoint, open_end: str = "ongoing"
) -> str:
    """One sentence stating the fact and its validity (an open-ended state per the ``open_end`` reading)."""
    body = fill(phrases.statement, s=labels(fact.s), o=labels(fact.o))
    text = body + _time_phrase(fact, phrases.is_event, as_of, open_end) + "."
    return text[:1].upper() + text[1:]


def fact_triple(fact: Fact, doc_id: str, labels: Callable[[str], str], rel_label: Callable[[str], str]) -> Triple:
    """The fact as a question triple (labels, ISO times, ids)."""
    return Triple(
        labels(fact.s), rel_label(fact.r), labels(fact.o), time_str(fact.start), time_str(fact.end),
        fact.s, fact.r, fact.o, fact.id, doc_id,
    )  # fmt: skip


def iter_corpus(
    facts: Sequence[Fact],
    doc_ids: Sequence[str],
    phrases: Mapping[str, RelationPhrases],
    labels: Callable[[str], str],
    rel_label: Callable[[str], str],
    as_of: TimePoint,
    open_end: str = "ongoing",
) -> Iterator[Doc]:
    """Stream the corpus documents in fact order."""
    for fact, doc_id in zip(facts, doc_ids, strict=True):
        t = fact_triple(fact, doc_id, labels, rel_label)
        yield Doc(
            doc_id, verbalise(fact, phrases[fact.r], labels, as_of, open_end), t.s, t.r, t.o, t.t_start, t.t_end,
            fact.s, fact.r, fact.o, fact.id,
        )  # fmt: skip
