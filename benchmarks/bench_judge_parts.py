"""Judging speed by part, warm: careful T, then careful A, on the answers of ``bench_judge.py``.

Each part runs once over the 10,000 synthetic answers after a warm-up pass over 2,000 of them (so
label caches hold what an evaluation of several answer files holds); CPU time
(``time.process_time``), which is steadier than wall time on a shared machine. Run the same script
against two source trees (``PYTHONPATH=old/src`` and ``PYTHONPATH=src``, interleaved, several times)
to compare them under the same load. Prints one line; writes nothing.

Run: ``python benchmarks/bench_judge_parts.py``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_judge import answers_for, synth

from chronoqa.score.answers import score_answer
from chronoqa.score.candidates import CorpusEntities
from chronoqa.score.time_accuracy import score_time


def main() -> None:
    """Time the careful T and A of 10,000 answers, warm, and print the CPU seconds."""
    qs, docs = synth(10_000, 0)
    rs = answers_for(qs)
    ents = CorpusEntities(docs)
    te = ents.time_entities()
    for q, r in zip(qs[:2000], rs[:2000], strict=True):
        score_time(q, r, True, entities=te)
    c = time.process_time()
    for q, r in zip(qs, rs, strict=True):
        score_time(q, r, True, entities=te)
    t_cpu = time.process_time() - c
    c = time.process_time()
    for q, r in zip(qs, rs, strict=True):
        score_answer(q, r, **ents.answer_kwargs(q))
    a_cpu = time.process_time() - c
    print(f"careful T {t_cpu:.2f} s CPU, careful A {a_cpu:.2f} s CPU; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
