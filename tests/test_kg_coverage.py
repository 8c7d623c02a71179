"""KG builder: the coverage account of the operator x hops matrix, and prefixes drawn only through allowed bridges.

The hand-made graph of ``test_kg_bridges`` (worked by hand there): Ann was married to Bob 1990-2000, Dan to Eve
2000-2001, Bob played for Reds and Blues, Cal for Blues, Eve and Fay for Greens, 25 players for Reds. Its static
hops (an entity whose every fact of a ``one`` direction leads to one value) are, worked by hand: the 28 players
with one team (25 at Reds, Cal, Fay, Eve: "the team X played for" is never a bridge, a team is not one in the
world) and the four marriage hops (a symmetric relation, traversed forward from either spouse): Ann and Bob's
marriage has years strictly inside it (1991-1999) to pin the spouse at; Dan and Eve's (2000-2001) has none, so
neither of its two hops can ever name a spouse. The account counts these where the bridge rules remove them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chronoqa.generate.kg import KGBuild, KGBuildConfig, build_kg_benchmark
from test_kg_bridges import GRAPH, _no_bridges

MATRIX_CELLS = {f"{op}/{k}" for op in ("point_in_time", "before_after", "interval", "sequence") for k in (1, 2, 3)}


def _build(phrases: str | Path) -> KGBuild:
    return build_kg_benchmark(GRAPH, KGBuildConfig(n_questions=400, seed=3, max_answer_share=1.0), phrases=phrases)


@pytest.fixture(scope="module")
def ruled() -> KGBuild:
    return _build("yago11k")


def test_every_draw_and_candidate_is_accounted_once(ruled: KGBuild) -> None:
    cov = ruled.manifest["coverage"]
    assert set(cov) == MATRIX_CELLS
    for name, rec in cov.items():
        made = sum(q.operator == rec["operator"] and q.hops == rec["hops"] for q in ruled.questions)
        assert rec["questions"] == made == ruled.manifest["cells"][name]["made"], name
        assert rec["questions"] + sum(rec["draws_by_rule"].values()) == rec["draws"], (name, rec)
        assert sum(rec["candidates_by_outcome"].values()) == rec["candidates_drawn"], (name, rec)
        assert "not recorded" not in rec["draws_by_rule"], (name, rec)  # each rule names itself where it decides
        assert (rec["candidates_by_outcome"].get("made a question", 0) > 0) == (rec["questions"] > 0), (name, rec)
        assert (rec["hops"] >= 2 and rec["questions"] < 50) == ("census" in rec), (name, rec)


def test_static_hops_through_disallowed_bridges_are_removed_and_counted(ruled: KGBuild, tmp_path: Path) -> None:
    census = ruled.manifest["coverage"]["interval/2"]["census"]
    assert census["static_hops_removed"] == {"bridge not one in the world": 28, "time-free bridge": 2}
    # the final facts a chain can reach over Ann and Bob's marriage: theirs, and Bob's two teams
    assert census["chains"] == 3
    free = _build(_no_bridges(tmp_path)).manifest["coverage"]["interval/2"]
    assert free["census"]["static_hops_removed"] == {}  # a table without [bridges]: no bridge rule
    assert free["census"]["chains"] > census["chains"]  # every team and spouse can lead on


def test_sequence_draws_name_the_timeline_rule(ruled: KGBuild) -> None:
    # Reds' 25 one-season players and Greens' two make inverse timelines ("who played for Reds next?"): an
    # open class, never ordered; a player with one team has a timeline of one fact
    rules = ruled.manifest["coverage"]["sequence/1"]["draws_by_rule"]
    assert rules["open-class timeline"] > 0
    assert rules["timeline of one fact, an unknown start or a self-loop"] > 0


def test_data_card_lists_the_multi_hop_account(ruled: KGBuild) -> None:
    card = ruled.datacard
    for name in sorted(MATRIX_CELLS):
        if not name.endswith("/1"):
            assert f"- `{name}` hops: " in card.split("Coverage of the multi-hop cells")[1], name
