#!/usr/bin/env bash
# The test command: creates .venv and installs chronoqa[dev] on first use, then runs lint, types and tests.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -k time`).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/_env.sh
ruff check src tests benchmarks
ruff format --check src tests benchmarks >/dev/null || { echo "ruff format: run 'ruff format src tests benchmarks'"; exit 1; }
mypy
exec python -m pytest -n 2 "$@"
