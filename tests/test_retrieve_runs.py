"""Run files: JSONL/TREC/meta round trip, ir_measures reads them, identical runs are reused, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chronoqa.artifacts.runs import read_timing
from chronoqa.errors import ChronoqaError, DataError
from chronoqa.retrieve import RunHit, RunLine, read_run, run_paths, run_retrieval, write_run
from retrieve_fixtures import questions, write_bench


def test_write_read_roundtrip(tmp_path: Path) -> None:
    lines = [
        RunLine(
            "q1", (RunHit("d1", 1, 2.5, "A", "r", "B", "1994", None), RunHit("d2", 2, 0.5, "C", "r", "D", None, None))
        ),
        RunLine("q2", ()),
    ]
    meta = {"spec": "bm25(k1=0.9,b=0.4)", "control": False, "k": 2}
    path = write_run(tmp_path, "x", lines, meta)
    run = read_run(path)
    assert run.lines == tuple(lines)
    assert run.name == "bm25(k1=0.9,b=0.4)" and not run.control
    assert next(list(item) for item in run)[0] == "q1"
    first = json.loads(path.read_text().splitlines()[0])
    assert list(first) == ["qid", "hits"]
    assert list(first["hits"][0]) == ["doc_id", "rank", "score", "s", "r", "o", "t_start", "t_end"]
    trec = run_paths(tmp_path, "x")[1].read_text().splitlines()
    assert trec == ["q1 Q0 d1 1 2.5 x", "q1 Q0 d2 2 0.5 x"]


def test_read_run_names_the_bad_line(tmp_path: Path) -> None:
    p = tmp_path / "bad.run.jsonl"
    p.write_text('{"qid": "q1", "hits": []}\n{"qid": "q2", "hits": [{"doc_id": "d"}]}\n')
    with pytest.raises(DataError, match=r"bad\.run\.jsonl:2: field 'hits\[0\]'"):
        read_run(p)
    p.write_text('{"qid": "q1", "hits": []}\n{"qid": "q1", "hits": []}\n')
    with pytest.raises(DataError, match="one line per question"):
        read_run(p)


def test_ir_measures_reads_the_trec_run(tmp_path: Path) -> None:
    ir_measures = pytest.importorskip("ir_measures")
    bench = write_bench(tmp_path / "b")
    oracle, bm25 = run_retrieval(bench, ["oracle", "bm25"], tmp_path / "runs", k=10)
    qrels = list(ir_measures.read_trec_qrels(str(bench / "qrels")))
    for res in (oracle, bm25):
        trec = run_paths(tmp_path / "runs", res.name)[1]
        run = list(ir_measures.read_trec_run(str(trec)))
        assert len(run) == sum(len(line.hits) for line in res.run)
        agg = ir_measures.calc_aggregate([ir_measures.R @ 10], qrels, run)
        # recall@10 computed independently from the JSONL hits and the questions' S*
        per_q = []
        for q in questions():
            gold = {t.doc_id for t in q.S_star}
            if gold:
                got = {h.doc_id for h in res.run.as_dict()[q.id][:10]}
                per_q.append(len(gold & got) / len(gold))
        assert agg[ir_measures.R @ 10] == pytest.approx(sum(per_q) / len(per_q))
    assert ir_measures.calc_aggregate(
        [ir_measures.R @ 10], qrels, ir_measures.read_trec_run(str(run_paths(tmp_path / "runs", oracle.name)[1]))
    )[ir_measures.R @ 10] == pytest.approx(1.0)


def test_meta_and_reuse(tmp_path: Path) -> None:
    bench = write_bench(tmp_path / "b")
    (first,) = run_retrieval(bench, ["bm25(k1=0.9,b=0.4)"], tmp_path / "runs", k=5)
    assert not first.reused
    meta = json.loads(run_paths(tmp_path / "runs", first.name)[2].read_text())
    for key in ("spec", "control", "corpus_sha256", "benchmark_sha256", "toolkit_version", "k", "n_questions"):
        assert key in meta
    assert meta["spec"] == "bm25(k1=0.9,b=0.4)" and meta["k"] == 5 and meta["n_questions"] == len(questions())
    assert meta["control"] is False and "timing" not in meta  # timings: a file of their own
    assert "retrieve_s" in read_timing(first.path)
    before = first.path.read_bytes()
    (again,) = run_retrieval(bench, ["bm25(k1=0.9,b=0.4)"], tmp_path / "runs", k=5)
    assert again.reused and again.run.lines == first.run.lines
    (other_k,) = run_retrieval(bench, ["bm25(k1=0.9,b=0.4)"], tmp_path / "runs", k=3)
    assert not other_k.reused
    (split,) = run_retrieval(bench, ["bm25(k1=0.9,b=0.4)"], tmp_path / "runs2", k=5, split="dev")
    assert [line.qid for line in split.run] == ["q5", "q6"]
    # a changed corpus is not reused
    corpus = bench / "corpus.jsonl"
    corpus.write_text(corpus.read_text().replace("Marseille", "Marseilles"))
    (changed,) = run_retrieval(bench, ["bm25(k1=0.9,b=0.4)"], tmp_path / "runs", k=5)
    assert not changed.reused
    # determinism: a fresh run into another folder is byte-identical to the first
    write_bench(tmp_path / "b2")
    (fresh,) = run_retrieval(tmp_path / "b2", ["bm25(k1=0.9,b=0.4)"], tmp_path / "runs3", k=5, reuse=False)
    assert fresh.path.read_bytes() == before


def test_unknown_split_and_typo_fail_early(tmp_path: Path) -> None:
    from chronoqa.errors import ChronoqaError, UnknownNameError

    bench = write_bench(tmp_path / "b")
    with pytest.raises(ChronoqaError, match="splits there: dev, test"):
        run_retrieval(bench, ["bm25"], tmp_path / "runs", split="train")
    with pytest.raises(UnknownNameError, match="Did you mean bm25"):
        run_retrieval(bench, ["bm25", "bm52"], tmp_path / "runs")
    assert not (tmp_path / "runs" / "bm25.run.jsonl").exists()


def test_cli_retrieve_end_to_end(tmp_path: Path) -> None:
    from chronoqa.cli import app

    bench = write_bench(tmp_path / "b")
    runner = CliRunner(env={"COLUMNS": "240"})
    args = ["retrieve", "--bench", str(bench), "-r", "bm25(k1=0.9,b=0.4)", "-r", "graph", "-r", "oracle"]
    res = runner.invoke(app, [*args, "--k", "10", "--out", str(tmp_path / "runs")])
    assert res.exit_code == 0, res.output
    assert "R@10 S*" in res.output
    for name in ("graph", "oracle"):
        assert (tmp_path / "runs" / f"{name}.run.jsonl").exists()
        assert (tmp_path / "runs" / f"{name}.run.trec").exists()
    again = runner.invoke(app, [*args, "--k", "10", "--out", str(tmp_path / "runs")])
    assert again.exit_code == 0 and "yes" in again.output
    bad = runner.invoke(app, ["retrieve", "--bench", str(bench), "-r", "bm52", "--out", str(tmp_path / "r")])
    assert bad.exit_code == 2 and "Did you mean bm25" in bad.output
    listing = runner.invoke(app, ["retrieve", "--list"])
    assert listing.exit_code == 0 and "bm25_temporal" in listing.output


def test_one_reader_for_every_run_shape(tmp_path: Path) -> None:
    from chronoqa.artifacts.release import load_release
    from chronoqa.artifacts.runs import Run
    from chronoqa.errors import ChronoqaError

    bench = write_bench(tmp_path / "b")
    (oracle,) = run_retrieval(bench, ["oracle"], tmp_path / "runs", k=10)
    jsonl, trec, _ = run_paths(tmp_path / "runs", oracle.name)
    corpus = load_release(bench).corpus
    from_jsonl = read_run(jsonl)
    from_trec = read_run(trec, docs=corpus)  # the TREC file names documents: the corpus gives their triples
    assert from_trec.name == from_jsonl.name == "oracle"  # both find the same meta file
    assert [(line.qid, [(h.doc_id, h.rank, h.s, h.o, h.t_start) for h in line.hits]) for line in from_trec] == [
        (line.qid, [(h.doc_id, h.rank, h.s, h.o, h.t_start) for h in line.hits]) for line in from_jsonl if line.hits
    ]  # TREC has no line for an empty retrieval
    with pytest.raises(ChronoqaError, match=r"pass docs=release\.corpus"):
        read_run(trec)
    # the columnar read is an option of the same reader, and gives the same lines
    assert read_run(jsonl, columnar=True).lines == from_jsonl.lines
    # in-memory triples (Triple, dicts, 5-tuples), in rank order; a Run passes through
    by_q = {q.id: list(q.S_star) for q in questions()}
    mixed = {"q1": [("A", "r", "B", 1994.0, None), {"s": "C", "r": "r", "o": "D"}]}
    assert read_run(by_q).as_dict()["q1"][0].s == questions()[0].S_star[0].s
    assert [h.rank for h in read_run(mixed).lines[0].hits] == [1, 2]
    assert read_run(from_jsonl) is from_jsonl and isinstance(from_jsonl, Run)
    # lenient where the scorer was: no doc_id, score or rank, float times, file order breaks rank ties
    lenient = tmp_path / "tb.run.jsonl"
    raw = [{"s": "A", "r": "r", "o": "B", "t_start": 1994.0}, {"s": "C", "r": "r", "o": "D", "rank": 1}]
    lenient.write_text(json.dumps({"qid": "q1", "hits": raw}) + "\n")
    hits = read_run(lenient).lines[0].hits
    assert [(h.s, h.rank, h.doc_id, h.t_start) for h in hits] == [("A", 1, "", 1994.0), ("C", 1, "", None)]


def test_a_parquet_only_release_is_retrieved_like_its_jsonl_twin(tmp_path: Path) -> None:
    from chronoqa.artifacts.release import FunctionalFlags, write_release
    from retrieve_fixtures import docs

    qs = questions()
    flags = [FunctionalFlags(q.id, True, True) for q in qs]
    for fmt in ("jsonl", "parquet"):
        write_release(tmp_path / fmt, qs, docs(), flags, {"name": "tiny", "seed": 0}, "# tiny\n", corpus_format=fmt)
    assert not (tmp_path / "parquet" / "corpus.jsonl").exists()
    runs = {
        fmt: run_retrieval(tmp_path / fmt, ["bm25", "oracle"], tmp_path / f"runs-{fmt}", k=5)
        for fmt in ("jsonl", "parquet")
    }
    for a, b in zip(runs["jsonl"], runs["parquet"], strict=True):
        assert a.run.lines == b.run.lines and len(a.run.lines) == len(qs)
    (tmp_path / "parquet" / "corpus.parquet").unlink()
    with pytest.raises(ChronoqaError, match=r"has no corpus\.jsonl or corpus\.parquet"):
        run_retrieval(tmp_path / "parquet", ["bm25"], tmp_path / "runs-none", k=5)
