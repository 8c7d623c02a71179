"""Configuration of the KG benchmark builder: one frozen dataclass, recorded whole in the manifest."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from chronoqa.errors import UnknownNameError
from chronoqa.generate.kg.operators import REGISTRY
from chronoqa.generate.kg.phrases import OPEN_END_READINGS, parse_not_years
from chronoqa.time import Granularity, TimePoint, parse_time

__all__ = ["DEFAULT_AS_OF", "ENGINES", "OPERATORS", "KGBuildConfig"]

#: The registered operators' names (:data:`chronoqa.generate.kg.operators.REGISTRY`), in registry order.
OPERATORS = tuple(REGISTRY)
#: Providers of the graph index (``KGBuildConfig.engine``; see :func:`chronoqa.generate.kg.sql.build_index`).
ENGINES = ("duckdb", "spark")
#: A DuckDB size (``KGBuildConfig.engine_memory``): a number and a unit.
_SIZE = re.compile(r"\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)", re.IGNORECASE)
DEFAULT_AS_OF = "2026-01-01"


@dataclass(frozen=True)
class KGBuildConfig:
    """Everything that decides what the KG builder produces (same config + seed + graph → same bytes).

    Attributes:
        seed: Seed of every random choice (a ``random.Random(seed)`` instance is passed around).
        n_questions: Target number of questions (spread over the operator × complexity cells by
            ``operator_weights`` × ``hop_weights``; a cell the graph cannot fill gives its rest to the others).
        operators: Operators to generate (a subset of :data:`OPERATORS`: ``point_in_time``, ``before_after``,
            ``interval``, ``sequence``).
        max_hops: Longest chain (1..4); chains of 3 or more hops form the ``3+-hop`` cell.
        granularity: Question granularity (``year``, ``month`` or ``day``); ``t_query`` is written at it.
        expand_years: Per-year mode: expand every interval fact into one point fact per year (needs
            ``granularity == "year"``).
        as_of: The explicit "now": an open-ended state holds until this date; no question asks about a
            time at or after its unit.
        keep_multi_answer: Keep point-in-time / before-after questions whose final answer set has more
            than one value (labelled ``cardinality = "multiple"``) instead of dropping them.
        split_ratios: train/dev/test shares.
        operator_weights: Share of each operator in ``n_questions`` (default: each operator's declared weight).
        hop_weights: Share of 1-hop, 2-hop and 3+-hop chains.
        max_negatives: Cap on the size of ``S_dist`` and of ``S_stale`` per question.
        attempts_per_question: Rejection-sampling budget per wanted question and cell.
        exhaustive_max_facts: On graphs with at most this many facts, point-in-time and before/after chains of
            2+ hops are drawn from the exhaustive list of time-unique chains (else by a bounded random search).
        stall_attempts: A cell that draws this many candidates in a row without a new question gives up
            (its quota goes to the other cells).
        generic_phrases: Phrase relations missing from the phrase table with a generic fallback
            ("the <label> of X") instead of failing; the fallback relations are listed in the data card.
        open_end: Reading of a state with a start and no end: ``"ongoing"`` (holds until ``as_of``, certainly),
            ``"unknown"`` (possibly valid from its start until ``as_of``, certainly only in its start unit), or
            ``None`` for the phrase table's declared ``open_end`` (``ongoing`` when it declares none).
        not_years: Data-quality override of the phrase table's ``[not_years]``: relation id or label → years
            that are not years (a fact of that relation starting or ending in one is valid nowhere but stays in
            the corpus); ``None`` uses the phrase table's declaration, an empty mapping disables it.
        allow_ids: Build even when entities have no readable label (their raw ids, such as ``Q77545``,
            then appear in questions and the corpus); by default such a build fails naming the ids.
        max_answer_share: The most one entity may be the answer of, as a share of an operator × hop cell's
            quota (the answer-prior shortcut); at least one question per answer is always allowed.
        max_quota_growth: A cell takes over the quota of cells the graph cannot fill up to this multiple of its
            own quota, so that a thin graph gives fewer questions rather than a release made of one easy cell.
        engine: What runs the build's SQL steps (the index, the implausible dates, the cardinality statistics,
            the overlapping groups, the candidate search): ``"duckdb"`` (in process, the default) or ``"spark"``
            (the same SQL on Apache Spark, ``chronoqa[spark]``). Both give the same results, so the release is
            byte-identical across engines; the engine is therefore left out of :meth:`to_dict` (and of the
            manifest) on purpose.
        engine_memory: DuckDB's memory limit in the build (a DuckDB size such as ``"512MB"`` or ``"2GB"``);
            ``None`` takes :data:`chronoqa.generate.kg.sql.engines.MEMORY_LIMIT`. Past it DuckDB spills its
            tables, sorts and hash tables to a temporary folder: a larger limit spends memory to save disk
            traffic, never changes a result, and is left out of :meth:`to_dict` like ``engine``. The build's own
            arrays (the facts and the index) come on top of it. Unused by the Spark engine (``spark.*`` settings).

    """

    seed: int = 0
    n_questions: int = 10_000
    operators: tuple[str, ...] = OPERATORS
    max_hops: int = 3
    granularity: str = "year"
    expand_years: bool = False
    as_of: str = DEFAULT_AS_OF
    keep_multi_answer: bool = False
    split_ratios: tuple[float, float, float] = (0.7, 0.1, 0.2)
    operator_weights: tuple[tuple[str, float], ...] = field(
        default=tuple((op.name, op.weight) for op in REGISTRY.values())
    )
    hop_weights: tuple[float, float, float] = (0.4, 0.4, 0.2)
    max_negatives: int = 5
    attempts_per_question: int = 30
    stall_attempts: int = 3_000
    exhaustive_max_facts: int = 500_000
    generic_phrases: bool = False
    open_end: str | None = None
    not_years: Mapping[str, Sequence[int]] | None = None
    allow_ids: bool = False
    max_answer_share: float = 0.02
    max_quota_growth: float = 2.0
    engine: str = "duckdb"
    engine_memory: str | None = None

    def __post_init__(self) -> None:
        if self.not_years is not None:
            object.__setattr__(self, "not_years", parse_not_years(self.not_years, "KGBuildConfig.not_years"))
        for op in self.operators:
            if op not in REGISTRY:
                raise UnknownNameError("operator", op, REGISTRY)
        if not self.operators:
            raise ValueError("operators must name at least one operator")
        if self.engine not in ENGINES:
            raise UnknownNameError("index engine", self.engine, ENGINES)
        if self.engine_memory is not None and not _SIZE.fullmatch(self.engine_memory.strip()):
            raise ValueError(f"engine_memory must be a size such as '512MB' or '2GB', got {self.engine_memory!r}")
        if self.open_end is not None and self.open_end not in OPEN_END_READINGS:
            raise UnknownNameError("open_end reading", self.open_end, OPEN_END_READINGS)
        if self.n_questions < 0:
            raise ValueError(f"n_questions must be >= 0, got {self.n_questions}")
        if not 1 <= self.max_hops <= 4:
            raise ValueError(f"max_hops must be in 1..4, got {self.max_hops}")
        Granularity.parse(self.granularity)
        if self.expand_years and self.granularity_enum is not Granularity.YEAR:
            raise ValueError("expand_years needs granularity 'year' (one point fact per year)")
        if parse_time(self.as_of, field="as_of") is None:
            raise ValueError(f"as_of must be a date, got {self.as_of!r}")
        if len(self.split_ratios) != 3 or any(r < 0 for r in self.split_ratios) or sum(self.split_ratios) <= 0:
            raise ValueError(f"split_ratios must be 3 non-negative numbers with a positive sum: {self.split_ratios}")
        for name, w in self.operator_weights:
            if name not in REGISTRY:
                raise UnknownNameError("operator", name, REGISTRY)
            if w < 0:
                raise ValueError(f"operator weight of {name} must be >= 0, got {w}")
        if len(self.hop_weights) != 3 or any(w < 0 for w in self.hop_weights):
            raise ValueError(f"hop_weights must be 3 non-negative numbers: {self.hop_weights}")
        if self.max_negatives < 0:
            raise ValueError(f"max_negatives must be >= 0, got {self.max_negatives}")
        if self.stall_attempts < 1:
            raise ValueError(f"stall_attempts must be >= 1, got {self.stall_attempts}")
        if self.max_quota_growth < 1:
            raise ValueError(f"max_quota_growth must be >= 1, got {self.max_quota_growth}")
        if not 0 < self.max_answer_share <= 1:
            raise ValueError(f"max_answer_share must be in (0, 1], got {self.max_answer_share}")
        if self.attempts_per_question < 1:
            raise ValueError(f"attempts_per_question must be >= 1, got {self.attempts_per_question}")

    @property
    def granularity_enum(self) -> Granularity:
        """The question granularity as an enum."""
        return Granularity.parse(self.granularity)

    @property
    def as_of_point(self) -> TimePoint:
        """``as_of`` parsed."""
        tp = parse_time(self.as_of, field="as_of")
        assert tp is not None
        return tp

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (recorded in the manifest), without ``engine`` and ``engine_memory`` (same release)."""
        d = asdict(self)
        del d["engine"], d["engine_memory"]
        d["operators"] = list(self.operators)
        d["split_ratios"] = list(self.split_ratios)
        d["hop_weights"] = list(self.hop_weights)
        d["operator_weights"] = {k: v for k, v in self.operator_weights}
        d["not_years"] = None if self.not_years is None else {k: list(v) for k, v in self.not_years.items()}
        return d
