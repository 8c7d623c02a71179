"""The one-command pipeline ``chronoqa run`` and its resumable stage runner.

* :mod:`chronoqa.pipeline.stages`: :class:`Stage` / :class:`StageRunner` (skip unchanged stages,
  atomic stage folders, resumable after a kill).
* :mod:`chronoqa.pipeline.config`: :class:`RunConfig` from defaults, a TOML file and flags.
* :mod:`chronoqa.pipeline.run`: :func:`run_pipeline` (fetch → build → retrieve → answer → evaluate → report).
"""

from __future__ import annotations

from chronoqa.pipeline.config import DEFAULT_CONTROLS, DEFAULT_RETRIEVERS, RunConfig, dump_toml, load_config
from chronoqa.pipeline.run import PipelineResult, run_pipeline, stage_name
from chronoqa.pipeline.stages import STAGE_MANIFEST, Stage, StageResult, StageRunner

__all__ = [
    "DEFAULT_CONTROLS",
    "DEFAULT_RETRIEVERS",
    "STAGE_MANIFEST",
    "PipelineResult",
    "RunConfig",
    "Stage",
    "StageResult",
    "StageRunner",
    "dump_toml",
    "load_config",
    "run_pipeline",
    "stage_name",
]
