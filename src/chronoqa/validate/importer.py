"""Import annotators' judgment files: agreement, consensus, low-confidence flags and error rates per cell.

Files written into ``out``:

* ``agreement.json``: per judgment, Cohen's kappa (two annotators) or Krippendorff's alpha (more), with
  a 95% item-bootstrap CI, the observed agreement and the number of items rated twice or more.
* ``consensus.jsonl``: per question, each judgment's consensus (the strict majority of the answers
  given; ``disputed`` without one; ``null`` when nobody answered; ``unsure`` counts as no answer).
* ``low_confidence.jsonl``: TempBench's layout, one line per question: ``{"id", "status"}`` with status
  ``consensus`` or ``flagged`` (``single_annotator`` when only one annotator judged it),
  ``disputed`` (the judgments the annotators did not all agree on) and
  ``n_annotators``. A question is flagged when one of :data:`~chronoqa.validate.protocol.FLAGGING` is
  disputed (naturalness is listed but does not flag).
* ``error_rates.json``: per cell and judgment, the share of questions whose consensus is the defect
  answer (``no``) among those with a consensus, with a Wilson 95% interval; and the same over all cells.
* ``VALIDATION.md``: the above as Markdown tables, for the data card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scipy import stats as sps

from chronoqa.artifacts.release import Release
from chronoqa.errors import ChronoqaError, DataError
from chronoqa.escape import md_text
from chronoqa.io import read_json, write_json, write_jsonl, write_text
from chronoqa.validate.agreement import agreement
from chronoqa.validate.protocol import FLAGGING, JUDGMENTS, JUDGMENTS_FORMAT, VALUES
from chronoqa.validate.sample import cell_of

__all__ = [
    "MAX_SHEET_BYTES",
    "SHEET_CAP_FLAG",
    "Sheet",
    "ValidationResult",
    "consensus_of",
    "import_judgments",
    "read_sheet",
    "wilson",
]

_FIX = "re-save the file from the annotation page (key s), or correct the value by hand"


@dataclass(frozen=True, slots=True)
class Sheet:
    """One annotator's judgments: ``question id -> judgment -> value`` (``None``: not answered)."""

    path: Path
    annotator: str
    judgments: Mapping[str, Mapping[str, str | None]]
    comments: Mapping[str, str]


#: The largest judgments file read, in bytes (a sheet of a few thousand judgments is well under 1 MB).
MAX_SHEET_BYTES = 16 * 1024 * 1024
#: The command-line flag that raises it (``chronoqa validate import``), in megabytes.
SHEET_CAP_FLAG = "--max-sheet-mb"


def _check_size(p: Path, max_bytes: int) -> None:
    """Refuse a judgments file larger than ``max_bytes`` before reading it, naming the cap and its flag."""
    size = p.stat().st_size if p.is_file() else 0
    if size > max_bytes:
        mb = -(-size // (1024 * 1024))
        raise DataError(
            str(p),
            0,
            "(file)",
            f"{size:,} bytes",
            f"a judgments file of at most {max_bytes:,} bytes (the sheet cap)",
            f"check it is a file saved by sheet.html, or raise the cap with {SHEET_CAP_FLAG} {mb + 1}",
        )


def read_sheet(path: str | Path, known_ids: set[str], *, max_bytes: int = MAX_SHEET_BYTES) -> Sheet:
    """Read one judgments file saved by the annotation page; a bad value names the file, item and field.

    A file larger than ``max_bytes`` is refused before it is read (:data:`MAX_SHEET_BYTES`).
    """
    p = Path(path)
    _check_size(p, max_bytes)
    data = read_json(p)
    if not isinstance(data, Mapping) or data.get("format") != JUDGMENTS_FORMAT:
        got = data.get("format") if isinstance(data, Mapping) else type(data).__name__
        raise DataError(str(p), 0, "format", got, f"a {JUDGMENTS_FORMAT!r} file saved by sheet.html", _FIX)
    raw_name = data.get("annotator")
    annotator = raw_name.strip() if isinstance(raw_name, str) else ""
    if not annotator:
        raise DataError(str(p), 0, "annotator", raw_name, "the annotator's name", "type a name in the page, then save")
    rows = data.get("judgments")
    if rows is None:
        rows = []
    if not isinstance(rows, list):
        got = type(rows).__name__
        raise DataError(str(p), 0, "judgments", got, "a list of {id, <judgment>: value} objects", _FIX)
    out: dict[str, dict[str, str | None]] = {}
    comments: dict[str, str] = {}
    seen: dict[str, int] = {}
    for i, row in enumerate(rows, 1):
        if not isinstance(row, Mapping):
            raise DataError(str(p), i, "judgments", type(row).__name__, "an object {id, <judgment>: value}", _FIX)
        qid = str(row.get("id", ""))
        if qid not in known_ids:
            raise DataError(
                str(p),
                i,
                "id",
                qid,
                "the id of a question of this release",
                "import against the release the sheet was sampled from",
            )
        if qid in seen:
            raise DataError(
                str(p),
                i,
                "id",
                qid,
                f"each question judged once per sheet (also judged at item {seen[qid]})",
                "keep one of the two judgments and delete the other",
            )
        seen[qid] = i
        values: dict[str, str | None] = {}
        for j in JUDGMENTS:
            v = row.get(j.name)
            if v is not None and v not in VALUES:
                raise DataError(str(p), i, j.name, v, f"one of {', '.join(VALUES)} or null", _FIX)
            values[j.name] = None if v in (None, "unsure") else str(v)
        out[qid] = values
        comment = row.get("comment")
        if comment is not None and not isinstance(comment, str):
            raise DataError(str(p), i, "comment", type(comment).__name__, "a text or null", _FIX)
        comments[qid] = comment or ""
    return Sheet(p, annotator, out, comments)


def consensus_of(values: Sequence[str | None]) -> str | None:
    """The strict majority of the answers given, ``disputed`` without one, ``None`` when none was given."""
    given = [v for v in values if v is not None]
    if not given:
        return None
    top, count = Counter(given).most_common(1)[0]
    return top if count * 2 > len(given) else "disputed"


def wilson(k: int, n: int) -> tuple[float | None, float | None, float | None]:
    """``k / n`` with its Wilson 95% interval (``None`` for ``n == 0``)."""
    if n == 0:
        return None, None, None
    ci = sps.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return k / n, float(ci.low), float(ci.high)


@dataclass(frozen=True)
class ValidationResult:
    """Everything :func:`import_judgments` computed (and wrote)."""

    annotators: tuple[str, ...]
    agreement: Mapping[str, Mapping[str, Any]]
    consensus: Sequence[Mapping[str, Any]]
    low_confidence: Sequence[Mapping[str, Any]]
    error_rates: Mapping[str, Any]


def _rate(rows: Sequence[Mapping[str, Any]], judgment: str, defect: str) -> dict[str, Any]:
    decided = [r["consensus"][judgment] for r in rows if r["consensus"][judgment] not in (None, "disputed")]
    k = sum(1 for v in decided if v == defect)
    value, lo, hi = wilson(k, len(decided))
    disputed = sum(1 for r in rows if r["consensus"][judgment] == "disputed")
    return {"errors": k, "n": len(decided), "rate": value, "ci_low": lo, "ci_high": hi, "disputed": disputed}


def _fmt(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.3f}"


def _markdown(res: ValidationResult) -> str:
    lines = [
        "## Human validation",
        "",
        f"Annotators: {len(res.annotators)} ({', '.join(md_text(a) for a in res.annotators)}); "
        f"questions judged: {len(res.consensus)}. Protocol: docs/annotation-protocol.md.",
        "",
        "| judgment | agreement | value | 95% CI | items | observed agreement |",
        "|---|---|---:|---|---:|---:|",
    ]
    for name, a in res.agreement.items():
        lines.append(
            f"| {md_text(name)} | {md_text(a['measure'])} | {_fmt(a['value'])} "
            f"| [{_fmt(a['ci_low'])}, {_fmt(a['ci_high'])}] | {a['n_items']} | {_fmt(a['observed_agreement'])} |"
        )
    flagged = sum(1 for r in res.low_confidence if r["status"] == "flagged")
    agreed = sum(1 for r in res.low_confidence if r["status"] == "consensus")
    single = len(res.low_confidence) - flagged - agreed
    lines += ["", f"Low-confidence questions: {flagged} flagged, {agreed} consensus, {single} single-annotator.", ""]
    names = [j.name for j in JUDGMENTS]
    lines += ["Error rates (consensus answer `no`; Wilson 95% CI):", ""]
    lines += ["| cell | " + " | ".join(md_text(n) for n in names) + " |", "|---|" + "---|" * len(names)]
    cells = dict(res.error_rates["by_cell"])
    cells["all"] = res.error_rates["all"]
    for cell, block in cells.items():
        parts = []
        for name in names:
            r = block[name]
            parts.append(
                "n/a"
                if r["rate"] is None
                else f"{r['errors']}/{r['n']} = {r['rate']:.2f} [{r['ci_low']:.2f}, {r['ci_high']:.2f}]"
            )
        lines.append(f"| {md_text(cell)} | " + " | ".join(parts) + " |")
    return "\n".join(lines) + "\n"


def import_judgments(
    release: Release,
    sheets: Sequence[str | Path],
    out: str | Path,
    *,
    n_boot: int = 1000,
    seed: int = 0,
    max_sheet_bytes: int = MAX_SHEET_BYTES,
) -> ValidationResult:
    """Read ``sheets`` (one per annotator), compute agreement, consensus, flags and error rates; write ``out``.

    A judgments file larger than ``max_sheet_bytes`` is refused before it is read.
    """
    if not sheets:
        raise ChronoqaError("no judgment files given (the JSON files saved by sheet.html)")
    if n_boot < 1:
        raise ChronoqaError(f"--bootstrap {n_boot}: expected a number of resamples >= 1 (e.g. --bootstrap 1000)")
    questions = {q.id: q for q in release.questions}
    read = [read_sheet(p, set(questions), max_bytes=max_sheet_bytes) for p in sheets]
    names = [s.annotator for s in read]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ChronoqaError(f"annotator {dup[0]!r} appears in more than one file: give each annotator one file")
    ids = sorted({qid for s in read for qid in s.judgments})
    agree: dict[str, dict[str, Any]] = {}
    for j in JUDGMENTS:
        ratings = [{s.annotator: s.judgments.get(qid, {}).get(j.name) for s in read} for qid in ids]
        agree[j.name] = agreement(ratings, names, n_boot=n_boot, seed=seed, name=j.name).to_dict()
    consensus: list[dict[str, Any]] = []
    low: list[dict[str, Any]] = []
    for qid in ids:
        given = {j.name: [s.judgments.get(qid, {}).get(j.name) for s in read] for j in JUDGMENTS}
        cons = {name: consensus_of(vs) for name, vs in given.items()}
        n_ann = sum(1 for s in read if qid in s.judgments)
        disputed = [name for name, vs in given.items() if len({v for v in vs if v is not None}) > 1]
        comments = {s.annotator: s.comments[qid] for s in read if s.comments.get(qid)}
        consensus.append({"id": qid, "cell": cell_of(questions[qid]), "consensus": cons, "comments": comments})
        status = "flagged" if any(d in FLAGGING for d in disputed) else "consensus"
        if n_ann < 2:
            status = "single_annotator"  # nothing to agree on: neither consensus nor flagged
        low.append({"id": qid, "status": status, "disputed": disputed, "n_annotators": n_ann})
    by_cell: dict[str, list[dict[str, Any]]] = {}
    for row in consensus:
        by_cell.setdefault(row["cell"], []).append(row)
    rates = {
        "by_cell": {
            c: {j.name: _rate(rows, j.name, j.error_if) for j in JUDGMENTS} for c, rows in sorted(by_cell.items())
        },
        "all": {j.name: _rate(consensus, j.name, j.error_if) for j in JUDGMENTS},
    }
    res = ValidationResult(tuple(names), agree, consensus, low, rates)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    write_json(
        folder / "agreement.json", {"annotators": names, "n_bootstrap": n_boot, "seed": seed, "judgments": agree}
    )
    write_jsonl(folder / "consensus.jsonl", consensus)
    write_jsonl(folder / "low_confidence.jsonl", low)
    write_json(folder / "error_rates.json", rates)
    write_text(folder / "VALIDATION.md", _markdown(res))
    return res
