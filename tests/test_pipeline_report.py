from __future__ import annotations

from typing import Any

import pytest

from chronoqa.artifacts.summary import Summary
from chronoqa.errors import DataError
from chronoqa.report import render_html, render_markdown, summary_table
from chronoqa.report.summary import _warnings


def _m(v: float, lo: float, hi: float, n: int = 100) -> dict[str, Any]:
    return {"value": v, "lo": lo, "hi": hi, "n": n}


def _answer_row(name: str, **fields: Any) -> dict[str, Any]:
    row = {"name": name, "answerer": name, "run": None, "run_control": False, "protocol": None, "replies": None,
           "model": None, "by_status": {}, "metrics": {}, "judge": {}, "n_time_refs_missing": None, "slices": {},
           "warnings": []}  # fmt: skip
    return row | fields


def _summary_dict() -> dict[str, Any]:
    prior = {
        **_answer_row("prior"),
        "metrics": {"A": _m(0.25, 0.21, 0.30), "T": None},
        "slices": {
            "by_operator": {
                "interval": {"n_questions": 80, "small": False, "A": _m(0.6, 0.5, 0.7, 80)},
                "sequence": {"n_questions": 90, "small": False, "A": _m(0.1, 0.05, 0.16, 90)},
                "tiny": {"n_questions": 5, "small": True, "A": _m(1.0, 1.0, 1.0, 5)},
            }
        },
        "warnings": ["answers slice by_operator=tiny has 5 questions (< 30): its CIs are wide"],
    }
    oracle = {
        "name": "oracle",
        "spec": "oracle",
        "control": True,
        "n_questions": 100,
        "metrics": {"CCR": _m(0.9, 0.85, 0.95)},
        "slices": {},
        "warnings": ["retrieval slice by_operator=tiny has 5 questions (< 30): its CIs are wide"],
    }
    stale = {"name": "stale_only", "spec": "stale_only", "control": True, "n_questions": 100,
             "metrics": {"CCR": _m(0.2, 0.1, 0.3), "coverage": _m(0.0, 0.0, 0.0)},
             "slices": {}, "warnings": []}  # fmt: skip
    bm25 = {"name": "x", "spec": "<script>alert(1)</script>", "control": False, "n_questions": 100,
            "metrics": {"CCR": _m(0.5, 0.4, 0.6)},
            "slices": {}, "warnings": []}  # fmt: skip
    return {
        "format": 1,
        "composition": {
            "name": "t",
            "n_questions": 10,
            "n_scored": 5,
            "split": "test",
            "n_docs": 3,
            "by_split": {"test": 5},
            "operators": ["interval"],
            "complexities": ["1-hop"],
            "cells": {"interval": {"1-hop": 10}},
            "by_answer_type": {"time": 10},
            "by_cardinality": {"unique": 10},
            "time_tag_hidden": 10,
            "functional": {"dist": 1, "stale": 1, "n": 10},
            "as_of": "2026-01-01",
            "drift": None,
        },
        "retrieval": [bm25, oracle, stale],
        "answers": [prior],
        "warnings": [],
        "manifest": {"config": {}, "stages": [{"name": "build", "files": 6, "fingerprint": "ab" * 32}]},
    }


def _summary(**fields: Any) -> Summary:
    return Summary.from_dict(_summary_dict() | fields)


def test_warnings_flag_strong_prior_small_slices_and_controls() -> None:
    s = _summary()
    w = _warnings(s.retrieval, s.answers, min_slice=30)
    text = "\n".join(w)
    assert "strong question-only prior on operator=interval" in text
    assert "operator=sequence" not in text  # CI low 0.05 < 0.2
    assert "prior on operator=tiny" not in text  # too small to trust, reported as a small slice instead
    assert "question-only prior scores A=0.250" in text  # overall CI low 0.21 >= 0.2
    assert sum("small slice: by_operator=tiny" in x for x in w) == 1  # the same slice once, not per run
    assert "control oracle has CCR 0.900 < 1" in text
    assert "control stale_only has CCR 0.200 > 0.05" in text
    assert "control stale_only retrieved nothing for any question" in text


def test_html_is_self_contained_and_escaped() -> None:
    s = _summary(warnings=["w <b>1</b>"])
    page = render_html(s)
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "src=" not in page and "http" not in page and "<link" not in page
    assert "w &lt;b&gt;1&lt;/b&gt;" in page
    md = render_markdown(s)
    assert "| oracle (control) |" in md and r"0.900 \[0.850, 0.950\]" in md  # brackets escaped (no link)
    rh, rr, _, ar = summary_table(s)
    assert rh[0] == "retriever" and rr[1][0] == "oracle (control)" and ar[0][1] == "0.250 [0.210, 0.300]"


def test_summary_json_round_trips_and_a_bad_field_is_named() -> None:
    d = _summary_dict()
    assert Summary.from_dict(d).to_dict() == d  # every key written back as read, nulls included
    assert Summary.from_dict(d).answers[0].slices["by_operator"]["tiny"].small is True
    bad = _summary_dict()
    bad["retrieval"][1]["metrics"]["CCR"]["n"] = "many"
    with pytest.raises(DataError) as err:
        Summary.from_dict(bad, "run/report/summary.json")
    assert err.value.field == "retrieval[1].metrics.CCR.n"
    assert "run/report/summary.json" in str(err.value) and "chronoqa run --force" in str(err.value)
