"""Pausing CPython's cyclic garbage collector around bulk work (readers, retrieval)."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["gc_paused"]


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector; its previous state is restored on exit, also on error.

    Bulk loading and retrieval allocate millions of small acyclic objects while large structures (a
    corpus, a growing list of facts) are alive; without the pause, full collections rescan the whole
    heap again and again (measured: 2x the load time of 1M facts, 2-3x the search time on 1M facts).
    Usable as a decorator too.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
