"""One spec grammar and one registry helper for retrievers, answerers, prompt protocols and measures."""

from __future__ import annotations

import pytest

from chronoqa.answer import ANSWERERS, make_answerer, parse_spec
from chronoqa.answer.prompts import get_protocol
from chronoqa.errors import UnknownNameError
from chronoqa.retrieve import REGISTRY
from chronoqa.score.measures import Measure
from chronoqa.spec import NameTable, Spec, SpecError


def test_answerer_spec_reads_quoted_commas_like_the_retriever_grammar() -> None:
    assert parse_spec('llm(model="a,b")') == ("llm", {"model": "a,b"})
    assert parse_spec("llm(model=m,base_url=https://api.openai.com/v1,k=5)") == (
        "llm",
        {"model": "m", "base_url": "https://api.openai.com/v1", "k": 5},
    )
    answerer = make_answerer('llm(model="a,b")')
    assert Spec.parse(answerer.spec) == Spec("llm", params=(("model", "a,b"), ("protocol", "rag@1")))
    with pytest.raises(SpecError, match="expected name or name"):
        parse_spec("llm(bm25)")


@pytest.mark.parametrize(
    ("lookup", "typo", "hint"),
    [
        (make_answerer, "extractiv", "extractive"),
        (lambda s: make_answerer(f"llm(model=m,temprature={s})"), "0", "temperature"),
        (get_protocol, "rag@2", "rag@1"),
        (get_protocol, "closed_bok", "closed_book"),
        (Measure.parse, "nDGC@10", "nDCG"),
        (lambda s: REGISTRY.info(s), "bm52", "bm25"),
    ],
)
def test_unknown_names_say_did_you_mean(lookup: object, typo: str, hint: str) -> None:
    with pytest.raises(UnknownNameError, match=f"Did you mean {hint}"):
        lookup(typo)  # type: ignore[operator]


def test_at_numbers_round_trip_and_every_registry_is_a_name_table() -> None:
    for text in ("rag@1", "nDCG@10", "hybrid(bm25,dense,k=60)", 'x@2(a="b,c")'):
        assert str(Spec.parse(text)) == text
    assert get_protocol("rag").id == "rag@1" and get_protocol("rag@1").id == "rag@1"
    assert Measure.parse("nDCG@10") == Measure("nDCG", 10)
    assert isinstance(ANSWERERS, NameTable)
    with pytest.raises(SpecError, match="positive integer"):
        Spec.parse("rag@")
    table: NameTable[int] = NameTable("thing", [("one", 1)])
    with pytest.raises(ValueError, match="already registered"):
        table.register("one", 2)
    assert table.get("two") is None and "one" in table and table["one"] == 1
