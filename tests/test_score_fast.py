"""The columnar engine agrees with the per-question reference scorer, from memory and from files."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chronoqa.artifacts.release import FunctionalFlags
from chronoqa.artifacts.runs import Run, read_run
from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.records import Question, Triple
from chronoqa.score.evidence import prepare_question, retrieved_keys, score_evidence
from chronoqa.score.fast import gold_columns, hits_from_run, score_run
from chronoqa.score.measures import MEASURES as MEASURE_REGISTRY
from chronoqa.score.measures import Measure, MeasureProvider, provider, provider_names

MEASURES = tuple(
    Measure.parse(m)
    for m in ("R@3", "R@10", "nDCG@5", "nDCG@10", "MRR", "MRR@2", "P@3", "TRP", "TRP@2", "CCR", "CCR@2")
)


def rand_triple(rng: random.Random) -> Triple:
    a, b = rng.randint(1990, 1996), rng.randint(1990, 1996)
    end = None if rng.random() < 0.1 else str(max(a, b))
    start = None if rng.random() < 0.05 else str(min(a, b))
    return Triple(rng.choice("abc"), rng.choice("rs"), rng.choice("xyz"), start, end)


def make_case(seed: int, n: int = 120) -> tuple[list[Question], dict[str, FunctionalFlags], Run]:
    rng = random.Random(seed)
    qs, flags, hits = [], {}, {}
    for i in range(n):
        gold = tuple(rand_triple(rng) for _ in range(rng.randint(0, 3)))
        stale = tuple(rand_triple(rng) for _ in range(rng.randint(0, 2)))
        dist = tuple(rand_triple(rng) for _ in range(rng.randint(0, 2)))
        qs.append(
            Question(
                f"q{i}",
                "test",
                "?",
                str(rng.randint(1990, 1996)),
                gold,
                S_dist=dist,
                S_stale=stale,
                as_of=rng.choice([None, "1995"]),
                granularity=rng.choice(["year", "year", "month"]),
                hops=rng.randint(1, 4),
                operator=rng.choice(["a", "b"]),
            )
        )
        flags[f"q{i}"] = FunctionalFlags(f"q{i}", rng.random() < 0.7, rng.random() < 0.7)
        if rng.random() < 0.9:
            pool = [*gold, *stale, *dist]
            hits[f"q{i}"] = [
                (rng.choice(pool) if pool and rng.random() < 0.5 else rand_triple(rng)).to_dict()
                for _ in range(rng.randint(0, 12))
            ]
    return qs, flags, Run.from_mapping("r", hits)


def reference(qs: list[Question], flags: dict[str, FunctionalFlags], run: Run) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {k: [] for k in ("n", "trp", "ccr", "stale", "dist", "wrong", *map(str, MEASURES))}
    for q in qs:
        pq = prepare_question(q, flags[q.id])
        keys = retrieved_keys(run.hits.get(q.id, ()))
        row = score_evidence(pq, keys)
        out["n"].append(row.n_retrieved)
        out["trp"].append(row.TRP)
        out["ccr"].append(row.CCR)
        out["stale"].append(row.stale_hit)
        out["dist"].append(row.dist_hit)
        out["wrong"].append(row.wrong_reason)
        for m in MEASURES:
            out[str(m)].append(m(pq, keys))
    return out


def as_optional(num: np.ndarray, den: np.ndarray) -> list[float | None]:
    return [float(x) if d else None for x, d in zip(num.tolist(), den.tolist(), strict=True)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_columnar_equals_reference(seed: int, tmp_path: Path) -> None:
    qs, flags, run = make_case(seed)
    ref = reference(qs, flags, run)
    gold = gold_columns(qs, flags)
    path = tmp_path / "r.run.jsonl"
    with path.open("w") as fh:
        for qid, hs in run.hits.items():
            # shuffle file order but keep ranks: the reader must sort by rank
            ranked = [{**h.to_dict(), "rank": j + 1, "doc_id": "d"} for j, h in enumerate(hs)]
            random.Random(seed).shuffle(ranked)
            fh.write(json.dumps({"qid": qid, "hits": ranked}) + "\n")
    columnar = read_run(path, columnar=True)
    assert columnar.columns is not None  # read by pyarrow, not line by line
    lines = read_run(path)
    assert lines.columns is None and lines.lines == columnar.lines
    for hits in (hits_from_run(run, qs), hits_from_run(columnar, qs), hits_from_run(lines, qs)):
        sc = score_run(gold, hits, MEASURES)
        assert sc.n_retrieved.tolist() == ref["n"]
        assert as_optional(*sc.trp) == pytest.approx(ref["trp"])
        assert sc.ccr.tolist() == ref["ccr"]
        assert [bool(h) if d else None for h, d in zip(sc.stale_hit, sc.stale_defined, strict=True)] == ref["stale"]
        assert [bool(h) if d else None for h, d in zip(sc.dist_hit, sc.dist_defined, strict=True)] == ref["dist"]
        wn, wd = sc.wrong_reason
        assert [bool(w) if d else None for w, d in zip(wn, wd, strict=True)] == ref["wrong"]
        for m in MEASURES:
            assert as_optional(*sc.measures[str(m)]) == pytest.approx(ref[str(m)]), str(m)


def test_file_reader_falls_back_on_numeric_times(tmp_path: Path) -> None:
    qs = [Question("q0", "test", "?", "1994", (Triple("a", "r", "b", "1994", "1994"),))]
    path = tmp_path / "x.run.jsonl"
    path.write_text(
        json.dumps({"qid": "q0", "hits": [{"s": "a", "r": "r", "o": "b", "t_start": 1994.0, "t_end": 1994}]}) + "\n"
    )
    run = read_run(path, columnar=True)
    assert run.columns is None  # the line reader handles TempBench float years
    assert run.lines[0].hits[0].t_start == 1994.0
    sc = score_run(gold_columns(qs), hits_from_run(run, qs))
    assert sc.ccr.tolist() == [1.0]


def test_one_registry_two_providers_that_declare_what_they_support() -> None:
    assert provider_names() == ["columnar", "reference"]
    for name in provider_names():
        assert provider(name).supports == set(MEASURE_REGISTRY), name  # both implement every measure
    with pytest.raises(UnknownNameError, match="Did you mean columnar"):
        provider("columnr")
    partial = MeasureProvider("partial", {"R": provider("reference").implementations["R"]})
    with pytest.raises(ChronoqaError, match="not supported by the partial provider"):
        partial.implementation(Measure.parse("nDCG@10"))
