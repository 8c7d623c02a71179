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

``--baseline REV`` times the careful loop of the code at git revision ``REV`` as well, in the same
run: ``git archive REV src`` is unpacked into a temporary folder and the loop runs in a subprocess
on it, alternating with a subprocess on this tree (``--rounds`` times each; the fastest of each is
kept), so that both see the same load. The old code is reachable only this way, never imported here.

Run: ``python benchmarks/bench_judge.py [--bench RELEASE_DIR] [--n 10000] [--baseline REV]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
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


def _careful(questions: list[Question], corpus: list[Doc], records: list[AnswerRecord]) -> dict[str, float]:
    """Build the corpus index and judge every answer carefully (what ``evaluate`` does); timings and scores."""
    t0, c0 = time.perf_counter(), time.process_time()
    ents = CorpusEntities(corpus)
    index_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    a_ok = t_ok = t_n = 0
    for q, r in zip(questions, records, strict=True):
        o = score_answer(q, r, **ents.answer_kwargs(q))
        row = score_time(q, r, o.correct, entities=ents.time_entities())
        a_ok += o.correct
        if row.T is not None:
            t_n += 1
            t_ok += bool(row.T)
    careful_s = time.perf_counter() - t1
    return {"corpus_index": index_s, "careful_A_and_T": careful_s, "total_careful": index_s + careful_s,
            "total_careful_cpu": time.process_time() - c0, "A": a_ok / max(1, len(questions)),
            "T": t_ok / max(1, t_n), "n_with_T": t_n}  # fmt: skip


def _inputs(bench: Path | None, n: int, seed: int) -> tuple[list[Question], list[Doc], str]:
    if bench is not None:
        rel = load_release(bench)
        return list(rel.questions)[:n], list(rel.corpus), str(bench)
    questions, corpus = synth(n, seed)
    return questions, corpus, "synthetic table questions"


def _subprocess_run(src: Path, args: argparse.Namespace) -> dict[str, float]:
    """One careful run of the chronoqa source tree ``src`` on the same inputs, in a fresh process."""
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--careful-only",
        "--n",
        str(args.n),
        "--seed",
        str(args.seed),
    ]
    if args.bench is not None:
        cmd += ["--bench", str(args.bench)]
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    got: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return got


def _compare(args: argparse.Namespace) -> dict[str, Any]:
    """The careful loop of revision ``args.baseline`` and of this tree, alternating; the fastest run of each."""
    repo = Path(__file__).resolve().parent.parent
    rev = subprocess.run(["git", "-C", str(repo), "rev-parse", args.baseline], check=True, capture_output=True,
                         text=True).stdout.strip()  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "src.tar"
        subprocess.run(["git", "-C", str(repo), "archive", "-o", str(archive), rev, "src"], check=True)
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
        for _ in range(args.rounds):
            runs["before"].append(_subprocess_run(Path(tmp) / "src", args))
            runs["after"].append(_subprocess_run(repo / "src", args))
    best = {k: min(v, key=lambda r: r["total_careful"]) for k, v in runs.items()}
    return {"baseline": rev, "rounds": args.rounds, **best,
            "all_total_careful": {k: [r["total_careful"] for r in v] for k, v in runs.items()},
            "all_total_careful_cpu": {k: [r["total_careful_cpu"] for r in v] for k, v in runs.items()}}  # fmt: skip


def main() -> None:
    """Run the benchmark and write ``benchmarks/results/judge.json``."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bench", type=Path, default=None, help="a release folder (default: synthetic)")
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--baseline", default=None, help="a git revision whose careful loop is timed beside this tree's")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each tree with --baseline (the fastest is kept)")
    ap.add_argument("--careful-only", action="store_true", help=argparse.SUPPRESS)  # one timed run, JSON on stdout
    args = ap.parse_args()
    questions, corpus, source = _inputs(args.bench, args.n, args.seed)
    records = answers_for(questions)
    if args.careful_only:
        print(json.dumps(_careful(questions, corpus, records)))
        return
    careful = _careful(questions, corpus, records)
    t0, c0 = time.perf_counter(), time.process_time()
    for q, r in zip(questions, records, strict=True):
        o = score_answer(q, r, mode="strict")
        score_time(q, r, o.correct, mode="strict")
    strict_s = time.perf_counter() - t0
    strict_cpu = time.process_time() - c0
    total = careful["total_careful"]
    res: dict[str, Any] = {
        "source": source,
        "n_answers": len(questions),
        "seconds": {"corpus_index": careful["corpus_index"], "careful_A_and_T": careful["careful_A_and_T"],
                    "total_careful": total, "total_careful_cpu": careful["total_careful_cpu"],
                    "strict_A_and_T_for_reference": strict_s, "strict_A_and_T_cpu": strict_cpu},
        "A": careful["A"],
        "T": careful["T"],
        "n_with_T": careful["n_with_T"],
        "meets_target": total < 5.0,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_average_1_5_15": list(os.getloadavg()),
    }  # fmt: skip
    if args.baseline is not None:
        res["compare"] = _compare(args)
        res["load_average_1_5_15_after_compare"] = list(os.getloadavg())
    name = "judge.json" if args.bench is None else "judge_" + Path(args.bench).name + ".json"
    write_json(Path(__file__).parent / "results" / name, res)
    print(f"{len(questions)} answers ({source}): index {careful['corpus_index']:.2f} s, careful A+T "
          f"{careful['careful_A_and_T']:.2f} s (total {total:.2f} s wall, {careful['total_careful_cpu']:.2f} s CPU; "
          f"target < 5 s), strict {strict_s:.2f} s ({strict_cpu:.2f} s CPU); load {os.getloadavg()[0]:.1f}; "
          f"A {res['A']:.3f}, T {res['T']:.3f}")  # fmt: skip
    if args.baseline is not None:
        c = res["compare"]
        print(f"same run, fastest of {c['rounds']}: {c['baseline'][:10]} {c['before']['total_careful']:.2f} s wall "
              f"({c['before']['total_careful_cpu']:.2f} s CPU) -> this tree {c['after']['total_careful']:.2f} s wall "
              f"({c['after']['total_careful_cpu']:.2f} s CPU)")  # fmt: skip


if __name__ == "__main__":
    main()
