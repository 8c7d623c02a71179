"""The folders chronoqa reads and writes outside a run: the cache and the data mirror (a leaf module).

* :func:`cache_dir`: ``$CHRONOQA_CACHE``, else ``platformdirs.user_cache_dir("chronoqa")``. Downloads
  (``datasets/``), fact stores (``stores/``) and retrieval indexes (``bm25/``, ``dense/``) live under it.
* :func:`mirror_dir`: the folder named by ``$CHRONOQA_MIRROR`` (a local copy of the public data), or
  ``None``; :func:`check_mirror` (run by the ``chronoqa`` command at start-up) refuses a name that is not a
  folder, instead of a download failing later as if the dataset name were wrong.

Environment variables are read on every call (never cached), so tests and callers may change them.
"""

from __future__ import annotations

import os
from pathlib import Path

from chronoqa.errors import ChronoqaError

__all__ = ["cache_dir", "check_mirror", "mirror_dir"]


def cache_dir() -> Path:
    """The cache folder: ``$CHRONOQA_CACHE``, else ``platformdirs.user_cache_dir("chronoqa")``."""
    value = os.environ.get("CHRONOQA_CACHE")
    if value:
        return Path(value)
    import platformdirs

    return Path(platformdirs.user_cache_dir("chronoqa"))


def mirror_dir() -> Path | None:
    """The folder named by ``$CHRONOQA_MIRROR``, or ``None``."""
    value = os.environ.get("CHRONOQA_MIRROR")
    return Path(value) if value else None


def check_mirror() -> None:
    """Refuse a ``$CHRONOQA_MIRROR`` that names no existing folder (unset or empty: no mirror, fine)."""
    mirror = mirror_dir()
    if mirror is not None and not mirror.is_dir():
        what = "a file, not a folder" if mirror.exists() else "no such folder"
        raise ChronoqaError(
            f"CHRONOQA_MIRROR={mirror}: {what}. Fix: export CHRONOQA_MIRROR=<the data mirror folder>, "
            "or unset CHRONOQA_MIRROR to download from the source"
        )
