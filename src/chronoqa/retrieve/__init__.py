"""Reference retrievers of different families over a benchmark's corpus, and their run files.

* Protocol (:mod:`chronoqa.retrieve.base`): a retriever sees :class:`RetrievalQuery` (question text,
  and the time tag only where ``render_time`` allows), never the gold.
* Specs (:mod:`chronoqa.retrieve.spec`): ``bm25(k1=0.9,b=0.4)``, ``hybrid(bm25,dense)``, ... parse
  from and print to the same string.
* Registry (:mod:`chronoqa.retrieve.registry`): ``bm25``, ``bm25_temporal``, ``graph``, ``dense``,
  ``hybrid`` and the controls ``oracle``, ``stale_only``, ``dist_only``, ``random``, ``empty``.
* Running (:mod:`chronoqa.retrieve.runs`): :func:`run_retrieval` (reuses identical saved runs); the run
  files themselves (JSONL + TREC + meta, :func:`read_run`, :func:`write_run`) are
  :mod:`chronoqa.artifacts.runs`, re-exported here.
"""

from __future__ import annotations

from chronoqa.retrieve.base import Corpus, Hit, RetrievalQuery, Retriever, query_from_question
from chronoqa.retrieve.registry import REGISTRY, BuildContext, Registry, RetrieverInfo, build_retriever
from chronoqa.retrieve.runs import (
    Run,
    RunHit,
    RunLine,
    RunResult,
    gold_recall,
    load_corpus,
    read_run,
    run_name,
    run_paths,
    run_retrieval,
    write_run,
)
from chronoqa.spec import RetrieverSpec, SpecError, parse_spec

__all__ = [
    "REGISTRY",
    "BuildContext",
    "Corpus",
    "Hit",
    "Registry",
    "RetrievalQuery",
    "Retriever",
    "RetrieverInfo",
    "RetrieverSpec",
    "Run",
    "RunHit",
    "RunLine",
    "RunResult",
    "SpecError",
    "build_retriever",
    "gold_recall",
    "load_corpus",
    "parse_spec",
    "query_from_question",
    "read_run",
    "run_name",
    "run_paths",
    "run_retrieval",
    "write_run",
]
