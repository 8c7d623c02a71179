"""Run reports: a JSON summary, a Markdown summary and a self-contained static HTML page."""

from __future__ import annotations

from chronoqa.report.explorer import build_explorer
from chronoqa.report.render import fmt_ci, render_html, render_markdown, summary_table
from chronoqa.report.summary import build_summary

__all__ = ["build_explorer", "build_summary", "fmt_ci", "render_html", "render_markdown", "summary_table"]
