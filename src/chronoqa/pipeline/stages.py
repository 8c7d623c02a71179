"""A resumable stage runner: each stage writes one folder of a run directory, atomically.

A :class:`Stage` is a name, its inputs (files or folders), its config (JSON-able) and a function
that writes the stage's files into a folder it is given. :class:`StageRunner` runs it so that:

* **Skip when unchanged.** The stage's *fingerprint* is the sha256 of its config, the toolkit version and the content
  of every input (a folder's content: its files' relative paths and sha256s, without stage
  manifests). A stage whose folder holds a manifest with the same fingerprint, and whose output
  files all still have the sha256 the manifest recorded, is skipped.
* **Atomic.** The function writes into a hidden temporary folder beside the final one; the manifest
  ``stage.json`` (fingerprint, input paths relative to the run folder and their digests, config, output
  sha256s; no wall-clock time, so identical runs write identical manifests) is written last, and
  only then is the folder renamed into place. A run killed at any moment leaves either the old
  complete folder, the new complete folder, or no folder: never a half-written stage under its final
  name. The temporary and backup folders are named with the run folder's session id and listed in its marker
  (:class:`chronoqa.outdir.OutputFolder`); a killed run's are removed by name at the next start (``chronoqa
  run`` does so only under its run lock), never by matching a pattern.
* **Only our files.** A stage folder is replaced only when it holds exactly the files its manifest lists: a
  folder or file of the user's there is refused with one error, ``force`` included; and never while another
  chronoqa command holds a lock on it.
  Code changes within one toolkit version are not detected: rerun with ``force=True`` (``--force``).
* **Resumable.** Rerunning the same run recomputes only stages that never finished (or whose inputs or
  config changed); long stages can keep their own resumable state (e.g. the LLM response cache)
  outside their folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chronoqa import __version__
from chronoqa.errors import ChronoqaError
from chronoqa.io import read_json, sha256_bytes, sha256_file, write_json
from chronoqa.outdir import FolderLockedError, OutputFolder, OutputFolderError, is_locked

__all__ = ["STAGE_MANIFEST", "Stage", "StageResult", "StageRunner", "digest_path", "fingerprint"]

STAGE_MANIFEST = "stage.json"
STAGE_FORMAT = 1
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.,=+@()-]*$")


def digest_path(path: Path) -> str:
    """sha256 of a file's bytes, or of a folder's (relative path, file sha256) list; stage manifests excluded."""
    if path.is_file():
        return sha256_file(path)
    if not path.is_dir():
        raise ChronoqaError(f"stage input {path} does not exist")
    lines = []
    for p in sorted(path.rglob("*")):
        rel = p.relative_to(path).as_posix()
        if p.is_dir() or p.name == STAGE_MANIFEST or any(part.startswith(".") for part in Path(rel).parts):
            continue
        lines.append(f"{rel}\t{sha256_file(p)}")
    return sha256_bytes("\n".join(lines).encode("utf-8"))


def fingerprint(config: Mapping[str, Any], input_digests: Mapping[str, str]) -> str:
    """sha256 of a stage's config and input digests (canonical JSON)."""
    canon = json.dumps({"config": config, "inputs": dict(sorted(input_digests.items()))}, sort_keys=True)
    return sha256_bytes(canon.encode("utf-8"))


@dataclass(frozen=True)
class Stage:
    """One step of a run: ``fn(out_dir)`` writes the stage's files and may return a JSON-able summary."""

    name: str
    fn: Callable[[Path], Mapping[str, Any] | None]
    inputs: Mapping[str, Path] = field(default_factory=dict)
    config: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"stage name {self.name!r}: use letters, digits and _.,=+@()- (no slashes)")


@dataclass(frozen=True)
class StageResult:
    """What running (or skipping) a stage did."""

    name: str
    path: Path
    skipped: bool
    seconds: float
    summary: Mapping[str, Any]


def _outputs(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): sha256_file(p)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != STAGE_MANIFEST
    }


class StageRunner:
    """Runs stages into ``run_dir/<stage name>/``; ``force`` recomputes even unchanged stages."""

    def __init__(
        self,
        run_dir: str | Path,
        *,
        force: bool = False,
        known: Callable[[Path], str | None] | None = None,
        owner: OutputFolder | None = None,
    ) -> None:
        self.run_dir = Path(run_dir)
        self.force = force
        #: A digest the caller already has (a release file it has read), or ``None``: then the input is read.
        self.known = known
        #: The run folder, claimed (checked, marked, a killed run's leftovers removed by name).
        self.owner = owner if owner is not None else OutputFolder(self.run_dir, "run", lock=False)
        if owner is None:
            self.owner.claim()

    def relative(self, path: str | Path) -> str:
        """``path`` as a manifest records it: relative to the run folder (POSIX separators)."""
        return Path(os.path.relpath(Path(path).absolute(), self.run_dir.absolute())).as_posix()

    def path(self, name: str) -> Path:
        """The final folder of stage ``name``."""
        return self.run_dir / name

    def manifest(self, name: str) -> dict[str, Any] | None:
        """The manifest of a finished stage, or ``None``."""
        p = self.path(name) / STAGE_MANIFEST
        return read_json(p) if p.exists() else None

    def is_current(self, stage: Stage, fp: str) -> bool:
        """True when the stage's folder is complete, has fingerprint ``fp`` and unchanged outputs."""
        m = self.manifest(stage.name)
        if m is None or m.get("fingerprint") != fp or m.get("format") != STAGE_FORMAT:
            return False
        try:
            return _outputs(self.path(stage.name)) == m.get("outputs")
        except OSError:
            return False

    def digest(self, path: Path) -> str:
        """The digest of a stage input (:func:`digest_path`), or the one the caller already has."""
        known = self.known(path) if self.known is not None else None
        return known if known is not None else digest_path(path)

    def run(self, stage: Stage) -> StageResult:
        """Run a stage unless it is current; returns where its files are."""
        digests = {k: self.digest(Path(v)) for k, v in sorted(stage.inputs.items())}
        config = json.loads(json.dumps(dict(stage.config), sort_keys=True, default=str))
        fp = fingerprint({"config": config, "toolkit": __version__}, digests)
        final = self.path(stage.name)
        if not self.force and self.is_current(stage, fp):
            m = self.manifest(stage.name) or {}
            return StageResult(stage.name, final, True, 0.0, m.get("summary") or {})
        self._check_replaceable(final)
        tmp, old = self.owner.temp("tmp", stage.name), self.owner.temp("old", stage.name)
        tmp.mkdir(parents=True)
        t0 = time.perf_counter()
        try:
            summary = dict(stage.fn(tmp) or {})
            seconds = time.perf_counter() - t0
            manifest = {
                "format": STAGE_FORMAT,
                "name": stage.name,
                "fingerprint": fp,
                "config": config,
                "inputs": {k: {"path": self.relative(stage.inputs[k]), "sha256": d} for k, d in digests.items()},
                "outputs": _outputs(tmp),
                "summary": summary,
            }
            write_json(tmp / STAGE_MANIFEST, manifest)  # last: marks the folder complete
            if final.exists():
                os.replace(final, old)
            os.replace(tmp, final)
            if old.exists():
                shutil.rmtree(old, ignore_errors=True)
        except BaseException:
            with contextlib.suppress(OSError):
                shutil.rmtree(tmp)
            if not old.exists():
                self.owner.forget(tmp, old)
            raise
        self.owner.forget(tmp, old)
        return StageResult(stage.name, final, False, seconds, summary)

    def _check_replaceable(self, final: Path) -> None:
        """Refuse to replace a stage folder holding files its manifest does not list, or one another command holds."""
        if not final.exists() and not final.is_symlink():
            return
        if is_locked(final):
            raise FolderLockedError(
                f"{final} is in use by another chronoqa command: wait for it to finish, or give another --out"
            )
        m = self.manifest(final.name) if final.is_dir() and not final.is_symlink() else None
        listed = set((m or {}).get("outputs") or {})
        mine = {p.relative_to(final).as_posix() for p in final.rglob("*") if p.is_file()} if m is not None else set()
        extra = sorted(mine - listed - {STAGE_MANIFEST})
        if m is None or extra:
            what = f"holds {extra[0]!r}, which" if extra else "is a file or a folder that"
            raise OutputFolderError(
                f"{final} {what} this run did not write: nothing was replaced (--force included). Fix: move it out "
                f"of the run folder, or give another --out"
            )
