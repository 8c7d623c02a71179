"""The declared records between evaluate and the report: answers.meta.json, metrics blocks, summary cells."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chronoqa.artifacts.answers import ANSWERS_META_FILE, read_answers_meta
from chronoqa.artifacts.metrics import (
    AnswerVerdict,
    Estimate,
    EvaluationMetrics,
    MetricBlock,
    MetricsRecord,
    PairedBlock,
    Phrasing,
)
from chronoqa.artifacts.summary import Drift, ShownCI, SliceCell
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


def _twin_and_two_gold() -> dict[str, Any]:
    transform = {"kind": "shift_years", "seed": 3, "years": 40, "unshifted_non_years": {"P54": [1900]},
                 "unshifted_before_year": 1000}  # fmt: skip
    twin = {"release": "twin-a", "transform": transform, "paired": 3, "unpaired": 1}
    gold = {"A": _est(0.5), "n_questions": 2}
    drift = {"unchanged": 1, "gold_changed": 1, "retired": 2, "new": 0}
    two_gold = {"n_questions": 2, "answered": 2, "drift": drift, "old_gold": gold,
                "new_gold": {**gold, "A": _est(0.0)}, "retired_answers_dropped": 2}  # fmt: skip
    return {**_minimal_metrics(), "cutoff": "2023-10", "twin": twin, "two_gold": two_gold}


def test_twin_and_two_gold_are_declared_records_written_back_key_for_key() -> None:
    data = _twin_and_two_gold()
    m = EvaluationMetrics.from_dict(data)
    assert m.twin is not None and m.twin.transform is not None and m.twin.transform.years == 40
    assert m.twin.transform.roles is None and "roles" not in m.to_dict()["twin"]["transform"]  # another kind's key
    assert m.two_gold is not None and m.two_gold.retired_answers_dropped == 2
    assert m.two_gold.drift.items() == [("unchanged", 1), ("gold_changed", 1), ("retired", 2), ("new", 0)]
    old, new = m.two_gold.old_gold.get("A"), m.two_gold.new_gold.get("A")
    assert old is not None and new is not None and (old.value, new.value) == (0.5, 0.0)
    assert m.cutoff == "2023-10" and m.to_dict() == data


def test_a_bad_two_gold_field_is_one_error_naming_it() -> None:
    data = _twin_and_two_gold()
    data["two_gold"]["drift"] = {"unchanged": 1, "gold_changed": 1, "new": 0}  # "retired" missing
    with pytest.raises(DataError) as err:
        EvaluationMetrics.from_dict(data, "m.json")
    assert err.value.file == "m.json" and err.value.field == "two_gold.drift.retired"
    data = _twin_and_two_gold()
    data["twin"]["paired"] = "three"
    with pytest.raises(DataError) as err:
        EvaluationMetrics.from_dict(data, "m.json")
    assert err.value.field == "twin.paired"


def test_a_refreshed_releases_drift_is_written_under_from_and_to() -> None:
    data = {"from": "1.0.0", "to": "1.1.0", "changes": {"unchanged": 5, "gold_changed": 0, "retired": 1, "new": 2}}
    drift = Drift.from_dict(data)
    assert (drift.from_, drift.to, drift.changes.retired) == ("1.0.0", "1.1.0", 1)
    assert drift.to_dict() == data and "from_" not in json.dumps(drift.to_dict())
    with pytest.raises(DataError) as err:
        Drift.from_dict({**data, "changes": {**data["changes"], "new": -0.5}}, "summary.json")
    assert err.value.field == "changes.new" and "report stage" in str(err.value)


def test_a_verdicts_phrasings_are_named_and_stay_json_arrays() -> None:
    line = {"qid": "q1", "outcome": "correct", "A": 1, "T": None, "answer": "Lyon",
            "phrasings": [["q1~p0", "Where was X born?", 1, "Lyon"], ["q1~p1", "X?", 0, None]]}  # fmt: skip
    verdict = AnswerVerdict.model_validate(line)
    assert verdict.phrasings == [
        Phrasing(pid="q1~p0", text="Where was X born?", A=1, answer="Lyon"),
        Phrasing(pid="q1~p1", text="X?", A=0, answer=None),
    ]
    assert json.loads(json.dumps(verdict.to_dict())) == line  # the verdicts file's bytes: arrays, not objects
