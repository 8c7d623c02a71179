"""Judging speed: careful answer accuracy (A) and time accuracy (T) on 10,000 answers.

Target: A and T of 10,000 answers in under 5 s. Questions are those of a YAGO11k release built from
the mirror (``chronoqa build kg --dataset yago11k``, the builder's default 10,000 questions) when
``--bench`` names one, else synthetic table-style questions (seeded). Each question gets one answer
written from its gold the way LLMs write them ("It was X." with an explanation sentence naming the
answer's fact and its dates; every fourth answer names a distractor and dates it, every seventh
swaps the ends) so both rules do real work. Timed: building the corpus index
(:class:`chronoqa.score.candidates.CorpusEntities`) and scoring every answer with
:func:`~chronoqa.score.answers.score_answer` and :func:`~chronoqa.score.time_accuracy.score_time`
(careful, the defaults of ``evaluate``); reported beside: the strict rules on the same answers.
Prints the timings and writes ``benchmarks/results/judge.json``.

Run: ``python benchmarks/bench_judge.py [--bench RELEASE_DIR] [--n 10000]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path
from typing import Any

import numpy as np

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.artifacts.release import load_release
from chronoqa.io import write_json
from chronoqa.records import Doc, Question, Triple
from chronoqa.score.answers import score_answer
from chronoqa.score.candidates import CorpusEntities
from chronoqa.score.time_accuracy import score_time

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")  # fmt: skip


def _say(t: str | None) -> str:
    if not t:
        return "an unknown date"
    parts = t.split("-") if not t.startswith("-") else [t]
    if len(parts) == 3:
        return f"{int(parts[2])} {MONTHS[int(parts[1]) - 1]} {parts[0]}"
    if len(parts) == 2:
        return f"{MONTHS[int(parts[1]) - 1]} {parts[0]}"
    return f"{-int(t)} BC" if t.startswith("-") else t


def synth(n: int, seed: int) -> tuple[list[Question], list[Doc]]:
    """Table-style questions: countries' office holders with day-precise terms."""
    rng = np.random.default_rng(seed)
    docs: list[Doc] = []
    questions: list[Question] = []
    per = 8
    for c in range(n // per + 1):
        role = f"Country{c}, president"
        y = 1950
        terms = []
        for j in range(per):
            start = y + int(rng.integers(1, 6))
            end = start + int(rng.integers(1, 8))
            y = end
            name = f"Person{c}x{j} Surname{c}x{j}"
            s, e = f"{start}-0{1 + j % 9}-1{j % 9}", f"{end}-0{1 + j % 9}-2{j % 9}"
            docs.append(Doc(f"d{c}.{j}", "", role, "name", name, s, e, fact_id=len(docs)))
            terms.append((name, s, e))
        for name, s, e in terms:
            if len(questions) >= n:
                break
            star = (Triple(role, "name", name, s, e),)
            dist = tuple(Triple(role, "name", t[0], t[1], t[2]) for t in terms if t[0] != name)[:3]
            questions.append(
                Question(f"q{len(questions)}", "test", f"Who was {role} during ...?", None, star, S_dist=dist,
                         source="table", operator="allen", allen="during", answers=(name,), answer_ids=(name,),
                         granularity="day",
                         time_refs=({"which": "start", "value": s, "answer": name},
                                    {"which": "end", "value": e, "answer": name}))
            )  # fmt: skip
    return questions[:n], docs


def answers_for(questions: list[Question]) -> list[AnswerRecord]:
    """One LLM-like answer per question (right, a distractor, or swapped ends)."""
    out = []
    for i, q in enumerate(questions):
        gold = q.answers[0] if q.answers else "nobody"
        names = set(q.answers) | set(q.answer_ids)
        fact = next((t for t in q.S_star if names & {t.s, t.o, t.s_id, t.o_id}), q.S_star[0] if q.S_star else None)
        who = gold
        if i % 4 == 3 and q.S_dist:
            who = q.S_dist[0].o
            fact = q.S_dist[0]
        if fact is None:
            out.append(AnswerRecord(q.id, "bench", "ok", f"It was {who}.", f"{who} is the answer."))
            continue
        a, b = _say(fact.t_start), _say(fact.t_end)
        if i % 7 == 6:
            a, b = b, a
        subject = fact.s if fact.o == who or q.answer_type == "time" else fact.o
        expl = f"{subject} and {who}: {who} took office on {a} and left on {b}."
        if q.answer_type == "time":
            expl = f"{fact.s} {fact.r} {fact.o} from {a} to {b}."
        out.append(AnswerRecord(q.id, "bench", "ok", f"It was {who}.", expl))
    return out


def main() -> None:
    """Run the benchmark and write ``benchmarks/results/judge.json``."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bench", type=Path, default=None, help="a release folder (default: synthetic)")
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.bench is not None:
        rel = load_release(args.bench)
        questions, corpus, source = list(rel.questions)[: args.n], list(rel.corpus), str(args.bench)
    else:
        questions, corpus = synth(args.n, args.seed)
        source = "synthetic table questions"
    records = answers_for(questions)
    t0, c0 = time.perf_counter(), time.process_time()
    ents = CorpusEntities(corpus)
    index_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    a_ok = t_ok = t_n = 0
    for q, r in zip(questions, records, strict=True):
        o = score_answer(q, r, **ents.answer_kwargs(q))
        row = score_time(q, r, o.correct, entities=ents.time_entities())
        a_ok += o.correct
        if row.T is not None:
            t_n += 1
            t_ok += bool(row.T)
    careful_s = time.perf_counter() - t0
    careful_cpu = time.process_time() - c0
    t0, c0 = time.perf_counter(), time.process_time()
    for q, r in zip(questions, records, strict=True):
        o = score_answer(q, r, mode="strict")
        score_time(q, r, o.correct, mode="strict")
    strict_s = time.perf_counter() - t0
    strict_cpu = time.process_time() - c0
    total = index_s + careful_s
    res: dict[str, Any] = {
        "source": source,
        "n_answers": len(questions),
        "seconds": {"corpus_index": index_s, "careful_A_and_T": careful_s, "total_careful": total,
                    "total_careful_cpu": careful_cpu, "strict_A_and_T_for_reference": strict_s,
                    "strict_A_and_T_cpu": strict_cpu},
        "A": a_ok / max(1, len(questions)),
        "T": t_ok / max(1, t_n),
        "n_with_T": t_n,
        "meets_target": total < 5.0,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_average_1_5_15": list(os.getloadavg()),
    }  # fmt: skip
    name = "judge.json" if args.bench is None else "judge_" + Path(args.bench).name + ".json"
    write_json(Path(__file__).parent / "results" / name, res)
    print(f"{len(questions)} answers ({source}): index {index_s:.2f} s, careful A+T {careful_s:.2f} s "
          f"(total {total:.2f} s wall, {careful_cpu:.2f} s CPU; target < 5 s), strict {strict_s:.2f} s "
          f"({strict_cpu:.2f} s CPU); load {os.getloadavg()[0]:.1f}; "
          f"A {res['A']:.3f}, T {res['T']:.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
