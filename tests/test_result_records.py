"""The declared records between evaluate and the report: answers.meta.json, metrics blocks, summary cells."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chronoqa.artifacts.answers import ANSWERS_META_FILE, read_answers_meta
from chronoqa.artifacts.metrics import Estimate, MetricBlock, MetricsRecord, PairedBlock
from chronoqa.artifacts.summary import ShownCI, SliceCell
from chronoqa.errors import DataError


def _meta() -> dict[str, Any]:
    return {
        "answerer": "llm(model=m)",
        "by_status": {"ok": 3, "abstain": 0, "error": 1},
        "client": {"base_url": "http://127.0.0.1:1/v1", "timeout": 60.0},  # the answerer's own keys
        "k": 5,
        "model": "m",
        "n_questions": 4,
        "protocol": {"name": "structured", "version": 1, "id": "structured@1"},
        "release": "rel",
        "replies": {"n_replies": 3, "n_json": 2, "parse_rate": 2 / 3},
        "run": {"path": "bm25.run.jsonl", "sha256": "ab" * 32, "spec": "stale_only", "control": True},
        "split": "test",
    }


def test_answers_meta_reads_the_reports_keys_typed_and_keeps_the_answerers_own(tmp_path: Path) -> None:
    (tmp_path / ANSWERS_META_FILE).write_text(json.dumps(_meta()), encoding="utf-8")
    meta = read_answers_meta(tmp_path)
    assert meta.run_control is True and meta.run is not None and meta.run.spec == "stale_only"
    assert meta.protocol is not None and meta.protocol.id == "structured@1"
    assert meta.replies is not None and meta.replies.n_json == 2
    assert meta.to_dict() == _meta()  # written back key for key, the answerer's parameters included
    record = MetricsRecord.from_dict("m", {**_minimal_metrics(), "answer_meta": _meta()})
    assert record.to_dict()["answer_meta"] == _meta()
    (tmp_path / "bare").mkdir()
    assert read_answers_meta(tmp_path / "bare").to_dict() == {}  # no meta: empty, not an error


def test_a_bad_answers_meta_field_is_one_error_naming_file_and_field(tmp_path: Path) -> None:
    bad = {**_meta(), "by_status": {"ok": "three"}}
    (tmp_path / ANSWERS_META_FILE).write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(DataError) as err:
        read_answers_meta(tmp_path)
    assert err.value.file == str(tmp_path / ANSWERS_META_FILE)
    assert err.value.field == "by_status.ok" and err.value.value == "three"
    assert "answer stage" in str(err.value)


def _minimal_metrics() -> dict[str, Any]:
    return {"n_questions": 4, "functional_only": False, "split": None, "seed": 0, "n_bootstrap": 0,
            "confidence": 0.95, "min_slice": 30, "validity_mode": "certain", "warnings": []}  # fmt: skip


def _est(v: float) -> dict[str, Any]:
    return {"value": v, "ci_low": None, "ci_high": None, "n": 2}


def test_slice_groups_are_the_by_fields_of_a_block_in_declaration_order() -> None:
    block = MetricBlock.model_validate(
        {
            "all": {"A": _est(0.5), "n_questions": 4},
            "by_operator": {"interval": {"A": _est(1.0), "n_questions": 2, "small_slice": True}},
            "by_complexity": {"1-hop": {"A": _est(0.0), "n_questions": 2}},
        }
    )
    assert list(block.slices()) == ["by_complexity", "by_operator"]
    assert block.slices()["by_operator"]["interval"].small_slice is True
    assert list(MetricBlock.model_validate({"all": {"n_questions": 0}}).slices()) == []  # empty groups are absent
    groups = [f for f in MetricBlock.model_fields if f.startswith("by_")]
    assert groups == [f for f in PairedBlock.model_fields if f.startswith("by_")]  # a comparison slices alike


def test_a_summary_cell_shows_an_estimate_with_lo_and_hi_beside_its_size() -> None:
    shown = ShownCI.of(Estimate(value=0.25, ci_low=0.1, ci_high=0.4, n=8))
    assert shown is not None and shown.to_dict() == {"value": 0.25, "lo": 0.1, "hi": 0.4, "n": 8}
    assert ShownCI.of(None) is None
    cell = SliceCell(n_questions=8, small=True, metrics={"A": shown, "T": None})
    assert cell.to_dict() == {"A": {"value": 0.25, "lo": 0.1, "hi": 0.4, "n": 8}, "T": None, "n_questions": 8,
                              "small": True}  # fmt: skip
    assert SliceCell.from_dict(cell.to_dict()) == cell
