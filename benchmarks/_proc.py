"""Memory of a process as the benchmarks report it (Linux ``/proc``), shared by every ``bench_*.py`` script."""

from __future__ import annotations

import os


def peak_mb(pid: int | str = "self") -> float:
    """Peak resident memory (``VmHWM``, MB) of a process; it resets at exec, so a fresh child reports its own."""
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def rss_mb() -> float:
    """Current resident memory (MB) of this process."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
