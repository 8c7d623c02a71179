"""Independent oracle for table-builder tests: calendar units and the 13 Allen relations from endpoints.

Written from scratch for the tests (stdlib ``datetime.date`` ordinals as the calendar, plain
comparisons of endpoints for the relations); it never calls ``chronoqa.time`` or the builder's code.
"""

from __future__ import annotations

import datetime
import re
import sqlite3
from collections.abc import Sequence
from typing import Any

# Allen relations of closed unit spans a=[a0,a1], b=[b0,b1], read half-open [x0, x1+1).
BRUTE = {
    "before": lambda a0, a1, b0, b1: a1 + 1 < b0,
    "after": lambda a0, a1, b0, b1: b1 + 1 < a0,
    "meets": lambda a0, a1, b0, b1: a1 + 1 == b0,
    "met-by": lambda a0, a1, b0, b1: b1 + 1 == a0,
    "overlaps": lambda a0, a1, b0, b1: a0 < b0 <= a1 < b1,
    "overlapped-by": lambda a0, a1, b0, b1: b0 < a0 <= b1 < a1,
    "starts": lambda a0, a1, b0, b1: a0 == b0 and a1 < b1,
    "started-by": lambda a0, a1, b0, b1: a0 == b0 and a1 > b1,
    "during": lambda a0, a1, b0, b1: b0 < a0 and a1 < b1,
    "contains": lambda a0, a1, b0, b1: a0 < b0 and b1 < a1,
    "finishes": lambda a0, a1, b0, b1: a1 == b1 and a0 > b0,
    "finished-by": lambda a0, a1, b0, b1: a1 == b1 and a0 < b0,
    "equals": lambda a0, a1, b0, b1: a0 == b0 and a1 == b1,
}

TDBENCH_TIME_REFS = {
    "after": {"start"},
    "met-by": {"start"},
    "started-by": {"start"},
    "before": {"end"},
    "meets": {"end"},
    "finished-by": {"end"},
}


def parse_iso(text: str) -> tuple[int, int | None, int | None]:
    m = re.fullmatch(r"(-?\d+)(?:-(\d\d))?(?:-(\d\d))?", text.strip())
    assert m, text
    return int(m.group(1)), int(m.group(2)) if m.group(2) else None, int(m.group(3)) if m.group(3) else None


def unit(text: str, g: str, side: str) -> int:
    """First ('lo') or last ('hi') unit of granularity g covered by an ISO date."""
    y, m, d = parse_iso(text)
    if g == "year":
        return y
    if g == "month":
        if m is None:
            m = 1 if side == "lo" else 12
        return y * 12 + m - 1
    if m is None:
        m, d = (1, 1) if side == "lo" else (12, 31)
    if d is None:
        if side == "lo":
            d = 1
        else:
            nxt = datetime.date(y + (m == 12), m % 12 + 1, 1)
            return nxt.toordinal() - 1
    return datetime.date(y, m, d).toordinal()


def span(start: str, end: str | None, g: str, as_of: str) -> tuple[int, int]:
    return unit(start, g, "lo"), unit(end if end else as_of, g, "hi")


def handovers_as_meets(
    keys: Sequence[object], spans: Sequence[tuple[int, int] | None], open_end: Sequence[bool]
) -> tuple[list[tuple[int, int] | None], int]:
    """The declared reading of coarse same-unit handovers, brute force over all pairs of rows of a key.

    A closed row [a0, a1] (a0 < a1) whose key has another row starting at a1 is read as [a0, a1 - 1]
    (a row whose start is after its end is no row: it is left out of the table).
    Returns the new spans and the number of (row, next row) pairs read so.
    """
    out = list(spans)
    pairs = 0
    for i, sp in enumerate(spans):
        if sp is None or open_end[i] or sp[0] >= sp[1]:
            continue
        n = sum(
            1
            for j, sq in enumerate(spans)
            if j != i and sq is not None and sq[0] <= sq[1] and keys[j] == keys[i] and sq[0] == sp[1]
        )
        if n:
            pairs += n
            out[i] = (sp[0], sp[1] - 1)
    return out, pairs


def sqlite_rows(
    name: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str | None]],
    spans: Sequence[tuple[int, int] | None],
    sql_duckdb: str,
    *,
    unit_shift: int = 0,
) -> list[tuple[object, ...]]:
    """Run a DuckDB query transpiled to SQLite on an SQLite copy built from the oracle's own units.

    ``unit_shift`` converts the oracle's day ordinals into the builder's day numbers (the query's
    literals): both count consecutive days, so only the origin differs.
    """
    import sqlglot

    con = sqlite3.connect(":memory:")
    cols = ", ".join(f'"{c}" TEXT' for c in columns)
    con.execute(f'CREATE TABLE "{name}" (_row INTEGER, {cols}, _lo INTEGER, _hi INTEGER)')
    for i, (row, sp) in enumerate(zip(rows, spans, strict=True)):
        if sp is None:
            continue
        con.execute(
            f'INSERT INTO "{name}" VALUES ({", ".join("?" * (len(columns) + 3))})',
            (i, *row, sp[0] + unit_shift, sp[1] + unit_shift),
        )
    sql = sqlglot.transpile(sql_duckdb, read="duckdb", write="sqlite")[0]
    out = con.execute(sql).fetchall()
    con.close()
    return out


# days between 0001-01-01 (ordinal 1) and 1970-01-01 in the builder's day numbering
EPOCH_SHIFT = -datetime.date(1970, 1, 1).toordinal()


# -- validity in the world: bounded windows, closed-world marks, grammatical number --------

#: before/after are asked in their bounded form: "the last ... whose term ended before T" keeps the rows
#: ending latest among those ending before T; "the first ... whose term began after T" those starting first.
BOUNDED = {"before": "last", "after": "first"}


def mentioned_span(relation: str, b0: int, b1: int) -> tuple[int, int]:
    """The units a question's condition is about: the day before b0 for before/meets, after b1 for after/met-by."""
    if relation in ("before", "meets"):
        return b0 - 1, b0 - 1
    if relation in ("after", "met-by"):
        return b1 + 1, b1 + 1
    return b0, b1


def bounded_gold(relation: str, rows: Sequence[tuple[int, int, int]]) -> set[int]:
    """Row ids of the gold among ``rows`` = (id, a0, a1) standing in ``relation``: the bounded form's pick."""
    if not rows:
        return set()
    if BOUNDED.get(relation) == "last":
        m = max(a1 for _, _, a1 in rows)
        return {i for i, _, a1 in rows if a1 == m}
    if BOUNDED.get(relation) == "first":
        m = min(a0 for _, a0, _ in rows)
        return {i for i, a0, _ in rows if a0 == m}
    return {i for i, _, _ in rows}


def validity_findings(
    text: str, relation: str, cardinality: str, assumes_complete: bool, form: object, *, many_valued: bool = False
) -> list[str]:
    """Closed-world marks, bounded forms and grammatical number of one question, as a reader checks them.

    ``many_valued``: the question asks for the values of a key that holds several at once (a TFD whose
    violation rate exceeds the threshold): any answer presumes every value listed.
    """
    out = []
    # a set over keys presumes every key is listed; "first"/"most recent" event presumes every event is; "the
    # last ... before T" presumes every holder of the key is
    closed = many_valued or cardinality == "none" or relation in ("status_set", "event_order", *BOUNDED)
    if assumes_complete != closed:
        out.append(f"assumes_complete={assumes_complete} on a {cardinality} question")
    if relation in BOUNDED and form != BOUNDED[relation]:
        out.append(f"{relation} question not in its bounded form ({form!r})")
    if relation in BOUNDED and cardinality == "none":  # "the last ... before T" with none: the table starts too late
        out.append(f"bounded {relation} question with no answer: {text}")
    if relation in BOUNDED and f"the {BOUNDED[relation]} " not in text:
        out.append(f"{relation} question without 'the {BOUNDED[relation]}': {text}")
    head = text.split(", ", 1)[1] if text.startswith("As of") else text
    words = head.lower().split()[:2]
    verb = words[1] if len(words) > 1 and words[0] in ("who", "what") else ""
    plural = verb in ("were", "are")
    if verb in ("was", "is", "were", "are") and plural != (cardinality == "multiple"):
        out.append(f"grammatical number does not follow the answer count ({cardinality}): {text}")
    return out


# -- status and event families, from the raw rows (dicts of a CSV file) ------------------------------


def _year(text: str) -> int:
    return parse_iso(text)[0]


def _open(end: str | None) -> bool:
    return end is None or end.strip() in ("", "nan")


def family_gold(
    q_operator: str, lf: dict, rows: Sequence[dict[str, str]], as_of: str, delimiters: dict[str, str] | None = None
) -> set[str]:
    """The answers of a status or event question recomputed from the raw rows (years only).

    ``delimiters``: column -> a declared delimiter (the other columns split on ', ', ' / ', '; ').
    """
    declared = delimiters or {}

    def pieces(cell: str, col: str) -> list[str]:
        if declared.get(col) == "none":
            return [cell]
        if col in declared:
            return [v.strip() for v in cell.split(declared[col]) if v.strip()]
        return [v.strip() for v in re.split(r", | / |; ", cell)]

    def delimited(col: str) -> bool:
        cells = [r[col] for r in rows if r[col]]
        if col in declared:
            return declared[col] != "none"
        return sum(1 for c in cells if re.search(r", | / |; ", c)) >= 0.05 * len(cells)

    cols = lf.get("columns", [])
    if q_operator == "status_since":
        key = dict(zip(cols, lf["key"], strict=True))
        hits = [r for r in rows if all(r[c] == v for c, v in key.items()) and r["Start"]]
        live = [r for r in hits if _open(r["End"]) or _year(r["End"]) >= _year(as_of)]
        return {str(_year(r["Start"])) for r in live}
    if q_operator == "status_at":
        key = dict(zip(cols, lf["key"], strict=True))
        year = lf["year"]
        return {
            r[lf["state"]]
            for r in rows
            if all(r[c] == v for c, v in key.items())
            and r["Start"]
            and _year(r["Start"]) <= year <= (_year(as_of) if _open(r["End"]) else _year(r["End"]))
        }
    if q_operator == "status_set":
        cat, st, ent = cols
        y0, y1 = lf["window"]
        return {
            r[ent]
            for r in rows
            if r[cat] == lf["key"][0]
            and r[st] == lf["key"][1]
            and r["Start"]
            and y0 <= _year(r["Start"]) <= y1
            and len(pieces(r[ent], ent)) == 1
        }
    if q_operator == "event_when":
        key = dict(zip(cols, lf["key"], strict=True))
        return {str(_year(r["Start"])) for r in rows if all(r[c] == v for c, v in key.items())}
    if q_operator == "event_in":
        k, y, year = lf["column"], lf["target"], lf["year"]
        hits = []
        for r in rows:
            if r[k] != lf["key"][0] or not r["Start"] or not r[y]:
                continue
            end = _year(r["Start"]) if _open(r["End"]) else _year(r["End"])
            if _year(r["Start"]) <= year <= end:
                hits.append(r[y])
        assert len(hits) == 1, "event_in asks about one row"
        return set(pieces(hits[0], y)) if delimited(y) else {hits[0]}
    if q_operator == "event_order":
        k, y, value = lf["column"], lf["target"], lf["key"][0]
        split = delimited(k)
        hits = [r for r in rows if r[y] and r["Start"] and value in (pieces(r[k], k) if split else [r[k]])]
        edge = (min if lf["form"] == "first" else max)(parse_iso(r["Start"]) for r in hits)
        return {r[y] for r in hits if parse_iso(r["Start"]) == edge}
    raise AssertionError(q_operator)


# -- a leaders question's gold from the raw rows ---------------------------------------------------


def oracle_gold(q: Any, rows: Sequence[Sequence[str]], as_of: str) -> set[tuple[str, str, str | None]]:
    """The (name, start, end) rows of ``q``'s key that its condition picks on ``rows``, worked from scratch.

    ``rows``: a Country, Role, Name, Start, End table (TDBench's leaders) as read by ``csv.reader``; ``q``: a
    table question (its operator, Allen relation, ``t_query`` and logical form's key and reference units).
    """
    lf = q.logical_form
    key = [r for r in rows if [r[0], r[1]] == list(lf["key"])]
    spans = [(i, *span(r[3], r[4] or None, "day", as_of)) for i, r in enumerate(key)]
    if q.operator == "time_alignment":
        u = span(str(q.t_query), None, "day", as_of)[0]
        hit = {i for i, a0, a1 in spans if a0 <= u <= a1}
    else:
        b0, b1 = (int(b) - EPOCH_SHIFT for b in lf["reference_units"])
        hit = bounded_gold(q.allen or "", [(i, a0, a1) for i, a0, a1 in spans if BRUTE[q.allen or ""](a0, a1, b0, b1)])
    return {(key[i][2], key[i][3], key[i][4] or None) for i in hit}
