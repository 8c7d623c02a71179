"""Corpus: every fact of the graph verbalised once, with a stable doc id (``F<fact id>``)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence

from chronoqa.generate.kg.phrases import RelationPhrases, fill
from chronoqa.generate.kg.templates import render_time_text
from chronoqa.records import Doc, Fact, Triple, time_str
from chronoqa.time import TimePoint

__all__ = ["fact_triple", "iter_corpus", "verbalise"]


def _time_phrase(
    fact: Fact, is_event: bool, as_of: TimePoint, open_end: str = "ongoing", bad: Collection[int] = ()
) -> str:
    s, e = fact.start, fact.end
    listed = sorted({p.year for p in (s, e) if p is not None and p.year in bad})
    if listed:
        bad_text = " and ".join(str(y) for y in listed)
        if s is not None and e is not None and s != e:
            return (
                f" (dates recorded as {s.isoformat()} to {e.isoformat()}; {bad_text} "
                f"{'is' if len(listed) == 1 else 'are'} not a valid year)"
            )
        return f" (date recorded as {bad_text}, not a valid year)"
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
    fact: Fact,
    phrases: RelationPhrases,
    labels: Callable[[str], str],
    as_of: TimePoint,
    open_end: str = "ongoing",
    not_years: Collection[int] = (),
) -> str:
    """One sentence stating the fact and its validity (an open-ended state per the ``open_end`` reading).

    ``not_years`` are the years listed as not being years for this fact's relation: a fact dated in one
    says so ("(date recorded as 360, not a valid year)").
    """
    body = fill(phrases.statement, s=labels(fact.s), o=labels(fact.o))
    text = body + _time_phrase(fact, phrases.is_event, as_of, open_end, not_years) + "."
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
    not_years: Mapping[str, Collection[int]] | None = None,
) -> Iterator[Doc]:
    """Stream the corpus documents in fact order (``not_years``: relation id → years that are not years)."""
    bad = not_years or {}
    for fact, doc_id in zip(facts, doc_ids, strict=True):
        t = fact_triple(fact, doc_id, labels, rel_label)
        yield Doc(
            doc_id, verbalise(fact, phrases[fact.r], labels, as_of, open_end, bad.get(fact.r, ())),
            t.s, t.r, t.o, t.t_start, t.t_end, fact.s, fact.r, fact.o, fact.id,
        )  # fmt: skip
