"""An award presented at a ceremony early in the year after the work it honours is dated by Wikidata by either year
(the work's: Katharine Hepburn's Best Actress 1981 for On Golden Pond; the ceremony's: Dustin Hoffman's Best Actor
1980 for Kramer vs. Kramer): its year is uncertain by one, so it is never asked, paired or compared; another award
stays asked.
"""

from __future__ import annotations

import re
from pathlib import Path

from chronoqa.generate.kg.operators import AnswerKind, Draft, Hop
from chronoqa.generate.kg.phrases import load_phrase_table
from chronoqa.generate.kg.tenure import YEAR_UNCERTAIN, tenure_reason
from chronoqa.records import TemporalGraph
from chronoqa.sources.hyte import write_hyte
from chronoqa.time import Granularity, TimePoint
from cli_in_process import cli
from kg_checker import PHRASES, defect_report
from sql_index_fixtures import index_of
from test_kg_build import fact, labels_of, rel_labels
from test_kg_entity_rules import _built

# Worked by hand (Wikidata). Mary Steenburgen's Golden Globe dated 1980 (the film's year; she received it on 31
# January 1981) and Kathy Baker's of the same award dated 1985 (one convention or the other: nothing says which).
# The Silver Nugget and the Lasker Award are presented in their own year: asked as before.
AWARDS = [
    fact(0, "Mary_Steenburgen", "P166", "Golden_Globe_Award_for_Best_Supporting_Actress_-_Motion_Picture", 1980, None),
    fact(1, "Mary_Steenburgen", "P166", "Silver_Nugget", 1983, None),
    fact(2, "Kathy_Baker", "P166", "Golden_Globe_Award_for_Best_Supporting_Actress_-_Motion_Picture", 1985, None),
    fact(3, "Kathy_Baker", "P166", "Silver_Nugget", 1985, None),
    fact(4, "Ann_Roe", "P166", "Albert_Lasker_Award", 1990, None),
    fact(5, "Ann_Roe", "P166", "Silver_Nugget", 1993, None),
    fact(6, "Mary_Steenburgen", "P26", "Malcolm_McDowell", 1980, 1990),
    fact(7, "Kathy_Baker", "P166", "Academy_Award_for_Best_Actress", 1986, None),
]
UNCERTAIN = {0, 2, 7}


def _reason(idx, op: str, fid: int, ref: int = -1) -> str | None:  # type: ignore[no-untyped-def]
    r, s, o = (int(idx.table[fid, c]) for c in (1, 0, 2))
    d = Draft(op, "v", s, (Hop(fid, r, True, s, o),), 2000, (o,), AnswerKind.YES_NO, ref_fid=ref)
    return tenure_reason(idx, d)


def test_the_ceremony_awards_are_declared() -> None:
    p = load_phrase_table("wikidata12k").relations["P166"]
    assert {"academy award for", "golden globe", "bafta award"} <= p.year_uncertain
    assert not load_phrase_table("yago11k").relations["hasWonPrize"].year_uncertain  # no film award in YAGO11k


def test_a_year_uncertain_by_one_is_never_used() -> None:
    events = {"<P166>": True, "<P26>": False}
    idx = index_of(AWARDS, events, Granularity.YEAR, TimePoint(2026), "unknown")
    idx.year_uncertain = frozenset(UNCERTAIN)
    assert _reason(idx, "interval", 0) == YEAR_UNCERTAIN  # "In which year did Steenburgen receive ...?"
    assert _reason(idx, "allen", 3, 2) == YEAR_UNCERTAIN  # the Silver Nugget beside Baker's Golden Globe
    assert _reason(idx, "allen", 0, 2) == YEAR_UNCERTAIN  # one award, the two conventions may mix
    assert _reason(idx, "two_facts", 6, 0) == YEAR_UNCERTAIN  # "married to when she received ..."
    assert _reason(idx, "yes_no", 7) == YEAR_UNCERTAIN
    assert _reason(idx, "interval", 4) is None  # the Lasker Award: its own year
    assert _reason(idx, "allen", 5, 4) is None


def test_no_question_rests_on_a_ceremony_award_and_others_stay_asked() -> None:
    b, checker = _built(AWARDS, "wikidata12k", n=300)
    assert defect_report(checker, b.questions)["year uncertain by one used"] == []
    assert not {t.o for q in b.questions for t in (*q.S_star, *q.S_anchor)} & {
        "Golden Globe Award for Best Supporting Actress - Motion Picture",
        "Academy Award for Best Actress",
    }
    assert any(t.o == "Albert Lasker Award" for q in b.questions for t in q.S_star)  # a non-ceremony award asked


def test_a_malformed_declaration_is_one_error_naming_the_field(tmp_path: Path) -> None:
    text = (PHRASES / "wikidata12k.toml").read_text(encoding="utf-8")
    entry = re.search(r"year_uncertain = \{.*?\] \}", text, re.S)
    assert entry is not None
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(entry.group(0), 'year_uncertain = ["golden globe"]'), encoding="utf-8")
    write_hyte(_graph(), tmp_path / "in")
    res = cli("build", "kg", "--input", str(tmp_path / "in"), "--phrases", str(bad), "--out", str(tmp_path / "o"))
    assert res.exit_code == 2, res.output
    assert f"{bad}: relations.P166.year_uncertain: expected" in res.output
    assert res.output.count("year_uncertain") == 1


def _graph() -> TemporalGraph:
    return TemporalGraph("hand", AWARDS, labels_of(AWARDS), rel_labels(AWARDS))
