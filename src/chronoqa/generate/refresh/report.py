"""What a refresh writes besides the questions: ``CHANGES.md``, the manifest's ``refresh`` section, the drift card.

Each reads the :class:`~chronoqa.generate.refresh.Refresh` result only; data text is escaped for Markdown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chronoqa.artifacts.changes import CHANGE_CLASSES, ChangeRecord
from chronoqa.artifacts.release import Release
from chronoqa.escape import md_code, md_text
from chronoqa.generate.refresh.keys import NEW_DRIFT

if TYPE_CHECKING:
    from chronoqa.generate.refresh import Refresh

__all__ = ["changes_markdown", "drift_section", "per_cell", "refresh_manifest"]

#: What each class means, as CHANGES.md and the data card say it.
MEANING = {
    "unchanged": "re-grounded on the newer data, same gold",
    "gold_changed": "re-grounded, another gold (the facts that changed it are listed)",
    "retired": "invalidated by the newer data (the reason is listed); not in this release",
    "new": "drawn by the new build, with a key no old question has",
}


def per_cell(changes: list[ChangeRecord]) -> dict[str, dict[str, int]]:
    """Cell -> class -> count, cells sorted."""
    counts = Counter((c.cell, c.change) for c in changes)
    cells = sorted({c.cell for c in changes})
    return {cell: {k: counts[(cell, k)] for k in CHANGE_CLASSES} for cell in cells}


def _count_table(r: Refresh) -> list[str]:
    lines = ["| class | questions | meaning |", "|---|---:|---|"]
    lines += [f"| {k} | {r.counts.get(k, 0)} | {MEANING[k]} |" for k in CHANGE_CLASSES]
    gold = [c for c in r.changes if c.change == "gold_changed"]
    other = sum(1 for c in gold if c.old_answers != c.new_answers)
    new = [c for c in r.changes if c.change == "new"]
    drift = sum(1 for c in new if c.reason == NEW_DRIFT)
    not_re = sum(1 for c in r.changes if not c.regrounded and c.change != "new")
    lines += [
        "",
        f"Gold changed: {other} with other answers, {len(gold) - other} with the same answers and re-dated, added "
        f"or removed S* facts. New: {drift} use a fact the newer data added or re-dated; {r.sampled_out} more that "
        "the new build drew from facts both snapshots hold (sampling, not drift) were left out. Classified without "
        "their gold recomputed "
        f'("not re-grounded"): {not_re}.',
    ]
    return lines


def _cell_table(r: Refresh) -> list[str]:
    lines = ["| cell | " + " | ".join(CHANGE_CLASSES) + " |", "|---|" + "---:|" * len(CHANGE_CLASSES)]
    for cell, row in per_cell(r.changes).items():
        lines.append(f"| {md_code(cell, table=True)} | " + " | ".join(str(row[k]) for k in CHANGE_CLASSES) + " |")
    return lines


def _change(c: ChangeRecord) -> list[str]:
    out = [f"### {c.change}: {md_code(c.id)} ({md_text(c.cell)})", "", f"- question: {md_text(c.question)}"]
    if c.change != "new":
        out.append(f"- old gold: {md_text(', '.join(c.old_answers) or '(none)')}")
    if c.change in ("gold_changed", "new"):
        out.append(f"- new gold: {md_text(', '.join(c.new_answers) or '(none)')}")
    for label, facts in (("S* added", c.facts_added), ("S* removed", c.facts_removed),
                         ("S* re-dated", c.facts_redated)):  # fmt: skip
        out += [f"- {label}: {md_text(f)}" for f in facts]
    if c.reason:
        out.append(f"- why: {md_text(c.reason)}")
    return [*out, ""]


def changes_markdown(r: Refresh) -> str:
    """``CHANGES.md``: versions, counts per class and per cell, then each change (unchanged questions only counted)."""
    lines = [f"# Changes: release {r.old_version} -> {r.version}", "", *_count_table(r), "", "## Per cell", ""]
    lines += [*_cell_table(r), "", "## Each change", ""]
    for k in ("gold_changed", "retired", "new"):
        for c in r.changes:
            if c.change == k:
                lines += _change(c)
    return "\n".join(lines).rstrip("\n") + "\n"


def drift_section(r: Refresh) -> str:
    """The data card's drift section: what the newer data changed, per class, and where to read each change."""
    lines = ["## Drift since the previous release", "", f"Release {r.old_version} -> {r.version}.", ""]
    lines += [
        *_count_table(r),
        "",
        "Each change: `CHANGES.md` (readable) and `changes.jsonl` (one record per question).",
    ]
    return "\n".join(lines) + "\n"


def refresh_manifest(release: Release, manifest: Mapping[str, Any], r: Refresh, old_sha: str) -> dict[str, Any]:
    """The new build's manifest with the refresh's counts, questions and splits, ``release_version`` and ``refresh``."""
    m = dict(manifest)
    splits = Counter(q.split for q in r.questions)
    m["counts"] = {**manifest["counts"], "questions": len(r.questions), "splits": dict(sorted(splits.items()))}
    m["release_version"] = r.version
    m["refresh"] = {
        "previous_version": r.old_version,
        "previous_manifest_sha256": old_sha,
        "previous_questions": len(release.questions),
        "changes": dict(r.counts),
        "per_cell": per_cell(r.changes),
        "not_regrounded": sum(1 for c in r.changes if not c.regrounded and c.change != "new"),
        "sampled_left_out": r.sampled_out,
        "note": "cells, composition and quality describe the new build; counts.questions the refreshed release",
    }
    return m
