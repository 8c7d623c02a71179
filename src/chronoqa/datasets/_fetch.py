"""Where dataset files come from: the mirror, the cache, or a checksum-verified download."""

from __future__ import annotations

import hashlib
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from chronoqa.errors import ChecksumError, ChronoqaError
from chronoqa.io import atomic_write, sha256_file
from chronoqa.paths import cache_dir, mirror_dir

if TYPE_CHECKING:
    from chronoqa.datasets._spec import DatasetSpec, RemoteFile

__all__ = ["cache_dir", "dataset_folder", "download", "fetch", "fetch_spec", "mirror_dir", "verify_file"]

ProgressFn = Callable[[str, int, int | None], None]


def dataset_folder(name: str) -> Path:
    """The cache folder of one dataset (where downloads go)."""
    return cache_dir() / "datasets" / name


def verify_file(path: Path, expected: str) -> None:
    """Raise :class:`ChecksumError` naming the file and both sums unless ``path`` has sha256 ``expected``."""
    actual = sha256_file(path)
    if actual != expected.lower():
        raise ChecksumError(
            f"{path}: sha256 mismatch: expected {expected.lower()}, found {actual}. "
            "The file is corrupt or not the registered version: delete it and fetch again."
        )


def download(url: str, dest: Path, expected: str | None, *, progress: ProgressFn | None = None) -> str:
    """Download ``url`` to ``dest`` atomically, hashing on the way; returns the sha256.

    With ``expected`` given, a mismatch raises :class:`ChecksumError` (naming the URL, the file and both
    sums) and leaves nothing under ``dest``.
    """
    h = hashlib.sha256()
    try:
        with urllib.request.urlopen(url, timeout=60) as resp:
            total = resp.headers.get("Content-Length")
            size = int(total) if total and total.isdigit() else None
            done = 0
            with atomic_write(dest, "wb") as fh:
                while block := resp.read(1 << 20):
                    h.update(block)
                    fh.write(block)
                    done += len(block)
                    if progress:
                        progress(dest.name, done, size)
                actual = h.hexdigest()
                if expected is not None and actual != expected.lower():
                    raise ChecksumError(
                        f"{dest.name} (from {url}): sha256 mismatch: expected {expected.lower()}, found {actual}. "
                        "Nothing was saved; the upstream file changed or the download was corrupted."
                    )
    except OSError as exc:
        raise ChronoqaError(
            f"could not download {url} to {dest}: {exc}. Check the network, or set CHRONOQA_MIRROR to a folder "
            f"holding <dataset>/{dest.name}."
        ) from exc
    return actual


def _expected(f: RemoteFile, sha256: str | None, allow_unverified: bool, dataset: str) -> str | None:
    if f.sha256 is not None:
        return f.sha256
    if sha256 is not None:
        return sha256
    if allow_unverified:
        return None
    raise ChecksumError(
        f"{dataset}/{f.name}: no sha256 is registered for this file, so chronoqa will not use it unverified. "
        "Pass the checksum you trust (--sha256 / sha256=) or accept the risk explicitly "
        "(--allow-unverified / allow_unverified=True)."
    )


def fetch(
    name: str,
    *,
    sha256: str | None = None,
    allow_unverified: bool = False,
    progress: ProgressFn | None = None,
) -> Path:
    """The folder holding every file of dataset ``name``, verified (see :mod:`chronoqa.datasets`).

    ``sha256`` and ``allow_unverified`` only matter for files registered without a checksum.
    """
    from chronoqa.datasets import get_spec

    return fetch_spec(get_spec(name), sha256=sha256, allow_unverified=allow_unverified, progress=progress)


def fetch_spec(
    spec: DatasetSpec,
    *,
    sha256: str | None = None,
    allow_unverified: bool = False,
    progress: ProgressFn | None = None,
) -> Path:
    """:func:`fetch` for a spec that need not be registered (tests, user-described datasets)."""
    mirror = mirror_dir()
    if mirror is not None:
        folder = mirror / spec.folder_name
        if all((folder / f.name).is_file() for f in spec.files):
            for f in spec.files:
                expected = _expected(f, sha256, allow_unverified, spec.name)
                if expected is not None:
                    verify_file(folder / f.name, expected)
            return folder
    folder = dataset_folder(spec.folder_name)
    for f in spec.files:
        expected = _expected(f, sha256, allow_unverified, spec.name)
        dest = folder / f.name
        if dest.is_file():
            if expected is not None:
                verify_file(dest, expected)
            continue
        download(f.url, dest, expected, progress=progress)
    return folder
