"""KG builder on the real mirrored datasets: full default builds, every question checked independently."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from chronoqa.generate.kg import KGBuild, KGBuildConfig, build_kg_benchmark
from chronoqa.records import TemporalGraph
from kg_checker import (
    PHRASES,
    Checker,
    check_all,
    defect_report,
    kinds_from_toml,
    not_years_of,
    open_end_of,
    world_report,
)

pytestmark = [pytest.mark.mirror, pytest.mark.slow]

OPS = (
    "point_in_time", "before_after", "interval", "sequence", "duration", "yes_no", "present_state", "two_facts",
    "allen", "relative",
)  # fmt: skip
# the families beyond the first four hold at least this many questions per release (where the data allows)
NEW_FAMILY_MIN = {"yago11k": 20, "wikidata12k": 50}
# where it does not: YAGO11k's two-facts questions need a second dated fact of a named entity starting inside
# the asked spell (a spouse's prize or death), and the graph holds 6 at most (ten times the draw budget, the
# operator alone); docs/kg-builder.md, two_facts. Wikidata12k's cell is exhausted at 47 (every draw tried, 6,507)
# once no answer is read at a year beside a gap in its entity's record (`value changes near the unit`), 44 once no
# containment start the data does not show to change membership is a reference (`direct parent, not membership`),
# 43 once no namesake is named or answered by its bare label ("... in which administrative unit was Stolberg
# located?" -> Aachen, a label two entities of the graph bear), 42 once a relative clause ending in its verb is never
# nested before another verb: its one 2-hop question ("At the time Bohdan Khmelnytsky became a citizen of Tsardom
# of Russia, what was the capital of the country Veliky Novgorod was in?", sound) is the only valid draw of its
# cell, and the rule's 248 rejections in the point-in-time 2-hop cell change that cell's draws: it keeps the same
# chain and answer ("What was the capital of the country Veliky Novgorod was in during 1553?" -> Moscow), which the
# final answer cap drops (Moscow answers another of its 7), its gold chain still reserved: the two-facts draw is a
# duplicate. No question was removed for a fault of its own. 41 once a residence start is a move only where the data
# gives a reason and a start at birth is no "became": three false premises removed ("At the time Mikhail Pogodin
# moved to Moscow" and "... Yevgeny Baratynsky moved to Moscow", one-year residences with none earlier; "at the time
# Linda Villumsen became a citizen of Denmark", her birth year), two other draws refilled the cell. YAGO11k's cell
# holds 3 once a state is asked only strictly inside its spell: the present-state cell, drawing its units anew, takes
# Alan W. Livingston's marriage first ("As of 2004, who was Alan W. Livingston married to?"), so the two-facts question
# over the same gold fact and answer ("At the time Alan W. Livingston died ...") is a duplicate; no fault of its own.
# Wikidata12k's 40 once no container is asked by words that fit another container the data places the part in then
# (`level named ambiguously`): two removed ("At the time George Grosz moved to Berlin, which country was Berlin part
# of?", the data's Kingdom of Prussia beside the German Empire; Oldenburg's Weser-Ems Government Region beside Lower
# Saxony), one other draw refilled the cell. 39 once Great Britain and the United Kingdom are unions of countries: the
# point-in-time cell, refilling its draws, takes Moscow's Tsardom of Russia fact first ("Which country was Moscow part
# of during 1694?"), so the two-facts question on the same gold fact ("At the time of becoming the capital of Moscow
# Governorate, which country was Moscow part of?") is a duplicate; no fault of its own. 37 once an award presented at a
# ceremony in the year after the work is never used for its year (`year uncertain by one`): both removed pair such an
# award ("... at the time of receiving the Golden Raspberry Award for Worst Supporting Actor?", Donald Trump's, dated
# 1990; Halle Berry's NAACP Image Award, dated 2003), one year either way. 34 once the residence (P551) is not asked:
# its moves were references of the cell ("when László Moholy-Nagy moved to Berlin"), and the cells drew anew
DATA_ALLOWS = {("yago11k", "two_facts"): 3, ("wikidata12k", "two_facts"): 34}


def _load(mirror: Path, name: str) -> TemporalGraph:
    # the dataset's own loader: Wikidata12k with its English labels (entity2name.txt)
    from chronoqa.datasets import wikidata12k, yago11k

    return {"yago11k": yago11k.load, "wikidata12k": wikidata12k.load}[name](mirror / name)


@pytest.fixture(scope="module")
def yago(mirror: Path) -> tuple[TemporalGraph, KGBuild]:
    g = _load(mirror, "yago11k")
    return g, build_kg_benchmark(g, KGBuildConfig())


@pytest.fixture(scope="module")
def wikidata(mirror: Path) -> tuple[TemporalGraph, KGBuild]:
    g = _load(mirror, "wikidata12k")
    return g, build_kg_benchmark(g, KGBuildConfig())


@pytest.mark.parametrize("which", ["yago", "wikidata"])
def test_real_build_passes_independent_checker(which: str, request: pytest.FixtureRequest) -> None:
    g, b = request.getfixturevalue(which)
    # fewer than the 10,000 asked for: the graphs hold fewer questions that are valid in the world (Wikidata12k 4,996
    # once Allen pairs only facts of one subject or of two linked ones: its 2-hop cell 52 -> 18; 4,962 once no open
    # or P31 end is asked and no namesake is named by its bare label; 4,872 once no timeline is ordered over a spell
    # nested in another, a loan inside a spell: 531 draws rejected, relative 651 -> 623, before/after 610 -> 590;
    # 4,292 once a state is asked only strictly inside the spell its gold rests on, a "no" only strictly inside a
    # spell ruling it out or a unit clear of every spell, and "next" never across an empty unit: yes/no 820 -> 216
    # (432 release questions at a boundary unit, 144 of them a "no"), present state 152 -> 128, sequence 103 -> 68;
    # 4,206 once no container is described by words naming no level ("in which administrative unit was X located?"
    # fits its district and its region alike) nor a union of states asked as a country: relative 685 -> 647,
    # before/after 612 -> 582, present state 127 -> 114, point in time 2-hop 7 -> 6, all invalid questions; 4,194 once
    # Great Britain and the United Kingdom are unions too, England fitting "which country" as well: point in time
    # 800 -> 794, the 1-hop cells -1 or -2; 4,140 once the residence is not asked, its facts coarse: point in time
    # 793 -> 777, yes/no 212 -> 204, before/after 581 -> 576, interval 2-hop 37 -> 33, two facts 37 -> 34)
    assert len(b.questions) >= {"yago11k": 2000, "wikidata12k": 4100}[g.name]
    flags = {f.id: (f.dist_functional, f.stale_functional) for f in b.flags}
    want_reading = {"yago11k": "unknown", "wikidata12k": "unknown"}[g.name]
    assert b.manifest["open_end"] == {"reading": want_reading, "declared_by": "phrase table"}
    checker = Checker.from_table(
        g, PHRASES / f"{g.name}.toml", open_end=open_end_of(b.manifest), not_years=not_years_of(b.manifest)
    )
    errs = check_all(checker, b.questions, flags)
    assert errs == [], errs[:10]
    # open-class hops, time-insensitive questions, redundant hops, raw ids, implausible golds, duplicates,
    # test/train gold-chain overlap, answer-prior shortcut: none
    report = world_report(checker, b.questions)
    assert report == {}, {k: v[:3] for k, v in report.items()}
    # no hop missing from the text, no "last" over an open spell, no open end read as ongoing, no needless
    # disambiguator in an answer
    # "name repeated" is counted, not ruled out: a clause that does not open with its subject ("the marriage of X and
    # Y ended"), a verb outside the gerund table ("was elected"), two subjects, and the templates not reworded yet
    defects = {k: v[:3] for k, v in defect_report(checker, b.questions).items() if v and k != "name repeated"}
    assert defects == {}, defects
    listed = {x["fact"]: x["reason"] for x in b.implausible or ()}
    assert listed == checker.implausible  # two implementations agree
    comp = b.manifest["counts"]["composition"]
    for op in OPS:
        assert comp[op]["1-hop"] > 0, f"{op} 1-hop is empty"
    for op in OPS[4:]:
        assert sum(comp[op].values()) >= DATA_ALLOWS.get((g.name, op), NEW_FAMILY_MIN[g.name]), (op, comp[op])
    assert sum(q.answer_type == "time" for q in b.questions) <= 0.5 * len(b.questions)  # year answers at most half
    if g.name == "wikidata12k":
        for op in ("point_in_time", "before_after", "interval"):
            # a 3-hop cell the data cannot fill is empty with its candidates counted, never filled by a weaker rule
            cell = b.manifest["cells"][f"{op}/3"]
            assert comp[op]["3+-hop"] > 0 or cell["census"]["chains"] > 0, (op, cell)
    for name, rec in b.manifest["coverage"].items():
        # every cell of the operator x hops matrix accounts for each draw under the rule that decided it
        assert rec["questions"] + sum(rec["draws_by_rule"].values()) == rec["draws"], (name, rec)
        assert "not recorded" not in rec["draws_by_rule"], (name, rec)
        assert rec["hops"] < 2 or rec["questions"] >= 50 or "census" in rec, (name, rec)
    assert b.manifest["audit"] == {"leaks": 0, "invalid_gold": 0}
    ids = [q.id for q in b.questions]
    assert len(set(ids)) == len(ids)
    assert len({q.question.casefold() for q in b.questions}) == len(b.questions)


def test_yago_questions_read_as_english(yago: tuple[TemporalGraph, KGBuild]) -> None:
    g, b = yago
    for q in random.Random(0).sample(b.questions, 200):
        assert q.question[0].isupper() and q.question.endswith("?")
        assert "{" not in q.question and "<" not in q.question and "_" not in q.question
        # a bracket in the text is a disambiguator kept whole for a namesake ("Gary Roberts (footballer, born 1987)")
        labels = {
            " ".join(g.entity_label(e).replace("_", " ").split())
            for t in (*q.S_star, *q.S_anchor)
            for e in (t.s_id, t.o_id)
        }
        kept = [x for x in labels if "(" in x]
        assert q.question.count("(") == sum(q.question.count(x) for x in set(kept)), q.question


def test_wikidata_is_labelled_by_default(wikidata: tuple[TemporalGraph, KGBuild]) -> None:
    import re

    g, b = wikidata
    assert len(g.entity_labels) == 12_554  # every Q-id, Q29051963 from LABEL_FIXES
    assert g.entity_label("Q29051963") == "Ilse Jutta Zambona" and "&amp;" not in "".join(g.entity_labels.values())
    qid = re.compile(r"(?<![\w-])Q\d+(?![\w-])")  # "Glassdrive-Q8-Anicolor" is a name
    assert not [q.question for q in b.questions if qid.search(q.question) or any(qid.search(a) for a in q.answers)]
    assert not [d.text for d in b.corpus() if qid.search(d.text)]


def test_checker_spares_id_like_words_in_names_only(wikidata: tuple[TemporalGraph, KGBuild]) -> None:
    import dataclasses

    g, b = wikidata
    checker = Checker.from_table(
        g, PHRASES / f"{g.name}.toml", open_end=open_end_of(b.manifest), not_years=not_years_of(b.manifest)
    )
    q = b.questions[0]
    assert "raw id" not in {cat for cat, _ in checker.world_errors(q)}
    # a raw id outside the question's entity names is still caught; a label that is an id is never spared
    assert "raw id" in {cat for cat, _ in checker.world_errors(dataclasses.replace(q, question=q.question + " Q42"))}
    named = Checker.from_table(
        g, PHRASES / f"{g.name}.toml", open_end=open_end_of(b.manifest), not_years=not_years_of(b.manifest),
        labels={q.S_star[0].o_id: "P2", q.S_star[0].s_id: "P2"},
    )  # fmt: skip
    raw = dataclasses.replace(q, question=q.question + " P2")
    assert "raw id" in {cat for cat, _ in named.world_errors(raw)}


def test_yago_open_ended_states_are_gold_only_in_their_start_year(yago: tuple[TemporalGraph, KGBuild]) -> None:
    # YAGO records no end for 1,475 playsFor facts; it does not say the player is still there
    g, b = yago
    kinds = kinds_from_toml(PHRASES / "yago11k.toml", g)
    n_open = 0
    for q in b.questions:
        for t in q.S_star:
            if t.t_start is not None and t.t_end is None and kinds[t.r_id] == "state":
                n_open += 1
                assert t.t_start[:4] == q.t_query, f"{q.id}: {q.question} uses an open-ended {t} at {q.t_query}"
    assert n_open > 0
    docs = [d.text for d in b.corpus() if d.text.endswith("(end not recorded).")]
    assert len(docs) > 1000


def test_yago_non_year_dates_are_never_used(yago: tuple[TemporalGraph, KGBuild]) -> None:
    # YAGO11k dates 24 <created> facts "360" (Xbox 360) and 115 <owns> facts "100" (a percentage)
    g, b = yago
    bad = {"<created>": 360, "<owns>": 100}
    listed = {
        f.id for f in g.facts if f.r in bad and any(p is not None and p.year == bad[f.r] for p in (f.start, f.end))
    }
    assert len(listed) == 139
    assert b.manifest["not_years"] == {
        "years": {"<created>": [360], "<owns>": [100]},
        "declared_by": "phrase table",
        "facts": 139,
    }
    assert b.manifest["counts"]["non_year_facts_ignored"] == 139
    assert "Facts with non-year dates: 139." in b.datacard
    for q in b.questions:
        assert q.t_query not in ("0100", "0360"), q.question
        assert not {"0100", "0360"} & set(q.answers), q.question
        for part in (q.S_star, q.S_dist, q.S_stale, q.S_anchor):
            for t in part:
                assert t.fact_id not in listed, (q.id, q.question, t)
                if t.r_id in bad:
                    assert bad[t.r_id] not in {int(x[:4]) for x in (t.t_start, t.t_end) if x and x[0] != "-"}
    texts = [d.text for d in b.corpus() if d.fact_id in listed]
    assert len(texts) == 139 and all("not a valid year" in x for x in texts)


def test_wikidata_declares_no_non_years(wikidata: tuple[TemporalGraph, KGBuild]) -> None:
    _, b = wikidata
    assert b.manifest["not_years"] == {"years": {}, "declared_by": "default", "facts": 0}


def test_wikidata_stale_negatives_exist(wikidata: tuple[TemporalGraph, KGBuild]) -> None:
    _, b = wikidata
    rates = b.manifest["functional_rates"]
    assert rates["stale_functional"] > 0.05
    assert rates["dist_functional"] > 0.3


def test_real_release_is_byte_identical(mirror: Path, tmp_path: Path) -> None:
    import hashlib

    g = _load(mirror, "wikidata12k")
    cfg = KGBuildConfig(n_questions=1500, seed=11)
    outs = [build_kg_benchmark(g, cfg).write(tmp_path / name) for name in ("a", "b")]
    hashes = [
        {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.iterdir()) if p.is_file()}
        for out in outs
    ]
    # 6 release files + implausible_facts.jsonl + the folder's marker (.chronoqa)
    assert len(hashes[0]) == 8 and hashes[0] == hashes[1]
