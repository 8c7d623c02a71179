"""Static SVG plots of the report (no matplotlib): heatmaps of a metric over a grid, and a significance matrix.

Every text that comes from the data is escaped with :func:`chronoqa.escape.html_text`; the SVGs are inlined in the page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chronoqa.escape import html_text

__all__ = ["clip_label", "heatmap_svg", "significance_svg"]

_ALPHA = 0.05
_CHAR_W = 6.2
"""Width of an average character at font size 10, in px: the labels' room is sized from it."""
_TITLE_W = 7.6
"""The same for the 12 px bold titles."""
_NAME_MAX = 32
"""Characters of a system name shown in the significance matrix (the full name is the label's tooltip)."""
_SIN35, _COS35 = 0.574, 0.819


def clip_label(text: str, n: int) -> str:
    """``text`` cut to ``n`` characters with a closing "…" (the report's one way to shorten a label)."""
    return text if len(text) <= n else text[: n - 1] + "…"


def _e(x: Any) -> str:
    return html_text(x)


def _color(v: float) -> str:
    """White (0) to blue (1)."""
    v = max(0.0, min(1.0, v))
    r = round(255 - v * (255 - 59))
    g = round(255 - v * (255 - 111))
    b = round(255 - v * (255 - 182))
    return f"#{r:02x}{g:02x}{b:02x}"


def heatmap_svg(
    title: str, grid: Mapping[str, Any], *, counts: bool = False, cell_w: int = 74, cell_h: int = 34
) -> str:
    """A heatmap of ``grid`` (``rows``, ``cols``, ``value`` and ``n`` matrices): each cell's value and n.

    ``counts=True`` draws the ``n`` matrix itself (shade: share of the largest cell), e.g. question counts.
    """
    rows, cols = list(grid["rows"]), list(grid["cols"])
    if counts:
        top = max((n for row in grid["n"] for n in row), default=0) or 1
        grid = dict(grid, value=[[n / top if n else None for n in row] for row in grid["n"]])
    label_w = max(90, min(240, 7 * max((len(str(r)) for r in rows), default=4)))
    w, h = max(label_w + cell_w * len(cols) + 10, round(_TITLE_W * len(title))), 40 + cell_h * len(rows)
    p = [f'<svg class="heatmap" width="{w}" height="{h}" role="img" aria-label="{_e(title)}">']
    p.append(f'<text x="0" y="13" font-size="12" font-weight="600">{_e(title)}</text>')
    for j, c in enumerate(cols):
        x = label_w + j * cell_w + cell_w / 2
        p.append(f'<text x="{x:.0f}" y="32" font-size="10" text-anchor="middle" fill="#5b6570">{_e(c)}</text>')
    for i, r in enumerate(rows):
        y = 38 + i * cell_h
        name = clip_label(str(r), 34)
        p.append(
            f'<text x="{label_w - 6}" y="{y + cell_h / 2 + 4:.0f}" font-size="10" text-anchor="end">'
            f"<title>{_e(r)}</title>{_e(name)}</text>"
        )
        for j, _ in enumerate(cols):
            v, n = grid["value"][i][j], grid["n"][i][j]
            x = label_w + j * cell_w
            fill = "#f4f6f8" if v is None else _color(float(v))
            p.append(f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" fill="{fill}" class="cell"/>')
            if v is not None:
                ink = "#fff" if v > 0.6 else "#1d232a"
                shown = f"{n:,}" if counts else f"{float(v):.2f}"
                p.append(
                    f'<text x="{x + cell_w / 2 - 1:.0f}" y="{y + 14}" font-size="11" text-anchor="middle" '
                    f'fill="{ink}">{shown}</text>'
                )
            if not counts or not n:
                p.append(
                    f'<text x="{x + cell_w / 2 - 1:.0f}" y="{y + 27}" font-size="9" text-anchor="middle" '
                    f'fill="{"#fff" if v is not None and v > 0.6 else "#7a848f"}">n={n}</text>'
                )
    p.append("</svg>")
    return "".join(p)


def significance_svg(block: Mapping[str, Any], *, cell: int = 64) -> str:
    """The pairwise matrix of one kind: row minus column difference, BH-adjusted McNemar q, bold when q < 0.05."""
    names: Sequence[str] = block["systems"]
    k = len(names)
    shown = [clip_label(n, _NAME_MAX) for n in names]
    longest = max(len(n) for n in shown)
    label_w = max(90, round(_CHAR_W * longest) + 12)
    # column names slant up and to the right at 35 degrees: room above the matrix and right of its last column
    top = 30 + round(_CHAR_W * longest * _SIN35)
    title = f"{block['metric']}: row − column (BH-adjusted McNemar q)"
    reach = label_w + cell * (k - 1) + cell / 2 + _CHAR_W * len(shown[-1]) * _COS35
    w, h = round(max(label_w + cell * k + 10, reach + 10, _TITLE_W * len(title))), top + cell * k + 10
    p = [f'<svg class="sigmatrix" width="{w}" height="{h}" role="img" aria-label="{_e(title)}">']
    p.append(f'<text x="0" y="13" font-size="12" font-weight="600">{_e(title)}</text>')
    for j, n in enumerate(names):
        x = label_w + j * cell + cell / 2
        p.append(
            f'<text x="{x:.0f}" y="{top - 6}" font-size="10" text-anchor="start" '
            f'transform="rotate(-35 {x:.0f} {top - 6})"><title>{_e(n)}</title>{_e(shown[j])}</text>'
        )
    for i, n in enumerate(names):
        y = top + i * cell
        p.append(
            f'<text x="{label_w - 6}" y="{y + cell / 2 + 4:.0f}" font-size="10" text-anchor="end">'
            f"<title>{_e(n)}</title>{_e(shown[i])}</text>"
        )
    by_pair = {(pr["a"], pr["b"]): pr for pr in block["pairs"]}
    for i in range(k):
        for j in range(k):
            x, y = label_w + j * cell, top + i * cell
            if i == j:
                p.append(f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" fill="#f4f6f8"/>')
                continue
            pr = by_pair.get((min(i, j), max(i, j)))
            if pr is None or pr["diff"] is None:
                continue
            diff = pr["diff"] if i < j else -pr["diff"]
            q = pr["q"]
            sig = q is not None and q < _ALPHA
            fill = ("#3a9a3a" if diff > 0 else "#c0392b") if sig else "#e3e7ec"
            ink = "#fff" if sig else "#1d232a"
            qtxt = "–" if q is None else ("<1e-300" if q == 0 else f"{q:.0e}" if q < 0.001 else f"{q:.3f}")
            p.append(f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" fill="{fill}" class="pair"/>')
            p.append(
                f'<text x="{x + cell / 2 - 1:.0f}" y="{y + 26}" font-size="11" text-anchor="middle" fill="{ink}" '
                f'font-weight="{"700" if sig else "400"}">{"0.000" if diff == 0 else f"{diff:+.3f}"}</text>'
            )
            p.append(
                f'<text x="{x + cell / 2 - 1:.0f}" y="{y + 42}" font-size="9" text-anchor="middle" fill="{ink}">'
                f"q={qtxt}</text>"
            )
    p.append("</svg>")
    return "".join(p)
