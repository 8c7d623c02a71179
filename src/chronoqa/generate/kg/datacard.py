"""The data card (``DATACARD.md``) of a KG release: composition, splits, functional rates, limitations."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chronoqa.escape import md_code, md_text
from chronoqa.generate.kg.operators import REGISTRY
from chronoqa.io import md_escape
from chronoqa.records import COMPLEXITIES, Question

__all__ = ["SPLIT_ORDER", "STALE_HEADING", "composition_table", "operator_title", "render_datacard", "stale_section"]
#: The order the data card lists splits in.
SPLIT_ORDER = ("train", "dev", "test")


def operator_title(name: str) -> str:
    """An operator's name in tables (its registered ``title``; the name itself for an unregistered one)."""
    op = REGISTRY.get(name)
    return op.title if op is not None else name


def composition_table(composition: Mapping[str, Mapping[str, int]]) -> str:
    """TempBench's operator × complexity table (Markdown), with totals."""
    lines = ["| Operator | 1-hop | 2-hop | 3+-hop | Total |", "|---|---:|---:|---:|---:|"]
    col = dict.fromkeys(COMPLEXITIES, 0)
    for op, row in composition.items():
        total = sum(row.get(cx, 0) for cx in COMPLEXITIES)
        for cx in COMPLEXITIES:
            col[cx] += row.get(cx, 0)
        cells = " | ".join(f"{row.get(cx, 0):,}" for cx in COMPLEXITIES)
        lines.append(f"| {operator_title(op)} | {cells} | {total:,} |")
    lines.append(f"| Total | {' | '.join(f'{col[cx]:,}' for cx in COMPLEXITIES)} | {sum(col.values()):,} |")
    return "\n".join(lines)


def _thin_cells(manifest: Mapping[str, Any]) -> list[str]:
    out = []
    for name, info in manifest["cells"].items():
        if info["exhausted"]:
            top = sorted(info["rejected"].items(), key=lambda kv: -kv[1])[:2]
            why = ", ".join(f"{k}: {v:,}" for k, v in top)
            out.append(
                f"- `{name}` hops: {info['made']:,} of its quota after {info['attempts']:,} draws "
                f"(rejections: {why}); its remaining quota went to the other cells."
            )
        if info.get("census"):
            out.append(_census_line(info["census"]))
    return out


def _census_line(census: Mapping[str, Any]) -> str:
    """One line on the candidate chains of a thin cell (``generate.kg.census``)."""
    line = f"  - candidates ({census['candidates']}): {census['chains']:,}"
    if "by_rule" in census and census["chains"]:
        rules = ", ".join(f"{k}: {v:,}" for k, v in sorted(census["by_rule"].items(), key=lambda kv: -kv[1]))
        line += (
            f"; by the furthest rule each passes: {rules}; the valid ones make "
            f"{census['distinct_gold_and_answer']:,} distinct gold chains and answers over "
            f"{census['distinct_answers']:,} distinct answers (a cell under 100 questions keeps one per answer)"
        )
    return line + "."


def _non_year_line(manifest: Mapping[str, Any]) -> str:
    nyr = manifest.get("not_years") or {"years": {}, "declared_by": "default", "facts": 0}
    years = "; ".join(f"{md_code(r)}: {', '.join(map(str, ys))}" for r, ys in nyr["years"].items()) or "none declared"
    return (
        f"- Facts with non-year dates: {nyr['facts']:,}. Numbers the source's extraction read as years, declared "
        f"per relation by {nyr['declared_by']} ({years}); such facts are kept in the corpus (their text says the "
        "date is not a valid year) but are valid nowhere: never gold, never negatives, never counted."
    )


def _world_section(manifest: Mapping[str, Any]) -> list[str]:
    """Validity in the world: declarations, implausible dates, closed-world questions, per-cell quality."""
    card = manifest.get("cardinality") or {}
    imp = manifest.get("implausible_dates") or {"by_reason": {}}
    quality = manifest.get("quality") or {"per_cell": {}, "assumes_complete": 0}
    lines = [
        "## Validity in the world",
        "",
        "Each relation direction is `one` (one value at a time in the world) or `many` (an open class: the "
        "people born in a city, the players of a club). Only `one` directions are asked for or used to describe "
        "an entity, and not for an entity whose own values overlap in the data (a club and a national team in the "
        "same years). The time must change the answer (the time-free path gives another answer set), every hop "
        "must be needed, and no two questions share a gold chain and answer.",
        "",
        "| relation | objects at once | subjects at once | declared by |",
        "|---|---|---|---|",
        *[
            f"| {md_code(r, table=True)} | {c['objects_at_once']} | {c['subjects_at_once']} | {c['declared_by']} |"
            for r, c in sorted(card.items())
        ],
        "",
        f"- Symmetric relations (a fact and its mirror are one fact): "
        f"{', '.join(md_code(r) for r in manifest.get('symmetric', [])) or 'none'}.",
        f"- Implausible dates, detected from the data ({sum(imp['by_reason'].values()):,} facts; never gold, "
        "references or negatives, still counted against uniqueness, listed in `implausible_facts.jsonl`): "
        + (", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in imp["by_reason"].items()) or "none")
        + ".",
        f"- Questions that assume the graph is complete (`assumes_complete`: first / last ever): "
        f"{quality['assumes_complete']:,}.",
        "",
        "| cell | questions | time-free reading has >1 answer | most frequent answer | its share |",
        "|---|---:|---:|---|---:|",
    ]
    for name, info in quality["per_cell"].items():
        tf = "n/a" if info["time_free_multi_share"] is None else f"{info['time_free_multi_share']:.0%}"
        share = "n/a" if info["top_answer_share"] is None else f"{info['top_answer_share']:.1%}"
        top = md_escape(info["top_answer"]) if info["top_answer"] else "n/a"
        lines.append(f"| `{name}` | {info['questions']:,} | {tf} | {top} | {share} |")
    lines += [
        "",
        "No entity answers more than 2% of a cell (`max_answer_share`), except in cells of fewer than 50 "
        "questions, where one question per answer is the floor. Interval questions answer with a time (n/a).",
        "",
    ]
    return lines


def _sampling_lines(manifest: Mapping[str, Any]) -> list[str]:
    """The order the questions were drawn from (the manifest's ``sampling``), when the manifest records it."""
    rule = manifest.get("sampling")
    if not rule:
        return []
    return [
        f"Questions are drawn from the facts in {rule} (manifest `sampling`): the same facts read in any order "
        "or partitioning give the same release; another seed gives another draw."
    ]


def _intro(manifest: Mapping[str, Any]) -> list[str]:
    cfg, counts = manifest["config"], manifest["counts"]
    per_year = ", per-year expansion (one point fact per year)" if cfg["expand_years"] else ""
    return [
        f"# Data card: {md_text(manifest['dataset'])} temporal QA benchmark (chronoqa {manifest['version']}, KG "
        "builder)",
        "",
        f"{counts['questions']:,} questions generated from the temporal knowledge graph {md_code(manifest['dataset'])} "
        f"({counts['graph_facts']:,} facts), seed {manifest['seed']}, granularity `{cfg['granularity']}`, "
        f"as_of `{cfg['as_of']}`{per_year}.",
        "Every question carries its gold chain `S_star` (each fact certainly valid at `t_query`), typed negatives "
        "`S_dist` / `S_stale` from the graph, and `S_anchor` (facts needed only to resolve the time). Every answer "
        "was verified unique over the whole graph (facts that might hold at `t_query` count).",
        *_sampling_lines(manifest),
        "",
    ]


def _composition_and_splits(manifest: Mapping[str, Any]) -> list[str]:
    counts, rates = manifest["counts"], manifest["functional_rates"]
    splits = counts["splits"]
    order = [*SPLIT_ORDER, *(k for k in splits if k not in SPLIT_ORDER)]  # an empty split shows 0
    return [
        "## Composition (operator × hop complexity)",
        "",
        composition_table(counts["composition"]),
        "",
        "## Splits",
        "",
        "| split | questions |",
        "|---|---:|",
        *[f"| {k} | {splits.get(k, 0):,} |" for k in order],
        "",
        f"Stratified by {manifest['splits_stratified_by']}; split by gold chain: no test question shares its "
        "`S_star` with a train question.",
        "",
        "## Functional negatives",
        "",
        f"- `dist_functional`: {rates['dist_functional']:.1%} of questions (TempBench: 71.5%)",
        f"- `stale_functional`: {rates['stale_functional']:.1%} of questions (TempBench: 81.3%)",
        "",
        "Restrict negative-dependent analysis to the functional subset (`functional_negatives.jsonl`).",
        "",
    ]


#: The heading of the data card's section on stale negatives (an export adds the section when a card lacks it).
STALE_HEADING = "## Stale negatives (`S_stale`): when they are empty, and how to get them"


def stale_section(questions: Sequence[Question]) -> list[str]:
    """How many questions carry a stale negative (per operator), why the others have none, how to get them."""
    have: dict[str, list[int]] = {}
    for q in questions:
        row = have.setdefault(q.operator, [0, 0])
        row[0] += bool(q.S_stale)
        row[1] += 1
    n_with = sum(r[0] for r in have.values())
    n = sum(r[1] for r in have.values())
    per_op = "; ".join(f"{operator_title(op)} {w:,} of {t:,}" for op, (w, t) in sorted(have.items()))
    return [
        STALE_HEADING,
        "",
        f"{n_with:,} of {n:,} questions carry a stale negative ({per_op or 'no questions'}).",
        "",
        "A stale negative is a real fact of the graph with the same (s, r, o) as a gold fact at another time, not "
        "even possibly valid at `t_query`. `S_stale` is therefore empty whenever no gold fact's (s, r, o) occurs "
        "in the graph a second time. That is the rule, not a fault, on a graph that stores each (s, r, o) once, as "
        "one interval: YAGO11k's default build has no stale negatives at all, and every negative-dependent "
        "measure on `S_stale` is undefined there (a question without one is never counted as a stale hit).",
        "",
        "To get stale negatives: build with `--expand-years` (each interval fact becomes one point fact per year, "
        "so the gold fact's other years are stale: `chronoqa build kg --dataset yago11k --expand-years`), or use "
        "a graph whose facts repeat in several periods (Wikidata12k, tkgl-smallpedia). Restrict stale-dependent "
        "analysis to the questions flagged `stale_functional` in `functional_negatives.jsonl`.",
        "",
    ]


def _coverage_lines(manifest: Mapping[str, Any]) -> list[str]:
    """The coverage account of the multi-hop cells of the operator x hops matrix (``generate.kg.census``)."""
    out = []
    for name, rec in manifest.get("coverage", {}).items():
        if rec["hops"] < 2:
            continue
        outcomes = sorted(rec["candidates_by_outcome"].items(), key=lambda kv: (-kv[1], kv[0]))
        top = ", ".join(f"{k}: {v:,}" for k, v in outcomes[:4])
        out.append(
            f"- `{name}` hops: {rec['questions']:,} questions from {rec['draws']:,} draws of "
            f"{rec['candidates_drawn']:,} distinct candidates ({top or 'none drawn'})."
        )
    return out


def _thin_section(manifest: Mapping[str, Any]) -> list[str]:
    return [
        "## Thin cells",
        "",
        *(_thin_cells(manifest) or ["- none: every cell met its quota."]),
        "",
        "Coverage of the multi-hop cells of the operator x hops matrix (manifest `coverage`: every draw and every "
        "drawn candidate under the rule that decided it; the census above counts every candidate, drawn or not):",
        "",
        *(_coverage_lines(manifest) or ["- no multi-hop cell."]),
        "",
        "Why cells run thin: every `S_star` fact must be valid at `t_query`, and events (births, deaths, prizes) "
        "are valid only in their own unit, so chains through events need same-year coincidences; every hop must "
        "be unique (intermediate hops at `t_query`; interval/sequence prefixes over the whole graph), which rules "
        "out inverse hops into popular entities. Validity in the world thins them further: only `one` "
        "directions are asked (see the table above), the time must change the answer (a birth or death never "
        "needs its year), every hop must be needed, and a gold chain and answer serve one question only. Long "
        "chains that satisfy all of this are structurally rare, as in TempBench's 3+-hop column. A cell that "
        "can be filled takes over the quota of the others up to `max_quota_growth` times its own, so the "
        "release may hold fewer questions than asked for.",
        "",
    ]


def _open_end_line(manifest: Mapping[str, Any]) -> str:
    by = manifest["open_end"]["declared_by"]
    if manifest["open_end"]["reading"] == "ongoing":
        return (
            f"- Open-ended states (a start, no end) are read as **ongoing** as of `as_of` (declared by {by}): "
            "certainly valid from their start until `as_of`; the source data often lacks end dates (e.g. a "
            "player's last club), so such answers are true to the data, not necessarily to the world."
        )
    return (
        f"- Open-ended states (a start, no end) are read as **unknown end** (declared by {by}): the data records "
        "no end and does not assert the state goes on, so such a fact is possibly valid from its start until "
        "`as_of` (it counts against answer uniqueness there) but certainly valid, and so gold, only in its "
        "start unit."
    )


def _limitations(manifest: Mapping[str, Any]) -> list[str]:
    counts, labels = manifest["counts"], manifest["entity_labels"]
    lines = [
        "## Known limitations",
        "",
        "- Interval questions have `render_time = false`: their `t_query` is the answer (TempBench's leak); "
        "before/after and sequence questions also have `render_time = false` (the system must resolve the time). "
        "A prompt that shows a time tag must honour `render_time`.",
        _open_end_line(manifest),
        "- Events without an end happen at their start only; reversed intervals (start after end: "
        f"{counts['reversed_facts_ignored']:,} here) are ignored: never gold, never negatives, never counted.",
        _non_year_line(manifest),
        "- Surface forms come from four or more templates per operator with relation-specific phrasing: "
        "linguistic diversity is low by construction.",
        "- Labels and answers are generated automatically; no human validated them.",
    ]
    if labels["from_graph"] == 0 and labels["extra"] == 0:
        lines.append(
            "- The graph has no entity labels: questions show entity ids (e.g. Wikidata Q-ids). Pass an "
            "entity-label TSV (`--labels`) to get readable questions."
        )
    if manifest["phrases"]["generic_fallback"]:
        lines.append(
            "- These relations used the generic fallback phrasing (kind `state`): "
            + ", ".join(md_code(r) for r in manifest["phrases"]["generic_fallback"])
        )
    if counts.get("multi_answer"):
        lines.append(f"- {counts['multi_answer']:,} questions are multi-answer (`cardinality = multiple`).")
    return lines


def _examples(questions: Sequence[Question]) -> list[str]:
    """The first question of each operator."""
    lines = ["", "## Example questions", ""]
    shown: set[str] = set()
    for q in questions:
        if q.operator in shown:
            continue
        shown.add(q.operator)
        answers = md_escape(", ".join(q.answers))
        lines.append(f"- ({q.operator}, {q.complexity}) {md_escape(q.question)} → {answers} (t_query {q.t_query})")
    return lines


_FILES = [
    "",
    "## Files",
    "",
    "`benchmark.jsonl`, `functional_negatives.jsonl`, `corpus.jsonl`, `qrels`, "
    "`manifest.json` (config, seed, checksums, counts, per-cell draw statistics, the relation declarations, "
    "and the implausible-date counts by reason under `implausible_dates`), `implausible_facts.jsonl` (every "
    "fact whose date is implausible, with its reason).",
    "",
]


def render_datacard(manifest: Mapping[str, Any], questions: Sequence[Question]) -> str:
    """Markdown data card of a KG release: its sections in order."""
    return "\n".join(
        [
            *_intro(manifest),
            *_composition_and_splits(manifest),
            *stale_section(questions),
            *_world_section(manifest),
            *_thin_section(manifest),
            *_limitations(manifest),
            *_examples(questions),
            *_FILES,
        ]
    )
