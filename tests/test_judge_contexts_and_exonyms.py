"""Careful judging (A) of other holders named as context after the committed answer (a predecessor "before him",
one not yet sworn in, one whose time ended, who appointed the gold), a sub-unit before its parent state, a single
name set in bold inside its sentence, national teams by the country's adjective, states in German, Polish and other
languages, and a Russian name written surname first with its patronymic; each case with a trap of the same shape
that must stay wrong (or undecided)."""

from __future__ import annotations

from answer_verdicts import judged, q
from chronoqa.records import Triple
from chronoqa.score.answers import _latin_exonyms
from chronoqa.score.state_names import STATE_NAMES
from chronoqa.score.translit import foreign_runs, state_exonym

PM = q(answers=("Lena Varga",), operator="time_alignment", outdated_answers=("Otto Brandt",))
PMS = ("Otto Brandt", "Ida Kessler", "Paul Marek")


def test_a_predecessor_named_after_before_him_is_context() -> None:
    assert judged(PM, "Lena Varga; before her it was Otto Brandt.", PMS) == "right"
    assert judged(PM, "Lena Varga. After her came Paul Marek.", PMS) == "right"
    # the predecessor committed to, with the gold as the one before: wrong
    assert judged(PM, "Otto Brandt; before him it was Lena Varga.", PMS) == "wrong"
    # both listed, or hedged between: no context word, two answers
    assert judged(PM, "Lena Varga and Otto Brandt.", PMS) == "wrong"
    assert judged(PM, "Lena Varga or Otto Brandt, before him.", PMS) == "wrong"


def test_a_winner_not_yet_in_office_is_context() -> None:
    text = "As of December it is Lena Varga — Otto Brandt had won the election but wouldn't be inaugurated until May."
    assert judged(PM, text, PMS) == "right"
    assert judged(PM, "Lena Varga; Paul Marek was not yet sworn in.", PMS) == "right"
    # the winner committed to: wrong (the outdated holder, not the gold)
    assert judged(PM, "Otto Brandt, who had won the election.", PMS) == "wrong"
    # a successor listed plainly after the gold stays a second answer
    assert judged(PM, "Lena Varga, then Otto Brandt.", PMS) == "wrong"


def test_a_self_correction_that_ends_the_first_holders_time_lands_on_the_second() -> None:
    text = "Otto Brandt... no wait, Brandt died in May; the head is now Lena Varga, sworn in that summer."
    assert judged(PM, text, PMS) == "right"
    assert judged(PM, "Lena Varga; Ida Kessler stepped down the year before.", PMS) == "right"
    # the correction lands on the rival: wrong
    assert judged(PM, "Lena Varga... no wait, Otto Brandt.", PMS) == "wrong"
    # a holder whose time ended and no gold: wrong, not right
    assert judged(PM, "Brandt died in May.", PMS) == "wrong"


PAIR = q(answers=("Lena Varga", "Otto Brandt"), operator="time_alignment")
PAIR_RIVALS = ("Karl Dorn", "Ida Kessler")


def test_who_appointed_the_gold_is_context() -> None:
    text = "That day Dorn appointed **Lena Varga**, who replaced Otto Brandt the same day — so both held the post."
    assert judged(PAIR, text, PAIR_RIVALS) == "right"
    # the appointer listed beside the gold, or named after it: a rival answer
    assert judged(PAIR, "Karl Dorn, Lena Varga and Otto Brandt.", PAIR_RIVALS) == "wrong"
    assert judged(PAIR, "Lena Varga appointed Dorn; Otto Brandt.", PAIR_RIVALS) == "wrong"


TOWN = q(answers=("Soviet Union",), S_star=(Triple("Kherovo", "country", "Soviet Union", "1922", "1991"),))
STATES = ("Russian Empire", "Ukrainian Soviet Socialist Republic", "Ukraine")


def test_a_sub_unit_named_before_its_parent_state_is_context() -> None:
    assert judged(TOWN, "In 1989 Kherovo was in the Ukrainian SSR, part of the USSR.", STATES) == "right"
    assert judged(TOWN, "the Ukrainian SSR, within the Soviet Union", STATES) == "right"
    # the sub-unit set against the parent, or offered as another answer: wrong
    assert judged(TOWN, "the Ukrainian SSR, not the USSR", STATES) == "wrong"
    assert judged(TOWN, "the Ukrainian SSR or the USSR", STATES) == "wrong"
    assert judged(TOWN, "the Ukrainian SSR", STATES) == "wrong"
    # a question that does not ask where a place lies keeps both names answers
    other = q(answers=("Soviet Union",))
    assert judged(other, "the Ukrainian SSR, part of the USSR", STATES) == "wrong"


CLUB = q(answers=("Vale Verde Futebol Clube",))
CLUBS = ("Esporte Clube Bahia", "Fortaleza E.C.", "Goiás Esporte Clube")


def test_a_single_bold_name_inside_its_sentence_is_the_answer() -> None:
    text = "In 1997 he was at **Vale Verde** — he only moved to Bahia in 1998."
    assert judged(CLUB, text, CLUBS) == "right"
    assert judged(CLUB, "In 1997 he was at **Vale Verde**, which he left for Bahia in 1998.", CLUBS) == "right"
    # a bold rival: the rest decides, and names the rival
    assert judged(CLUB, "In 1997 he was at **Bahia**, after Vale Verde.", CLUBS) == "wrong"
    # the bold name negated, listed with a rival, or hedged: wrong
    assert judged(CLUB, "In 1997 he was not at **Vale Verde** but at Bahia.", CLUBS) == "wrong"
    assert judged(CLUB, "In 1997 he was at **Vale Verde** and Bahia.", CLUBS) == "wrong"
    assert judged(CLUB, "In 1997 he was at Bahia, **Vale Verde**.", CLUBS) == "wrong"
    assert judged(CLUB, "In 1997 he was at Bahia or **Vale Verde**.", CLUBS) == "wrong"
    assert judged(CLUB, "He was at **Vale Verde** and **Bahia**.", CLUBS) == "wrong"


U21 = q(answers=("Turkey national under-21 football team",))
SIDES = ("Turkey national football team", "Turkey national under-19 football team", "Bursaspor")


def test_a_national_side_by_the_countrys_adjective_or_at_under_n_level() -> None:
    assert judged(U21, "In 1998 he was in goal for the Turkish under-21s.", SIDES) == "right"
    assert judged(U21, "He played for the Turkish U21 side.", SIDES) == "right"
    assert judged(U21, "He went on to represent Turkey at under-21 level.", SIDES) == "right"
    # another age, the senior side, another country's adjective: wrong
    assert judged(U21, "He played for the Turkish under-19s.", SIDES) == "wrong"
    assert judged(U21, "He went on to represent Turkey at under-19 level.", SIDES) == "wrong"
    assert judged(U21, "He played for the Turkish national team.", SIDES) == "wrong"
    assert judged(U21, "He played for the Spanish under-21s.", SIDES) == "wrong"
    senior = q(answers=("Spain national football team",))
    spain = ("Spain national under-21 football team",)
    assert judged(senior, "He was capped by the Spanish national team.", spain) == "right"


KINGDOM = q(answers=("Kingdom of Prussia",))
REALMS = ("Free State of Prussia", "German Empire", "Brandenburg-Prussia", "Duchy of Warsaw")


def test_a_state_named_in_german_or_polish() -> None:
    assert judged(KINGDOM, "Königreich Preußen", REALMS) == "right"
    assert judged(KINGDOM, "Prusy (Królestwo Prus)", REALMS) == "right"
    # another state of the same land, or the land's bare name that two states share
    assert judged(KINGDOM, "Freistaat Preußen", REALMS) == "wrong"
    assert judged(KINGDOM, "Prusy", REALMS) == "undecided"
    # hedged with a rival named in German: wrong
    assert judged(KINGDOM, "Königreich Preußen oder Deutsches Kaiserreich", REALMS) == "wrong"
    # negated, with a rival named in German instead: wrong
    assert judged(KINGDOM, "Not the Königreich Preußen but the Herzogtum Warschau.", REALMS) == "wrong"
    assert judged(KINGDOM, "Not the Königreich Preußen.", REALMS) != "right"


def test_one_table_of_state_names_every_name_read_by_one_lookup() -> None:
    # each name of the one table is read by exactly one lookup (Cyrillic or Greek letters by their Latin spelling,
    # Latin letters by their words in order), and gives its own state's label
    for label, names in STATE_NAMES.items():
        for name in names:
            by_spelling = [state_exonym(run) for run in foreign_runs(name)]
            by_words = _latin_exonyms(name)
            assert (by_spelling == [label]) != (by_words == [label]), name
            assert not (by_spelling and by_words), name
    # a name no language of the table writes is no state's
    assert state_exonym("Королевство Пруссия") is None
    assert _latin_exonyms("Königreich Polen") == []


RU = q(answers=("Mikhail Mishustin",), operator="time_alignment")
RU_PMS = ("Dmitry Medvedev", "Mikhail Fradkov", "Vladimir Putin")


def test_a_russian_name_surname_first_with_its_patronymic() -> None:
    assert judged(RU, "Мишустин Михаил Владимирович", RU_PMS) == "right"
    assert judged(RU, "Михаил Мишустин", RU_PMS) == "right"
    # a rival so written is someone else: wrong; a rival sharing the given name is never the gold
    assert judged(RU, "Медведев Дмитрий Анатольевич", RU_PMS) == "wrong"
    assert judged(RU, "Фрадков Михаил Ефимович", RU_PMS) != "right"
