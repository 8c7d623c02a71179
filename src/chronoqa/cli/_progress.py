"""How ``chronoqa run`` shows its stages: bars on a terminal, one line per stage start and end in a log.

On a terminal (:class:`StageBars`) each stage gets a rich progress row as soon as it begins (a pulsing bar
until it says how much work it has, then done/total); its time column freezes at the stage's own measured
seconds when it ends. When the output is not a terminal (a pipe, a log file: :class:`StageLog`), rich would
print nothing until the end, so each stage writes one line when it begins and one when it ends, with the
seconds the stage runner measured and the units of work done. Timings are shown, never written into the
run's semantic outputs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn
from rich.text import Text

__all__ = ["StageBars", "StageLog", "duration", "one_step", "one_step_result", "stage_progress"]


def duration(seconds: float) -> str:
    """A duration for people: ``0.015 s``, ``12.3 s``, ``7 min 30 s``, ``1 h 02 min``."""
    if seconds < 1:
        return f"{seconds:.3f} s"
    if seconds < 60:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


class _StageTime(ProgressColumn):
    """The stage's measured seconds once it ended, its elapsed time while it runs."""

    def render(self, task: Task) -> Text:
        """The time cell of one row."""
        seconds = task.fields.get("seconds")
        if seconds is None and task.finished_time is not None:
            seconds = task.finished_time  # rich's elapsed seconds when the count became full: a step inside a stage
        return Text(duration(seconds if seconds is not None else (task.elapsed or 0.0)), style="progress.elapsed")


class StageBars:
    """A rich progress row per stage (a terminal)."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.tasks: dict[str, Any] = {}

    def begin(self, stage: str) -> None:
        """A row for the stage, pulsing until it knows its total."""
        self.tasks[stage] = self.progress.add_task(stage, total=None, seconds=None)

    def start(self, stage: str, total: int | None) -> Callable[[int], None]:
        """Give the stage's row its total; returns the advance callback."""
        task = self.tasks.get(stage)
        if task is None:
            task = self.tasks[stage] = self.progress.add_task(stage, total=total, seconds=None)
        else:
            self.progress.update(task, total=total)
        return lambda n: self.progress.advance(task, n)

    def finish(self, stage: str, result: Any) -> None:
        """Fill the row and freeze its time at the stage's measured seconds."""
        task = self.tasks.get(stage)
        if task is None:
            task = self.tasks[stage] = self.progress.add_task(stage, total=1)
        total = self.progress.tasks[task].total or 1
        label = f"{stage} (unchanged, skipped)" if result.skipped else stage
        self.progress.update(task, description=label, total=total, completed=total, seconds=result.seconds)
        self.progress.stop_task(task)


class StageLog:
    """One line per stage start and end (output that is not a terminal), and a count line now and then.

    A counter that runs longer than ``every`` seconds writes ``stage: 5000/20000`` at most once per ``every``
    seconds. A counter started without :meth:`begin` (a step inside a stage, such as a dense retriever
    encoding its corpus) writes its own end line when its count reaches its total.
    """

    def __init__(self, console: Console, every: float = 30.0) -> None:
        self.console = console
        self.every = every
        self.counts: dict[str, list[int | None]] = {}
        self.begun: set[str] = set()

    def _line(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)
        self.console.file.flush()

    def begin(self, stage: str) -> None:
        """``stage: started``."""
        self.begun.add(stage)
        self._line(f"{stage}: started")

    def start(self, stage: str, total: int | None) -> Callable[[int], None]:
        """Count the stage's units of work (the end line reports them; a count line every ``every`` seconds)."""
        count: list[int | None] = [0, total]
        self.counts[stage] = count
        t0 = last = time.perf_counter()
        of = "" if total is None else f"/{total}"

        def tick(n: int) -> None:
            nonlocal last
            done = count[0] = (count[0] or 0) + n
            now = time.perf_counter()
            if stage not in self.begun and total is not None and done >= total > 0:
                self._line(f"{stage}: done in {duration(now - t0)} ({done}{of})")
            elif now - last >= self.every:
                self._line(f"{stage}: {done}{of} after {duration(now - t0)}")
            else:
                return
            last = now

        return tick

    def finish(self, stage: str, result: Any) -> None:
        """``stage: done in 12.3 s (100/100)`` or ``stage: unchanged, skipped``."""
        if result.skipped:
            self._line(f"{stage}: unchanged, skipped")
            return
        done, total = self.counts.get(stage, [None, None])
        counted = "" if total is None else f" ({done}/{total})"
        self._line(f"{stage}: done in {duration(result.seconds)}{counted}")


@contextmanager
def stage_progress(console: Console, every: float = 30.0) -> Iterator[StageBars | StageLog]:
    """Bars when ``console`` is a terminal, log lines otherwise (a count line at most every ``every`` s)."""
    if not console.is_terminal:
        yield StageLog(console, every)
        return
    bars = Progress(
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        _StageTime(),
        console=console,
    )
    with bars:
        yield StageBars(bars)


@dataclass(frozen=True)
class _Step:
    seconds: float
    skipped: bool = False


def one_step_result(seconds: float) -> Any:
    """The result :meth:`StageBars.finish` / :meth:`StageLog.finish` show for a step measured by the caller."""
    return _Step(seconds)


@contextmanager
def one_step(console: Console, name: str, total: int | None) -> Iterator[Callable[[int], None]]:
    """A single counted step shown as a stage (``chronoqa answer``, ``build kg``): yields the advance callback.

    Its end is shown with the seconds measured around the ``with`` body; an error inside shows no end.
    """
    with stage_progress(console) as shown:
        shown.begin(name)
        tick = shown.start(name, total)
        t0 = time.perf_counter()
        yield tick
        shown.finish(name, _Step(time.perf_counter() - t0))
