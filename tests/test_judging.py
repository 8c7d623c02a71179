"""Agreement of answer accuracy (A) and time accuracy (T) with the hand-labelled judging set.

The labels in ``tests/judging/`` were written by hand before the careful rules existed; these tests
hold the scorer to them: at least 97% agreement each, and no false accept of a swapped end or of a
date that belongs to someone else.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from chronoqa.score.answers import score_answer
from chronoqa.score.time_accuracy import score_time
from judging.blind import SETS, Judges, build_releases, measure, read_set
from judging.judging_set import Item, agreement, items

ANSWERS = items("answers")
EXPLANATIONS = items("explanations")


def careful_a(it: Item) -> bool:
    return score_answer(it.question, it.record, candidates=it.candidates, context=it.group, known=it.others).correct


def careful_t(it: Item) -> bool | None:
    return score_time(it.question, it.record, True, entities=it.candidates + it.group + it.others).T


def test_the_set_is_big_enough_and_balanced() -> None:
    assert len(ANSWERS) >= 200 and len(EXPLANATIONS) >= 300
    for rows in (ANSWERS, EXPLANATIONS):
        share = sum(it.label for it in rows) / len(rows)
        assert 0.35 < share < 0.65
    sources = {it.question.source for it in ANSWERS + EXPLANATIONS}
    assert sources == {"kg", "table"}


def test_answer_accuracy_agrees_with_the_labels() -> None:
    got = agreement(ANSWERS, careful_a)
    assert got.rate >= 0.97, (got.false_accepts, got.false_rejects)
    assert got.false_accepts == ()


def test_time_accuracy_agrees_with_the_labels() -> None:
    got = agreement(EXPLANATIONS, careful_t)
    assert got.rate >= 0.97, (got.false_accepts, got.false_rejects)
    assert got.no_verdict == ()


@pytest.mark.parametrize("trap", ["swapped", "another person", "another organisation", "another club",
                                  "another prize", "another office", "other people", "right date, another",
                                  "dump", "bare list", "given to", "attributed to"])  # fmt: skip
def test_no_false_accept_of_a_trap(trap: str) -> None:
    rows = [it for it in EXPLANATIONS if trap in it.why and not it.label]
    assert rows, trap
    accepted = [(it.n, it.record.explanation) for it in rows if careful_t(it)]
    assert accepted == []


def test_strict_rules_are_the_earlier_ones() -> None:
    a = agreement(ANSWERS, lambda it: score_answer(it.question, it.record, mode="strict").correct)
    t = agreement(EXPLANATIONS, lambda it: score_time(it.question, it.record, True, mode="strict").T)
    # The answer rule is unchanged: 212 agreements, as recorded before the careful rules were written
    # (docs/metrics.md). The strict time rule reads dates with the new reader (ordinal words, dotted
    # dates), which removes its 33 false rejects; it still accepts every date that appears anywhere.
    assert (a.agree, len(a.false_accepts), len(a.false_rejects)) == (212, 0, 99)
    assert (t.agree, len(t.false_accepts), len(t.false_rejects)) == (291, 44, 0)


def test_held_out_set() -> None:
    # Written after the rules were developed and never used to shape them: 63/64 and 79/80 when first run.
    a = agreement(items("heldout_answers"), careful_a)
    t = agreement(items("heldout_explanations"), careful_t)
    assert a.rate >= 0.95 and t.rate >= 0.95
    assert a.false_accepts == () and t.false_accepts == ()


# --------------------------------------------------------------------------------------------------
# Blind sets (tests/judging/blind/): written and frozen by readers who never saw the scorer
# --------------------------------------------------------------------------------------------------

# Agreement over the decided items (A, T) and the most undecided items, as reached for each set
# (docs/metrics.md, "Blind sets"); every set: no false accept.
BLIND_FLOORS = {
    "set1": {"A": (0.99, 0.015), "T": (0.97, 0.02)},
    "set2": {"A": (0.97, 0.03), "T": (0.95, 0.01)},
    "set3": {"A": (0.99, 0.02), "T": (0.975, 0.07)},
    "set4": {"A": (0.97, 0.025), "T": (0.985, 0.015)},
    "set5": {"A": (0.99, 0.03), "T": (0.99, 0.03)},
    "set6": {"A": (0.965, 0.04), "T": (0.945, 0.04)},
    "set7": {"A": (0.99, 0.01), "T": (0.99, 0.025)},
    "set8": {"A": (0.99, 0.025), "T": (0.98, 0.08)},
    "set9": {"A": (0.99, 0.04), "T": (0.98, 0.02)},
    "set10": {"A": (0.99, 0.02), "T": (0.96, 0.025)},
    "set11": {"A": (0.99, 0.025), "T": (0.955, 0.035)},
    "set12": {"A": (0.975, 0.035), "T": (0.965, 0.04)},
    "set13": {"A": (0.98, 0.035), "T": (0.98, 0.01)},
    "set14": {"A": (0.99, 0.055), "T": (0.96, 0.02)},
    "set15": {"A": (0.99, 0.01), "T": (0.99, 0.01)},
    "set16": {"A": (0.99, 0.01), "T": (0.96, 0.04)},
    "set17": {"A": (0.97, 0.025), "T": (0.96, 0.04)},
    "set18": {"A": (0.99, 0.01), "T": (0.99, 0.025)},
    "set19": {"A": (0.99, 0.01), "T": (0.99, 0.045)},
    "set20": {"A": (0.99, 0.04), "T": (0.94, 0.01)},
    "set21": {"A": (0.99, 0.02), "T": (0.98, 0.04)},
    "set22": {"A": (0.98, 0.01), "T": (0.955, 0.01)},
    "set23": {"A": (0.98, 0.02), "T": (0.94, 0.01)},
    "set24": {"A": (0.98, 0.04), "T": (0.975, 0.03)},
    "set25": {"A": (0.98, 0.035), "T": (0.97, 0.025)},
    "set26": {"A": (0.99, 0.02), "T": (0.98, 0.03)},
    "set27": {"A": (0.97, 0.03), "T": (0.97, 0.04)},
    "set28": {"A": (0.97, 0.035), "T": (0.955, 0.03)},
    "set29": {"A": (0.98, 0.04), "T": (0.955, 0.03)},
    "set30": {"A": (0.98, 0.035), "T": (0.965, 0.055)},
    "set31": {"A": (0.98, 0.02), "T": (0.97, 0.01)},
    "set32": {"A": (0.99, 0.03), "T": (0.96, 0.035)},
    "set33": {"A": (0.99, 0.025), "T": (0.98, 0.03)},
    "set34": {"A": (0.98, 0.03), "T": (0.96, 0.01)},
    "set35": {"A": (0.99, 0.04), "T": (0.97, 0.045)},
}
# False accepts a set found that the rules do not yet avoid (item numbers; docs/metrics.md says why). Any
# other false accept fails the test; so does one of these once it is fixed and not taken off the list.
KNOWN_FALSE_ACCEPTS: dict[str, dict[str, list[int]]] = {
    "set16": {"T": [25]},
    "set17": {"T": [16, 44]},
    "set20": {"T": [107]},
    "set22": {"T": [12]},
    "set27": {"T": [65]},
    "set30": {"T": [8, 36]},
    "set31": {"T": [7, 39]},
    "set32": {"T": [59]},
    "set34": {"T": [29]},
}


@pytest.fixture(scope="module")
def blind_judges(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> Judges:
    built = os.environ.get("CHRONOQA_BLIND_RELEASES")  # prebuilt release folders, to save the builds
    folder = Path(built) if built else build_releases(mirror, tmp_path_factory.mktemp("blind-releases"))
    return Judges(folder)


@pytest.mark.mirror
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BLIND_FLOORS))
def test_blind_set_agreement(name: str, blind_judges: Judges) -> None:
    answers, explanations = read_set(SETS / name)
    assert len(answers) >= 120 and len(explanations) >= 120
    for key, rows, judge in (("A", answers, blind_judges.answer), ("T", explanations, blind_judges.time)):
        got = measure(rows, judge)
        floor, most_undecided = BLIND_FLOORS[name][key]
        assert got.false_accepts == KNOWN_FALSE_ACCEPTS.get(name, {}).get(key, []), (name, key, got.false_accepts)
        assert got.rate >= floor, (name, key, got.line(), got.false_rejects)
        assert got.undecided_share <= most_undecided, (name, key, got.line(), got.undecided)
