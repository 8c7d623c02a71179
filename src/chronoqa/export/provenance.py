"""Licence, citation and source of a release, from the dataset registry (the one owner of licences)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from chronoqa.artifacts.release import Release
from chronoqa.datasets import DATASETS
from chronoqa.errors import ChronoqaError

__all__ = ["LOW_CONFIDENCE_FILE", "VALIDATION_FILE", "Provenance", "check_validation", "provenance_of"]

VALIDATION_FILE = "VALIDATION.md"
LOW_CONFIDENCE_FILE = "low_confidence.jsonl"


def check_validation(folder: str | Path) -> Path:
    """A folder written by ``chronoqa validate import`` (its summary and flags present), as a path."""
    p = Path(folder)
    missing = [name for name in (VALIDATION_FILE, LOW_CONFIDENCE_FILE) if not (p / name).is_file()]
    if missing:
        raise ChronoqaError(
            f"{p} is not a validation folder: {', '.join(missing)} missing "
            "(write one with `chronoqa validate import RELEASE sheets/*.json --out DIR`)"
        )
    return p


# The Hub's licence identifiers of the licences the registry names (its ``licence`` text starts with them).
_HUB_LICENCES = (("CC BY 3.0", "cc-by-3.0"), ("CC BY 4.0", "cc-by-4.0"), ("CC0", "cc0-1.0"), ("MIT", "mit"))
_SPDX = {"cc-by-3.0": "CC-BY-3.0", "cc-by-4.0": "CC-BY-4.0", "cc0-1.0": "CC0-1.0", "mit": "MIT"}


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a release's facts come from and under which terms they may be shared."""

    dataset: str
    licence: str  # the registry's wording, or a sentence saying it is unknown
    hub_licence: str  # the Hub's identifier (``cc-by-3.0``, ``cc0-1.0``, ``unknown``)
    citation: str
    homepage: str
    registered: bool  # a named dataset of the registry (else a user's own data)
    builder: str

    @property
    def spdx(self) -> str | None:
        """The SPDX identifier of the licence (``None`` where unknown)."""
        return _SPDX.get(self.hub_licence)

    @property
    def licence_url(self) -> str | None:
        """A URL of the licence text (``None`` where unknown)."""
        spdx = self.spdx
        return None if spdx is None else f"https://spdx.org/licenses/{spdx}.html"


def provenance_of(release: Release) -> Provenance:
    """The provenance of ``release``: its manifest's ``dataset`` looked up in :data:`chronoqa.datasets.DATASETS`.

    A release built from a user's own graph or table has no registry entry: its licence is said to be
    unknown (the builder of the release must state it before sharing), never guessed.
    """
    name = str(release.manifest.get("dataset") or release.path.name)
    builder = str(release.manifest.get("builder") or "unknown")
    spec = DATASETS.get(name)
    if spec is None:
        return Provenance(
            dataset=name,
            licence="unknown: user-supplied data; state its licence before sharing this release",
            hub_licence="unknown",
            citation="",
            homepage="",
            registered=False,
            builder=builder,
        )
    hub = next((hub for prefix, hub in _HUB_LICENCES if spec.licence.startswith(prefix)), "other")
    return Provenance(name, spec.licence, hub, spec.citation, spec.homepage, True, builder)
