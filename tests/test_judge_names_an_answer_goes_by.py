"""A country's regime answered by the country's own name: the phrase table's ``[goes_by]``, the builder's
per-question ``answer_names`` and the careful judge reading them.

Blind readers marked "Germany" for the Weimar Republic (Berlin, 1920) and for the German Empire (Śrem, 1891)
"equally right", and the Serbia and Montenegro team's name anachronistic in 2002 (it played as FR Yugoslavia).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.export.hf import question_row
from chronoqa.generate.kg.names import accepted_names, name_verdicts
from chronoqa.generate.kg.phrases import GoesBy, load_phrase_table
from chronoqa.records import Question, Triple
from chronoqa.score.answers import score_answer
from chronoqa.score.judge_names import NameIndex
from chronoqa.sources.hyte import write_hyte
from cli_in_process import cli
from kg_checker import PHRASES
from test_kg_read_year_uncertain import _graph

GOES_BY = load_phrase_table("wikidata12k").goes_by
SLOT = NameIndex({x: (x,) for x in ("Germany", "Weimar Republic", "German Empire", "Nazi Germany", "Soviet Union")})
CONTEXT = ["German Empire", "Nazi Germany", "Germany"]


def _berlin(text: str, gold: Triple, anchor: tuple[Triple, ...] = (), year: str = "1920") -> Question:
    return Question(
        id="q", split="test", question=text, t_query=year, S_star=(gold,), S_anchor=anchor,
        answers=(gold.o,), answer_ids=(gold.o_id,),
    )  # fmt: skip


WEIMAR = Triple("Berlin", "country", "Weimar Republic", "1918", "1933", "Q64", "P17", "Q41304")
EMPIRE = Triple("Berlin", "country", "German Empire", "1871", "1918", "Q64", "P17", "Q43287")
MOVED = _berlin(
    "Which country was Berlin part of at the time László Moholy-Nagy moved there?",
    WEIMAR,
    (Triple("László Moholy-Nagy", "residence", "Berlin", "1920", "1923", "Q1", "P551", "Q64"),),
)
AFTER = _berlin("Which country was Berlin part of immediately after the German Empire?", WEIMAR, (EMPIRE,))


def _judged(q: Question, reply: str, mode: str = "careful") -> str:
    rec = AnswerRecord(q.id, "m", "ok", reply)
    kw = {"candidates": SLOT, "context": CONTEXT} if mode == "careful" else {}
    return score_answer(q, rec, mode=mode, **kw).outcome  # type: ignore[arg-type]


def test_the_phrase_table_declares_the_regimes_names_with_their_reasons() -> None:
    for regime in ("German Empire", "Weimar Republic", "Nazi Germany"):
        assert "Germany" in GOES_BY[regime].names and GOES_BY[regime].reason
    assert GOES_BY["Kingdom of Prussia"].names == ("Prussia",)
    assert "Russia" in GOES_BY["Russian Empire"].names and "USSR" in GOES_BY["Soviet Union"].names
    assert "West Germany" not in GOES_BY and "Ottoman Empire" not in GOES_BY  # considered, not declared
    team = GOES_BY["Serbia and Montenegro national football team"]
    assert (team.first, team.last) == (None, 2002) and team.holds_in(2002) and not team.holds_in(2004)
    # a year-shifted twin moves the years a name holds in
    assert load_phrase_table("wikidata12k").shift_years(10).goes_by[team.label].last == 2012


def test_a_name_is_accepted_only_where_no_other_entity_of_the_question_goes_by_it() -> None:
    assert accepted_names(MOVED, GOES_BY) == ({"answer_id": "Q41304", "name": "Germany"},)
    # the question tells two regimes of Germany apart: the reference entity goes by the same name
    assert accepted_names(AFTER, GOES_BY) == ()
    assert name_verdicts(AFTER, GOES_BY) == [(0, "Germany", "another entity of the question goes by it")]
    # an entity labelled the name itself, and a name the question's text says, refuse it too
    germany = Triple("Berlin", "country", "Germany", "1990", None, "Q64", "P17", "Q183")
    assert (
        accepted_names(_berlin("Which country was Berlin part of just before Germany?", WEIMAR, (germany,)), GOES_BY)
        == ()
    )
    said = _berlin("Which country was the Berlin of Germany part of in 1920?", WEIMAR)
    assert name_verdicts(said, GOES_BY) == [(0, "Germany", "the question says it")]


def test_a_name_that_holds_over_years_is_accepted_only_in_them() -> None:
    team = Triple("Bojan Brnović", "member of sports team", "Serbia and Montenegro national football team",
                  "2002", "2002", "Q2", "P54", "Q1131732")  # fmt: skip
    in_2002 = _berlin("Which national team did Bojan Brnović play for in 2002?", team, year="2002")
    assert next(x["name"] for x in accepted_names(in_2002, GOES_BY)) == "FR Yugoslavia national football team"
    assert accepted_names(_berlin("... in 2004?", team, year="2004"), GOES_BY) == ()
    named = Question(**{**in_2002.__dict__, "answer_names": accepted_names(in_2002, GOES_BY)})
    assert _judged(named, "He played for FR Yugoslavia.") == "correct"  # the senior side by its name then
    assert _judged(in_2002, "He played for FR Yugoslavia.") != "correct"


def test_the_judge_reads_the_accepted_name_where_the_question_accepts_it() -> None:
    named = Question(**{**MOVED.__dict__, "answer_names": accepted_names(MOVED, GOES_BY)})
    for reply in ("Germany", "It was Germany.", "Weimar Republic"):
        assert _judged(named, reply) == "correct", reply
    assert _judged(MOVED, "Germany") == "wrong"  # no names accepted: "Germany" is another candidate
    # a hedge or a second answer stays wrong, as before: the gold by its own name and "Germany" beside it
    for reply in ("Germany, then the Weimar Republic", "Germany or the Weimar Republic", "Probably Germany"):
        assert _judged(named, reply) == "wrong", reply
    assert _judged(named, "the German Empire") == "wrong"
    assert _judged(named, "Germany", mode="strict") == "wrong"  # the strict rule is unchanged
    # where the question tells regimes apart the builder accepts no name, and "Germany" stays wrong
    refused = Question(**{**AFTER.__dict__, "answer_names": accepted_names(AFTER, GOES_BY)})
    assert _judged(refused, "Germany") == "wrong"


def test_the_record_declares_the_field_once_and_an_old_release_still_reads() -> None:
    named = Question(**{**MOVED.__dict__, "answer_names": accepted_names(MOVED, GOES_BY)})
    d = named.to_dict()
    assert list(d)[-1] == "answer_names" and d["answer_names"] == [{"answer_id": "Q41304", "name": "Germany"}]
    assert Question.from_dict(json.loads(json.dumps(d))) == named
    old = {k: v for k, v in d.items() if k != "answer_names"}
    assert Question.from_dict(old).answer_names == ()
    assert "answer_names" in Question.arrow_schema().names
    assert json.loads(question_row(d, None)["answer_names"]) == d["answer_names"]


def test_a_malformed_goes_by_entry_is_one_error_naming_the_file_field_and_value(tmp_path: Path) -> None:
    text = (PHRASES / "wikidata12k.toml").read_text(encoding="utf-8")
    entry = re.search(r'^"Kingdom of Prussia" = \{.*\}$', text, re.M)
    assert entry is not None
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(entry.group(0), '"Kingdom of Prussia" = "Prussia"'), encoding="utf-8")
    write_hyte(_graph(), tmp_path / "in")
    res = cli("build", "kg", "--input", str(tmp_path / "in"), "--phrases", str(bad), "--out", str(tmp_path / "o"))
    assert res.exit_code == 2, res.output
    assert f"{bad}: goes_by entry 'Kingdom of Prussia': expected {{ names = [" in res.output
    assert res.output.count("goes_by entry") == 1 and "not before from> } (from" in res.output


def test_a_name_without_a_span_holds_in_every_year() -> None:
    assert GoesBy("X", ("Y",), "why").holds_in(None) and not GoesBy("X", ("Y",), "why", 1990, 1991).holds_in(None)


def test_a_regimes_name_is_refused_in_the_year_the_regime_begins_or_ends() -> None:
    # blind reader: "As of 1945, Bavaria was part of Germany — more precisely, of the American occupation zone" is
    # wrong for Nazi Germany; in 1945 "Germany" may be the regime after it
    nazi = Triple("Bavaria", "country", "Nazi Germany", "1933", "1945", "Q980", "P17", "Q7318")
    at_end = _berlin("As of 1945, which country was Bavaria part of?", nazi, year="1945")
    assert name_verdicts(at_end, GOES_BY) == [
        (0, "Germany", "a regime's name in the year the gold's fact begins or ends")
    ]
    assert accepted_names(_berlin("As of 1940, which country was Bavaria part of?", nazi, year="1940"), GOES_BY)
    # a blind reader marked "Russia" wrong for the RSFSR (the federation of 1991): not declared
    assert "Russia" not in GOES_BY["Russian Soviet Federative Socialist Republic"].names
