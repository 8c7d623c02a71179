#!/usr/bin/env bash
# The main job: the whole pipeline in one command (creates .venv and installs chronoqa on first use).
#   bash scripts/run.sh                      # Wikidata12k: fetch -> build -> retrieve -> answer -> evaluate -> report
#   bash scripts/run.sh yago11k
#   bash scripts/run.sh --config my-run.toml
#   bash scripts/run.sh --llm 'llm(model=gpt-4o-mini,base_url=https://api.openai.com/v1)'
# Arguments go to `chronoqa run` (see `chronoqa run --help`). Without internet, set CHRONOQA_MIRROR to a
# folder holding the dataset files. CHRONOQA_LLM_SERVER=1 also installs the local LLM server extra.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
source scripts/_env.sh
exec chronoqa run "$@"
