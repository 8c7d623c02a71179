"""The careful A and T verdicts of ~6,000 varied answers, frozen before the judging was optimised for speed.

``tests/fixtures/judge_verdicts.txt`` was written by the scorer as it stood before its speed work
(``python tests/test_score_frozen_verdicts.py`` rewrites it; do that only for a deliberate
change of the rules, and say so). Inputs: every labelled answer and explanation of ``tests/judging/``
judged in its own context and in two others (a different gold, different candidates), and
synthetic office-holder questions scored through :class:`~chronoqa.score.candidates.CorpusEntities`
as ``evaluate`` does, with answers written in many ways (sentences, titles, surnames,
transliterations, hedges, negations, rival names, swapped ends, other date formats). Each line is
one case: careful outcome, counts, strict verdict, careful T and counts, strict T.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.records import Doc, Question, Triple
from chronoqa.score.answers import score_answer
from chronoqa.score.candidates import CorpusEntities
from chronoqa.score.time_accuracy import score_time

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from judging.judging_set import contexts, items  # noqa: E402

FIXTURE = HERE / "fixtures" / "judge_verdicts.txt"
FIRST = ("Horst", "Jürgen", "Søren", "Anne-Marie", "Giuliano", "Massimo", "Moon", "Gerhard", "François", "Olaf")
LAST = ("Köhler", "Weiß", "Møller", "D'Alema", "Amato", "Jae-in", "Schröder", "Hollande", "Rau", "Scholz")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")  # fmt: skip


def _say(iso: str, style: int) -> str:
    y, m, d = (int(x) for x in iso.split("-"))
    return (f"{d} {MONTHS[m - 1]} {y}", f"{MONTHS[m - 1]} {d}, {y}", iso, f"{d:02d}.{m:02d}.{y}",
            f"{MONTHS[m - 1][:3]} {y}", str(y), f"the {d}th of {MONTHS[m - 1]}, {y}")[style % 7]  # fmt: skip


def _synthetic() -> tuple[list[Question], list[Doc], list[AnswerRecord]]:
    docs: list[Doc] = []
    questions: list[Question] = []
    records: list[AnswerRecord] = []
    for c in range(450):
        role = f"Country{c % 60}, {('president', 'chancellor', 'mayor')[c % 3]}"
        terms = []
        y = 1900 + c % 50
        for j in range(6):
            name = f"{FIRST[(c + j) % 10]} {LAST[(c * 3 + j) % 10]}"
            s, e = f"{y + j * 4}-{1 + (c + j) % 12:02d}-{1 + (c * j) % 28:02d}", f"{y + j * 4 + 3}-0{1 + j}-1{j}"
            docs.append(Doc(f"d{c}.{j}", "", role, "name", name, s, e, fact_id=len(docs)))
            terms.append((name, s, e))
        for j in (1, 4):
            name, s, e = terms[j]
            star = (Triple(role, "name", name, s, e),)
            dist = tuple(Triple(role, "name", t[0], t[1], t[2]) for t in terms if t[0] != name)[:3]
            q = Question(f"q{len(questions)}", "test", f"Who was {role} during ...?", None, star, S_dist=dist,
                         source="table", operator="allen", allen=("during", "after", "before")[c % 3],
                         answers=(name,), answer_ids=(name,), granularity=("day", "month", "year")[c % 3],
                         time_refs=({"which": "start", "value": s, "answer": name},
                                    {"which": "end", "value": e, "answer": name}))  # fmt: skip
            for k in range(6):
                i = len(records)
                other, os_, _ = terms[(j + 1 + k) % 6]
                surname = name.split()[-1]
                ans = (name, f"It was {name}.", f"President {name} (CDU)", surname, f"Maybe {name}",
                       f"not {name}", f"{name}, then {other}", f"{name} or {other}", name.replace("ö", "oe"),
                       name.replace("'", ""), f"{surname}, {name.split()[0]}", other, f"{name}ei",
                       f"{name} and {other}", f"{name} who succeeded {other}")[(i * 7 + k) % 15]  # fmt: skip
                a, b = _say(s, i), _say(e, i // 7)
                if i % 5 == 4:
                    a, b = b, a
                expl = (
                    f"{name} took office on {a} and left on {b}.",
                    f"{name} served from {a} to {b}.",
                    f"{other} took office on {_say(os_, i)}; {name} followed on {a} until {b}.",
                    f"Relevant dates: {a}, {b}, {_say(os_, i)}.",
                    f"{surname} was in office since {a}.",
                    f"He resigned on {b}, having taken office on {a}.",
                    f"{other} served from {a} to {b}.",
                    f"{name} ({a} – {b}).",
                    f"From {a}, {name} held the post; his term ended {b}.",
                )[i % 9]
                records.append(AnswerRecord(q.id, "frozen", "ok", ans, expl))
                questions.append(q)
    return questions, docs, records


def _labelled() -> Iterator[tuple[Question, AnswerRecord, tuple[str, ...], tuple[str, ...], tuple[str, ...]]]:
    ctx = list(contexts().values())
    for kind in ("answers", "explanations", "heldout_answers", "heldout_explanations"):
        for n, it in enumerate(items(kind)):
            yield it.question, it.record, it.candidates, it.group, it.others
            for step in (7, 19):
                q, cands, group, others = ctx[(n * step + len(kind)) % len(ctx)]
                rec = AnswerRecord(q.id, "frozen", "ok", it.record.answer, it.record.explanation)
                yield q, rec, cands, group, others


def verdict_lines() -> list[str]:
    """One line per case (see the module docstring)."""
    out = []
    for q, rec, cands, group, others in _labelled():
        a = score_answer(q, rec, candidates=cands, context=group, known=others)
        s = score_answer(q, rec, mode="strict")
        t = score_time(q, rec, a.correct, entities=cands + group + others)
        ts = score_time(q, rec, a.correct, mode="strict")
        out.append(f"{a.outcome} {a.n_gold_named} {a.n_extra} {s.outcome} {t.T} {t.n_cited} {ts.T}")
    questions, docs, records = _synthetic()
    ents = CorpusEntities(docs)
    for q, rec in zip(questions, records, strict=True):
        a = score_answer(q, rec, **ents.answer_kwargs(q))
        s = score_answer(q, rec, mode="strict")
        t = score_time(q, rec, a.correct, entities=ents.time_entities())
        ts = score_time(q, rec, a.correct, mode="strict")
        out.append(f"{a.outcome} {a.n_gold_named} {a.n_extra} {s.outcome} {t.T} {t.n_cited} {ts.T}")
    return out


def test_verdicts_are_the_frozen_ones() -> None:
    want = FIXTURE.read_text(encoding="utf-8").splitlines()
    got = verdict_lines()
    assert len(got) == len(want)
    diff = [(i, w, g) for i, (w, g) in enumerate(zip(want, got, strict=True)) if w != g]
    assert diff == [], diff[:10]
    # the set does real work: every outcome and both T verdicts occur
    assert {x.split()[0] for x in got} >= {"correct", "wrong"} and {x.split()[4] for x in got} >= {"True", "False"}


if __name__ == "__main__":
    FIXTURE.write_text("\n".join(verdict_lines()) + "\n", encoding="utf-8")
