"""Graphs read from, and releases written to, a URI (``s3://``, ``gs://``, ``hdfs://``, ``file://``) via pyarrow.

A cluster keeps its graph and its releases in object storage; chronoqa builds exactly as on one machine and moves
whole files at the edges:

* :func:`staged_input`: a graph file or folder at a URI is downloaded into a local staging folder under its own
  name (so the format is detected, the graph named and the checksums taken as for the local file) and removed
  after reading; file names in the load report and in errors are given back as the URI, so the release does not
  depend on where the copy was staged.
* :func:`publish_release`: the release is written by the ordinary writer into a local staging folder (the same
  bytes as a local ``--out``), then uploaded file by file, :data:`~chronoqa.artifacts.release.MANIFEST_FILE` last
  (its presence marks a complete release, as locally). An old manifest at the destination is deleted before the
  first upload, and every file's size is checked before the manifest goes up, so a failed upload leaves no
  manifest; the error says so and names the staged local copy, which is kept.
* :func:`check_release_target`: reaches the destination before a long build, so missing credentials or a missing
  bucket fail in seconds.
* :func:`local_release`: a release at a URI (``chronoqa run --bench``, ``chronoqa evaluate --bench``) downloaded
  once into the cache (``<cache>/releases/``), again only when its manifest changes; one without a manifest is
  refused (an incomplete upload).

Every pyarrow failure becomes one :class:`~chronoqa.errors.StorageError` naming the URI, pyarrow's reason, what
was expected and the fix for the scheme; credentials written into a URI (``s3://key:secret@bucket/...``) are
never repeated (:func:`shown`), in messages or in the manifest. ``s3a://`` and ``s3n://`` (Hadoop's names, as in
``$CHRONOQA_SPARK_DIR``) are read as ``s3://``. A plain path (no ``scheme://``) never goes through this module's
filesystems: the callers use it as they always have.
"""

from __future__ import annotations

import contextlib
import posixpath
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chronoqa.errors import ChronoqaError, LoadReport, StorageError, clip
from chronoqa.io import atomic_write
from chronoqa.outdir import FolderLockedError, OutputFolder, ancestor_locks, check_output_folder, is_locked

if TYPE_CHECKING:
    import pyarrow.fs as pafs

__all__ = [
    "SCHEMES",
    "Staged",
    "check_release_target",
    "fetch",
    "hold_release_target",
    "is_uri",
    "local_release",
    "publish_release",
    "resolve",
    "shown",
    "staged_input",
    "upload_release",
]

#: The schemes pyarrow's filesystems serve, as the error messages list them.
SCHEMES = ("s3", "gs", "hdfs", "file")
_ALIASES = {"s3a": "s3", "s3n": "s3", "gcs": "gs"}
_URI = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_USERINFO = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://)[^/?#@\s]*@")
_CHUNK = 1 << 23
_FIX = {
    "s3": "check the AWS credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE or "
    "~/.aws/credentials), the bucket name and its region (AWS_DEFAULT_REGION, or ?region=... in the URI), or use a "
    "local path",
    "gs": "check the Google credentials (GOOGLE_APPLICATION_CREDENTIALS, or gcloud auth application-default login) "
    "and the bucket name, or use a local path",
    "hdfs": "check that Java and Hadoop's libhdfs are installed (JAVA_HOME, HADOOP_HOME, ARROW_LIBHDFS_DIR, "
    "CLASSPATH=$(hadoop classpath --glob)) and that the namenode is reachable, or use a local path",
    "file": "check the path and its permissions (file:// URIs are absolute: file:///data/graph.tsv)",
}


def is_uri(location: str | Path) -> bool:
    """Whether ``location`` is a URI (``scheme://...``) rather than a local path."""
    return isinstance(location, str) and _URI.match(location) is not None


def _scheme(uri: str) -> str:
    match = _URI.match(uri)
    scheme = match.group(1).lower() if match else "file"
    return _ALIASES.get(scheme, scheme)


def _fix(uri: str) -> str:
    return _FIX.get(_scheme(uri), "check the URI and its credentials, or use a local path")


def _reason(exc: BaseException) -> str:
    return clip(shown(" ".join(str(exc).split())) or type(exc).__name__, 300)  # no secret half cut off


def shown(uri: str) -> str:
    """``uri`` (or a text quoting URIs) as chronoqa writes it in messages, manifests and summaries: no secrets."""
    return _USERINFO.sub(r"\1", uri)


def _error(uri: str, problem: str, expected: str, fix: str) -> StorageError:
    """A :class:`StorageError` about ``uri``, which it names as :func:`shown` writes it."""
    return StorageError(shown(uri), shown(problem), expected, fix)  # pyarrow's words may quote the URI too


def _unreachable(uri: str, exc: BaseException, expected: str, action: str = "reach") -> StorageError:
    return _error(uri, f"pyarrow could not {action} {uri}: {_reason(exc)}", expected, _fix(uri))


def resolve(uri: str) -> tuple[pafs.FileSystem, str]:
    """The pyarrow filesystem of ``uri`` and the path inside it (no trailing slash).

    Raises:
        StorageError: an unknown scheme, a malformed URI, or a filesystem pyarrow cannot start (no libhdfs, a
            bucket whose region cannot be resolved).

    """
    import pyarrow as pa
    import pyarrow.fs as pafs

    match = _URI.match(uri)
    if match is None:
        raise _error(uri, f"{uri} is not a URI", "scheme://location", "give a local path or a URI")
    scheme = match.group(1).lower()
    target = _ALIASES[scheme] + uri[len(scheme) :] if scheme in _ALIASES else uri
    try:
        fs, path = pafs.FileSystem.from_uri(target)
    except pa.ArrowInvalid as exc:
        if "Unrecognized filesystem type" in str(exc):
            raise _error(
                uri,
                f"{uri}: pyarrow has no filesystem for the scheme {scheme}://",
                "a local path or a URI of " + ", ".join(f"{s}://" for s in SCHEMES),
                "write the location with one of those schemes (s3a:// is read as s3://), or use a local path",
            ) from None
        raise _unreachable(uri, exc, "a well-formed URI such as s3://bucket/key or file:///abs/path") from None
    except (OSError, pa.ArrowException) as exc:
        raise _unreachable(uri, exc, "a filesystem pyarrow can open") from None
    return fs, path.rstrip("/") or path


def _info(fs: pafs.FileSystem, path: str, uri: str, expected: str) -> pafs.FileInfo:
    import pyarrow as pa

    try:
        return fs.get_file_info(path)
    except (OSError, pa.ArrowException) as exc:
        raise _unreachable(uri, exc, expected) from None


def _join(uri: str, rel: str) -> str:
    return f"{uri.rstrip('/')}/{rel}"


# -- input ------------------------------------------------------------------------------------------------------


def fetch(uri: str, into: str | Path) -> Path:
    """Download the file or folder at ``uri`` to ``into/<its name>``; returns that local path.

    A folder (a HyTE graph) comes with every file under it, subfolders kept.

    Raises:
        StorageError: nothing at ``uri``, or pyarrow could not reach or read it.

    """
    import pyarrow as pa
    import pyarrow.fs as pafs

    fs, path = resolve(uri)
    expected = "a graph file (.tsv, .csv, .parquet, .zip) or a HyTE folder"
    info = _info(fs, path, uri, expected)
    if info.type == pafs.FileType.NotFound:
        raise _error(uri, f"{uri}: there is no file or folder there", expected, "check the URI")
    local = Path(into) / (posixpath.basename(path) or "input")
    if info.type == pafs.FileType.File:
        files = [(path, local)]
    else:
        try:
            found = fs.get_file_info(pafs.FileSelector(path, recursive=True))
        except (OSError, pa.ArrowException) as exc:
            raise _unreachable(uri, exc, expected, "list") from None
        local.mkdir(parents=True, exist_ok=True)
        files = sorted(
            (f.path, local.joinpath(*posixpath.relpath(f.path, path).split("/")))
            for f in found
            if f.type == pafs.FileType.File
        )
    for src, dest in files:
        try:
            with fs.open_input_stream(src) as fh, atomic_write(dest, "wb") as out:
                shutil.copyfileobj(fh, out, _CHUNK)
        except (OSError, pa.ArrowException) as exc:
            name = _join(uri, posixpath.relpath(src, path)) if src != path else uri
            raise _unreachable(name, exc, "a readable file", "read") from None
    return local


@dataclass(frozen=True, slots=True)
class Staged:
    """An input as the readers see it: ``path`` (local), and the ``uri`` it was downloaded from (``None``: local)."""

    path: Path
    uri: str | None = None

    def name(self, text: str) -> str:
        """``text`` with the staged local path written as the URI it came from (no credentials, no ``?query``)."""
        if self.uri is None:
            return text
        return text.replace(str(self.path), shown(self.uri).split("?", 1)[0].rstrip("/"))

    def relabel(self, report: LoadReport | None) -> None:
        """Name the URI, not the staging folder, in ``report`` (its source and every skipped row), in place."""
        if report is None or self.uri is None:
            return
        report.source = self.name(report.source)
        report.skipped = [replace(r, file=self.name(r.file)) for r in report.skipped]


@contextlib.contextmanager
def staged_input(location: str | Path) -> Iterator[Staged]:
    """``location`` as a local path: itself when local, else downloaded (:func:`fetch`) and removed afterwards.

    An error raised in the block (a bad row of the file) names the URI instead of the staged copy.
    """
    if not is_uri(location):
        yield Staged(Path(location))
        return
    uri = str(location)
    with tempfile.TemporaryDirectory(prefix="chronoqa-input-") as tmp:
        staged = Staged(fetch(uri, tmp), uri)
        try:
            yield staged
        except ChronoqaError as exc:
            exc.args = tuple(staged.name(a) if isinstance(a, str) else a for a in exc.args)
            if isinstance(getattr(exc, "file", None), str):
                exc.file = staged.name(exc.file)  # type: ignore[attr-defined]
            raise


# -- output -----------------------------------------------------------------------------------------------------


def check_release_target(out: str | Path) -> None:
    """Fail early when ``out`` cannot take a release: a file, or (a URI) a place pyarrow cannot reach.

    Raises:
        StorageError: a URI that pyarrow cannot reach, or a file there.
        OutputFolderError: a local ``out`` that is a file or a folder chronoqa did not write.
        FolderLockedError: a local ``out`` (or a folder above it) that another chronoqa command holds.

    """
    import pyarrow.fs as pafs

    if not is_uri(out):
        check_output_folder(out, "release")
        if is_locked(out):
            raise FolderLockedError(f"release folder {out} is in use by another chronoqa command: give another --out")
        with ancestor_locks(out):  # a folder above held by another command (a run): refused before the build
            return
    uri = str(out)
    fs, path = resolve(uri)
    if _info(fs, path, uri, "a folder for the release").type == pafs.FileType.File:
        raise _error(uri, f"{uri} is a file", "a new or existing folder", "give another location")


def hold_release_target(out: str | Path, *, wait: bool = False) -> contextlib.AbstractContextManager[object]:
    """A local ``out`` checked, locked and marked for a build's whole length; nothing for a URI.

    The folder is an :class:`OutputFolder` of kind ``release`` (``wait``: wait for another command holding it
    instead of failing). The release writer inside finds the lock held by this process and does not take it again.
    """
    if is_uri(out):
        return contextlib.nullcontext()
    return OutputFolder(out, "release", wait=wait)


def upload_release(folder: str | Path, uri: str) -> list[str]:
    """Upload the release ``folder`` to ``uri`` file by file, the manifest last; returns the relative names in order.

    An existing manifest at ``uri`` is deleted first, each uploaded file's size is checked before the manifest
    goes up, and the manifest is uploaded under a temporary name and moved into place, so an interrupted or failed
    upload leaves no manifest (no complete-looking release).

    Raises:
        StorageError: an upload failed (nothing marks the release there as complete) or pyarrow could not reach
            ``uri``.

    """
    import pyarrow as pa
    import pyarrow.fs as pafs

    from chronoqa.artifacts.release import MANIFEST_FILE

    local = Path(folder)
    fs, root = resolve(uri)
    rels = sorted(p.relative_to(local).as_posix() for p in local.rglob("*") if p.is_file())
    order = [r for r in rels if r != MANIFEST_FILE] + ([MANIFEST_FILE] if MANIFEST_FILE in rels else [])
    done = 0

    def failed(rel: str, exc: BaseException | str) -> StorageError:
        why = exc if isinstance(exc, str) else _reason(exc)
        return _error(
            uri,
            f"uploading the release to {uri} failed at {rel}, after {done} of {len(order)} files: {why}. It is "
            f"incomplete there and has no {MANIFEST_FILE}, so nothing reads it as a release; the complete release is "
            f"kept at {local}",
            "a writable location",
            f"{_fix(uri)}; then build again or copy {local} there yourself",
        )

    manifest = f"{root}/{MANIFEST_FILE}"
    try:
        fs.create_dir(root, recursive=True)
    except (OSError, pa.ArrowException) as exc:
        raise failed("the folder", exc) from None
    try:
        if fs.get_file_info(manifest).type != pafs.FileType.NotFound:
            fs.delete_file(manifest)  # the old release's: until the new one is complete, none is
    except (OSError, pa.ArrowException) as exc:
        raise failed(f"(deleting the old {MANIFEST_FILE})", exc) from None
    made = {root}
    for rel in order:
        dest = f"{root}/{rel}"
        last = rel == MANIFEST_FILE
        if last:
            _check_sizes(fs, root, local, order[:-1], failed)
        # the manifest goes up under a temporary name and is moved into place: never seen half-written
        target = f"{root}/.{MANIFEST_FILE}.partial" if last else dest
        try:
            parent = posixpath.dirname(dest)
            if parent not in made:
                fs.create_dir(parent, recursive=True)
                made.add(parent)
            with (local / rel).open("rb") as fh, fs.open_output_stream(target) as out:
                shutil.copyfileobj(fh, out, _CHUNK)
            if last:
                fs.move(target, dest)
        except (OSError, pa.ArrowException) as exc:
            if last:
                with contextlib.suppress(OSError, pa.ArrowException):
                    fs.delete_file(target)
            raise failed(rel, exc) from None
        done += 1
    return order


def _check_sizes(
    fs: pafs.FileSystem, root: str, local: Path, rels: list[str], failed: Callable[[str, Any], StorageError]
) -> None:
    """Each uploaded file's size equal to its local copy's, or ``failed`` (before the manifest is uploaded)."""
    import pyarrow as pa

    try:
        infos = fs.get_file_info([f"{root}/{r}" for r in rels])
    except (OSError, pa.ArrowException) as exc:
        raise failed(rels[-1] if rels else "the folder", exc) from None
    for rel, info in zip(rels, infos, strict=True):
        want = (local / rel).stat().st_size
        if info.size != want:
            raise failed(rel, f"{rel} is {info.size} bytes there, {want} here")


def publish_release(out: str | Path, write: Callable[[Path], object]) -> str:
    """Write a release with ``write(folder)`` at ``out`` (a local folder or a URI); returns where it is.

    A local ``out`` is written in place, as always. For a URI, ``write`` fills a fresh local staging folder
    (the same bytes), which :func:`upload_release` uploads and which is then removed; it is kept, and named in
    the error, when the upload fails. Nothing is uploaded when ``write`` raises.

    Raises:
        StorageError: pyarrow could not reach ``out`` or an upload failed.

    """
    if not is_uri(out):
        write(Path(out))
        return str(out)
    uri = str(out)
    check_release_target(uri)
    staging = Path(tempfile.mkdtemp(prefix="chronoqa-release-"))
    try:
        write(staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    upload_release(staging, uri)  # on failure the staged release stays, named in the error
    shutil.rmtree(staging, ignore_errors=True)
    return shown(uri)


def local_release(location: str | Path) -> Path:
    """A release folder to read: ``location`` itself when local, else its copy in the cache (downloaded if needed).

    The copy lives in ``<cache>/releases/<key>/<name>`` (:func:`chronoqa.paths.cache_dir`; the key is the URI's
    hash) and is reused while the manifest at the URI is the same bytes as the copy's (a build's manifest holds
    its config, seed, toolkit version, source checksums and counts). A new copy is downloaded into a temporary
    folder beside the old one and moved into place once complete.

    Raises:
        StorageError: no manifest at ``location`` (not a complete release), or pyarrow could not reach or read it.

    """
    import hashlib

    import pyarrow as pa
    import pyarrow.fs as pafs

    from chronoqa.artifacts.release import MANIFEST_FILE
    from chronoqa.paths import cache_dir

    if not is_uri(location):
        return Path(location)
    uri = str(location).rstrip("/")
    fs, root = resolve(uri)
    expected = f"a complete release folder (with its {MANIFEST_FILE}, written last)"
    manifest = f"{root}/{MANIFEST_FILE}"
    if _info(fs, manifest, uri, expected).type != pafs.FileType.File:
        raise _error(
            uri,
            f"{uri} has no {MANIFEST_FILE}: not a release, or one whose upload did not finish",
            expected,
            "check the URI, or build the release there again",
        )
    try:
        with fs.open_input_stream(manifest) as fh:
            remote_manifest = fh.read()
    except (OSError, pa.ArrowException) as exc:
        raise _unreachable(_join(uri, MANIFEST_FILE), exc, "a readable file", "read") from None
    home = cache_dir() / "releases" / hashlib.sha256(uri.encode()).hexdigest()[:16]
    local = home / (posixpath.basename(root) or "release")
    cached = local / MANIFEST_FILE
    if cached.is_file() and cached.read_bytes() == remote_manifest:
        return local
    home.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".download-", dir=home) as tmp:
        fresh = fetch(uri, tmp)
        if (fresh / MANIFEST_FILE).read_bytes() != remote_manifest:
            raise _error(uri, f"the release at {uri} changed while it was downloaded", expected, "download it again")
        if local.exists():
            shutil.rmtree(local)
        fresh.rename(local)
    return local
