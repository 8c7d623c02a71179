"""The names a question accepts for its gold answers: the phrase table's ``[goes_by]``, where they answer it.

A regime of a country is answered by the country's own name ("Germany" for the Weimar Republic in 1920), but only
where the name tells the gold from everything else the question is about: "which country was Berlin part of
immediately after the German Empire?" tells two regimes of Germany apart, and "Germany" answers neither. So a
declared name is accepted for a gold answer only where it holds in the question's year (:meth:`GoesBy.holds_in`),
no other entity the question names or rests on (its answer facts' and reference facts' entities, its other gold
answers) goes by the same name, by its label or by a name declared for it, the question's text does not say the name
itself, and, for a name several declared entities go by, the question's year is none the gold's fact begins or ends
in (the name may be the next regime's). An outdated answer (an earlier holder of a present-state question) is no
such entity: "As of 1928" asks for the country then, and "Germany" names the Weimar Republic as well as the German
Empire before it; the judge reads the outdated holder by its own label. The judge reads the accepted names as more
names of the gold (:func:`chronoqa.score.answers.score_answer`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from chronoqa.generate.kg.phrases import GoesBy
from chronoqa.records import Question
from chronoqa.time import parse_time

__all__ = ["REFUSED", "accepted_names", "name_verdicts"]

#: Why a declared name is not accepted for a question's gold answer.
REFUSED: Final = (
    "not in the question's year",
    "another entity of the question goes by it",
    "the question says it",
    "a regime's name in the year the gold's fact begins or ends",
)
_WORD: Final = re.compile(r"\w+")


def _key(text: str) -> str:
    return " ".join(_WORD.findall(text.casefold()))


def _others(q: Question, i: int) -> set[str]:
    """The labels of every entity the question names or rests on, but its ``i``-th gold answer."""
    gold, gold_id = q.answers[i], q.answer_ids[i] if i < len(q.answer_ids) else ""
    out: set[str] = set()
    for t in (*q.S_star, *q.S_anchor):
        for label, eid in ((t.s, t.s_id), (t.o, t.o_id)):
            if label and label != gold and not (gold_id and eid == gold_id):
                out.add(label)
    out.update(a for j, a in enumerate(q.answers) if j != i and a != gold)
    return out


def _shared(name: str, goes_by: Mapping[str, GoesBy]) -> bool:
    """Whether several declared entities go by ``name`` (regimes of one country: "Germany", "Yugoslavia")."""
    return sum(_key(name) in {_key(n) for n in g.names} for g in goes_by.values()) > 1


def _at_an_end(q: Question, i: int, year: int | None) -> bool:
    """Whether the question's year is one a fact of its ``i``-th gold answer begins or ends in.

    The country may have changed regimes that year: its name may be the next regime's ("As of 1945, Bavaria was part of
    Germany, more precisely the American occupation zone": a blind reader marked it wrong for Nazi Germany).
    """
    gold = q.answers[i]
    ends = {p.year for t in q.S_star if gold in (t.s, t.o) for p in (parse_time(t.t_start), parse_time(t.t_end)) if p}
    return year is not None and year in ends


def name_verdicts(q: Question, goes_by: Mapping[str, GoesBy]) -> list[tuple[int, str, str | None]]:
    """Per gold answer with declared names, each name and why it is refused (``None``: accepted; :data:`REFUSED`)."""
    t = q.t_query_point
    year = t.year if t is not None else None
    text = f" {_key(q.question)} "
    out: list[tuple[int, str, str | None]] = []
    for i, label in enumerate(q.answers):
        declared = goes_by.get(label)
        if declared is None:
            continue
        others = _others(q, i)
        taken = {_key(o) for o in others} | {_key(n) for o in others if o in goes_by for n in goes_by[o].names}
        for name in declared.names:
            why = None
            if not declared.holds_in(year):
                why = REFUSED[0]
            elif _key(name) in taken:
                why = REFUSED[1]
            elif f" {_key(name)} " in text:
                why = REFUSED[2]
            elif _shared(name, goes_by) and _at_an_end(q, i, year):
                why = REFUSED[3]
            out.append((i, name, why))
    return out


def accepted_names(q: Question, goes_by: Mapping[str, GoesBy]) -> tuple[dict[str, str], ...]:
    """The question's ``answer_names``: ``{"answer_id", "name"}`` per accepted name, in gold then declared order."""
    if not goes_by:
        return ()
    return tuple(
        {"answer_id": q.answer_ids[i] if i < len(q.answer_ids) else q.answers[i], "name": name}
        for i, name, why in name_verdicts(q, goes_by)
        if why is None
    )
