"""Fuzzing: every reader, the time parser and the spec parser, over hostile input.

Property: each call returns a result or raises chronoqa's own error (:class:`ChronoqaError`, which
:class:`DataError` and :class:`SpecError` extend); never a foreign exception, never a hang (a per-example
alarm of ``HANG_S`` seconds fails the example).

Budget: ``CHRONOQA_FUZZ_EXAMPLES`` examples per property (default 150, about 30 s for the whole file on one
CI core), under the derandomised ``chronoqa`` hypothesis profile of ``tests/conftest.py``, so a CI run
is reproducible. Explore further locally with e.g. ``CHRONOQA_FUZZ_EXAMPLES=5000``.
"""

from __future__ import annotations

import json
import os
import signal
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chronoqa.errors import ChronoqaError

BUDGET = int(os.environ.get("CHRONOQA_FUZZ_EXAMPLES", "150"))
HANG_S = 10
FUZZ = settings(max_examples=BUDGET, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

pytestmark = pytest.mark.fuzz


class _Hang(Exception):
    pass


@contextmanager
def _no_hang() -> Iterator[None]:
    def alarm(signum: int, frame: object) -> None:
        raise _Hang(f"no result within {HANG_S} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(HANG_S)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _result_or_own_error(fn: Callable[[], Any], own: tuple[type[Exception], ...] = (ChronoqaError,)) -> None:
    with _no_hang(), suppress(*own):
        fn()


# -- strategies ------------------------------------------------------------------------------------------

_json_scalar = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
_json = st.recursive(
    _json_scalar,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)
_time_text = st.sampled_from(["1994", "1994-03", "1994-03-07", "1994_03_##", "-405", "1994.0", "2001-02-30"])

_triple = st.fixed_dictionaries(
    {"s": st.text(max_size=6), "r": st.text(max_size=6), "o": st.text(max_size=6)},
    optional={"t_start": _time_text | _json_scalar, "t_end": _time_text | _json_scalar, "doc_id": _json_scalar},
)
_question = st.fixed_dictionaries(
    {"id": st.text(min_size=1, max_size=4) | _json_scalar, "question": st.text(max_size=20) | _json_scalar},
    optional={
        "split": st.sampled_from(["train", "dev", "test"]) | _json_scalar,
        "t_query": _time_text | _json_scalar,
        "S_star": st.lists(_triple, max_size=3) | _json,
        "S_dist": st.lists(_triple, max_size=2) | _json,
        "answers": st.lists(st.text(max_size=5), max_size=2) | _json,
        "hops": st.integers(-2, 5) | _json_scalar,
        "render_time": _json_scalar,
        "time_refs": _json,
        "reference": _json,
    },
)
_doc = st.fixed_dictionaries(
    {
        "doc_id": st.text(min_size=1, max_size=4) | _json_scalar,
        "text": st.text(max_size=8),
        "s": st.text(max_size=4),
        "r": st.text(max_size=4),
        "o": st.text(max_size=4),
    },
    optional={"t_start": _time_text | _json_scalar, "t_end": _time_text | _json_scalar, "fact_id": _json_scalar},
)
_flags = st.fixed_dictionaries(
    {"id": _json_scalar}, optional={"dist_functional": _json_scalar, "stale_functional": _json_scalar}
)
_run_line = st.fixed_dictionaries(
    {
        "qid": st.sampled_from(["q1", "q2"]) | _json_scalar,
        "hits": st.lists(st.deferred(lambda: _hit), max_size=3) | _json,
    }
)
_hit = st.fixed_dictionaries(
    {},
    optional={
        "doc_id": st.sampled_from(["d1", "d2", "zz"]) | _json_scalar,
        "rank": _json_scalar,
        "score": _json_scalar,
        "s": st.text(max_size=4) | _json_scalar,
        "r": st.text(max_size=4),
        "o": st.text(max_size=4),
        "t_start": _time_text | _json_scalar,
    },
)


def _lines(rows: st.SearchStrategy[Any]) -> st.SearchStrategy[bytes]:
    """A JSONL file: JSON lines, sometimes a broken line or a non-UTF-8 byte."""
    line = rows.map(lambda r: json.dumps(r).encode()) | st.binary(max_size=20)
    return st.lists(line, max_size=5).map(lambda ls: b"\n".join(ls) + b"\n")


def _tmp() -> Path:
    return Path(tempfile.mkdtemp(prefix="chronoqa-fuzz-"))


# -- parsers ---------------------------------------------------------------------------------------------


@FUZZ
@given(st.text(max_size=30) | _json_scalar | _time_text)
def test_time_parser(value: Any) -> None:
    from chronoqa.time import TimeParseError, parse_time

    # floor 0 (chronoqa.time) has its own error type, TimeParseError; readers turn it into a DataError
    _result_or_own_error(lambda: parse_time(value, field="x"), (TimeParseError,))


@FUZZ
@given(
    st.text(alphabet='abmk12(),=@."\\ _-:/[]x', max_size=30)
    | st.sampled_from(["bm25", "hybrid(bm25,dense)", 'llm(model="a,b")', "nDCG@10", "rag@1"])
)
def test_spec_parser_and_registries(text: str) -> None:
    from chronoqa.answer import make_answerer
    from chronoqa.retrieve.registry import REGISTRY
    from chronoqa.score.measures import parse_measures
    from chronoqa.spec import RetrieverSpec, parse_spec

    _result_or_own_error(lambda: parse_spec(text))
    _result_or_own_error(lambda: REGISTRY.resolve_params(RetrieverSpec.parse(text)))
    _result_or_own_error(lambda: make_answerer(text))
    _result_or_own_error(lambda: parse_measures([text]))


# -- readers ---------------------------------------------------------------------------------------------


@FUZZ
@given(_lines(_question), _lines(_doc), _lines(_flags))
def test_release_reader(bench: bytes, corpus: bytes, flags: bytes) -> None:
    from chronoqa.artifacts.release import load_release

    d = _tmp()
    (d / "benchmark.jsonl").write_bytes(bench)
    (d / "corpus.jsonl").write_bytes(corpus)
    (d / "functional_negatives.jsonl").write_bytes(flags)
    _result_or_own_error(lambda: load_release(d).load())


@FUZZ
@given(
    _lines(_run_line),
    st.booleans(),
)
def test_run_reader(data: bytes, columnar: bool) -> None:
    from chronoqa.artifacts.runs import read_run
    from chronoqa.records import Doc

    d = _tmp()
    p = d / "x.run.jsonl"
    p.write_bytes(data)
    docs = [Doc("d1", "a r b", "a", "r", "b", "2001", None), Doc("d2", "c r d", "c", "r", "d", None, None)]
    _result_or_own_error(lambda: read_run(p, docs=docs, columnar=columnar))
    trec = d / "x.run.trec"
    trec.write_bytes(data.replace(b"{", b" "))
    _result_or_own_error(lambda: read_run(trec, docs=docs))


@FUZZ
@given(_lines(st.dictionaries(st.sampled_from(["qid", "answer", "status", "explanation", "raw"]), _json_scalar)))
def test_answers_reader(data: bytes) -> None:
    from chronoqa.artifacts.answers import read_answers

    d = _tmp()
    (d / "answers.jsonl").write_bytes(data)
    _result_or_own_error(lambda: read_answers(d))


@FUZZ
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_config_and_labels_readers(data: bytes) -> None:
    from chronoqa.io import read_json
    from chronoqa.pipeline.config import load_config
    from chronoqa.sources.labels import read_entity_labels

    d = _tmp()
    for name, fn in (("run.toml", load_config), ("labels.tsv", read_entity_labels), ("x.json", read_json)):
        (d / name).write_bytes(data)
        _result_or_own_error(lambda fn=fn, name=name: fn(d / name))  # type: ignore[misc]


_toml_value = st.integers(-3, 5) | st.floats(allow_nan=False, width=32) | st.text(max_size=6) | st.booleans()
_toml_doc = st.dictionaries(
    st.sampled_from(["seed", "split", "dataset", "k", "retrieve", "build", "evaluate", "answer", "zz"]),
    _toml_value
    | st.dictionaries(
        st.sampled_from(["retrievers", "k", "n_questions", "max_hops", "n_bootstrap", "limit", "llm", "zz"]),
        _toml_value | st.lists(st.text(max_size=5), max_size=3),
        max_size=3,
    ),
    max_size=4,
)


@FUZZ
@given(_toml_doc)
def test_config_documents(doc: dict[str, Any]) -> None:
    from chronoqa.pipeline.config import dump_toml, load_config

    d = _tmp()
    (d / "run.toml").write_text(dump_toml(doc), encoding="utf-8")
    _result_or_own_error(lambda: load_config(d / "run.toml"))


_row = st.lists(
    st.sampled_from(["0", "1", "2", "x", "", "1994", "1994_03_##", "None", "-5", "2001-13-01", "\xff"]),
    max_size=6,
).map(lambda cells: "\t".join(cells))


@FUZZ
@given(
    st.lists(_row, max_size=6).map(lambda rs: "\n".join(rs).encode()) | st.binary(max_size=60),
    st.sampled_from(["raise", "skip"]),
)
def test_graph_readers(temporal: bytes, policy: str) -> None:
    from chronoqa.sources import read_graph

    d = _tmp()
    kg = d / "kg"
    kg.mkdir()
    (kg / "entities.dict").write_text("0\tA\n1\tB\n2\tC\n", encoding="utf-8")
    (kg / "relations.dict").write_text("0\tr\n1\tq\n", encoding="utf-8")
    (kg / "temporal").write_bytes(temporal)
    _result_or_own_error(lambda: read_graph(kg, on_bad_row=policy))
    tsv = d / "facts.tsv"
    tsv.write_bytes(b"s\tr\to\tstart\tend\n" + temporal)
    _result_or_own_error(lambda: read_graph(tsv, on_bad_row=policy))
