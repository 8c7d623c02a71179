"""The report's explorer-backed sections in HTML and Markdown: plots, table composition, fails everywhere, explorer.

The explorer is its controls, the embedded JSON (:func:`embed_json`) and the inline script that draws it.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files
from typing import Any
from urllib.parse import quote

from chronoqa.escape import html_attr, html_text, js_show_invisible, script_json
from chronoqa.io import md_escape
from chronoqa.report.explorer import pack_explorer
from chronoqa.report.glossary import COLUMN_HELP, help_th, legend_html, legend_markdown
from chronoqa.report.plots import clip_label, heatmap_svg, significance_svg

__all__ = ["EXPLORER_CSS", "embed_json", "explorer_html", "explorer_markdown", "md_escape"]

_FAIL_IDS_SHOWN = 12
_FAIL_GROUPS_SHOWN = 20
_SYS_HEAD = 26
"""Characters of a system's name in the explorer's narrow column head (the full name is its tooltip)."""
_FAIL_COLS = ("template", "relation", "fail", "of", "share", "questions")
_LIST_COLS = ("id", "question", "operator", "hops", "relation", "cardinality")

EXPLORER_CSS = """
.plots{display:flex;flex-wrap:wrap;gap:1rem 2rem}.controls{display:flex;flex-wrap:wrap;gap:.4rem .8rem;
align-items:center;margin:.5rem 0}.controls label{font-size:.8rem;color:#5b6570}.controls select,.controls input{
font:inherit;font-size:.85rem;max-width:16rem}#cq-search{width:18rem}
#cq-list td,#cq-list th,table.verdicts td,table.verdicts th{text-align:left}
#cq-list td.qtext{white-space:normal;text-align:left;min-width:15rem;max-width:34rem}#cq-list tbody tr{cursor:pointer}
#cq-list tbody tr:hover{background:#f0f4fa}#cq-list tr.sel{background:#e2ebf7}
td.v-ok{color:#2e7d32}td.v-bad{color:#c0392b}
td.na{color:#b8c0c8}#cq-view{border:1px solid #e3e7ec;border-radius:6px;padding:.2rem 1rem 1rem;margin-top:1rem}
.qbig{font-size:1.05rem}.fact-S_star{stroke:#2e7d32}.fact-S_dist{stroke:#e08a00}.fact-S_stale{stroke:#8e44ad}
.fact-S_anchor{stroke:#7a848f}.sw{display:inline-block;width:.9rem;height:.5rem;margin:0 .2rem 0 .6rem}
.sw.S_star{background:#2e7d32}.sw.S_dist{background:#e08a00}.sw.S_stale{background:#8e44ad}.sw.S_anchor{background:#7a848f}
#fails td,#fails th,#fails-more td,#fails-more th{text-align:left}
#fails td.ids,#fails-more td.ids{white-space:normal;min-width:24rem;font-size:.8rem}
table.verdicts td:last-child{white-space:normal;text-align:left;max-width:40rem}
#cq-list thead th{vertical-align:bottom}#cq-list th.sys{text-align:center;padding:.3rem .15rem;min-width:1.6rem}
#cq-list th.sys span{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;font-weight:500;
font-size:.78rem}#cq-list td.v-ok,#cq-list td.v-bad,#cq-list td.na{text-align:center;padding:.3rem .15rem}
#cq-list th:first-child,#cq-list td:first-child{position:sticky;left:0;background:#fff;z-index:1;
box-shadow:1px 0 0 #e3e7ec}#cq-list thead th:first-child{background:#f4f6f8}
#cq-list tr.sel td:first-child{background:#e2ebf7}
.scroll.more{box-shadow:inset -14px 0 12px -12px rgba(29,35,42,.45)}
.hint{font-size:.8rem;color:#3b6fb6;margin:.2rem 0;visibility:hidden}.hint.on{visibility:visible}
#cq-view{scroll-margin-top:.5rem}#cq-view.flash{outline:3px solid #f0a000;transition:outline-color 1.5s}
"""


def embed_json(obj: Any) -> str:
    """Compact JSON that is safe inside ``<script type="application/json">`` (:func:`chronoqa.escape.script_json`)."""
    return script_json(obj)


def _e(x: Any) -> str:
    return html_text(x)


def _plots_html(ex: Mapping[str, Any]) -> str:
    p = ["<h2>Plots</h2>"]
    if ex["heat"]:
        p.append(
            '<p class="sub">Per system: the main metric (CCR for runs, A for answers) in each operator x hops '
            "cell, with the cell's n.</p>"
        )
        p.append('<div class="plots">')
        p += [heatmap_svg(f"{h['system']}: {h['metric']}", h) for h in ex["heat"]]
        p.append("</div>")
    for block in ex["significance"]:
        kind = "runs" if block["kind"] == "ret" else "answer folders"
        p.append(f"<h3>Significance between {kind} ({_e(block['metric'])})</h3>")
        p.append(
            '<p class="sub">Paired exact McNemar tests on the questions both scored, Benjamini–Hochberg adjusted over '
            "the pairs; coloured where q &lt; 0.05 (green: the row system is better).</p>"
        )
        p.append(significance_svg(block))
    return "".join(p)


def _table_html(t: Mapping[str, Any]) -> str:
    p = ["<h2>Table benchmark composition</h2>"]
    share = t["time_alignment"] / t["n"] if t["n"] else 0.0
    p.append(
        f"<p><b>time alignment</b>: {t['time_alignment']:,} of {t['n']:,} scored questions ({share:.1%}) · "
        "<b>TFDs used</b>: " + (", ".join(f"{_e(k)} ({v:,})" for k, v in t["tfds"].items()) or "–") + " · "
        "<b>tables</b>: " + (", ".join(f"{_e(k)} ({v:,})" for k, v in t["tables"].items()) or "–") + "</p>"
    )
    counts = t["counts"]
    grid = dict(counts, n=counts["count"])
    p.append('<div class="plots">' + heatmap_svg("questions: relation x cardinality", grid, counts=True))
    p += [heatmap_svg(f"{g['system']}: A", g) for g in t["grids"]]
    p.append("</div>")
    return "".join(p)


def _fails_html(f: Mapping[str, Any]) -> str:
    p = ["<h2>Fails everywhere</h2>"]
    p.append(
        f'<p class="sub" id="fails-summary">{f["n"]:,} of {f["n_questions"]:,} scored questions are wrong for every '
        "non-control system (CCR for runs, A for answers): the likeliest broken ones. By template and relation; "
        "click an id to open the question in the explorer below.</p>"
    )
    rows = []
    for g in f["groups"]:
        ids = ", ".join(f'<a href="#q={_e(quote(i, safe=""))}">{_e(i)}</a>' for i in g["ids"][:_FAIL_IDS_SHOWN])
        more = f" … +{len(g['ids']) - _FAIL_IDS_SHOWN}" if len(g["ids"]) > _FAIL_IDS_SHOWN else ""
        rows.append(
            f"<tr><td>{_e(g['template'])}</td><td>{_e(g['relation'])}</td><td>{g['n']:,}</td><td>{g['of']:,}</td>"
            f'<td>{g["n"] / g["of"]:.0%}</td><td class="ids">{ids}{more}</td></tr>'
        )
    head = "<thead><tr>" + "".join(help_th(c) for c in _FAIL_COLS) + "</tr></thead>"
    if rows:
        top = "".join(rows[:_FAIL_GROUPS_SHOWN])
        p.append(f'<div class="scroll"><table id="fails">{head}<tbody>{top}</tbody></table></div>')
        p.append(legend_html(_FAIL_COLS, folded=True))
    if len(rows) > _FAIL_GROUPS_SHOWN:
        p.append(
            f"<details><summary>{len(rows) - _FAIL_GROUPS_SHOWN} smaller groups</summary>"
            f'<div class="scroll"><table id="fails-more">{head}<tbody>{"".join(rows[_FAIL_GROUPS_SHOWN:])}</tbody>'
            "</table></div></details>"
        )
    return "".join(p)


def _explorer_controls(ex: Mapping[str, Any]) -> str:
    heads = "".join(_system_th(s) for s in ex["systems"] if not s["control"])
    selects = "".join(
        f'<label>{label} <select id="f-{key}"></select></label>'
        for key, label in (
            ("split", "split"),
            ("operator", "operator"),
            ("hops", "hops"),
            ("relation", "relation"),
            ("cardinality", "cardinality"),
            ("allen", "Allen"),
            ("ac", "assumes complete"),
            ("verdict", "verdict"),
            ("class", "outcome class"),
        )
    )
    sort = (
        '<label>sort <select id="cq-sort"><option value="">benchmark order</option><option value="id">id</option>'
        '<option value="operator">operator</option><option value="hops">hops</option>'
        '<option value="relation">relation</option><option value="-_wrong">most systems wrong</option></select></label>'
        '<label>per page <select id="cq-size"><option>10</option><option selected>25</option><option>100</option>'
        "</select></label>"
    )
    list_heads = "".join(help_th(c) for c in _LIST_COLS)
    legend = legend_html((*_LIST_COLS, "system columns"), folded=True)
    return (
        '<section id="cq-explorer"><h2>Question explorer</h2>'
        '<p class="sub">Every scored question. Filter, search (id, text, gold, relation), click a row to see its '
        "verdicts and timeline. ✓/✗: the main metric of each non-control system.</p>"
        f'<div class="controls"><input id="cq-search" type="search" placeholder="search">{selects}{sort}</div>'
        '<div class="controls"><button id="cq-prev">‹ prev</button><span id="cq-page"></span>'
        '<button id="cq-next">next ›</button><b id="cq-count"></b></div>'
        '<p class="hint" id="cq-hint" aria-live="polite"></p>'
        f'<div class="scroll" id="cq-scroll"><table id="cq-list"><thead><tr>{list_heads}{heads}</tr></thead>'
        f'<tbody id="cq-rows"></tbody></table></div>{legend}'
        '<div id="cq-view"><p class="sub">Click a question to open it.</p></div></section>'
    )


def _system_th(s: Mapping[str, Any]) -> str:
    """A narrow column head for one system: its name written upwards, the full name and metric as the tooltip."""
    name = str(s["name"])
    shown = clip_label(name, _SYS_HEAD)
    metric = s["metrics"][0]
    why = f"{name}: {metric} ({COLUMN_HELP[metric]}). {COLUMN_HELP['system columns']}"
    return f'<th class="sys help" title="{html_attr(why)}"><span>{_e(shown)}</span></th>'


def explorer_html(ex: Mapping[str, Any]) -> str:
    """The plots, table composition, fails-everywhere and explorer sections (with data and script) as HTML."""
    script = files("chronoqa.report").joinpath("explorer.js").read_text(encoding="utf-8")
    parts = [_plots_html(ex)]
    if ex.get("table"):
        parts.append(_table_html(ex["table"]))
    parts.append(_fails_html(ex["fails"]))
    parts.append(_explorer_controls(ex))
    parts.append(f'<script type="application/json" id="cq-data">{embed_json(pack_explorer(ex))}</script>')
    parts.append(f"<script>{js_show_invisible('cqShow')}\n{script}</script>")
    return "\n".join(parts)


def explorer_markdown(ex: Mapping[str, Any]) -> list[str]:
    """The significance and fails-everywhere sections of the Markdown twin (data text escaped)."""
    out: list[str] = []
    for block in ex["significance"]:
        names = block["systems"]
        out += ["", f"## Significance ({md_escape(block['metric'])}: paired exact McNemar, BH-adjusted q)", ""]
        out += ["| a | b | a − b | p | q | n |", "|---|---|---|---|---|---|"]
        for pr in block["pairs"]:
            cells = ["–" if pr[k] is None else f"{pr[k]:.3g}" for k in ("p", "q")]
            diff = "–" if pr["diff"] is None else f"{pr['diff']:+.3f}"
            a, b = md_escape(names[pr["a"]]), md_escape(names[pr["b"]])
            out.append(f"| {a} | {b} | {diff} | {cells[0]} | {cells[1]} | {pr['n']} |")
    f = ex["fails"]
    out += [
        "",
        "## Fails everywhere",
        "",
        f"{f['n']:,} of {f['n_questions']:,} scored questions are wrong for every non-control system "
        "(CCR for runs, A for answers).",
        "",
    ]
    if f["groups"]:
        out += ["| template | relation | fail | of | questions |", "|---|---|---|---|---|"]
        legend = legend_markdown(c for c in _FAIL_COLS if c != "share")
        for g in f["groups"]:
            ids = ", ".join(md_escape(i) for i in g["ids"][:_FAIL_IDS_SHOWN])
            more = f" … +{len(g['ids']) - _FAIL_IDS_SHOWN}" if len(g["ids"]) > _FAIL_IDS_SHOWN else ""
            out.append(
                f"| {md_escape(g['template'])} | {md_escape(g['relation'])} | {g['n']} | {g['of']} | {ids}{more} |"
            )
        out += legend
    return out
