"""A stratified sample of a release for human validation, written as an annotation page and a CSV.

Strata (cells) are ``operator/complexity`` for KG questions and ``relation/cardinality`` for table
questions (:func:`cell_of`). The sample allocates ``n`` over the cells in proportion to their sizes
with at least one question per non-empty cell (largest remainder; a cell never gives more than it
has), draws within each cell with a generator seeded from ``(seed, cell)``, and shuffles the order
annotators see (seeded too): same release, ``n`` and seed give the same sheet, byte for byte.

Files written into ``out``: ``sheet.html`` (the self-contained page), ``sheet.csv`` (the same items,
empty judgment columns) and ``sample.json`` (seed, cells with population and sample sizes, item ids).
"""

from __future__ import annotations

import csv
import io
import random
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from chronoqa.artifacts.release import Release
from chronoqa.errors import ChronoqaError
from chronoqa.io import write_json, write_text
from chronoqa.records import Question, Triple
from chronoqa.validate.html import render_page
from chronoqa.validate.protocol import JUDGMENTS, JUDGMENTS_FORMAT

__all__ = ["SAMPLE_FILE", "allocate", "cell_of", "sample_item", "stratified_sample", "write_sheet"]

SAMPLE_FILE = "sample.json"


def cell_of(q: Question) -> str:
    """The stratum of a question: ``operator/complexity`` (KG) or ``relation/cardinality`` (table)."""
    if q.source == "table":
        return f"{q.allen or q.operator}/{q.cardinality}"
    return f"{q.operator}/{q.complexity}"


def allocate(sizes: Mapping[str, int], n: int) -> dict[str, int]:
    """Proportional allocation of ``n`` over cells: at least one per non-empty cell, never more than a cell has."""
    cells = sorted(c for c, s in sizes.items() if s > 0)
    total = sum(sizes[c] for c in cells)
    if n >= total:
        return {c: sizes[c] for c in cells}
    out = {c: 1 for c in cells} if n >= len(cells) else {}
    if not out:  # fewer slots than cells: the largest cells get one each
        for c in sorted(cells, key=lambda c: (-sizes[c], c))[:n]:
            out[c] = 1
        return out
    while sum(out.values()) < n:
        left = n - sum(out.values())
        open_cells = [c for c in cells if out[c] < sizes[c]]
        weight = sum(sizes[c] for c in open_cells)
        quotas = {c: left * sizes[c] / weight for c in open_cells}
        add = {c: min(int(quotas[c]), sizes[c] - out[c]) for c in open_cells}
        if sum(add.values()) == 0:  # hand out the remainders one by one, largest first
            for c in sorted(open_cells, key=lambda c: (-(quotas[c] - int(quotas[c])), -sizes[c], c))[:left]:
                add[c] = 1
        for c, k in add.items():
            out[c] += k
    return out


def _seeded(seed: int, name: str) -> random.Random:
    return random.Random((int(seed) << 32) ^ zlib.crc32(name.encode("utf-8")))


def stratified_sample(
    release: Release, n: int, *, seed: int = 0, split: str | None = None
) -> tuple[list[Question], dict[str, dict[str, int]]]:
    """``n`` questions stratified by cell, in a seeded shuffled order, and per cell ``{population, sample}``."""
    if n <= 0:
        raise ChronoqaError(f"--n {n}: expected a positive number of questions to sample")
    pool = [q for q in release.questions if split is None or q.split == split]
    if not pool:
        raise ChronoqaError(f"{release.path}: no questions" + (f" in split {split!r}" if split else ""))
    by_cell: dict[str, list[Question]] = {}
    for q in sorted(pool, key=lambda q: q.id):
        by_cell.setdefault(cell_of(q), []).append(q)
    quota = allocate({c: len(qs) for c, qs in by_cell.items()}, n)
    chosen: list[Question] = []
    for c in sorted(quota):
        chosen.extend(_seeded(seed, c).sample(by_cell[c], quota[c]))
    _seeded(seed, "order").shuffle(chosen)
    cells = {c: {"population": len(by_cell[c]), "sample": quota.get(c, 0)} for c in sorted(by_cell)}
    return chosen, cells


def _window(t: Triple) -> str:
    return f"{t.t_start or '?'} – {t.t_end or 'open'}"


def _fact(t: Triple) -> dict[str, str]:
    return {"s": t.s, "r": t.r, "o": t.o, "window": _window(t)}


def sample_item(q: Question) -> dict[str, Any]:
    """What an annotator sees of one question (gold, S* with validity windows, anchors)."""
    return {
        "id": q.id,
        "cell": cell_of(q),
        "question": q.question,
        "t_query": q.t_query,
        "as_of": q.as_of,
        "answers": list(q.answers),
        "cardinality": q.cardinality,
        "S_star": [_fact(t) for t in q.S_star],
        "S_anchor": [_fact(t) for t in q.S_anchor],
    }


def _csv(items: Sequence[Mapping[str, Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["id", "cell", "question", "t_query", "gold", "S_star", *(j.name for j in JUDGMENTS), "comment"])
    for it in items:
        facts = " | ".join(f"{f['s']} — {f['r']} — {f['o']} [{f['window']}]" for f in it["S_star"])
        w.writerow(
            [it["id"], it["cell"], it["question"], it["t_query"] or "", "; ".join(it["answers"]) or "(none)", facts]
            + [""] * (len(JUDGMENTS) + 1)
        )
    return buf.getvalue()


def write_sheet(release: Release, out: str | Path, n: int = 300, *, seed: int = 0, split: str | None = None) -> Path:
    """Write ``sheet.html``, ``sheet.csv`` and ``sample.json`` of a stratified sample into ``out``."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    questions, cells = stratified_sample(release, n, seed=seed, split=split)
    items = [sample_item(q) for q in questions]
    dataset = str(release.manifest.get("dataset") or release.path.name)
    meta = {
        "format": JUDGMENTS_FORMAT,
        "dataset": dataset,
        "seed": seed,
        "split": split,
        "n": len(items),
        "cells": cells,
        "ids": [it["id"] for it in items],
    }
    write_text(folder / "sheet.html", render_page(items, meta))
    write_text(folder / "sheet.csv", _csv(items))
    write_json(folder / SAMPLE_FILE, meta)
    return folder
