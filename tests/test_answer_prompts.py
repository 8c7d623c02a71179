from __future__ import annotations

import pytest

from answer_fixtures import RUN, questions
from chronoqa.answer.prompts import PROTOCOLS, get_protocol, parse_response, relation_phrase, validity_period
from chronoqa.errors import UnknownNameError


def test_validity_periods() -> None:
    assert validity_period("2003", "2009", None) == "(2003–2009)"
    assert validity_period("2003", "2003", None) == "(2003)"
    assert validity_period("2014", None, "2024-01-01") == "(since 2014, ongoing as of 2024-01-01)"
    assert validity_period("2014", None, None) == "(since 2014, no end recorded)"
    assert validity_period(None, "2009", None) == "(until 2009, start unknown)"
    assert validity_period(None, None, None) == "(dates unknown)"


def test_relation_phrase() -> None:
    assert relation_phrase("playsFor") == "plays for"
    assert relation_phrase("member_of_sports_team") == "member of sports team"


def test_rag_renders_facts_with_periods_and_time_tag() -> None:
    q1 = questions()[0]
    msgs = get_protocol("rag@1").messages(q1, RUN["q1"])
    user = msgs[-1]["content"]
    assert "- Ann Lee plays for Red FC (2001–2004)" in user
    assert "- Ann Lee plays for Green FC (since 2010, no end recorded)" in user
    assert "Question time: 2006" in user
    assert msgs[0]["role"] == "system" and "Answer:" in msgs[0]["content"] and "Explanation:" in msgs[0]["content"]
    assert "dates" in msgs[0]["content"]


def test_rag_k_caps_facts_and_closed_book_shows_none() -> None:
    q1 = questions()[0]
    user = get_protocol("rag@1").messages(q1, RUN["q1"], k=1)[-1]["content"]
    assert "Red FC" in user and "Blue FC" not in user
    cb = get_protocol("closed_book@1").messages(q1, RUN["q1"])[-1]["content"]
    assert "Red FC" not in cb and "Facts" not in cb


@pytest.mark.parametrize("proto", sorted(PROTOCOLS))
def test_time_tag_never_rendered_when_render_time_false(proto: str) -> None:
    q3 = next(q for q in questions() if q.id == "q3")
    assert not q3.render_time and q3.t_query == "2005"
    for m in PROTOCOLS[proto].messages(q3, []):
        assert "2005" not in m["content"]
        assert "Question time" not in m["content"]


def test_protocol_lookup() -> None:
    assert get_protocol("rag").id == "rag@1"
    assert get_protocol("closed_book@1").id == "closed_book@1"
    with pytest.raises(UnknownNameError, match="Did you mean"):
        get_protocol("closedbook@1")


@pytest.mark.parametrize(
    ("text", "status", "answer", "expl"),
    [
        ("Answer: Blue FC\nExplanation: from 2005 to 2009.", "ok", "Blue FC", "from 2005 to 2009."),
        ("**Answer:** Blue FC\n**Explanation:** played there\nin 2006", "ok", "Blue FC", "played there in 2006"),
        ("answer: 2005", "ok", "2005", None),
        ("Blue FC\nBecause of 2006.", "ok", "Blue FC", "Because of 2006."),
        ("Answer: unknown\nExplanation: no facts", "abstain", None, "no facts"),
        ("Answer: I don't know", "abstain", None, None),
        ("", "abstain", None, None),
        ("Sure! Answer: x", "ok", "Sure! Answer: x", None),
    ],
)
def test_parse_response(text: str, status: str, answer: str | None, expl: str | None) -> None:
    p = parse_response(text)
    assert (p.status, p.answer, p.explanation) == (status, answer, expl)
