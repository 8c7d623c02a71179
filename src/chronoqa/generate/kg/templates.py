"""Surface forms: put a :class:`~chronoqa.generate.kg.operators.Draft` into English.

Templates are registered per operator (:data:`TEMPLATES`: template id → renderer); each question records
its template id. Relation phrasing comes from the phrase table; the chain is read from the anchor:
a forward hop over ``r`` turns the entity phrase ``X`` into ``object_of(X)`` ("the team X played
for"), an inverse hop into ``subject_of(X)`` ("the owner of X").
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from chronoqa.generate.kg.articles import definite
from chronoqa.generate.kg.index import GraphIndex
from chronoqa.generate.kg.operators import Draft, Hop
from chronoqa.generate.kg.phrases import RelationPhrases, fill
from chronoqa.time import Granularity, TimePoint, render_time

__all__ = ["TEMPLATES", "Renderer", "render_time_text"]

_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


def render_time_text(t: TimePoint) -> str:
    """English form of a time point (``1994``, ``7 March 1994``, ``405 BC``): :func:`chronoqa.time.render_time`."""
    return render_time(t)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Renderer:
    """Phrases, labels and granularity: everything needed to word a draft."""

    index: GraphIndex
    phrases: Mapping[str, RelationPhrases]  # relation id -> phrases
    labels: Callable[[str], str]  # entity id -> label
    granularity: Granularity

    def ent(self, e: int) -> str:
        """Label of an interned entity as it reads in a question ("the United States": :mod:`.articles`)."""
        return definite(self.labels(self.index.ent_names[e]))

    def rel(self, r: int) -> RelationPhrases:
        """Phrases of an interned relation."""
        return self.phrases[self.index.rel_names[r]]

    def unit_word(self) -> str:
        """``year``, ``month`` or ``day``."""
        return str(self.granularity)

    def when(self, t: int) -> str:
        """English form of unit ``t``."""
        return render_time_text(TimePoint.from_unit(t, self.granularity))

    def noun(self, hops: tuple[Hop, ...], anchor: int) -> str:
        """Noun phrase of the entity reached by ``hops`` from ``anchor``."""
        cur = self.ent(anchor)
        for h in hops:
            p = self.rel(h.rel)
            cur = fill(p.object_of, s=cur, o="") if h.forward else fill(p.subject_of, s="", o=cur)
        return cur

    def ask(self, d: Draft) -> str:
        """The question clause asking for the last hop's endpoint ("which team did X play for")."""
        last = d.hops[-1]
        cur = self.noun(d.hops[:-1], d.anchor)
        p = self.rel(last.rel)
        return fill(p.ask_object, s=cur, o="") if last.forward else fill(p.ask_subject, s="", o=cur)

    def fact_clause(self, fid: int, which: str, *, subject_text: str | None = None, side_entity: int = -1) -> str:
        """A clause field (``start_clause``, ``ask_end``...) of a fact; ``side_entity`` reads as ``subject_text``."""
        row = self.index.fact_row(fid)
        s, r, o = row[0], row[1], row[2]
        p = self.rel(r)
        tmpl = getattr(p, which) or p.start_clause
        s_txt = subject_text if side_entity == s and subject_text is not None else self.ent(s)
        o_txt = subject_text if side_entity == o and subject_text is not None and side_entity != s else self.ent(o)
        return fill(tmpl, s=s_txt, o=o_txt)


def _pit_in(rd: Renderer, d: Draft) -> str:
    return f"In {rd.when(d.t)}, {rd.ask(d)}?"


def _pit_trailing(rd: Renderer, d: Draft) -> str:
    return f"{_cap(rd.ask(d))} in {rd.when(d.t)}?"


def _ba_clause(rd: Renderer, d: Draft) -> str:
    return f"the {rd.unit_word()} {'after' if d.offset > 0 else 'before'} {rd.fact_clause(d.ref_fid, 'start_clause')}"


def _ba_lead(rd: Renderer, d: Draft) -> str:
    return f"In {_ba_clause(rd, d)}, {rd.ask(d)}?"


def _ba_trailing(rd: Renderer, d: Draft) -> str:
    return f"{_cap(rd.ask(d))} in {_ba_clause(rd, d)}?"


def _iv_ask(rd: Renderer, d: Draft) -> str:
    last = d.hops[-1]
    e_text = rd.noun(d.hops[:-1], d.anchor)
    which = "ask_end" if d.variant == "end" else "ask_start"
    return rd.fact_clause(last.fid, which, subject_text=e_text, side_entity=last.src)


def _iv_which(rd: Renderer, d: Draft) -> str:
    return f"In which {rd.unit_word()} {_iv_ask(rd, d)}?"


def _iv_when(rd: Renderer, d: Draft) -> str:
    return f"When {_iv_ask(rd, d)}?"


def _seq(rd: Renderer, d: Draft) -> str:
    if d.variant == "next":
        last = d.hops[-1]
        e_text = rd.noun(d.hops[:-1], d.anchor)
        ev = rd.rel(last.rel).is_event
        clause = rd.fact_clause(
            d.ref_fid, "start_clause" if ev else "end_clause", subject_text=e_text, side_entity=last.src
        )
        return f"After {clause}, {rd.ask(d)} next?"
    return f"{_cap(rd.ask(d))} {d.variant}?"


def _seq_alt(rd: Renderer, d: Draft) -> str:
    if d.variant == "next":
        # "Who won the William Allan Award next after Elizabeth F. Neufeld?": the reference is named by
        # its other endpoint only (the only fact of the timeline with it), without repeating the clause
        row = rd.index.fact_row(d.ref_fid)
        other = row[2] if d.hops[-1].forward else row[0]
        return f"{_cap(rd.ask(d))} next after {rd.ent(other)}?"
    tail = "before any other" if d.variant == "first" else "most recently"
    return f"{_cap(rd.ask(d))} {tail}?"


# template id -> (operator, renderer)
TEMPLATES: dict[str, tuple[str, Callable[[Renderer, Draft], str]]] = {
    "pit.in": ("point_in_time", _pit_in),
    "pit.trailing": ("point_in_time", _pit_trailing),
    "ba.lead": ("before_after", _ba_lead),
    "ba.trailing": ("before_after", _ba_trailing),
    "iv.which": ("interval", _iv_which),
    "iv.when": ("interval", _iv_when),
    "seq.plain": ("sequence", _seq),
    "seq.alt": ("sequence", _seq_alt),
}


def templates_for(operator: str) -> list[str]:
    """Template ids of one operator, in registry order."""
    return [tid for tid, (op, _) in TEMPLATES.items() if op == operator]


def render(rd: Renderer, d: Draft, rng: random.Random) -> tuple[str, str]:
    """Pick a template of the draft's operator with ``rng``; returns ``(template_id, text)``."""
    ids = templates_for(d.operator)
    tid = ids[rng.randrange(len(ids))]
    return tid, TEMPLATES[tid][1](rd, d)
