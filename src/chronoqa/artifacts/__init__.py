"""The on-disk contracts between stages: one module per file format, each with its record type, writer and reader.

* :mod:`chronoqa.artifacts.release`: a benchmark release folder (what both builders write).
"""

from __future__ import annotations

from chronoqa.artifacts.release import FunctionalFlags, Release, load_release, write_release

__all__ = ["FunctionalFlags", "Release", "load_release", "write_release"]
