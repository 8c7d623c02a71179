"""The data card of a table release (``DATACARD.md``) and its per-source question counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from chronoqa.escape import md_code, md_text
from chronoqa.generate.table.config import CARDINALITIES
from chronoqa.records import Question
from chronoqa.time import Allen

__all__ = ["answer_shares", "question_counts", "render_datacard"]


def question_counts(questions: Sequence[Question]) -> dict[str, dict[str, dict[str, int]]]:
    """Per source: (relation or operator) → cardinality → count."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for q in questions:
        src = str(q.logical_form.get("table", ""))
        row = q.allen if q.operator == "allen" and q.allen else f"{q.operator}:{q.hops}-hop"
        if q.operator == "time_alignment":
            row = "time_alignment"
        cell = out.setdefault(src, {}).setdefault(row, dict.fromkeys(CARDINALITIES, 0))
        cell[q.cardinality] += 1
    return out


def answer_shares(questions: Sequence[Question], table: str) -> dict[str, dict[str, object]]:
    """Per operator of ``table``'s questions: the most frequent answer and its share (the value prior's score).

    A share near 1 means an answerer that ignores the time scores that much by always giving this answer.
    """
    by_op: dict[str, list[tuple[str, ...]]] = {}
    for q in questions:
        if q.logical_form.get("table") == table:
            by_op.setdefault(q.operator, []).append(q.answers)
    out: dict[str, dict[str, object]] = {}
    for op, answers in sorted(by_op.items()):
        counts = Counter(answers)
        top, n = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        share = round(n / len(answers), 4)
        out[op] = {"answer": " | ".join(top) or "(none)", "share": share, "questions": len(answers)}
    return out


def render_datacard(manifest: Mapping[str, Any]) -> str:
    """The data card of a table release, from its manifest (:func:`chronoqa.generate.result.check_manifest`)."""
    return "\n".join(line for section in _SECTIONS for line in section(manifest))


def _summary_and_tables(manifest: Mapping[str, Any]) -> list[str]:
    """The title, the counts, how gold was checked, and the tables read."""
    lines = [
        "# Data card: table benchmark (chronoqa build table)",
        "",
        f"Questions: {manifest['counts']['questions']}; corpus documents: {manifest['counts']['corpus_docs']}; "
        f"as_of: {manifest['as_of']}; "
        f"seed: {manifest['seed']}.",
        "",
        "Gold answers are the rows returned by each question's DuckDB query; every gold set was re-checked "
        "against an independent evaluation of the Allen relation over all rows of the key. Intervals are closed "
        "over units of the table's granularity and read half-open for Allen relations; open ends are closed at "
        "as_of; references always lie before as_of.",
        "",
        "## Tables",
        "",
        "| table | rows | stored | granularity used | why | kind | why |",
        "|---|---|---|---|---|---|---|",
    ]
    for n, t in manifest["tables"].items():
        kind = t.get("kind") or {"kind": "-", "why": "not built (event side of a join)"}
        lines.append(
            f"| {md_text(n)} | {t['rows']} | {t['stored_rows']} | {t['granularity']['used']} "
            f"| {t['granularity']['reason']} "
            f"| {kind['kind']} | {kind['why']} |"
        )
    return lines


def _cells(manifest: Mapping[str, Any]) -> list[str]:
    """Questions per relation × cardinality, per source table."""
    counts = manifest["cells"]
    lines = ["", "## Relation × cardinality", ""]
    for src, rows in sorted(counts.items()):
        lines += [f"### {md_text(src)}", "", "| relation | none | unique | multiple | total |", "|---|---|---|---|---|"]
        order = [r.value for r in Allen]
        for rel in sorted(rows, key=lambda r: (order.index(r) if r in order else 99, r)):
            c = rows[rel]
            lines.append(f"| {md_text(rel)} | {c['none']} | {c['unique']} | {c['multiple']} | {sum(c.values())} |")
        lines.append("")
    return lines


def _families(manifest: Mapping[str, Any]) -> list[str]:
    """Status and event families: questions made of the candidates, and why fewer."""
    counts = manifest["cells"]
    lines: list[str] = []
    fams = {n: t["family_candidates"] for n, t in manifest["tables"].items() if t.get("family_candidates")}
    if fams:
        lines += ["## Status and event families: questions made of the candidates the data allows", ""]
        for n, cands in fams.items():
            made = {r.split(":")[0]: sum(c.values()) for r, c in counts.get(n, {}).items()}
            lines += [f"- {md_text(n)}: " + ", ".join(f"{f} {made.get(f, 0)} of {c}" for f, c in cands.items())]
        lines += ["", "Fewer than the candidates means the quota (`per_cell`) is full: raise `--per-cell`.", ""]
        notes = [(n, f, why) for n, t in manifest["tables"].items() for f, why in (t.get("family_notes") or {}).items()]
        if notes:
            lines += ["Families the data holds no question of, or fewer than its candidates (and why):", ""]
            lines += [f"- {md_text(n)}, {f}: {why}" for n, f, why in notes]
            lines.append("")
    return lines


def _completeness(manifest: Mapping[str, Any]) -> list[str]:
    """Which tables are declared complete, and what that licenses."""
    lines: list[str] = []

    return lines


def _precision(manifest: Mapping[str, Any]) -> list[str]:
    """Dates coarser than the comparison granularity, and the questions not asked."""
    lines: list[str] = []
    lines += ["## Completeness", "", "| table | declared complete | by |", "|---|---|---|"]
    for n, t in manifest["tables"].items():
        c = t.get("complete") or {"declared": False, "by": None}
        lines.append(f"| {md_text(n)} | {'yes' if c['declared'] else 'no'} | {c['by'] or 'not declared'} |")
    lines += [
        "",
        "A question whose gold holds only if the table lists every row of its domain in the world (a `none` answer, "
        "the first / most recent event of a value, the keys whose state began in a window) is asked only on a table "
        'declared complete (phrase file `"complete": "true"`, or `TableBuildConfig.complete`): a catalogue (the '
        "films one service offers) is not the world (a director's filmography).",
        "",
    ]
    lines += [
        "## Date precision",
        "",
        "| table | cells coarser than the comparison granularity | candidate questions not asked |",
        "|---|---|---|",
    ]
    for n, t in manifest["tables"].items():
        pr = t.get("precision") or {"coarse_cells": 0, "questions_skipped": 0}
        lines.append(f"| {md_text(n)} | {pr['coarse_cells']} | {pr['questions_skipped']} |")
    lines += [
        "",
        "Every date is written (corpus, answers, explanations) at its source cell's precision, never finer than the "
        'table\'s comparison granularity: a bare year "2003" in a table compared at month level is "2003", not '
        '"January 2003". A question whose gold could turn on where in its year such a date falls (did a term that '
        'began in "2003" begin before March 2003?) is not asked; the candidates are counted above.',
        "",
    ]
    return lines


def _priors(manifest: Mapping[str, Any]) -> list[str]:
    """The most frequent answer of each family and its share."""
    lines: list[str] = []
    shares = [(n, op, s) for n, t in manifest["tables"].items() for op, s in (t.get("answer_shares") or {}).items()]
    if shares:
        lines += [
            "## Answer priors",
            "",
            "The most frequent answer of each family and its share: what an answerer scores by always giving it, "
            "without reading the time.",
            "",
            "| table | family | most frequent answer | share | questions |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| {md_text(n)} | {op} | {md_text(s['answer'][:60])} | {s['share']:.0%} | {s['questions']} |"
            for n, op, s in shares
        ]
        lines.append("")
    return lines


def _closed_world(manifest: Mapping[str, Any]) -> list[str]:
    """How many questions assume a complete table, and the bounded before/after forms."""
    cw = manifest["closed_world"]
    lines: list[str] = []
    lines += [
        "## Closed-world questions",
        "",
        f"{cw['assumes_complete']} questions are marked `assumes_complete` (their gold holds only if the table is "
        f"complete): `none` answers, first / most recent, set questions. {cw['none_dropped']} further `none` "
        "questions were dropped to "
        f"keep their share at most {cw['max_none_share']:.0%}. No question asks about a time outside its key's "
        "coverage (from its first row to its last known end); before/after are asked in their bounded form "
        '("the last ... whose term ended before T", "the first ... whose term began after T"), which the table '
        "answers wherever it covers T.",
        "",
    ]
    return lines


def _tfds(manifest: Mapping[str, Any]) -> list[str]:
    """The TFDs used, with their violations, conflicts, declined keys and handover readings."""
    lines: list[str] = []
    lines += ["## TFDs used", ""]
    for n, t in manifest["tfds"].items():
        for k in t["kept"]:
            lines.append(
                f"- {md_text(n)}: {md_code(k['tfd'])} — {k['rows']} rows, {k['keys']} keys, "
                f"{k['changing_keys']} keys change over "
                f"time, {k['violations']} violating pairs ({k['violating_rows']} rows), {k['handovers']} handovers"
            )
        if t.get("conflicts_skipped"):
            lines.append(
                f"- {md_text(n)}: {t['conflicts_skipped']} candidate questions not asked: their gold rows are two "
                "holders at "
                "once on a one-holder TFD (a conflict in the data, e.g. a Governor-General filed as monarch)"
            )
        for key, rows in (t.get("declined_keys") or {}).items():
            lines.append(
                f"- {md_text(n)}: key {md_code(key)} ({rows} rows) not asked about: its role cell names several "
                "titles, which no "
                "question can print as one"
            )
    read = [(n, t["handovers"]) for n, t in manifest["tables"].items() if t.get("handovers")]
    if read:
        lines += ["", "Same-unit handovers (one row ends in the unit where the next row of its key begins):", ""]
        lines += [
            f"- {md_text(n)}: read as `{h['reading']}` along {md_text(', '.join(h['key']))}: {h['pairs']} pairs "
            f"({h['rows']} rows "
            f"end one unit earlier); {h['why']} (`--handovers overlap` keeps them overlapping); "
            f"{h.get('end_questions_skipped', 0)} candidate questions stating such a row's end exactly "
            "(finishes, finished-by, equals) were not asked"
            for n, h in read
        ]
    return lines


def _sql_to_text(manifest: Mapping[str, Any]) -> list[str]:
    """The LLM wording step, when it ran: its client, what was kept and the rejections by reason and template."""
    r = manifest.get("sql_to_text")
    if not r:
        return []
    rate = "–" if r["rejection_rate"] is None else f"{r['rejection_rate']:.1%}"
    lines = [
        "",
        "## Questions worded by a model from their SQL",
        "",
        f"- Client: {md_code(r['client'])}; {r['tried']} questions asked, {r['accepted']} rewordings passed the "
        f"faithfulness check, {r['rejected']} rejected (rejection rate {rate}), {r['failed']} requests failed. A "
        "rejected or failed rewording leaves the template's wording.",
    ]
    lines += [f"- rejected for {md_code(k)}: {v}" for k, v in r["reasons"].items()]
    lines += [
        f"- template {md_code(t)}: {c['rejected']} of {c['checked']} rejected" for t, c in r["by_template"].items()
    ]
    return lines


def _splits_and_limits(manifest: Mapping[str, Any]) -> list[str]:
    """The split sizes and the known limitations."""
    lines: list[str] = []
    lines += ["", "## Splits", ""]
    lines += [f"- {k}: {v}" for k, v in manifest["counts"]["splits"].items()]
    lines += [
        "",
        "## Known limitations",
        "",
        "- Questions come from deterministic templates; a paraphrase step is optional and rejected when it loses "
        "a key value or a date.",
        "- Questions marked `assumes_complete` presuppose that the table lists every row of its domain; they are "
        "asked only on tables declared complete, and the declaration is the data's publisher's (or the phrase "
        "file's) claim, not checked against the world.",
        "- Rows without a start date, with start after end, or starting after as_of are left out (counted above).",
        "- A cell coarser than its table's comparison granularity (a bare year in a table compared at month level: "
        "a declared `--granularity` finer than some cells, or a join) keeps its own precision; questions comparing "
        "a time with it below its precision are not asked (Date precision), so such a table holds fewer questions "
        "near those dates. The data's year placeholders (`2009-01-01` for 2009) are read, written and asked as years.",
        "- On a many-valued TFD (a key holds several values at once: a player's club and national team) of a table "
        "not declared complete, no question asks for the values of a key at a time; only the start and end of one "
        "listed spell are asked (`spell_start`, `spell_end`).",
        "",
    ]
    return lines


#: The data card's sections, in order.
_SECTIONS: tuple[Callable[[Mapping[str, Any]], list[str]], ...] = (
    _summary_and_tables,
    _cells,
    _families,
    _completeness,
    _precision,
    _priors,
    _closed_world,
    _tfds,
    _sql_to_text,
    _splits_and_limits,
)
