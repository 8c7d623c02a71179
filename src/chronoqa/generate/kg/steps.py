"""The steps of a KG build, each a function of one :class:`BuildState` (the list is ``build.STEPS``).

Each step reads what the steps before it set on the state and sets its own fields; nothing here reads the
wall clock, and the same graph, config and seed give the same state.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from chronoqa._gc import return_freed_memory
from chronoqa.artifacts.release import IMPLAUSIBLE_FILE, FunctionalFlags
from chronoqa.errors import ChronoqaError
from chronoqa.generate.kg.bridges import Bridges, narrow_pool, narrow_static_into
from chronoqa.generate.kg.candidates import Candidates
from chronoqa.generate.kg.cells import Cell, CellFiller, Drafted, cap_answers, plan_cells
from chronoqa.generate.kg.census import THIN, cell_census, coverage_account
from chronoqa.generate.kg.config import KGBuildConfig
from chronoqa.generate.kg.corpus import fact_triple
from chronoqa.generate.kg.index import NEG, Col, DocIds, GraphIndex, expand_years
from chronoqa.generate.kg.modelling import Lives, Modelling
from chronoqa.generate.kg.names import accepted_names
from chronoqa.generate.kg.negatives import functional_flags, select_negatives
from chronoqa.generate.kg.operators import REGISTRY, TIME_FREE_CAP, Draft, GenContext
from chronoqa.generate.kg.operators.base import AnswerKind, GoldFacts
from chronoqa.generate.kg.operators.chains import build_chain_pool, build_static_into, static_depths
from chronoqa.generate.kg.order import ORDER_RULE, canonical_facts
from chronoqa.generate.kg.phrases import (
    DEFAULT_PHRASE_TABLES,
    MissingPhrasesError,
    PhraseTable,
    RelationPhrases,
    label_words,
    load_phrase_table,
    marks_in,
)
from chronoqa.generate.kg.plausible import REASONS
from chronoqa.generate.kg.regime import Regimes
from chronoqa.generate.kg.sql import (
    build_index,
    cardinality_by_sql,
    engine_session,
    find_candidates,
    implausible_dates,
    overlap_keys_by_sql,
)
from chronoqa.generate.kg.sql.plausible import TypeRules
from chronoqa.generate.kg.templates import (
    Renderer,
    answer_label,
    namesake_labels,
    namesakes,
    shared_short_labels,
    side_test,
)
from chronoqa.generate.kg.tenure import loans, squad_moves
from chronoqa.generate.result import manifest_header
from chronoqa.generate.splits import assign_splits
from chronoqa.records import (
    COMPLEXITIES,
    Fact,
    FactColumns,
    Question,
    TemporalGraph,
    Triple,
    complexity_of,
)
from chronoqa.sources.labels import is_raw_id
from chronoqa.time import Duration, Granularity, TimePoint, render_year

__all__ = [
    "BuildState",
    "ProgressFn",
    "assemble_questions",
    "audit",
    "check_labels",
    "fill_cells",
    "graph_relations",
    "leaks",
    "make_manifest",
    "prepare_drafting",
    "resolve_cardinality",
    "resolve_inputs",
    "resolve_not_years",
    "resolve_open_end",
    "resolve_phrases",
    "resolve_table",
    "run_engine",
]

ProgressFn = Callable[[int, int], None]


@dataclass
class BuildState:
    """Everything a KG build knows, filled step by step (a field set by a step is read only after it).

    The first six fields are the build's inputs; each group below is set by the step named beside it.
    """

    graph: TemporalGraph
    cfg: KGBuildConfig
    phrases: PhraseTable | str | Path | None
    extra_labels: dict[str, str]
    sources: dict[str, Any]
    progress: ProgressFn | None
    # resolve_inputs
    phr: dict[str, RelationPhrases] = field(init=False)  # relation id -> phrases
    fallback: list[str] = field(init=False)  # relations phrased by the generic fallback
    table: PhraseTable = field(init=False)
    open_end: str = field(init=False)
    open_end_by: str = field(init=False)
    not_years: dict[str, list[int]] = field(init=False)
    not_years_by: str = field(init=False)
    bad_years: dict[str, frozenset[int]] = field(init=False)  # relation id -> years that are not years
    is_event: dict[str, bool] = field(init=False)
    symmetric: list[str] = field(init=False)
    facts: FactColumns = field(init=False)  # in content order (and expanded per year when asked)
    doc_ids: DocIds = field(init=False)
    # run_engine
    idx: GraphIndex = field(init=False)
    implausible_code: np.ndarray = field(init=False)  # per fact: a REASONS position, or -1
    implausible_pos: np.ndarray = field(init=False)
    card_record: dict[str, dict[str, str]] = field(init=False)
    cands: Candidates = field(init=False)
    # prepare_drafting
    ctx: GenContext = field(init=False)
    renderer: Renderer = field(init=False)
    # fill_cells
    cells: list[Cell] = field(init=False)
    # assemble_questions
    drafts: list[Drafted] = field(init=False)
    questions: list[Question] = field(init=False)
    flags: list[FunctionalFlags] = field(init=False)
    stratified_fine: bool = field(init=False)  # splits stratified by complexity x operator
    # audit
    audit_result: dict[str, Any] = field(init=False)  # leaks, invalid gold, examples
    # make_manifest
    manifest: dict[str, Any] = field(init=False)
    # caches: a draft's facts come back often, made once each
    fact_keys: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    triples: dict[int, Triple] = field(default_factory=dict)

    @property
    def granularity(self) -> Granularity:
        """The question granularity."""
        return self.cfg.granularity_enum

    @property
    def t_max(self) -> int:
        """The last unit a question may ask about (the unit before ``as_of``'s)."""
        return self.cfg.as_of_point.lo(self.granularity) - 1

    def label(self, e: str) -> str:
        """An entity's label: the extra labels first, else the graph's."""
        return self.extra_labels.get(e) or self.graph.entity_label(e)

    def fact_key(self, fid: int) -> tuple[Any, ...]:
        """A fact's content (a symmetric fact's ends in order): the same fact read twice has one key."""
        key = self.fact_keys.get(fid)
        if key is None:
            f = self.facts[fid]
            s, o = (min(f.s, f.o), max(f.s, f.o)) if f.r in self.symmetric else (f.s, f.o)
            key = self.fact_keys[fid] = (s, f.r, o, f.start, f.end)
        return key

    def triple(self, fid: int) -> Triple:
        """The triple of a fact as questions hold it."""
        t = self.triples.get(fid)
        if t is None:
            t = self.triples[fid] = fact_triple(
                self.facts[fid], self.doc_ids[fid], self.label, self.graph.relation_label
            )
        return t

    def answer_strings(self, d: Draft) -> list[str]:
        """A draft's answers as a question states them: labels, or an ISO time at the granularity."""
        if d.kind.is_time:
            return [TimePoint.from_unit(d.answers[0], self.granularity).isoformat()]
        if d.kind.is_entity:
            return [answer_label(self.renderer, d, a) for a in d.answers]  # the id keeps the disambiguator
        if d.kind is AnswerKind.DURATION:
            return [Duration(d.answers[0], self.granularity).text()]
        if d.kind is AnswerKind.YES_NO:
            return ["yes" if d.answers[0] else "no"]
        raise ChronoqaError(f"operator {d.operator}: no answer text for answer kind {d.kind.value!r} yet")

    def answer_ids(self, d: Draft, t_iso: str) -> list[str]:
        """A draft's answers as ids: entity ids, the ISO duration (``P4Y``), ``yes``/``no``, or the ISO time."""
        if d.kind.is_entity:
            return [self.idx.ent_names[a] for a in d.answers]
        if d.kind is AnswerKind.DURATION:
            return [Duration(d.answers[0], self.granularity).iso()]
        if d.kind is AnswerKind.YES_NO:
            return self.answer_strings(d)
        return [t_iso]


# -- resolve_inputs ------------------------------------------------------------------------------------


def resolve_phrases(
    graph: TemporalGraph, phrases: PhraseTable | str | Path | None, *, generic: bool
) -> tuple[dict[str, RelationPhrases], list[str], str]:
    """Phrases for every relation of the graph: ``(relation id → phrases, generic-fallback ids, table source)``.

    With ``phrases=None`` the shipped table named like the graph is used, else the first shipped table
    that covers every relation.
    """
    out, fb, table = resolve_table(graph, phrases, generic=generic)
    return out, fb, table.source


def resolve_table(
    graph: TemporalGraph, phrases: PhraseTable | str | Path | None, *, generic: bool
) -> tuple[dict[str, RelationPhrases], list[str], PhraseTable]:
    """:func:`resolve_phrases` with the table itself (it declares the open end and the non-years too)."""
    rels = [(r, graph.relation_label(r)) for r in graph_relations(graph.facts)]
    if phrases is not None:
        table = phrases if isinstance(phrases, PhraseTable) else load_phrase_table(phrases)
        out, fb = table.resolve(rels, generic=generic)
        return out, fb, table
    names = [graph.name] if graph.name in DEFAULT_PHRASE_TABLES else []
    names += [n for n in DEFAULT_PHRASE_TABLES if n not in names]
    first_error: MissingPhrasesError | None = None
    for name in names:
        table = load_phrase_table(name)
        try:
            out, fb = table.resolve(rels, generic=False)
            return out, fb, table
        except MissingPhrasesError as exc:
            first_error = first_error or exc
    if generic:
        table = load_phrase_table(names[0])
        out, fb = table.resolve(rels, generic=True)
        return out, fb, table
    assert first_error is not None
    raise first_error


def resolve_open_end(config: KGBuildConfig, table: PhraseTable) -> tuple[str, str]:
    """The open-end reading of a build and who declared it: ``(reading, "config" | "phrase table" | "default")``."""
    if config.open_end is not None:
        return config.open_end, "config"
    if table.open_end is not None:
        return table.open_end, "phrase table"
    return "ongoing", "default"


def resolve_not_years(
    config: KGBuildConfig, table: PhraseTable, relations: Sequence[tuple[str, str]]
) -> tuple[dict[str, list[int]], str]:
    """The build's non-year setting per relation id of the graph, and who declared it.

    ``relations`` are the graph's ``(relation id, label)`` pairs; a declared key matches a relation by id,
    else by label (as phrase-table entries do). Returns ``(relation id → sorted years, "config" |
    "phrase table" | "default")``; relations with no listed year are left out.
    """
    if config.not_years is not None:
        declared, by = config.not_years, "config"
    elif table.not_years:
        declared, by = table.not_years, "phrase table"
    else:
        declared, by = {}, "default"
    out: dict[str, list[int]] = {}
    for rid, label in sorted(relations):
        years = declared.get(rid) or declared.get(label)
        if years:
            out[rid] = sorted(set(years))
    return out, by


def graph_relations(facts: Sequence[Fact]) -> list[str]:
    """The relation ids the facts use, sorted (on columns: from the codes, without making a :class:`Fact`)."""
    if isinstance(facts, FactColumns):
        used = np.flatnonzero(np.bincount(facts.r, minlength=len(facts.relations)))
        return sorted(facts.relations[c] for c in used.tolist())
    return sorted({f.r for f in facts})


def resolve_inputs(s: BuildState) -> None:
    """Phrases, the open-end and non-year readings, the facts in content order (expanded per year if asked)."""
    s.phr, s.fallback, s.table = resolve_table(s.graph, s.phrases, generic=s.cfg.generic_phrases)
    s.open_end, s.open_end_by = resolve_open_end(s.cfg, s.table)
    # content order before anything else: interning, seeds, draws, splits and corpus never follow input order
    # (free for a graph its caller ordered with canonical_graph)
    graph_facts = canonical_facts(FactColumns.from_facts(s.graph.facts), s.cfg.seed)
    s.not_years, s.not_years_by = resolve_not_years(
        s.cfg, s.table, [(r, s.graph.relation_label(r)) for r in graph_relations(graph_facts)]
    )
    s.bad_years = {r: frozenset(ys) for r, ys in s.not_years.items()}
    s.is_event = {rid: p.is_event for rid, p in s.phr.items()}
    s.symmetric = sorted(rid for rid, p in s.phr.items() if p.symmetric)
    if s.cfg.expand_years:
        s.facts, s.doc_ids = expand_years(graph_facts, s.is_event, s.cfg.as_of_point, s.bad_years)
    else:
        s.facts, s.doc_ids = graph_facts, DocIds(graph_facts.ids)


# -- run_engine ------------------------------------------------------------------------------------------


def resolve_cardinality(
    phr: Mapping[str, RelationPhrases], idx: GraphIndex
) -> tuple[dict[str, tuple[bool, bool]], dict[str, dict[str, str]]]:
    """Per relation id, ``(forward is one, inverse is one)``, declared by the phrase table or inferred from the data.

    Returns the setting and its record for the manifest (relation id → ``{"objects_at_once": ...,
    "subjects_at_once": ..., "declared_by": "phrase table" | "inferred"}``). A direction the table does not
    declare is inferred with :meth:`GraphIndex.infer_one`.
    """
    out: dict[str, tuple[bool, bool]] = {}
    record: dict[str, dict[str, str]] = {}
    for rid in sorted(phr):
        p = phr[rid]
        r = idx.rel_id.get(rid)
        declared = (p.objects_at_once, p.subjects_at_once)
        vals = []
        for forward, v in zip((True, False), declared, strict=True):
            if v is None:
                v = "one" if r is not None and idx.infer_one(r, forward) else "many"
            vals.append(v)
        out[rid] = (vals[0] == "one", vals[1] == "one")
        by = "phrase table" if None not in declared else ("inferred" if declared == (None, None) else "partly inferred")
        record[rid] = {"objects_at_once": vals[0], "subjects_at_once": vals[1], "declared_by": by}
    return out, record


def object_roles(s: BuildState) -> dict[int, dict[int, str]]:
    """Relation -> object -> the role its label marks (or its facts show), for the relations declaring roles."""
    idx, out = s.idx, {}
    labels = [s.label(x) for x in idx.ent_names] if any(p.roles or p.shown_roles for p in s.phr.values()) else []
    for i, name in enumerate(idx.rel_names):
        p = s.phr[name]
        if p.roles or p.shown_roles:
            shows = (lambda e: side_test(idx, s.phr, e)) if p.shown_roles else (lambda e: None)
            marked = {e: p.for_object(label, shows(e)).key for e, label in enumerate(labels)}
            out[i] = {e: key for e, key in marked.items() if key != p.key}
    return out


def run_engine(s: BuildState) -> None:
    """The graph index, implausible dates, cardinality, overlap groups and chain candidates, in one engine session."""
    cfg, as_of = s.cfg, s.cfg.as_of_point
    with engine_session(cfg.engine, cfg.engine_memory) as engine:  # one Spark session for every SQL run of the build
        idx = build_index(
            engine, s.facts, s.is_event, s.granularity, as_of, s.open_end, s.bad_years, symmetric=s.symmetric
        )
        s.implausible_code = implausible_dates(
            engine, s.facts, s.phr, idx.ignored_mask, as_of, s.open_end, s.table.default_max_years,
            TypeRules(s.table.types, s.label),
        )  # fmt: skip
        multi = None  # the groups with two or more values, when the cardinality steps made them
        if any(None in (p.objects_at_once, p.subjects_at_once) for p in s.phr.values()):
            card = cardinality_by_sql(engine, idx)
            idx.use_group_stats(card.stats)  # what infer_one reads
            multi = card.multi
        cardinality, s.card_record = resolve_cardinality(s.phr, idx)
        idx.rel_one = [cardinality.get(name, (True, True)) for name in idx.rel_names]
        s.implausible_pos = np.flatnonzero(s.implausible_code >= 0)
        idx.mark_implausible(s.implausible_pos)
        # a relation declared ask = false: in the corpus and counted for uniqueness, never gold, anchor or negative
        unasked = [i for i, r in enumerate(idx.rel_names) if not s.phr[r].ask]
        idx.mark_implausible(np.flatnonzero(np.isin(idx.table[:, Col.R], unasked)))
        # the facts the phrase table marks by words of their object's label, both declarations in one pass
        marked = marked_positions(idx, s.phr, s.label, ("no_value", "year_uncertain"))
        idx.mark_implausible(marked["no_value"])
        idx.year_uncertain = frozenset(marked["year_uncertain"].tolist())  # read by the drafts' convention rule
        # the groups one_at reads, once the implausible facts lost their certain span
        idx.use_overlap_keys(overlap_keys_by_sql(engine, idx))
        s.cands = find_candidates(engine, idx, s.t_max, multi)  # seeds, multi seeds, timed facts, multi groups
    s.idx = idx
    del multi
    return_freed_memory()  # the runs' results, read into arrays, are gone: their pages not under the drafting's peak


def marked_positions(
    idx: GraphIndex, phr: Mapping[str, RelationPhrases], label: Callable[[str], str], fields: Sequence[str]
) -> dict[str, np.ndarray]:
    """Per field, the positions of the facts whose object a relation declares by words of its label in it.

    ``no_value``: the object records the absence of a value; ``year_uncertain``: the fact is dated by either of two
    conventions a year apart. Each entity's label words are read once, for every field.
    """
    out = {name: np.zeros(0, dtype=np.int64) for name in fields}
    declared: dict[str, dict[int, frozenset[str]]] = {}  # field -> relation -> its marks
    for name in fields:
        rels = {i: marks for i, r in enumerate(idx.rel_names) if (marks := getattr(phr[r], name))}
        if rels:
            declared[name] = rels
    if not declared:  # a table that marks nothing (a synthetic graph's): no label read, no key per fact made
        return out
    words = [label_words(label(e)) for e in idx.ent_names]
    n = len(idx.ent_names)
    facts = idx.table[:, Col.R].astype(np.int64) * n + idx.table[:, Col.O]  # one (relation, object) key per fact
    for name, rels in declared.items():
        keys = [r * n + o for r, labels in rels.items() for o, w in enumerate(words) if marks_in(w, labels)]
        out[name] = np.flatnonzero(np.isin(facts, keys)).astype(np.int64)
    return out


# -- check_labels ----------------------------------------------------------------------------------------

# ASCII characters that no raw id (see chronoqa.sources.labels.is_raw_id) holds once stripped
_NOT_IN_RAW_IDS = "[" + "".join(
    f"\\x{{{c:02x}}}" for c in range(128) if not (chr(c) in "QP/_" or chr(c).isdigit() or chr(c).islower()
                                                  or chr(c).isspace())
) + "]"  # fmt: skip


def unreadable(entities: Sequence[str], label: Callable[[str], str]) -> list[str]:
    """The entities whose label is a raw id or blank, sorted; Arrow rules out most labels, ``is_raw_id`` decides."""
    import pyarrow as pa
    import pyarrow.compute as pc

    labels = [label(e) for e in entities]
    if not labels:
        return []
    maybe = np.flatnonzero(~pc.match_substring_regex(pa.array(labels, pa.string()), _NOT_IN_RAW_IDS).to_numpy(False))
    return sorted(entities[i] for i in maybe.tolist() if is_raw_id(labels[i]) or not labels[i].strip())


def check_labels(s: BuildState) -> None:
    """Fail, naming them, when entities have no readable label (unless ``allow_ids``)."""
    raw = unreadable(s.idx.ent_names, s.label)
    if raw and not s.cfg.allow_ids:
        shown = ", ".join(raw[:20]) + (f" and {len(raw) - 20:,} more" if len(raw) > 20 else "")
        raise ChronoqaError(
            f"{len(raw):,} entit{'y has' if len(raw) == 1 else 'ies have'} no readable label (their raw id would "
            f"appear in questions and the corpus): {shown}. Give labels (--labels FILE with id<TAB>label lines; "
            "Wikidata12k's entity2name.txt is read by default for --dataset wikidata12k), or pass --allow-ids "
            "(KGBuildConfig(allow_ids=True)) to build with the ids."
        )


# -- prepare_drafting ------------------------------------------------------------------------------------


def prepare_drafting(s: BuildState) -> None:
    """What the operators draw from: seeds, static hops, on small graphs every time-unique chain; the renderer."""
    cfg, idx = s.cfg, s.idx
    pool = static_into = None
    if len(s.facts) <= cfg.exhaustive_max_facts and cfg.max_hops >= 2:
        static_into = build_static_into(idx)
        if not cfg.keep_multi_answer:
            pool = build_chain_pool(idx, NEG + 1, s.t_max, range(1, cfg.max_hops + 1))
            # 1-hop chains whose time can matter: the (anchor, relation) group has several values over time
            first = [c[0][0] for c in pool[1]]
            several = s.cands.several_values(
                np.array([h.src for h in first], dtype=np.int64), np.array([h.rel for h in first], dtype=np.int64),
                np.array([h.forward for h in first], dtype=bool),
            )  # fmt: skip
            pool[1] = [c for c, keep in zip(pool[1], several.tolist(), strict=True) if keep]
    bridges, roles = bridges_of(s), object_roles(s)
    idx.mark_interrupted([i for i, r in enumerate(idx.rel_names) if s.phr[r].exclusive], roles)
    idx.unknown_end_rels = frozenset(i for i, r in enumerate(idx.rel_names) if s.phr[r].end_unknown)
    idx.convention_rels = frozenset(i for i, r in enumerate(idx.rel_names) if s.phr[r].date_convention)
    squads = [i for i, r in enumerate(idx.rel_names) if s.phr[r].squads]
    idx.squad_moves = squad_moves(idx, [s.label(e) for e in idx.ent_names], squads) if squads else frozenset()
    idx.loans = loans(idx, [i for i, r in enumerate(idx.rel_names) if s.phr[r].one_spell_per_object], roles)
    static_removed = narrow_static_into(bridges, idx, static_into) if static_into is not None else Counter[str]()
    undescribed = {i: why for i, r in enumerate(idx.rel_names) if (why := s.phr[r].undescribed())}
    regimes = Regimes.build(idx, {r: p.containment for r, p in s.phr.items()}, roles, undescribed, divided_spans(s))
    s.ctx = GenContext(
        idx, NEG + 1, s.t_max, cfg.keep_multi_answer, s.cands.seeds, s.cands.timed, pool, static_into,
        static_depths(static_into, cfg.max_hops - 1) if static_into is not None else None, s.cands.seeds_multi,
        granularity=s.granularity, life=frozenset(i for i, r in enumerate(idx.rel_names) if s.phr[r].role),
        careers=frozenset(i for i, r in enumerate(idx.rel_names) if s.phr[r].career), object_roles=roles,
        entity_subset=s.table.entity_subset,
        regimes=regimes,
        modelling=Modelling.build(
            idx, {r for r, p in s.phr.items() if p.status}, states_of(s.phr), lives_of(s.phr), regimes
        ),
        bridges=bridges, static_removed=static_removed,
    )  # fmt: skip
    if pool is not None:  # drawn chains: only those the bridge and hub rules allow, at the units they allow
        s.ctx.pool_removed = narrow_pool(s.ctx.bridges, idx, pool)
    labels = [s.label(e) for e in idx.ent_names]
    shared = shared_short_labels(labels)
    twins, keep = namesakes(labels), namesake_labels(labels, shared)
    s.renderer = Renderer(
        idx, s.phr, s.label, s.granularity, shared_short=shared, keep_labels=keep, generic=frozenset(s.fallback),
        namesakes=twins, people=s.table.types["person"].shown_by if "person" in s.table.types else (),
        things=s.table.types["thing"].shown_by if "thing" in s.table.types else (),
    )  # fmt: skip


def divided_spans(s: BuildState) -> dict[int, tuple[int, int]]:
    """The phrase table's divided entities in the graph: entity -> the first and last unit of the declared span.

    Raises:
        ChronoqaError: Where a declaration's id or label disagrees with the graph (:meth:`Divided.check_against`).

    """
    if not s.table.divided:
        return {}
    g, ids, out = s.granularity, s.idx.ent_id, {}
    for key, dv in sorted(s.table.divided.items()):
        e = ids.get(key)
        dv.check_against(s.table.source, None if e is None else s.label(key))
        if e is not None:
            out[e] = (TimePoint(dv.first).lo(g), TimePoint(dv.last).hi(g))
    return out


def lives_of(phr: Mapping[str, RelationPhrases]) -> Lives:
    """The relations the life rules of :mod:`~chronoqa.generate.kg.modelling` read, from the phrase table."""
    return Lives(
        birth={r for r, p in phr.items() if p.role == "birth"},
        residence={r for r, p in phr.items() if p.residence},
        from_birth={r for r, p in phr.items() if p.from_birth},
    )


def states_of(phr: Mapping[str, RelationPhrases]) -> set[str]:
    """The relations whose facts are states (not events)."""
    return {r for r, p in phr.items() if not p.is_event}


def bridges_of(s: BuildState) -> Bridges | None:
    """The bridge and hub rules (``generate.kg.bridges``) of the table's ``[bridges]``; ``None`` where it has none.

    A graph the table words only by the generic fallback (a synthetic graph, ``--generic-phrases``) has no
    declared world to be one in: its chains are left to the other rules, as the graph-walk rule leaves them.
    """
    if not s.table.bridges or set(s.phr) <= set(s.fallback):
        return None
    declared = {(r, side): s.table.bridges[(p.key, side)][0] for r, p in s.phr.items() for side in ("object", "subject")
                if (p.key, side) in s.table.bridges}  # fmt: skip
    return Bridges.build(s.idx, declared)


# -- fill_cells ------------------------------------------------------------------------------------------


def fill_cells(s: BuildState) -> None:
    """The operator × hop cells filled with verified, deduplicated, leak-checked drafts (seeded per cell)."""
    s.cells = plan_cells(s.cfg)
    filler = CellFiller(s.cfg, s.ctx, s.renderer, s.fact_key, s.answer_strings, leaks, s.progress)
    filler.fill_all(s.cells)
    filler.hand_over(s.cells)
    cap_answers(s.cells, s.cfg.max_answer_share)


# -- assemble_questions ----------------------------------------------------------------------------------


def _word_re(text: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(text) + r"(?!\w)", re.IGNORECASE)


def leaks(question: str, answers: Sequence[str], answer_is_time: bool) -> list[str]:
    """Answer strings found in the question text (word boundaries, any case); for times, the year too."""
    found = []
    # ASCII text and needle: a case-insensitive match needs the lower-cased needle inside the lower-cased text
    # (only non-ASCII characters such as U+212A KELVIN SIGN match an ASCII letter otherwise), so most needles
    # are ruled out without compiling their pattern
    lower = question.lower() if question.isascii() else None
    for a in answers:
        needles = [a]
        if answer_is_time:
            tp = TimePoint.parse(a)
            if tp is not None:
                needles += [str(tp.year), render_year(tp.year)]
        for n in dict.fromkeys(needles):
            if not n.strip() or (lower is not None and n.isascii() and n.lower() not in lower):
                continue
            if _word_re(n).search(question):
                found.append(n)
    return found


def gold_fids(d: Draft) -> list[int]:
    """The positions of a draft's ``S*`` facts: its chain, then its further answer facts."""
    return [h.fid for h in d.hops] + list(d.extra_fids)


def assign_draft_splits(s: BuildState) -> list[str]:
    """Train / dev / test per draft, by gold chain (no test question shares its ``S*`` with a train question)."""
    by_cell = Counter((d.operator, complexity_of(d.n_hops)) for d, _, _ in s.drafts)
    cxs = COMPLEXITIES[: min(s.cfg.max_hops, 3)]
    s.stratified_fine = all(by_cell[(op, cx)] >= 10 for op in s.cfg.operators for cx in cxs)

    def stratum(x: Drafted) -> Any:
        cx = complexity_of(x[0].n_hops)
        return (cx, x[0].operator) if s.stratified_fine else cx

    def group(x: Drafted) -> Any:
        return tuple(sorted({s.fact_key(f) for f in gold_fids(x[0])}, key=repr))

    return assign_splits(s.drafts, strata=stratum, group=group, seed=s.cfg.seed, ratios=s.cfg.split_ratios)


def logical_form(s: BuildState, d: Draft, t_iso: str) -> dict[str, Any]:
    """The logical form a question records (its operator, path, times and references)."""
    idx = s.idx
    return {
        "operator": d.operator,
        "variant": d.variant,
        "anchor": idx.ent_names[d.anchor],
        "path": [path_step(s, d, i) for i in range(len(d.hops))],
        "t_query": t_iso,
        "static_prefix": d.static_prefix,
        "reference_fact": s.facts[d.ref_fid].id if d.ref_fid >= 0 else None,
        "offset": d.offset,
        "final_other": idx.ent_names[d.hops[-1].dst] if REGISTRY[d.operator].names_final_entity else None,
    }


def path_step(s: BuildState, d: Draft, i: int) -> dict[str, str]:
    """Hop ``i`` of the logical form: relation, direction and, for a pinned bridge, the time its words state."""
    h = d.hops[i]
    step = {"r": s.idx.rel_names[h.rel], "dir": "fwd" if h.forward else "inv"}
    pin = d.pins[i] if i < len(d.pins) else None
    if pin is not None:
        step["at"] = TimePoint.from_unit(pin, s.granularity).isoformat()
    return step


def make_question(s: BuildState, qid: str, x: Drafted, split: str) -> tuple[Question, FunctionalFlags]:
    """One question with its negatives and functional flags."""
    d, tid, text = x
    op = REGISTRY[d.operator]
    gold = gold_fids(d)
    dist, stale = select_negatives(s.idx, gold, d.t, s.cfg.max_negatives)
    fd, fs = functional_flags(s.idx, gold, dist, stale, d.t)
    t_iso = TimePoint.from_unit(d.t, s.granularity).isoformat()
    question = Question(
        id=qid,
        split=split,
        question=text,
        t_query=t_iso,
        S_star=tuple(s.triple(f) for f in gold),
        S_dist=tuple(s.triple(f) for f in dist),
        S_stale=tuple(s.triple(f) for f in stale),
        S_anchor=(s.triple(d.ref_fid),) if d.ref_fid >= 0 else (),
        source="kg",
        operator=d.operator,
        hops=d.n_hops,
        answers=tuple(s.answer_strings(d)),
        answer_ids=tuple(s.answer_ids(d, t_iso)),
        answer_type=d.kind.answer_type,
        cardinality="multiple" if len(d.answers) > 1 else "unique",
        template_id=tid,
        render_time=op.render_time,
        granularity=str(s.granularity),
        as_of=s.cfg.as_of_point.isoformat(),
        time_refs=tuple(op.time_refs(d, s.facts, t_iso)),
        logical_form=logical_form(s, d, t_iso),
        assumes_complete=d.assumes_complete,
        outdated_answers=tuple(answer_label(s.renderer, d, e) for e in d.outdated),
    )
    names = accepted_names(question, s.table.goes_by)  # the gold's other names, where they answer this question
    if names:
        question = replace(question, answer_names=names)
    return question, FunctionalFlags(qid, fd, fs)


def assemble_questions(s: BuildState) -> None:
    """The kept drafts as questions, in cell order: splits, negatives, flags, time references, logical forms."""
    s.drafts = [x for c in s.cells for x in c.drafts]
    made = [
        make_question(s, f"{s.graph.name}-{i:06d}", x, split)
        for i, (x, split) in enumerate(zip(s.drafts, assign_draft_splits(s), strict=True))
    ]
    s.questions = [q for q, _ in made]
    s.flags = [f for _, f in made]


# -- audit -----------------------------------------------------------------------------------------------


def audit(s: BuildState) -> None:
    """Re-check every question: no answer in its text, and its operator's gold rule (independent of the drafting)."""
    gold = GoldFacts(s.facts, s.is_event, s.cfg.as_of_point, s.open_end)
    n_leak = n_invalid = 0
    examples: list[str] = []
    for q, (d, _, _) in zip(s.questions, s.drafts, strict=True):
        if q.answer_type != "yes_no" and leaks(q.question, q.answers, q.answer_type == "time"):
            n_leak += 1
            examples.append(f"{q.id}: leak")
        why = REGISTRY[q.operator].gold_rule(gold, q, gold_fids(d))
        if why is not None:
            n_invalid += 1
            examples.append(f"{q.id}: {why}")
    s.audit_result = {"leaks": n_leak, "invalid_gold": n_invalid, "examples": examples}
    if n_leak or n_invalid:
        raise ChronoqaError(
            f"build audit failed: {n_leak} question(s) contain their answer, {n_invalid} fail their operator's "
            f"gold rule (first: {examples[:3]})"
        )


# -- make_manifest ---------------------------------------------------------------------------------------


def _cell_info(c: Cell, census: dict[str, Any] | None) -> dict[str, Any]:
    info = {
        "quota": c.quota,
        "initial_quota": c.initial_quota,
        "made": len(c.drafts),
        "attempts": c.attempts,
        "exhausted": c.exhausted,
        "rejected": dict(sorted(c.rejected.items())),
    }
    return info if census is None else info | {"census": census}


def _censuses(s: BuildState) -> dict[str, dict[str, Any] | None]:
    """Cell name -> the census of a thin multi-hop cell (:mod:`chronoqa.generate.kg.census`), made once per kind."""
    made: dict[tuple[str, int], dict[str, Any] | None] = {}
    out: dict[str, dict[str, Any] | None] = {}
    for c in s.cells:
        over = REGISTRY[c.operator].census  # the chains its census counts, shared by the operators that declare them
        if c.hops < 2 or len(c.drafts) >= THIN or over is None:
            out[c.name] = None
            continue
        if (over, c.hops) not in made:
            made[(over, c.hops)] = cell_census(s.ctx, s.renderer, c.operator, c.hops)
        out[c.name] = made[(over, c.hops)]
    return out


def _cell_quality(s: BuildState, c: Cell) -> dict[str, Any]:
    ds = [x[0] for x in c.drafts]
    tf = [d.time_free for d in ds if d.time_free >= 0]
    top = Counter(a for d in ds if d.kind.is_entity for a in d.answers).most_common(1)
    return {
        "questions": len(ds),
        "time_free_multi_share": round(sum(1 for x in tf if x > 1) / len(tf), 4) if tf else None,
        "top_answer": s.label(s.idx.ent_names[top[0][0]]) if top else None,
        "top_answer_share": round(top[0][1] / len(ds), 4) if top else None,
        "assumes_complete": sum(1 for d in ds if d.assumes_complete),
    }


def _non_year(idx: GraphIndex) -> np.ndarray:
    non_year = idx.not_year_mask
    assert non_year is not None  # set by GraphIndex.__post_init__
    return non_year


def _counts(s: BuildState) -> dict[str, Any]:
    """The KG builder's entries of ``counts`` (beside the header's questions, corpus_docs and splits)."""
    non_year = _non_year(s.idx)
    by_cell = Counter((q.operator, q.complexity) for q in s.questions)
    return {
        "graph_facts": len(s.graph.facts),
        "expanded_facts": len(s.facts) if s.cfg.expand_years else None,
        "reversed_facts_ignored": int((s.idx.reversed_mask & ~non_year).sum()),
        "implausible_facts": len(s.implausible_pos),
        "non_year_facts_ignored": int(non_year.sum()),
        "composition": {op: {cx: by_cell[(op, cx)] for cx in COMPLEXITIES} for op in REGISTRY if op in s.cfg.operators},
        "by_template": dict(sorted(Counter(q.template_id for q in s.questions).items())),
        "multi_answer": sum(1 for q in s.questions if q.cardinality == "multiple"),
    }


def _world_sections(s: BuildState) -> dict[str, Any]:
    """The readings and declarations of the build: phrases, open end, non-years, cardinality, implausible dates."""
    codes = s.implausible_code[s.implausible_pos]
    by_reason = dict(zip(REASONS, np.bincount(codes, minlength=len(REASONS)).tolist(), strict=True))
    return {
        "sampling": ORDER_RULE,
        "phrases": {"source": s.table.source, "generic_fallback": s.fallback},
        "open_end": {"reading": s.open_end, "declared_by": s.open_end_by},
        "not_years": {"years": s.not_years, "declared_by": s.not_years_by, "facts": int(_non_year(s.idx).sum())},
        "cardinality": s.card_record,
        "symmetric": s.symmetric,
        "implausible_dates": {"by_reason": {r: by_reason[r] for r in REASONS}, "file": IMPLAUSIBLE_FILE},
        "entity_labels": {
            "from_graph": len(s.graph.entity_labels),
            "extra": len(s.extra_labels),
            "entities": len(s.idx.ent_names),
        },
    }


def _rates(flags: Sequence[FunctionalFlags]) -> dict[str, float]:
    n = len(flags)
    return {
        "dist_functional": round(sum(f.dist_functional for f in flags) / n, 4) if n else 0.0,
        "stale_functional": round(sum(f.stale_functional for f in flags) / n, 4) if n else 0.0,
    }


def make_manifest(s: BuildState) -> None:
    """The release manifest: the shared header (:func:`~chronoqa.generate.result.manifest_header`), KG sections."""
    manifest = manifest_header(
        builder="kg",
        dataset=s.graph.name,
        seed=s.cfg.seed,
        config=s.cfg.to_dict(),
        sources=s.sources,
        questions=s.questions,
        corpus_docs=len(s.facts),
        load_report=s.graph.report.to_dict() if s.graph.report is not None else None,
    )
    manifest["counts"] |= _counts(s)
    manifest |= _world_sections(s)
    census = _censuses(s)
    manifest |= {
        "quality": {
            "per_cell": {c.name: _cell_quality(s, c) for c in s.cells},
            "assumes_complete": sum(1 for q in s.questions if q.assumes_complete),
            "time_free_cap": TIME_FREE_CAP,
        },
        "functional_rates": _rates(s.flags),
        "audit": {"leaks": s.audit_result["leaks"], "invalid_gold": s.audit_result["invalid_gold"]},
        "cells": {c.name: _cell_info(c, census[c.name]) for c in s.cells},
        "coverage": coverage_account(s.cells, census),
        "splits_stratified_by": "complexity x operator" if s.stratified_fine else "complexity",
    }
    s.manifest = manifest
