"""Careful judging of a club named by one word of its label ("Estrellas"), a date stated finer than the question,
years compared in the reply's reasoning ("1994 ≠ 2001"), a bracketed year that glosses a relative date, a move's
source before the next clause's date, a term that began and ended on one day, a conclusion's restated year, a sentence
that opens with a year, an office's bare title, a predecessor in an aside, a second spell "again in D", a label's
initials ("NPC") and "it" before a fact's name: each case with a trap of the same shape that must stay wrong (or not
right)."""

from __future__ import annotations

from chronoqa.records import Triple
from test_judge_scripts_and_spells import q, verdict

CLUBS = ("Tomas Rell", "Estrellas de San Pedro", "RKV Lindholm")
LATER = q(answers=("Estrellas de San Pedro",),
          question="Which team did Tomas Rell play for a year later, counting from when Tomas Rell left RKV Lindholm?",
          S_star=(Triple("Tomas Rell", "playsFor", "Estrellas de San Pedro", "2006", "2007"),),
          S_anchor=(Triple("Tomas Rell", "playsFor", "RKV Lindholm", "1999", "2006"),),
          time_refs=({"which": "end", "value": "2006", "of": "anchor"},))  # fmt: skip


def test_a_head_word_of_one_facts_label_names_that_fact() -> None:
    assert verdict(LATER, "Rell left Lindholm in 2006 and played for Estrellas from 2006 to 2007.", CLUBS) == "right"
    # the answer's spell stated a year late by its head word alone: the data of that fact contradicts it
    assert verdict(LATER, "Rell left Lindholm in 2006 and played for Estrellas from 2007 to 2008.", CLUBS) == "wrong"
    assert verdict(LATER, "Rell left Lindholm in 2006. He had arrived at Estrellas in 2005.", CLUBS) == "wrong"
    # the head word inside another name the release does not know is not the fact's ("Estrellas Verdes")
    text = "Rell left Lindholm in 2006 and played for Estrellas Verdes from 2007 to 2008."
    assert verdict(LATER, text, CLUBS) != "wrong"


BORN = q(answers=("1961",), question="When was Ana Ruiz born in Tolva?",
         S_star=(Triple("Ana Ruiz", "wasBornIn", "Tolva", "1961-02-10", "1961-02-10"),),
         time_refs=({"which": "start", "value": "1961", "of": "answer"},))  # fmt: skip


def test_a_date_finer_than_the_question_must_agree_at_the_unit_it_states() -> None:
    assert verdict(BORN, "Ana Ruiz was born in Tolva on 10 February 1961.", ("Ana Ruiz", "Tolva")) == "right"
    assert verdict(BORN, "Ana Ruiz was born in Tolva in February 1961.", ("Ana Ruiz", "Tolva")) == "right"
    assert verdict(BORN, "Ana Ruiz was born in Tolva in 1961.", ("Ana Ruiz", "Tolva")) == "right"
    # the right year with the wrong day or month is a wrong date
    assert verdict(BORN, "Ana Ruiz was born in Tolva on 10 March 1961.", ("Ana Ruiz", "Tolva")) == "wrong"
    assert verdict(BORN, "Ana Ruiz was born in Tolva in March 1961.", ("Ana Ruiz", "Tolva")) == "wrong"


SAME_YEAR = q(answers=("no",),
              question="Yes or no: Ivo Dral left Korsa FC in the same year that Pim Lode joined Korsa FC?",
              S_star=(Triple("Ivo Dral", "playsFor", "Korsa FC", "1988", "1994"),),
              S_anchor=(Triple("Pim Lode", "playsFor", "Korsa FC", "2001", "2001"),),
              time_refs=({"which": "end", "value": "1994", "of": "answer"},
                         {"which": "start", "value": "2001", "of": "anchor"}))  # fmt: skip
KORSA = ("Ivo Dral", "Pim Lode", "Korsa FC")


def test_years_compared_in_the_replys_reasoning_date_no_fact() -> None:
    text = "Ivo Dral played for Korsa FC from 1988 to 1994. Pim Lode only joined Korsa in 2001. 1994 ≠ 2001, so no."
    assert verdict(SAME_YEAR, text, KORSA) == "right"
    text = "Ivo Dral played for Korsa FC from 1988 to 1995. Pim Lode only joined Korsa in 2001. 1995 ≠ 2001, so no."
    assert verdict(SAME_YEAR, text, KORSA) == "wrong"


BEFORE = q(answers=("Tarvo United",),
           question="One year before Lars Venn joined Hertzog Olsen, which team did he play for?",
           S_star=(Triple("Lars Venn", "playsFor", "Tarvo United", "2006", "2009"),),
           S_anchor=(Triple("Lars Venn", "playsFor", "Hertzog Olsen", "2009", "2010"),),
           time_refs=({"which": "start", "value": "2009", "of": "anchor"},))  # fmt: skip
VENN = ("Lars Venn", "Tarvo United", "Hertzog Olsen")


def test_a_bracketed_year_after_a_relative_date_is_computed_not_stated() -> None:
    text = "Venn joined Hertzog Olsen in 2009, so one year before (2008) he was at Tarvo United."
    assert verdict(BEFORE, text, VENN) == "right"
    text = "Venn joined Hertzog Olsen in 2010, so one year before (2009) he was at Tarvo United."
    assert verdict(BEFORE, text, VENN) == "wrong"


STAYED = q(answers=("yes",), question="Was it still the case in 2003 that Nils Aas played for Brenna IF?",
           S_star=(Triple("Nils Aas", "playsFor", "Brenna IF", "2002", "2004"),),
           time_refs=({"which": "end", "value": "2004", "of": "answer"},))  # fmt: skip
AAS = ("Nils Aas", "Brenna IF", "Fjell BK", "Sund FK")


def test_a_moves_source_owns_no_date_of_the_next_clause() -> None:
    text = "Aas joined Brenna IF in 2002 from Fjell BK and stayed until 2004, when he moved to Sund FK."
    assert verdict(STAYED, text, AAS) == "right"
    text = "Aas joined Brenna IF in 2002 from Fjell BK and stayed until 2005, when he moved to Sund FK."
    assert verdict(STAYED, text, AAS) == "wrong"


ACTING = q(answers=("Olek Wrona",), source="table", granularity="day",
           question="Who was the President of Nordia whose term ended immediately before 9 July 2010?",
           S_star=(Triple("Nordia", "president", "Olek Wrona", "2010-07-08", "2010-07-08"),),
           time_refs=({"answer": "Olek Wrona", "value": "2010-07-08", "which": "end"},))  # fmt: skip


def test_a_term_of_one_day_is_stated_by_its_day() -> None:
    holders = ("Olek Wrona", "Jan Sowa")
    text = "Sowa acted until 8 July 2010; Wrona then acted for that same day, 8 July 2010."
    assert verdict(ACTING, text, holders) == "right"
    assert verdict(ACTING, "Sowa acted until 8 July 2010; Wrona then acted on 9 July 2010.", holders) == "wrong"
    # a range with a wrong first day states no start of the one-day term
    assert verdict(ACTING, "Wrona acted as president (8 June 2010 – 8 July 2010).", holders) == "wrong"


WED = q(answers=("Omar Lindqvist",), question="In 1999, who was Rita Solano married to?",
        S_star=(Triple("Rita Solano", "isMarriedTo", "Omar Lindqvist", "1991", "2001"),),
        time_refs=({"which": "start", "value": "1991", "of": "answer"},
                   {"which": "end", "value": "2001", "of": "answer"}))  # fmt: skip
SPOUSES = ("Rita Solano", "Omar Lindqvist")


def test_a_conclusions_restated_year_is_no_start() -> None:
    text = "Solano and Lindqvist were married from 1991 to 2001, so in 1999 she was married to him."
    assert verdict(WED, text, SPOUSES) == "right"
    text = "Solano and Lindqvist were married from 1992 to 2001, so in 1999 she was married to him."
    assert verdict(WED, text, SPOUSES) == "wrong"
    # a year stated as the start without the conclusion's lead-in still contradicts
    assert verdict(WED, "Solano and Lindqvist were married from 1991 to 2001. She married him in 1999.", SPOUSES) == (
        "wrong"
    )


PART = q(answers=("Lower Vardia",), question="In which administrative unit was Kessel Region located in 1973?",
         S_star=(Triple("Kessel Region", "locatedIn", "Lower Vardia", "1946", "2004"),),
         time_refs=({"which": "start", "value": "1946", "of": "answer"},
                    {"which": "end", "value": "2004", "of": "answer"}))  # fmt: skip
UNITS = ("Kessel Region", "Lower Vardia", "Province of Tamberg")


def test_a_sentence_may_open_with_a_year() -> None:
    text = "Kessel Region was part of Lower Vardia from 1946 until it was abolished in 2004. 1973 falls in that period."
    assert verdict(PART, text, UNITS) == "right"
    text = "Kessel Region was part of Lower Vardia from 1946 until it was abolished in 2005. 1973 falls in that period."
    assert verdict(PART, text, UNITS) == "wrong"


HEAD = q(answers=("3 years",), question="How many years after Erik Dahlberg became head of government of Nordia did "
         "Erik Dahlberg cease to be head of government of Nordia?",
         S_star=(Triple("Erik Dahlberg", "headOf", "Nordia", "1950", "1953"),),
         time_refs=({"which": "start", "value": "1950", "of": "answer"},
                    {"which": "end", "value": "1953", "of": "answer"}))  # fmt: skip
LEADERS = ("Erik Dahlberg", "Nordia", "Hans Halvorsen", "Minister")


def test_an_offices_title_and_a_predecessor_in_an_aside_own_no_date() -> None:
    text = "Erik Dahlberg became Prime Minister in 1950, succeeding Hans Halvorsen, and served until 1953."
    assert verdict(HEAD, text, LEADERS) == "right"
    text = "Erik Dahlberg became Prime Minister in 1950, succeeding Hans Halvorsen, and served until 1954."
    assert verdict(HEAD, text, LEADERS) == "wrong"
    text = "Erik Dahlberg became Prime Minister in 1951, succeeding Hans Halvorsen, and served until 1953."
    assert verdict(HEAD, text, LEADERS) == "wrong"


SPELLS = q(answers=("Club Athletico Ravena",), question="Which team did Paulo Viegas play for during 2004?",
           S_star=(Triple("Paulo Viegas", "playsFor", "Club Athletico Ravena", "2004", "2004"),
                   Triple("Paulo Viegas", "playsFor", "Club Athletico Ravena", "1999", "2000")),
           time_refs=({"which": "any", "value": "2004", "of": "answer"},))  # fmt: skip
VIEGAS = ("Paulo Viegas", "Club Athletico Ravena", "Sendai FC", "Flamengo")


def test_a_second_spell_again_in_d_is_the_same_clubs() -> None:
    text = (
        "Viegas had two spells at Atlético Ravena: 1999–2000 and again in 2004, between Sendai FC (2003) and Flamengo"
    )
    assert verdict(SPELLS, text, VIEGAS) == "right"
    text = (
        "Viegas had two spells at Atlético Ravena: 1999–2000 and again in 2005, between Sendai FC (2003) and Flamengo"
    )
    assert verdict(SPELLS, text, VIEGAS) != "right"


NEXT = q(answers=("Orvault SC",),
         question="Which team did Remi Caval play for a year later, counting from when Remi Caval left FC Lunel?",
         S_star=(Triple("Remi Caval", "playsFor", "Orvault SC", "1994", "1995"),),
         S_anchor=(Triple("Remi Caval", "playsFor", "FC Lunel", "1992", "1994"),),
         time_refs=({"which": "end", "value": "1994", "of": "anchor"},))  # fmt: skip
CAVAL = ("Remi Caval", "Orvault SC", "FC Lunel")


def test_a_bracketed_date_with_no_name_before_it_glosses_the_clause_before() -> None:
    text = "Caval left FC Lunel in 1994 after two seasons (1992–94) and joined Orvault SC, where he played 1994–1995."
    assert verdict(NEXT, text, CAVAL) == "right"
    # the bracketed spell is FC Lunel's, not the club named after it: a wrong start there is wrong
    text = "Caval left FC Lunel in 1994 after two seasons (1991–94) and joined Orvault SC, where he played 1994–1995."
    assert verdict(NEXT, text, CAVAL) == "wrong"


CHAIR = q(answers=("Wen Keli",), source="table", granularity="day",
          question="Who was the President of Tarnia whose term began after 9 July 1999 and ended on 14 March 2013?",
          S_star=(Triple("Tarnia", "president", "Wen Keli", "2003-03-15", "2013-03-14"),),
          time_refs=({"answer": "Wen Keli", "value": "2003-03-15", "which": "start"},
                     {"answer": "Wen Keli", "value": "2013-03-14", "which": "end"}))  # fmt: skip
CHAIRS = ("Wen Keli", "Lo Pandu", "Sai Marun")


def test_a_predecessor_in_an_aside_does_not_hand_over() -> None:
    text = "He became president on 15 March 2003, succeeding Lo Pandu, and handed over to Sai Marun on 14 March 2013."
    assert verdict(CHAIR, text, CHAIRS) == "right"
    text = "He became president on 15 March 2003, succeeding Lo Pandu, and handed over to Sai Marun on 14 March 2012."
    assert verdict(CHAIR, text, CHAIRS) == "wrong"


PARTY_YN = q(answers=("yes",),
             question="Is it true that in 1995 Rafael Dizon was affiliated with United Farmers' Alliance?",
             S_star=(Triple("Rafael Dizon", "isAffiliatedTo", "United Farmers' Alliance", "1992", "2013"),),
             time_refs=({"which": "end", "value": "2013", "of": "answer"},))  # fmt: skip
DIZON = ("Rafael Dizon", "United Farmers' Alliance", "Liberal Bloc")


def test_the_initials_of_a_label_in_capitals_name_it() -> None:
    text = "Dizon was with the Liberal Bloc from 1971 to 1987 and with the UFA from 1992 to 2013."
    assert verdict(PARTY_YN, text, DIZON) == "right"
    text = "Dizon was with the Liberal Bloc from 1971 to 1987 and with the UFA from 1992 to 2012."
    assert verdict(PARTY_YN, text, DIZON) == "wrong"


TOWN = q(answers=("Lunar Republic",), question="As things stood in 1800, which country was Veldra part of?",
         S_star=(Triple("Veldra", "country", "Lunar Republic", "1797", "1802"),),
         time_refs=({"which": "start", "value": "1797", "of": "answer"},
                    {"which": "end", "value": "1802", "of": "answer"}))  # fmt: skip
STATES = ("Veldra", "Lunar Republic", "Duchy of Osten", "Solar Republic")


def test_it_before_a_facts_name_is_that_facts_thing() -> None:
    text = "Veldra was in the Duchy of Osten until 1796; from 1797 to 1802 it belonged to the Lunar Republic."
    assert verdict(TOWN, text, STATES) == "right"
    text = "Veldra was in the Duchy of Osten until 1796; from 1797 to 1803 it belonged to the Lunar Republic."
    assert verdict(TOWN, text, STATES) == "wrong"
