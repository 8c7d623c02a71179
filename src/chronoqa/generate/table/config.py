"""The configuration of a table build, and the constants every table question generator shares."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chronoqa.errors import ChronoqaError
from chronoqa.records import TemporalTable
from chronoqa.time import Granularity, TimePoint

__all__ = [
    "AS_OF_DATA",
    "CARDINALITIES",
    "DEFAULT_AS_OF",
    "HANDOVER_READINGS",
    "WINDOWS",
    "JoinSpec",
    "TableBuildConfig",
    "cardinality_of",
    "latest_date",
]

CARDINALITIES = ("none", "unique", "multiple")
#: Readings of a same-unit handover at coarse granularity (``TableBuildConfig.handovers``).
HANDOVER_READINGS = ("meets", "overlap")
#: ``as_of`` value meaning "the latest date found in the input tables" (their snapshot date).
AS_OF_DATA = "data"
DEFAULT_AS_OF = AS_OF_DATA
#: Reference window (in units of the comparison granularity) around a seed row.
WINDOWS = {Granularity.YEAR: 6, Granularity.MONTH: 48, Granularity.DAY: 1460}


def cardinality_of(n_answers: int) -> str:
    """``none`` / ``unique`` / ``multiple`` for a number of distinct answers."""
    return CARDINALITIES[min(n_answers, 2)]


@dataclass(frozen=True, slots=True)
class JoinSpec:
    """A temporal join to build implicit-time questions from: ``left`` holds events, ``right`` facts."""

    left: str
    right: str
    on: tuple[str, ...] | None = None
    aliases: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TableBuildConfig:
    """Everything that decides a table build (recorded in the manifest).

    ``as_of`` is the fixed "now" (open ends are closed there, references lie before it); the default
    ``"data"`` takes the latest date found in the input tables (their snapshot date), never the
    wall clock. ``tfds`` maps a table name to TFDs named by the user (``"Country,Role->Name"``); when a table has
    none, TFDs are discovered (``max_lhs``, ``threshold``, ``min_changing_*``). ``per_cell`` is the exact
    quota of each relation × cardinality cell per TFD (and of each cardinality of the time-alignment
    and join questions). ``build_tables`` limits which tables get single-table questions (default:
    all tables that are not only the event side of a join). ``max_none_share`` caps the share of ``none``
    questions in the release (each presumes the table complete): the surplus is dropped, round-robin over
    the cells, and counted in the manifest. ``kinds`` declares a table's kind (``role``, ``status``,
    ``event``: :mod:`chronoqa.generate.table.kinds`); undeclared kinds are detected from the data.
    ``handovers`` is the reading of a row that ends in the unit where the next row of its key begins, at
    year or month granularity (a year placeholder): ``"meets"`` (default: the change happened in that
    unit; :meth:`~chronoqa.generate.table.store.TableStore.read_handovers_as_meets`) or ``"overlap"``.
    ``delimiters`` declares the delimiter of a multi-value column (``{"movie.cast": ", "}``; ``"none"``: one
    value per cell); other columns' delimiters are detected (:mod:`chronoqa.generate.table.kinds`).
    ``complete`` names the tables declared *complete*: their rows are every row of their domain in the world
    (every Games edition; every holder of each office over the span the table covers). Only on such a table
    are questions asked whose gold holds only if the table is complete (``assumes_complete``: a ``none``
    answer, the first / most recent event of a value, the keys whose state began in a window); a phrase file
    may declare it too (``{"tables": {"olympic": {"complete": "true"}}}``). ``max_answer_share`` caps the share
    of one answer among a table's ``status_at`` questions (a state answer guessable from the value prior,
    "inscribed" on 77 % of them, does not measure time); the surplus is dropped and counted.
    """

    as_of: str = DEFAULT_AS_OF
    seed: int = 0
    per_cell: int = 10
    tfds: Mapping[str, Sequence[str]] = field(default_factory=dict)
    max_lhs: int = 3
    threshold: float = 0.1
    min_changing_keys: int = 2
    min_changing_share: float = 0.3
    granularity: Mapping[str, str] = field(default_factory=dict)
    joins: Sequence[JoinSpec] = ()
    build_tables: Sequence[str] | None = None
    max_seed_rows: int = 5000
    random_refs_per_seed: int = 1
    ratios: tuple[float, float, float] = (0.7, 0.1, 0.2)
    alignment: bool = True
    max_none_share: float = 0.25
    kinds: Mapping[str, str] = field(default_factory=dict)
    handovers: str = "meets"
    delimiters: Mapping[str, str] = field(default_factory=dict)
    complete: Sequence[str] = ()
    max_answer_share: float = 0.5

    def __post_init__(self) -> None:
        """Check the choices that have a fixed set of values."""
        if self.handovers not in HANDOVER_READINGS:
            raise ChronoqaError(
                f"handovers: expected one of {', '.join(HANDOVER_READINGS)}, got {self.handovers!r}; "
                "'meets' reads a same-unit handover at year/month granularity as meets, 'overlap' as overlaps"
            )
        if not 0 < self.max_answer_share <= 1:
            raise ChronoqaError(f"max_answer_share: expected a share in (0, 1], got {self.max_answer_share!r}")
        for name in ("threshold", "min_changing_share"):  # a comparison with NaN is false: NaN is refused too
            if not 0 <= getattr(self, name) <= 1:
                raise ChronoqaError(f"{name}: expected a share from 0 to 1, got {getattr(self, name)!r}")

    def is_complete(self, table: str) -> bool:
        """``table`` is declared complete (its rows are every row of its domain): see the class docstring."""
        return table in self.complete

    def to_dict(self) -> dict[str, Any]:
        """JSON form for the manifest."""
        return {
            "as_of": self.as_of,
            "seed": self.seed,
            "per_cell": self.per_cell,
            "tfds": {k: list(v) for k, v in sorted(self.tfds.items())},
            "max_lhs": self.max_lhs,
            "threshold": self.threshold,
            "min_changing_keys": self.min_changing_keys,
            "min_changing_share": self.min_changing_share,
            "granularity": dict(sorted(self.granularity.items())),
            "joins": [
                {"left": j.left, "right": j.right, "on": list(j.on or ()), "aliases": dict(sorted(j.aliases.items()))}
                for j in self.joins
            ],
            "build_tables": None if self.build_tables is None else list(self.build_tables),
            "max_seed_rows": self.max_seed_rows,
            "random_refs_per_seed": self.random_refs_per_seed,
            "ratios": list(self.ratios),
            "alignment": self.alignment,
            "max_none_share": self.max_none_share,
            "kinds": dict(sorted(self.kinds.items())),
            "handovers": self.handovers,
            "delimiters": dict(sorted(self.delimiters.items())),
            "complete": sorted(self.complete),
            "max_answer_share": self.max_answer_share,
        }


def latest_date(tables: Sequence[TemporalTable]) -> TimePoint:
    """The last day of the latest known date in ``tables``: the data's snapshot date, used as ``as_of``."""
    days = [p.last_day() for t in tables for iv in t.intervals for p in (iv.start, iv.end) if p is not None]
    if not days:
        raise ChronoqaError("no table has a known date: give as_of explicitly")
    return TimePoint.from_unit(max(days), Granularity.DAY)
