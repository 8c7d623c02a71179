"""A run with tied scores reads the same in every tool: ir_measures, pytrec_eval and ranx score its
``.run.trec`` against the release's qrels exactly as ``chronoqa evaluate`` scores the run (6 decimals).

The run's tied hits are in random order, not the doc-id order trec_eval would otherwise fall back to.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import struct
from pathlib import Path

import pytest

from chronoqa.artifacts.release import FunctionalFlags, write_release
from chronoqa.artifacts.runs import RunHit, RunLine, run_paths, trec_scores, write_run
from chronoqa.records import Doc, Question, Triple
from publish_fixtures import chronoqa_cli

N_DOCS, N_QUESTIONS, K = 60, 40, 15


def _doc(i: int) -> Doc:
    return Doc(f"d{i:02d}", f"s{i} r o{i} in 2000.", f"s{i}", "r", f"o{i}", "2000", "2000", f"E{i}", "R", f"O{i}", i)


def _triple(i: int) -> Triple:
    return Triple(f"s{i}", "r", f"o{i}", "2000", "2000", f"E{i}", "R", f"O{i}", i, f"d{i:02d}")


def _hit(i: int, rank: int, score: float) -> RunHit:
    return RunHit(f"d{i:02d}", rank, score, f"s{i}", "r", f"o{i}", "2000", "2000")


@pytest.fixture(scope="module")
def tied(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """A release, its run with ties (every hit among the first 10 tied with another), and the evaluation."""
    base = tmp_path_factory.mktemp("ties")
    rng = random.Random(11)
    questions, lines = [], []
    for qi in range(N_QUESTIONS):
        gold = rng.sample(range(N_DOCS), rng.randint(1, 6))
        questions.append(Question(f"q{qi:02d}", "test", f"question {qi}?", "2000", tuple(_triple(i) for i in gold)))
        ranked = rng.sample(range(N_DOCS), K)  # ties in random order, not trec_eval's doc-id order
        scores = sorted((float(rng.randint(1, 4)) for _ in ranked), reverse=True)  # 4 levels over 15 hits: ties
        hits = tuple(_hit(i, r + 1, s) for r, (i, s) in enumerate(zip(ranked, scores, strict=True)))
        lines.append(RunLine(f"q{qi:02d}", hits))
    flags = [FunctionalFlags(q.id, True, True) for q in questions]
    rel = write_release(base / "rel", questions, [_doc(i) for i in range(N_DOCS)], flags, {"name": "ties"}, "# t\n")
    write_run(base / "runs", "ties", lines, {"spec": "ties"})
    jsonl, trec, _ = run_paths(base / "runs", "ties")
    res = chronoqa_cli(
        "evaluate", "--bench", str(rel), "--run", str(jsonl), "--bootstrap", "10", "--out", str(base / "m.json"),
        "--measure", "R@10", "--measure", "nDCG@10", "--measure", "P@5", "--measure", "MRR",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr[-2000:]
    return rel, trec, base / "m.json"


def _ours(metrics: Path) -> dict[str, float]:
    block = json.loads(metrics.read_text(encoding="utf-8"))
    found: dict[str, float] = {}

    def walk(node: object) -> None:  # the run's overall figures: the "all" slice of the retrieval block
        if isinstance(node, dict):
            if "all" in node and isinstance(node["all"], dict) and "R@10" in node["all"]:
                found.update({k: v["value"] for k, v in node["all"].items() if isinstance(v, dict)})
            for v in node.values():
                walk(v)

    walk(block)
    return found


def _qrels(rel: Path) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for line in (rel / "qrels").read_text(encoding="utf-8").splitlines():
        qid, _, doc, grade = line.split()
        out.setdefault(qid, {})[doc] = int(grade)
    return out


def _run(trec: Path) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for line in trec.read_text(encoding="utf-8").splitlines():
        qid, _, doc, _, score, _ = line.split()
        out.setdefault(qid, {})[doc] = float(score)
    return out


def test_trec_scores_strictly_decrease_in_rank_order(tied: tuple[Path, Path, Path]) -> None:
    _, trec, _ = tied
    rows = [line.split() for line in trec.read_text(encoding="utf-8").splitlines()]
    by_q: dict[str, list[tuple[int, float, float]]] = {}
    for qid, _, _, rank, score, _ in rows:  # a score as Python reads it and as trec_eval holds it (32 bits)
        single = struct.unpack("f", struct.pack("f", float(score)))[0]
        by_q.setdefault(qid, []).append((int(rank), float(score), single))
    assert len(by_q) == N_QUESTIONS
    for hits in by_q.values():
        assert [r for r, _, _ in hits] == list(range(1, K + 1))
        assert all(a[1] > b[1] and a[2] > b[2] for a, b in itertools.pairwise(hits))


def test_trec_scores_keep_distinct_scores_and_lower_ties_minimally() -> None:
    scores = [3.0, 3.0, 2.0, 5.0, 0.1, math.nan]
    got = trec_scores([_hit(i, i + 1, s) for i, s in enumerate(scores)])
    below_3, below_2 = 3.0 - 2.0**-22, 2.0 - 2.0**-23  # one single-precision step below 3 and below 2
    as_single = [struct.unpack("f", struct.pack("f", float(x)))[0] for x in got]  # what trec_eval holds
    assert as_single[:4] == [3.0, below_3, 2.0, below_2]  # a tie and a contradicted score go one step down
    assert got[4] == "0.1"  # the shortest text that reads back as the single-precision value
    assert as_single[5] == struct.unpack("f", struct.pack("I", 0x3DCCCCCC))[0]  # NaN: one step below 0.1


def test_ir_measures_agrees(tied: tuple[Path, Path, Path]) -> None:
    ir_measures = pytest.importorskip("ir_measures")
    rel, trec, metrics = tied
    ours = _ours(metrics)
    names = {"R@10": "R@10", "nDCG@10": "nDCG@10", "P@5": "P@5", "MRR": "RR"}
    agg = ir_measures.calc_aggregate(
        [ir_measures.parse_measure(m) for m in names.values()],
        ir_measures.read_trec_qrels(str(rel / "qrels")),
        ir_measures.read_trec_run(str(trec)),
    )
    for ours_name, theirs in names.items():
        assert round(agg[ir_measures.parse_measure(theirs)], 6) == round(ours[ours_name], 6), ours_name


def test_pytrec_eval_agrees(tied: tuple[Path, Path, Path]) -> None:
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rel, trec, metrics = tied
    ours = _ours(metrics)
    names = {"R@10": "recall_10", "nDCG@10": "ndcg_cut_10", "P@5": "P_5", "MRR": "recip_rank"}
    evaluator = pytrec_eval.RelevanceEvaluator(_qrels(rel), {"recall.10", "ndcg_cut.10", "P.5", "recip_rank"})
    per_q = evaluator.evaluate(_run(trec))
    assert len(per_q) == N_QUESTIONS
    for ours_name, theirs in names.items():
        mean = sum(v[theirs] for v in per_q.values()) / len(per_q)
        assert round(mean, 6) == round(ours[ours_name], 6), ours_name


@pytest.mark.slow  # ranx compiles its measures with numba on first use
def test_ranx_agrees(tied: tuple[Path, Path, Path]) -> None:
    ranx = pytest.importorskip("ranx")
    rel, trec, metrics = tied
    ours = _ours(metrics)
    names = {"R@10": "recall@10", "nDCG@10": "ndcg@10", "P@5": "precision@5", "MRR": "mrr"}
    got = ranx.evaluate(
        ranx.Qrels.from_file(str(rel / "qrels"), kind="trec"),
        ranx.Run.from_file(str(trec), kind="trec"),
        list(names.values()),
    )
    for ours_name, theirs in names.items():
        assert round(float(got[theirs]), 6) == round(ours[ours_name], 6), ours_name


def test_a_tie_written_as_a_tie_would_disagree(tied: tuple[Path, Path, Path]) -> None:
    """The control: the same run with its ties kept reads differently in trec_eval's order (doc id)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rel, trec, metrics = tied
    ours = _ours(metrics)
    raw: dict[str, dict[str, float]] = {}
    for qid, scores in _run(trec).items():  # undo the lowering: round each score back up to its level
        raw[qid] = {doc: float(math.ceil(s)) for doc, s in scores.items()}
    per_q = pytrec_eval.RelevanceEvaluator(_qrels(rel), {"ndcg_cut.10"}).evaluate(raw)
    mean = sum(v["ndcg_cut_10"] for v in per_q.values()) / len(per_q)
    assert round(mean, 6) != round(ours["nDCG@10"], 6)
