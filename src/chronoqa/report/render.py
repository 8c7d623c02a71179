"""Render a run summary as Markdown and as one self-contained HTML page (inline CSS, SVG and JS, no network).

With the explorer data (:func:`chronoqa.report.explorer.build_explorer`) the page also carries the plots,
the "fails everywhere" view and the question explorer (:mod:`chronoqa.report.sections`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chronoqa.artifacts.metrics import PairedEstimate
from chronoqa.artifacts.summary import AnswerRow, Composition, Drift, RetrievalRow, ShownCI, Summary
from chronoqa.escape import html_text
from chronoqa.report.glossary import help_th, legend_html, legend_markdown
from chronoqa.report.plots import clip_label
from chronoqa.report.sections import EXPLORER_CSS, explorer_html, explorer_markdown, md_escape

__all__ = ["fmt_ci", "memory_gap_table", "render_html", "render_markdown", "summary_table", "two_gold_table"]

_RET_COLS = (
    ("R@10", "R@10"),
    ("nDCG@10", "nDCG@10"),
    ("MRR", "MRR"),
    ("TRP_macro", "TRP"),
    ("CCR", "CCR"),
    ("Outrank@10", "Outrank@10"),
)
_ANS_COLS = (
    ("A", "A"),
    ("A_strict", "A strict"),
    ("T", "T"),
    ("T_half", "T half"),
    ("T_loose", "T loose"),
    ("AT", "AT"),
    ("abstain_rate", "abstain"),
    ("error_rate", "error"),
)
_SET_COLS = (("A_all_k", "A all-k"), ("flip_rate", "flip rate"))
"""Beside A when any answer file answered a paraphrase set (``chronoqa run`` with ``[paraphrase]``)."""
_CLASS_COLS = (
    ("right_holder_right_date", "right, dates right"),
    ("right_holder_wrong_date", "right, dates wrong"),
    ("outdated_right_date", "outdated, its dates right"),
    ("outdated_wrong_date", "outdated, dates wrong"),
    ("other_wrong", "other wrong"),
    ("join_intermediate_right", "join: hop right"),
    ("join_wrong_given_intermediate", "join: wrong given hop"),
)
_CLASS_TITLE = "Outcome classes (shares of the questions with a time reference; join columns: of the join questions)"


_SLICES_FIRST = {"by_operator": 0, "by_complexity": 1}
"""The slice groups' columns: by operator, then by complexity, then any other group by name."""

Row = RetrievalRow | AnswerRow
"""A row of the summary: a scored run or a scored answer folder."""

_BAR_LABEL = 38
"""Characters of a bar chart's label shown (at 11 px they fill the 260 px label column); the rest in a tooltip."""


def fmt_ci(m: ShownCI | None, digits: int = 3) -> str:
    """``0.412 [0.380, 0.445]``; ``–`` when undefined."""
    if m is None or m.value is None:
        return "–"
    v = f"{m.value:.{digits}f}"
    if m.lo is None or m.hi is None:
        return v
    return f"{v} [{m.lo:.{digits}f}, {m.hi:.{digits}f}]"


def _ret_name(row: RetrievalRow) -> str:
    return f"{row.spec} (control)" if row.control else row.spec


def _ans_name(row: AnswerRow) -> str:
    name = row.answerer
    if row.run:
        name += f" @ {row.run}" + (" (control run)" if row.run_control else "")
    if row.replies is not None:  # a structured protocol: how many replies were valid JSON
        name += f" · JSON parsed {row.replies.n_json}/{row.replies.n_replies}"
    agree = row.judge.get("judge_agreement")
    if agree and agree.value is not None:  # an LLM judge run: its agreement with the rules' decided T
        name += f" · LLM judge agrees with the rules on {agree.value:.1%} of {agree.n or 0:,} decided"
    return name


def _name(row: Row) -> str:
    return _ret_name(row) if isinstance(row, RetrievalRow) else _ans_name(row)


def _control(row: Row) -> bool:
    """A control run, or answers from one (shown grey)."""
    return row.control if isinstance(row, RetrievalRow) else row.run_control


def _ans_cols(summary: Summary) -> tuple[tuple[str, str], ...]:
    """The answer table's columns: A all-k and the flip rate beside A when a paraphrase set was answered."""
    if not any(r.metrics.get("A_all_k") for r in summary.answers):
        return _ANS_COLS
    return (_ANS_COLS[0], *_SET_COLS, *_ANS_COLS[1:])


def summary_table(summary: Summary) -> tuple[list[str], list[list[str]], list[str], list[list[str]]]:
    """(retrieval header, rows, answer header, rows) with CI strings: the CLI prints these."""
    rh = ["retriever", *(label for _, label in _RET_COLS)]
    rr = [[_ret_name(r), *(fmt_ci(r.metrics.get(k)) for k, _ in _RET_COLS)] for r in summary.retrieval]
    cols = _ans_cols(summary)
    ah = ["answerer", *(label for _, label in cols)]
    ar = [[_ans_name(r), *(fmt_ci(r.metrics.get(k)) for k, _ in cols)] for r in summary.answers]
    return rh, rr, ah, ar


def outcome_table(summary: Summary) -> tuple[list[str], list[list[str]]]:
    """(header, rows) of the outcome classes and the join hop, one row per answer file."""
    header = ["answerer", *(label for _, label in _CLASS_COLS)]
    rows = [[_ans_name(r), *(fmt_ci(r.metrics.get(k)) for k, _ in _CLASS_COLS)] for r in summary.answers]
    return header, rows


# --------------------------------------------------------------------------------------------------
# Markdown
# --------------------------------------------------------------------------------------------------


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in rows]
    return out


def drift_line(drift: Drift) -> str:
    """A refreshed release's drift in one line: versions and questions per change class (see CHANGES.md)."""
    counts = ", ".join(f"{k} {n:,}" for k, n in drift.changes.items())
    return f"Refreshed release {drift.from_} -> {drift.to}: {counts} (each change: CHANGES.md)."


def _composition_rows(comp: Composition) -> tuple[list[str], list[list[str]]]:
    comps = list(comp.complexities)
    header = ["operator", *comps, "total"]
    rows = []
    for op in comp.operators:
        cells = [comp.cells[op].get(c, 0) for c in comps]
        rows.append([op, *(f"{x:,}" for x in cells), f"{sum(cells):,}"])
    totals = [sum(comp.cells[op].get(c, 0) for op in comp.operators) for c in comps]
    rows.append(["total", *(f"{x:,}" for x in totals), f"{sum(totals):,}"])
    return header, rows


def _slice_rows(rows: Sequence[Row], metric: str) -> tuple[list[str], list[list[str]]] | None:
    keys: list[tuple[str, str]] = []
    groups = sorted({g for r in rows for g in r.slices}, key=lambda g: (_SLICES_FIRST.get(g, len(_SLICES_FIRST)), g))
    for r in rows:
        for group in groups:
            for name in r.slices.get(group) or {}:
                if (group, name) not in keys:
                    keys.append((group, name))
    if not keys:
        return None
    header = ["", *(f"gold {name} cutoff" if group == "by_cutoff" else name for group, name in keys)]
    body = []
    for r in rows:
        cells = []
        for group, name in keys:
            s = (r.slices.get(group) or {}).get(name)
            if s is None:
                cells.append("–")
                continue
            text = fmt_ci(s.get(metric), 2)
            cells.append(text + (" *" if s.small else ""))
        body.append([_name(r), *cells])
    return header, body


_GAP_COLS = ("answerer", "family", "paired", "A real", "A twin", "gap", "p (paired)")
_GOLD_COLS = ("answerer", "score", "old gold", "new gold", "new − old", "n carried")
_GOLD_METRICS = ("A", "A_strict", "outdated_rate")
_GAP_NOTE = (
    "The same answerer on the release and on its counterfactual twin (the same questions with shifted dates, "
    "invented names or permuted holders), paired question by question: the gap is the part of A that comes from "
    "memory, not from reading. 95% paired bootstrap CI and the paired test's p. A family (operator) is shown when "
    "it has at least {min_slice} paired questions."
)
_GOLD_NOTE = (
    "A refreshed release: the same answers on the questions it carried over (unchanged and gold-changed), scored "
    "against the old release's gold and the new one's, so that a number reported on the old release can be "
    "carried forward; the difference is the drift alone. Answers to retired questions are not scored."
)


def _paired(p: PairedEstimate) -> str:
    """``+0.250 [0.100, 0.400]``: a paired difference and its CI (``–`` when undefined)."""
    if p.diff is None:
        return "–"
    ci = "" if p.ci_low is None or p.ci_high is None else f" [{p.ci_low:+.3f}, {p.ci_high:+.3f}]"
    return f"{p.diff:+.3f}{ci}"


def memory_gap_table(summary: Summary) -> tuple[list[str], list[list[str]], list[str]]:
    """(header, rows, notes) of the memory gap: per answer file with a twin, overall then per large family."""
    rows, notes = [], []
    for r in summary.answers:
        gap = r.memory_gap
        if gap is None:
            continue
        for family, p in [("all", gap.all), *sorted(gap.by_operator.items())]:
            cells = [_fmt_value(p.a), _fmt_value(p.b), _paired(p), _fmt_value(p.p_value)]
            rows.append([_ans_name(r) if family == "all" else "", family, f"{p.n:,}", *cells])
        t = gap.twin
        kind = "–" if t.transform is None else t.transform.kind
        small = f"; {gap.n_small_families} smaller families not shown" if gap.n_small_families else ""
        notes.append(
            f"{_ans_name(r)}: twin {t.release} ({kind}), {t.paired:,} questions paired, "
            f"{t.unpaired:,} without a twin{small}"
        )
    return list(_GAP_COLS), rows, notes


def two_gold_table(summary: Summary) -> tuple[list[str], list[list[str]], list[str]]:
    """(header, rows, notes) of the two-gold scores: per answer file on a refreshed release, old gold vs new."""
    rows, notes = [], []
    for r in summary.answers:
        tg = r.two_gold
        if tg is None:
            continue
        shown = [(m, o, n) for m in _GOLD_METRICS if (o := tg.old_gold.get(m)) and (n := tg.new_gold.get(m))]
        for i, (m, old, new) in enumerate(shown):
            diff = None if old.value is None or new.value is None else new.value - old.value
            cells = [fmt_ci(ShownCI.of(old)), fmt_ci(ShownCI.of(new)), "–" if diff is None else f"{diff:+.3f}"]
            rows.append([_ans_name(r) if i == 0 else "", m, *cells, f"{new.n:,}"])
        notes.append(
            f"{_ans_name(r)}: {tg.answered:,} answers to the {tg.n_questions:,} carried questions; "
            f"{tg.retired_answers_dropped:,} answers to retired questions not scored"
        )
    return list(_GOLD_COLS), rows, notes


def _fmt_value(v: float | None) -> str:
    return "–" if v is None else f"{v:.3f}"


def _gap_note(summary: Summary) -> str:
    """The memory gap's note, with the smallest family shown (the answer files' ``min_slice``)."""
    shown = min((r.memory_gap.min_slice for r in summary.answers if r.memory_gap is not None), default=0)
    return _GAP_NOTE.format(min_slice=shown)


def _carried_markdown(summary: Summary) -> list[str]:
    """The memory-gap and two-gold sections of the Markdown report (none when no answer file has them)."""
    out: list[str] = []
    gh, gr, gn = memory_gap_table(summary)
    if gr:
        out += ["", "## Memory gap: A(real) − A(twin)", "", _gap_note(summary), "", *_md_table(gh, gr), ""]
        out += [f"- {md_escape(n)}" for n in gn]
        out += legend_markdown(gh)
    th, tr, tn = two_gold_table(summary)
    if tr:
        out += ["", "## Two golds: old gold vs new gold", "", _GOLD_NOTE, "", *_md_table(th, tr), ""]
        out += [f"- {md_escape(n)}" for n in tn]
        out += legend_markdown(th)
    return out


def render_markdown(summary: Summary, explorer: Mapping[str, Any] | None = None) -> str:
    """The Markdown summary (every data text escaped); with ``explorer``, also the fails-everywhere table."""
    comp = summary.composition
    out = [f"# chronoqa run: {md_escape(comp.name)}", ""]
    out += [
        f"{comp.n_questions:,} questions ({', '.join(f'{k} {v:,}' for k, v in comp.by_split.items())}); "
        f"scored split: **{comp.split}** ({comp.n_scored:,} questions); corpus: {comp.n_docs:,} facts; "
        f"as of {comp.as_of or '–'}.",
        "",
        *([drift_line(comp.drift), ""] if comp.drift is not None else []),
        "## Composition (operator × complexity, all splits)",
        "",
    ]
    out += _md_table(*_composition_rows(comp))
    rh, rr, ah, ar = summary_table(summary)
    out += ["", "## Retrieval (95% bootstrap CIs; controls are sanity checks, not systems)", ""]
    out += _md_table(rh, rr)
    out += legend_markdown(rh)
    out += ["", "## Answers (A: answer accuracy; T: explanation cites the right dates; AT: both)", ""]
    out += _md_table(ah, ar)
    out += legend_markdown(ah)
    ch, cr = outcome_table(summary)
    out += ["", f"## {_CLASS_TITLE}", "", *_md_table(ch, cr), *legend_markdown(ch)]
    slice_tables: tuple[tuple[str, Sequence[Row], str], ...] = (
        ("Retrieval CCR by slice", summary.retrieval, "CCR"),
        ("Answer accuracy by slice", summary.answers, "A"),
    )
    for title, rows, metric in slice_tables:
        t = _slice_rows(rows, metric)
        if t:
            out += ["", f"## {title} (* = small slice, wide CI)", ""]
            out += _md_table(*t)
    out += _carried_markdown(summary)
    if explorer is not None:
        out += explorer_markdown(explorer)
    out += ["", "## Warnings", ""]
    out += [f"- {md_escape(w)}" for w in summary.warnings] or ["- none"]
    out += ["", "## Run manifest", ""]
    out += _md_table(
        ["stage", "files", "fingerprint"],
        [[str(s.name), f"{s.files}", str(s.fingerprint)[:12]] for s in summary.manifest.stages],
    )
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------------------
# HTML
# --------------------------------------------------------------------------------------------------

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;max-width:1320px;
color:#1d232a;padding:0 1rem;line-height:1.45}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:2px solid #e3e7ec;
padding-bottom:.2rem}.sub{color:#5b6570}
table{border-collapse:collapse;margin:.6rem 0;font-size:.88rem}
th,td{padding:.3rem .6rem;border-bottom:1px solid #e3e7ec;text-align:right;white-space:nowrap}
th{background:#f4f6f8;font-weight:600}td:first-child,th:first-child{text-align:left}
tr.control td{color:#6b7480;background:#fafbfc}tr.control td:first-child{font-style:italic}
.ci{color:#7a848f;font-size:.8em}.small{color:#b06a00}
.warn{background:#fff6e5;border-left:4px solid #f0a000;padding:.5rem .8rem;margin:.3rem 0}
.ok{background:#eef8ee;border-left:4px solid #3a9a3a;padding:.5rem .8rem}
.cards{display:flex;gap:1rem;flex-wrap:wrap}.card{background:#f4f6f8;border-radius:6px;padding:.6rem 1rem}
.card b{display:block;font-size:1.3rem}svg text{font-family:inherit}
.scroll{overflow-x:auto;max-width:100%}details{margin:.5rem 0}
th.help{text-decoration:underline dotted #9aa4ae;text-underline-offset:3px;cursor:help}
dl.legend{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;font-size:.8rem;color:#5b6570;
margin:.2rem 0 1rem;max-width:60rem}dl.legend dt{font-weight:600;color:#1d232a}dl.legend dd{margin:0}
pre{background:#f4f6f8;padding:.6rem;overflow:auto;font-size:.8rem}
"""


def _e(x: Any) -> str:
    return html_text(x)


def _cell(m: ShownCI | None) -> str:
    if m is None or m.value is None:
        return "<td>–</td>"
    ci = ""
    if m.lo is not None and m.hi is not None:
        ci = f' <span class="ci">[{m.lo:.3f}, {m.hi:.3f}]</span>'
    return f"<td>{m.value:.3f}{ci}</td>"


def _html_table(header: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]]) -> str:
    head = "".join(help_th(h) for h in header)
    body = "".join(f'<tr class="{cls}">{"".join(cells)}</tr>' for cls, cells in rows)
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _metric_table(
    first: str, rows: Sequence[tuple[str, bool, Mapping[str, ShownCI | None]]], cols: Sequence[tuple[str, str]]
) -> list[str]:
    """A table of metrics with CIs, one row per (name, control, metrics), and the legend of its columns."""
    html_rows = [
        ("control" if control else "", [f"<td>{_e(name)}</td>", *(_cell(metrics.get(k)) for k, _ in cols)])
        for name, control, metrics in rows
    ]
    return [_html_table([first, *(lbl for _, lbl in cols)], html_rows), legend_html(lbl for _, lbl in cols)]


def _bars(title: str, items: Sequence[tuple[str, ShownCI | None, bool]]) -> str:
    """A horizontal bar chart with CI whiskers (inline SVG)."""
    items = [(n, m, c) for n, m, c in items if m is not None and m.value is not None]
    if not items:
        return ""
    label_w, bar_w, row_h = 260, 420, 22
    h = row_h * len(items) + 30
    parts = [f'<svg width="{label_w + bar_w + 80}" height="{h}" role="img" aria-label="{_e(title)}">']
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        x = label_w + tick * bar_w
        parts.append(f'<line x1="{x}" y1="4" x2="{x}" y2="{h - 22}" stroke="#e3e7ec"/>')
        parts.append(f'<text x="{x}" y="{h - 8}" font-size="10" text-anchor="middle" fill="#7a848f">{tick:g}</text>')
    for i, (name, m, control) in enumerate(items):
        assert m is not None and m.value is not None
        y = 6 + i * row_h
        v = max(0.0, min(1.0, float(m.value)))
        color = "#b8c0c8" if control else "#3b6fb6"
        shown = clip_label(name, _BAR_LABEL)
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 12}" font-size="11" text-anchor="end" fill="#1d232a">'
            f"<title>{_e(name)}</title>{_e(shown)}</text>"
        )
        parts.append(f'<rect x="{label_w}" y="{y + 2}" width="{v * bar_w:.1f}" height="{row_h - 8}" fill="{color}"/>')
        if m.lo is not None and m.hi is not None:
            lo, hi = (label_w + max(0.0, min(1.0, float(x))) * bar_w for x in (m.lo, m.hi))
            yc = y + row_h / 2 - 2
            parts.append(f'<line x1="{lo:.1f}" y1="{yc}" x2="{hi:.1f}" y2="{yc}" stroke="#1d232a" stroke-width="1.2"/>')
            for xx in (lo, hi):
                parts.append(f'<line x1="{xx:.1f}" y1="{yc - 4}" x2="{xx:.1f}" y2="{yc + 4}" stroke="#1d232a"/>')
        end = max(v, float(m.hi) if m.hi is not None else v)
        tx = label_w + end * bar_w + 6
        parts.append(f'<text x="{tx:.1f}" y="{y + 12}" font-size="10" fill="#5b6570">{v:.3f}</text>')
    parts.append("</svg>")
    return f"<h3>{_e(title)}</h3>" + "".join(parts)


def _slice_html(title: str, rows: Sequence[Row], metric: str) -> str:
    t = _slice_rows(rows, metric)
    if not t:
        return ""
    header, body = t
    html_rows = []
    for r, cells in zip(rows, body, strict=True):
        tds = [f"<td>{_e(cells[0])}</td>"]
        for c in cells[1:]:
            cls = ' class="small"' if c.endswith("*") else ""
            tds.append(f"<td{cls}>{_e(c)}</td>")
        html_rows.append(("control" if _control(r) else "", tds))
    note = (
        f'<p class="sub">Each cell: {_e(metric)} [95% CI] over the scored questions of that operator (left) or '
        'number of hops (right). <span class="small">*</span> a small slice: its interval is wide.</p>'
    )
    return f"<h3>{_e(title)}</h3>{note}" + _html_table(header, html_rows)


def render_html(summary: Summary, explorer: Mapping[str, Any] | None = None) -> str:
    """One self-contained HTML page (inline CSS, SVG and, with ``explorer``, the explorer's script; nothing fetched)."""
    p = _html_head(summary, explorer is not None)
    p += _html_warnings(summary)
    p += _html_composition(summary.composition)
    p += _html_retrieval(summary)
    p += _html_answers(summary)
    p += _html_carried(summary)
    if explorer is not None:
        p.append(explorer_html(explorer))
    p += _html_manifest(summary)
    p.append("</body></html>")
    return "\n".join(p) + "\n"


def _html_head(summary: Summary, with_explorer: bool) -> list[str]:
    """The document head, the title and the summary cards."""
    comp = summary.composition
    title = f"chronoqa run: {comp.name}"
    return [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_e(title)}</title><style>{_CSS}{EXPLORER_CSS if with_explorer else ''}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f'<div class="sub">scored split <b>{_e(comp.split)}</b> · as of {_e(comp.as_of or "–")}</div>',
        '<div class="cards">',
        f'<div class="card"><b>{comp.n_questions:,}</b>questions</div>',
        f'<div class="card"><b>{comp.n_scored:,}</b>scored ({_e(comp.split)})</div>',
        f'<div class="card"><b>{comp.n_docs:,}</b>corpus facts</div>',
        f'<div class="card"><b>{len(summary.retrieval)}</b>runs</div>',
        f'<div class="card"><b>{len(summary.answers)}</b>answer files</div>',
        "</div>",
    ]


def _html_warnings(summary: Summary) -> list[str]:
    """Every warning of the run, or a line saying there is none."""
    warns = [f'<div class="warn">{_e(w)}</div>' for w in summary.warnings]
    return ["<h2>Warnings</h2>", *(warns or ['<div class="ok">No warnings.</div>'])]


def _html_composition(comp: Composition) -> list[str]:
    """The release's composition: the operator × complexity table and the other counts."""
    header, rows = _composition_rows(comp)
    extra = [
        ("split", comp.by_split),
        ("answer type", comp.by_answer_type),
        ("cardinality", comp.by_cardinality),
    ]
    drift = [] if comp.drift is None else [f"<p class='warn'>{_e(drift_line(comp.drift))}</p>"]
    return [
        "<h2>Composition</h2>",
        *drift,
        _html_table(header, [("", [f"<td>{_e(c)}</td>" for c in row]) for row in rows]),
        "<p>"
        + " · ".join(f"<b>{_e(k)}</b>: " + ", ".join(f"{_e(a)} {b:,}" for a, b in v.items()) for k, v in extra)
        + f" · <b>time tag hidden</b> (render_time false): {comp.time_tag_hidden:,}"
        + f" · <b>functional negatives</b>: dist {comp.functional.dist:,}, stale {comp.functional.stale:,}"
        + f" of {comp.functional.n:,}</p>",
    ]


def _html_retrieval(summary: Summary) -> list[str]:
    """The retrieval table with its CIs, the CCR bars and CCR by slice."""
    rows = [(_ret_name(r), r.control, r.metrics) for r in summary.retrieval]
    return [
        "<h2>Retrieval</h2>",
        '<p class="sub">95% question-level bootstrap CIs. Grey italic rows are controls: oracle returns the gold, '
        "stale_only / dist_only the negatives, random and empty nothing useful. They check the metrics.</p>",
        *_metric_table("retriever", rows, _RET_COLS),
        _bars(
            "CCR (complete chain of time-valid gold facts)",
            [(name, metrics.get("CCR"), control) for name, control, metrics in rows],
        ),
        _slice_html("CCR by operator and complexity", summary.retrieval, "CCR"),
    ]


def _html_answers(summary: Summary) -> list[str]:
    """The answer table with its CIs, the A bars and A by slice."""
    rows = [(_ans_name(r), r.run_control, r.metrics) for r in summary.answers]
    return [
        "<h2>Answers</h2>",
        '<p class="sub">95% question-level bootstrap CIs. Failed calls count as wrong. Grey italic rows answer from '
        "a control run. <i>prior</i> answers from training-split statistics without reading anything.</p>",
        *_metric_table("answerer", rows, _ans_cols(summary)),
        f"<h3>{_e(_CLASS_TITLE)}</h3>",
        *_metric_table("answerer", rows, _CLASS_COLS),
        _bars(
            "Answer accuracy A",
            [(name, metrics.get("A"), control) for name, control, metrics in rows],
        ),
        _slice_html("A by operator and complexity", summary.answers, "A"),
    ]


def _html_carried(summary: Summary) -> list[str]:
    """The memory-gap and two-gold sections (none when no answer file has them)."""
    out: list[str] = []
    sections = (
        ("Memory gap: A(real) − A(twin)", _gap_note(summary), memory_gap_table(summary)),
        ("Two golds: old gold vs new gold", _GOLD_NOTE, two_gold_table(summary)),
    )
    for title, note, (header, rows, notes) in sections:
        if not rows:
            continue
        body = [("", [f"<td>{_e(c)}</td>" for c in row]) for row in rows]
        out += [f"<h2>{_e(title)}</h2>", f'<p class="sub">{_e(note)}</p>', _html_table(header, body)]
        out += [f'<p class="sub">{_e(n)}</p>' for n in notes]
        out.append(legend_html(header))
    return out


def _html_manifest(summary: Summary) -> list[str]:
    """The run manifest's stages and the effective configuration."""
    import json

    stages = summary.manifest.stages
    table = _html_table(
        ["stage", "files", "fingerprint"],
        [
            (
                "",
                [
                    f"<td>{_e(s.name)}</td>",
                    f"<td>{_e(s.files)}</td>",
                    f"<td><code>{_e(str(s.fingerprint)[:16])}</code></td>",
                ],
            )
            for s in stages
        ],
    )
    cfg = json.dumps(summary.manifest.config, indent=2, sort_keys=True)
    return [
        "<h2>Run manifest</h2>",
        table,
        f"<details><summary>Effective configuration</summary><pre>{_e(cfg)}</pre></details>",
    ]
