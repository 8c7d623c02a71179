"""Shared test fixtures."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from chronoqa.generate.kg.sql import SparkEngine

# Property tests: no per-example deadline (CI machines are shared and slow at times) and a derandomised
# search, so a CI run is reproducible; explore more locally with --hypothesis-seed or a profile of your own.
settings.register_profile("chronoqa", deadline=None, derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "chronoqa"))


@pytest.fixture(scope="session")
def mirror() -> Path:
    """The local data mirror named by CHRONOQA_MIRROR; tests that need real data skip without it."""
    value = os.environ.get("CHRONOQA_MIRROR")
    if not value:
        pytest.skip("CHRONOQA_MIRROR is not set (CI sets it to ../shared/data)")
    path = Path(value)
    if not path.is_dir():
        pytest.fail(f"CHRONOQA_MIRROR={value!r} is not a folder")
    return path


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep every test's download cache out of the user's real cache folder."""
    if "CHRONOQA_CACHE" not in os.environ:
        monkeypatch.setenv("CHRONOQA_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkEngine]:
    """One local Spark session for the module (the builds' ``engine="spark"`` reuses the active session)."""
    if importlib.util.find_spec("pyspark") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("pyspark is missing in CI: .ci/run installs chronoqa[spark] (Java 17 is on the machine)")
        pytest.skip("pyspark is not installed: pip install chronoqa[spark] to run the Spark differential test")
    from chronoqa.generate.kg.sql import SparkEngine

    with SparkEngine() as engine:
        yield engine
