"""Paraphrase sets: the grammar paraphraser, the faithfulness check, the set's file, and scoring sets together."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from answer_fixtures import FACTS, doc, triple
from chronoqa.artifacts.answers import AnswerRecord, write_answers
from chronoqa.artifacts.paraphrases import ParaphraseRecord, read_paraphrases, write_paraphrases
from chronoqa.artifacts.release import FunctionalFlags, load_release, write_release
from chronoqa.errors import ChronoqaError, DataError
from chronoqa.generate.faithful import check_rewording
from chronoqa.paraphrase import GrammarParaphraser, paraphrase_questions, phrased_questions
from chronoqa.paraphrase.llm import LLMParaphraser, parse_lines
from chronoqa.records import Question, Triple
from chronoqa.score.evaluate import evaluate
from fake_openai import FakeOpenAI

FIXTURES = Path(__file__).parent / "fixtures"
_DAY_DATE = re.compile(
    r"\b\d{1,2} (?:January|February|March|April|May|June|July|August|September|October|November|December) \d{4}\b"
)
_YEAR = re.compile(r"\b1\d{3}\b|\b20\d{2}\b")


def _leader_q(text: str = "Who was the President of China whose term began after 15 February 2001?") -> Question:
    fact = Triple("China, President", "name", "Hu Jintao", "2003-03-15", "2013-03-14")
    return Question("q1", "test", text, None, (fact,), answers=("Hu Jintao",), template_id="table/allen/after.first",
                    granularity="day")  # fmt: skip


# --------------------------------------------------------------------------------------------------
# the check, on hand-made paraphrases
# --------------------------------------------------------------------------------------------------


def test_check_accepts_a_faithful_rewording() -> None:
    q = _leader_q()
    assert check_rewording(q, "Which President of China had a term that began after 15 February 2001?") == ()


@pytest.mark.parametrize(
    ("paraphrase", "reason"),
    [
        ("Who was the President of China whose term began recently?", "drops date"),
        ("Who was the President of China whose term began after 2001?", "drops date"),
        ("Who was the President of China whose term began after 15 February 2001 and before 2010?", "adds date"),
        (
            "Who was the President of China or Taiwan whose term began after 15 February 2001?",
            "adds entity word 'Taiwan'",
        ),
        ("Who was the President whose term began after 15 February 2001?", "drops entity word 'China'"),
        ("Who was the President of China whose term began by 15 February 2001?", "time reader"),
        ("The President of China whose term began after 15 February 2001 was:", "not a question"),
    ],
)
def test_check_rejects_a_dropped_or_added_date_or_entity(paraphrase: str, reason: str) -> None:
    reasons = check_rewording(_leader_q(), paraphrase)
    assert any(reason in r for r in reasons), reasons


def test_check_requires_every_key_value_verbatim() -> None:
    fact = Triple("Roberto Amodio", "member of sports team", "U.S. Avellino 1912", "1984", "1984")
    q = Question(
        "q", "test", "Which team did Roberto Amodio play for in 1984?", "1984", (fact,), answers=("U.S. Avellino 1912",)
    )
    assert check_rewording(q, "In 1984, which team did Roberto Amodio play for?") == ()
    assert "drops key value 'Roberto Amodio'" in check_rewording(q, "In 1984, which team did R. Amodio play for?")


def test_check_rejects_a_rewording_that_names_the_answer() -> None:
    q = Question("q", "test", "How long, in years, did Ann Lee play for Red FC?", None, (), answers=("3",))
    assert "adds the answer '3'" in check_rewording(q, "For how many years (3?) did Ann Lee play for Red FC?")
    assert check_rewording(q, "For how long, in years, did Ann Lee play for Red FC?") == ()
    yes = Question("y", "test", "Is it true that Ann Lee played for Red FC in 2002?", "2002", (), answers=("yes",))
    assert check_rewording(yes, "Yes or no: Ann Lee played for Red FC in 2002?") == ()  # offers both
    assert "adds the answer 'yes'" in check_rewording(yes, "Is it true that Ann Lee played for Red FC in 2002, yes?")


# --------------------------------------------------------------------------------------------------
# the grammar on real releases
# --------------------------------------------------------------------------------------------------


def _independent_faults(q: Question, text: str) -> list[str]:
    """What an annotator's quick look checks, written apart from the check: dates and the subject's words kept."""
    faults = [d for d in _DAY_DATE.findall(q.question) if d not in text]
    faults += [y for y in _YEAR.findall(q.question) if y not in text]
    faults += [w for w in re.findall(r"\b[A-Z][\w-]+", q.question)[1:] if w not in text]
    return faults


@pytest.fixture(scope="module")
def leaders(mirror: Path) -> list[Question]:
    from chronoqa.generate.table import PhraseBook, TableBuildConfig, build_table_benchmark
    from chronoqa.sources.tables import read_table

    table = read_table(mirror / "tdbench" / "dyknow_leaders.csv")
    book = PhraseBook.load(FIXTURES / "tdbench_phrases.json")
    return list(build_table_benchmark([table], TableBuildConfig(), phrases=book).questions)


def test_grammar_on_the_leaders_table(leaders: list[Question]) -> None:
    res = paraphrase_questions(leaders, GrammarParaphraser(), 3)
    kept = [r for r in res.records if r.accepted]
    by_q = {q.id: q for q in leaders}
    assert len({r.qid for r in kept}) == len(leaders)  # every leaders question gets at least one rewording
    assert res.rates["n_with_all_n"] >= 0.8 * len(leaders)
    for r in kept:
        assert _independent_faults(by_q[r.qid], r.question) == [], r
        assert r.question != by_q[r.qid].question
    for r in res.records:
        assert r.accepted == (not r.reasons)
    checked = sum(v["checked"] for v in res.rates["by_template"].values())
    assert checked == len(res.records) and set(res.rates["by_template"]) == {q.template_id for q in leaders}


@pytest.fixture(scope="module")
def small_kg(mirror: Path) -> list[Question]:
    from chronoqa.datasets import load_graph
    from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark

    return list(build_kg_benchmark(load_graph("wikidata12k"), KGBuildConfig(n_questions=300, seed=3)).questions)


def test_grammar_on_a_small_kg_release(small_kg: list[Question]) -> None:
    res = paraphrase_questions(small_kg, GrammarParaphraser(), 3)
    by_q = {q.id: q for q in small_kg}
    kept = [r for r in res.records if r.accepted]
    assert len({r.qid for r in kept}) >= 0.8 * len(small_kg)
    for r in kept:
        assert _independent_faults(by_q[r.qid], r.question) == [], r
    rejected = [r for r in res.records if not r.accepted]
    rate = res.rates
    assert rate["rejected"] == len(rejected) and rate["rejection_rate"] == len(rejected) / len(res.records)
    # a paraphraser is deterministic: the same release gives the same set
    assert paraphrase_questions(small_kg, GrammarParaphraser(), 3).records == res.records


def test_no_paraphrase_says_on_the_year() -> None:
    q = Question("q", "test", "One year before Ann Lee joined Blue FC, which team did Ann Lee play for?", None, (),
                 answers=("Red FC",), granularity="year")  # fmt: skip
    texts = [r.question for r in paraphrase_questions([q], GrammarParaphraser(), 5).records]
    assert "In the year before Ann Lee joined Blue FC, which team did Ann Lee play for?" in texts
    assert not any("On the year" in t for t in texts)


@pytest.mark.parametrize(
    "text",
    [
        "Who was the President of Poland whose term began after 9 July 2008 and ended on 8 July 2010?",
        "How long, in years, was it from when Ann Lee joined Red FC until Ann Lee left Red FC?",
    ],
)
def test_a_phrase_bound_to_a_clause_is_never_moved_to_the_front(text: str) -> None:
    q = Question("q", "test", text, None, (), answers=("x",), granularity="day")
    texts = [r.question for r in paraphrase_questions([q], GrammarParaphraser(), 9).records]
    assert not any(t.startswith(("On ", "When ", "In ")) for t in texts), texts


# --------------------------------------------------------------------------------------------------
# the set's file and scoring sets together
# --------------------------------------------------------------------------------------------------


def _world(root: Path) -> tuple[Path, list[ParaphraseRecord]]:
    idx = {"Red FC": 0, "Blue FC": 1, "Green FC": 2}
    qs = []
    for i, (y, team) in enumerate([(2002, "Red FC"), (2006, "Blue FC"), (2012, "Green FC")]):
        qs.append(Question(f"q{i}", "test", f"In {y}, which team did Ann Lee play for?", str(y), (triple(idx[team]),),
                           answers=(team,), template_id="pit.in"))  # fmt: skip
    rel = root / "release"
    write_release(rel, qs, [doc(i) for i in range(len(FACTS))], [FunctionalFlags(q.id, True, True) for q in qs], {}, "")
    recs = []
    for q in qs:
        y = q.t_query
        for j, text in enumerate(
            [f"Which team did Ann Lee play for in {y}?", f"For which team did Ann Lee play in {y}?"]
        ):
            recs.append(ParaphraseRecord(f"{q.id}~p{j + 1}", q.id, "pit.in", "hand", "hand", text, True))
    recs.append(
        ParaphraseRecord("q0~p3", "q0", "pit.in", "hand", "hand", "Which team did Ann play for?", False, ("x",))
    )
    return rel, recs


def _ans(qid: str, text: str) -> AnswerRecord:
    return AnswerRecord(qid, "hand", "ok", text, None)


def test_all_k_and_flip_rate_on_hand_made_answers(tmp_path: Path) -> None:
    rel, recs = _world(tmp_path)
    # q0: all three phrasings right; q1: the original right, one paraphrase wrong (a flip); q2: all wrong
    answers = [_ans("q0", "Red FC"), _ans("q0~p1", "Red FC"), _ans("q0~p2", "It was Red FC."),
               _ans("q1", "Blue FC"), _ans("q1~p1", "Red FC"), _ans("q1~p2", "Blue FC"),
               _ans("q2", "Red FC"), _ans("q2~p1", "Blue FC"), _ans("q2~p2", "Red FC")]  # fmt: skip
    m = evaluate(rel, answers=answers, paraphrases=recs, n_bootstrap=200).to_dict()
    block = m["paraphrase_sets"]["all"]
    assert block["n_questions"] == 3
    assert block["A_all_k"]["value"] == pytest.approx(1 / 3)
    assert block["flip_rate"]["value"] == pytest.approx(1 / 3)
    assert block["A_original"]["value"] == pytest.approx(2 / 3)
    assert m["answers"]["all"]["A"]["value"] == pytest.approx(2 / 3)  # the originals, scored as before
    for name in ("A_all_k", "flip_rate"):
        assert block[name]["ci_low"] <= block[name]["value"] <= block[name]["ci_high"]
    assert m["paraphrases"] == {"n_questions_with_set": 3, "n_questions_without_set": 0, "n_phrasings": 9,
                                "n_phrasings_answered": 6}  # fmt: skip


def test_a_missing_phrasing_is_wrong_and_a_rejected_one_is_an_error(tmp_path: Path) -> None:
    rel, recs = _world(tmp_path)
    answers = [_ans("q0", "Red FC"), _ans("q0~p1", "Red FC")]  # q0~p2 missing
    block = evaluate(rel, answers=answers, paraphrases=recs, n_bootstrap=0).to_dict()["paraphrase_sets"]["all"]
    assert block["A_all_k"]["value"] == 0.0 and block["flip_rate"]["value"] == pytest.approx(1 / 3)
    with pytest.raises(ChronoqaError, match="q0~p3"):
        evaluate(rel, answers=[*answers, _ans("q0~p3", "Red FC")], paraphrases=recs, n_bootstrap=0)


def test_answers_without_paraphrases_score_as_before(tmp_path: Path) -> None:
    rel, recs = _world(tmp_path)
    answers = [_ans("q0", "Red FC"), _ans("q1", "Blue FC"), _ans("q2", "Red FC")]
    with_set = evaluate(rel, answers=answers, paraphrases=recs, n_bootstrap=50).to_dict()
    without = evaluate(rel, answers=answers, n_bootstrap=50).to_dict()
    assert with_set == without


def test_the_set_file_round_trips_and_names_a_bad_line(tmp_path: Path) -> None:
    _, recs = _world(tmp_path)
    path = tmp_path / "paraphrases.jsonl"
    write_paraphrases(path, recs)
    assert read_paraphrases(path) == recs
    path.write_text(path.read_text().replace('"accepted":true', '"accepted":"yes"', 1))
    with pytest.raises(DataError, match=r"paraphrases.jsonl:1: field 'accepted'"):
        read_paraphrases(path)


def test_phrased_questions_carry_the_gold_of_their_original(tmp_path: Path) -> None:
    _, recs = _world(tmp_path)
    q = Question("q0", "test", "In 2002, which team did Ann Lee play for?", "2002", (triple(0),), answers=("Red FC",))
    out = phrased_questions([q], recs)
    assert [p.id for p in out] == ["q0~p1", "q0~p2"]
    assert all(p.answers == ("Red FC",) and p.S_star == q.S_star for p in out)


def test_cli_paraphrase_then_evaluate(tmp_path: Path) -> None:
    from chronoqa.cli import app

    rel, _ = _world(tmp_path)
    out = tmp_path / "set"
    cmd = ["paraphrase", str(rel), "--n", "2", "--out", str(out), "--phrased-release", str(tmp_path / "both")]
    res = CliRunner().invoke(app, cmd, catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "rejection rate per template" in res.output
    recs = read_paraphrases(out / "paraphrases.jsonl")
    rates = json.loads((out / "paraphrases.rates.json").read_text())
    assert rates["paraphraser"] == "grammar@1" and rates["tried"] == len(recs)
    kept = [r for r in recs if r.accepted]
    both = load_release(tmp_path / "both")
    assert [q.id for q in both.questions] == ["q0", "q1", "q2", *(r.pid for r in kept)]
    assert {q.id: q.question for q in both.questions}[kept[0].pid] == kept[0].question
    gold = {"q0": "Red FC", "q1": "Blue FC", "q2": "Green FC"}
    answers = [_ans(q, a) for q, a in gold.items()] + [_ans(r.pid, gold[r.qid]) for r in kept]
    write_answers(tmp_path / "ans", answers, {})
    args = ["evaluate", "--bench", str(rel), "--answers", str(tmp_path / "ans"), "--paraphrases",
            str(out / "paraphrases.jsonl"), "--out", str(tmp_path / "m.json"), "--bootstrap", "50"]  # fmt: skip
    res = CliRunner().invoke(app, args, catch_exceptions=False)
    assert res.exit_code == 0, res.output
    m = json.loads((tmp_path / "m.json").read_text())
    assert m["paraphrase_sets"]["all"]["A_all_k"]["value"] == 1.0
    assert m["paraphrase_sets"]["all"]["flip_rate"]["value"] == 0.0


# --------------------------------------------------------------------------------------------------
# the LLM path, with a fake server
# --------------------------------------------------------------------------------------------------


def test_parse_lines_strips_numbering_and_quotes() -> None:
    assert parse_lines('1. "Which team?"\n- When?\n\n2) Which team?\nWho?', 3) == ["Which team?", "When?", "Who?"]


def test_llm_paraphraser_through_the_client_and_cache(tmp_path: Path) -> None:
    q = _leader_q()
    reply = ("1. Which President of China had a term that began after 15 February 2001?\n"
             "2. Who was the President of China whose term began after 2001?\n"
             "3. Who was the President of China or Taiwan whose term began after 15 February 2001?")  # fmt: skip
    with FakeOpenAI(lambda n, p: (200, reply, {})) as srv:
        spec = f"llm(model=fake,base_url={srv.base_url},max_tokens=200)"
        para = LLMParaphraser.from_spec(spec, tmp_path / "cache")
        res = paraphrase_questions([q], para, 3)
        assert [r.accepted for r in res.records] == [True, False, False]
        assert res.records[0].rule == "llm" and res.records[0].paraphraser.startswith("llm(model=fake")
        assert "Question: Who was the President of China" in srv.requests[0]["messages"][1]["content"]
        again = LLMParaphraser.from_spec(spec, tmp_path / "cache")
        assert paraphrase_questions([q], again, 3).records == res.records
        assert again.stats["http_calls"] == 0 and again.stats["cache_hits"] == 1
        assert len(srv.requests) == 1


def test_llm_paraphraser_records_a_failed_call_as_no_candidate(tmp_path: Path) -> None:
    with FakeOpenAI(lambda n, p: (400, "bad request", {})) as srv:
        para = LLMParaphraser.from_spec(f"llm(model=fake,base_url={srv.base_url},retries=0)", None)
        res = paraphrase_questions([_leader_q()], para, 3)
    assert res.records == () and para.stats["errors"] == 1 and res.rates["n_with_none"] == 1
