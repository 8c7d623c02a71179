"""The one home of a label's initials (chronoqa.score.initials), used by the answer judge and the time judge.

Each case pins a rule: hyphen parts give their own initials, a club's type affix may go at either end, a native
name's initials, a word in capitals kept whole, which words count (every word but a linking one), the fewest and
the most letters, and labels that have no initials.
"""

from __future__ import annotations

from chronoqa.score.initials import Initials, initials_of


def test_hyphen_parts_and_a_closing_club_affix() -> None:
    assert initials_of("Paris Saint-Germain F.C.") == Initials("psgfc", "psg")
    assert initials_of("Queens Park Rangers F.C.") == Initials("qprfc", "qpr")  # "F.C." in capitals: kept whole
    assert initials_of("Rot-Weiss Essen") == Initials("rwe", None)  # no affix: no bare form
    assert initials_of("Queens Park Rangers F.C.", min_len=3).bare == "qpr"  # the time judge's fewest: three


def test_an_opening_club_affix_goes_too() -> None:
    assert initials_of("FC Bayern Munich").bare == "bm"
    assert initials_of("FC Bayern Munich", min_len=3).bare is None  # two letters are too few for prose


def test_a_native_name_and_a_title() -> None:
    assert initials_of("Sozialdemokratische Partei Deutschlands").full == "spd"
    assert initials_of("Party of Democratic Socialism").full == "pds"  # a linking word is skipped
    assert initials_of("International Master").full == "im"
    assert initials_of("International Master", min_len=3).full is None
    assert initials_of("Woman Grandmaster").full == "wgm"  # one word abbreviated as two


def test_a_word_in_capitals_stays_whole() -> None:
    assert initials_of("Budapesti VSC", min_len=3).full == "bvsc"
    assert initials_of("Zalaegerszegi TE").full == "zte"
    assert initials_of("NATO").full is None  # one word is no initialism of itself


def test_which_words_count() -> None:
    # a lower-case word counts unless it is a linking word
    assert initials_of("Supreme court of Justice").full == "scj"
    assert initials_of("The Party of the Left").full == "pl"
    # a word starting with a digit: no initials
    assert initials_of("1. FC Nord").full is None
    assert initials_of("Новая Газета Москвы").full is None  # another script


def test_fewest_and_most_letters() -> None:
    assert initials_of("Nordhausen").full is None
    assert initials_of("Los Angeles").full == "la"
    assert initials_of("Los Angeles", min_len=3).full is None
    assert initials_of("Union of Soviet Socialist Republics").full == "ussr"
    assert initials_of("Democratic Party of the Socialist Republic of Serbia Montenegro").full is None  # six
