"""``build_kg_benchmark``: a TempBench-style release from any temporal knowledge graph.

Pipeline: resolve phrases → (per-year expansion) → index → fill the operator × hop cells with
verified drafts (seeded, deduplicated, leak-checked) → words → negatives and flags → splits →
audit → manifest and data card. Nothing here reads the wall clock; the same graph, config and seed
give byte-identical release folders.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from chronoqa.artifacts.release import IMPLAUSIBLE_FILE, FunctionalFlags
from chronoqa.errors import ChronoqaError
from chronoqa.generate.kg.config import OPERATORS, KGBuildConfig
from chronoqa.generate.kg.corpus import ColumnarCorpus, corpus_columns, fact_triple, iter_corpus
from chronoqa.generate.kg.datacard import render_datacard
from chronoqa.generate.kg.index import NEG, DocIds, GraphIndex, certain_interval, expand_years
from chronoqa.generate.kg.negatives import functional_flags, select_negatives
from chronoqa.generate.kg.operators import (
    GENERATORS,
    TIME_FREE_CAP,
    Draft,
    GenContext,
    build_chain_pool,
    build_static_into,
    static_depths,
)
from chronoqa.generate.kg.order import ORDER_RULE, canonical_facts
from chronoqa.generate.kg.phrases import (
    DEFAULT_PHRASE_TABLES,
    MissingPhrasesError,
    PhraseTable,
    RelationPhrases,
    load_phrase_table,
)
from chronoqa.generate.kg.plausible import REASONS
from chronoqa.generate.kg.sql import (
    build_index,
    engine_session,
    find_candidates,
    group_stats_by_sql,
    implausible_dates,
    overlap_keys_by_sql,
)
from chronoqa.generate.kg.templates import Renderer, garbled, render, short_label
from chronoqa.generate.result import BuildResult
from chronoqa.generate.splits import assign_splits
from chronoqa.records import COMPLEXITIES, Doc, Fact, FactColumns, Question, TemporalGraph, Triple, complexity_of
from chronoqa.sources.labels import is_raw_id
from chronoqa.time import TimePoint, render_year, valid_at

__all__ = [
    "MAX_NESTING",
    "KGBuild",
    "build_kg_benchmark",
    "graph_relations",
    "leaks",
    "resolve_cardinality",
    "resolve_not_years",
    "resolve_open_end",
    "resolve_phrases",
]

MAX_NESTING = 2  # noun phrases nest at most this deep ("the team the spouse of X played for")
FILL_CHUNK = 25  # cells are filled round robin, this many questions at a time

ProgressFn = Callable[[int, int], None]


#: The KG builder's name for the result every builder returns.
KGBuild = BuildResult


def resolve_phrases(
    graph: TemporalGraph, phrases: PhraseTable | str | Path | None, *, generic: bool
) -> tuple[dict[str, RelationPhrases], list[str], str]:
    """Phrases for every relation of the graph: ``(relation id → phrases, generic-fallback ids, table source)``.

    With ``phrases=None`` the shipped table named like the graph is used, else the first shipped table
    that covers every relation.
    """
    out, fb, table = _resolve_table(graph, phrases, generic=generic)
    return out, fb, table.source


def _resolve_table(
    graph: TemporalGraph, phrases: PhraseTable | str | Path | None, *, generic: bool
) -> tuple[dict[str, RelationPhrases], list[str], PhraseTable]:
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


@dataclass
class _Cell:
    operator: str
    hops: int
    weight: float
    quota: int = 0
    budget: int = 0
    attempts: int = 0
    drafts: list[tuple[Draft, str, str]] = field(default_factory=list)  # draft, template id, text
    rejected: Counter[str] = field(default_factory=Counter)
    gave_up: bool = False
    last_success: int = 0
    initial_quota: int = 0

    @property
    def exhausted(self) -> bool:
        return self.gave_up or (self.attempts >= self.budget and len(self.drafts) < self.quota)

    @property
    def name(self) -> str:
        return f"{self.operator}/{self.hops}"


def _quotas(weights: Sequence[float], total: int) -> list[int]:
    s = sum(weights)
    if s <= 0 or total <= 0:
        return [0] * len(weights)
    raw = [w / s * total for w in weights]
    base = [int(x) for x in raw]
    rest = total - sum(base)
    order = sorted(range(len(raw)), key=lambda i: (-(raw[i] - base[i]), i))
    for i in order[:rest]:
        base[i] += 1
    return base


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


def _logical_key(d: Draft) -> tuple[Any, ...]:
    return (d.operator, d.variant, d.anchor, tuple((h.rel, h.forward) for h in d.hops), d.t, d.ref_fid, d.hops[-1].dst)


def build_kg_benchmark(
    graph: TemporalGraph,
    config: KGBuildConfig | None = None,
    *,
    phrases: PhraseTable | str | Path | None = None,
    entity_labels: Mapping[str, str] | None = None,
    sources: Mapping[str, Any] | None = None,
    progress: ProgressFn | None = None,
) -> KGBuild:
    """Build a KG benchmark from ``graph``.

    Args:
        graph: The temporal KG (any loader). Its facts are put in canonical order first
            (:func:`~chronoqa.generate.kg.order.canonical_facts`): a copy of the columns, unless the caller
            passed ``canonical_graph(graph, config.seed)`` (then used as they are; a caller that drops its
            own graph holds one copy of the facts, not two; same release bytes).
        config: Build configuration (defaults: 10,000 questions, year granularity, seed 0).
        phrases: A phrase table, a TOML path or a shipped table name; ``None`` picks the shipped one.
        entity_labels: Extra entity labels (id → label), overriding the graph's (e.g. Wikidata Q-id labels).
        sources: Provenance for the manifest (e.g. file checksums of the input).
        progress: Called as ``progress(done, total)`` while questions are generated.

    Returns:
        The :class:`KGBuild`; call ``.write(out_dir)`` to write the release folder.

    Raises:
        MissingPhrasesError: A relation of the graph has no phrases (and ``generic_phrases`` is off).
        ChronoqaError: The build-time audit found a leaking or invalid question.

    """
    cfg = config or KGBuildConfig()
    g = cfg.granularity_enum
    as_of = cfg.as_of_point
    phr, fallback, phr_table = _resolve_table(graph, phrases, generic=cfg.generic_phrases)
    phr_source = phr_table.source
    open_end, open_end_by = resolve_open_end(cfg, phr_table)
    # content order before anything else: interning, seeds, draws, splits and corpus never follow input order
    # (free for a graph its caller ordered with canonical_graph)
    graph_facts = canonical_facts(FactColumns.from_facts(graph.facts), cfg.seed)
    not_years, not_years_by = resolve_not_years(
        cfg, phr_table, [(r, graph.relation_label(r)) for r in graph_relations(graph_facts)]
    )
    bad_years = {r: frozenset(ys) for r, ys in not_years.items()}
    is_event = {rid: p.is_event for rid, p in phr.items()}
    extra_labels = dict(entity_labels or {})

    def label(e: str) -> str:
        return extra_labels.get(e) or graph.entity_label(e)

    if cfg.expand_years:
        facts, doc_ids = expand_years(graph_facts, is_event, as_of, bad_years)
    else:
        facts, doc_ids = graph_facts, DocIds(graph_facts.ids)
    symmetric = sorted(rid for rid, p in phr.items() if p.symmetric)
    t_max = as_of.lo(g) - 1
    with engine_session(cfg.engine) as engine:  # one Spark session for every SQL run of the build
        idx = build_index(engine, facts, is_event, g, as_of, open_end, bad_years, symmetric=symmetric)
        implausible_code = implausible_dates(
            engine, facts, phr, idx.ignored_mask, as_of, open_end, phr_table.default_max_years
        )  # fmt: skip
        if any(None in (p.objects_at_once, p.subjects_at_once) for p in phr.values()):
            idx.use_group_stats(group_stats_by_sql(engine, idx))  # what infer_one reads
        cardinality, card_record = resolve_cardinality(phr, idx)
        idx.rel_one = [cardinality.get(name, (True, True)) for name in idx.rel_names]
        implausible_pos = np.flatnonzero(implausible_code >= 0)
        idx.mark_implausible(implausible_pos)
        # the groups one_at reads, once the implausible facts lost their certain span
        idx.use_overlap_keys(overlap_keys_by_sql(engine, idx))
        cands = find_candidates(engine, idx, t_max)  # seeds, multi seeds, timed facts, multi groups
    raw = _unreadable(idx.ent_names, label)
    if raw and not cfg.allow_ids:
        shown = ", ".join(raw[:20]) + (f" and {len(raw) - 20:,} more" if len(raw) > 20 else "")
        raise ChronoqaError(
            f"{len(raw):,} entit{'y has' if len(raw) == 1 else 'ies have'} no readable label (their raw id would "
            f"appear in questions and the corpus): {shown}. Give labels (--labels FILE with id<TAB>label lines; "
            "Wikidata12k's entity2name.txt is read by default for --dataset wikidata12k), or pass --allow-ids "
            "(KGBuildConfig(allow_ids=True)) to build with the ids."
        )
    pool = static_into = None
    if len(facts) <= cfg.exhaustive_max_facts and cfg.max_hops >= 2:
        static_into = build_static_into(idx)
        if not cfg.keep_multi_answer:
            pool = build_chain_pool(idx, NEG + 1, t_max, range(1, cfg.max_hops + 1))
            # 1-hop chains whose time can matter: the (anchor, relation) group has several values over time
            first = [c[0][0] for c in pool[1]]
            several = cands.several_values(
                np.array([h.src for h in first], dtype=np.int64), np.array([h.rel for h in first], dtype=np.int64),
                np.array([h.forward for h in first], dtype=bool),
            )  # fmt: skip
            pool[1] = [c for c, keep in zip(pool[1], several.tolist(), strict=True) if keep]
    depths = static_depths(static_into, cfg.max_hops - 1) if static_into is not None else None
    ctx = GenContext(
        idx, NEG + 1, t_max, cfg.keep_multi_answer, cands.seeds, cands.timed, pool, static_into, depths,
        cands.seeds_multi,
    )  # fmt: skip
    rd = Renderer(idx, phr, label, g)

    # -- cells and quotas ----------------------------------------------------------------------
    op_w = dict(cfg.operator_weights)
    cells: list[_Cell] = []
    for op in OPERATORS:
        if op not in cfg.operators:
            continue
        for k in range(1, cfg.max_hops + 1):
            hw = cfg.hop_weights[min(k, 3) - 1] / (1 if k < 3 else cfg.max_hops - 2)
            cells.append(_Cell(op, k, op_w.get(op, 0.0) * hw))
    for c, q in zip(cells, _quotas([c.weight for c in cells], cfg.n_questions), strict=True):
        c.quota = c.initial_quota = q
        c.budget = q * cfg.attempts_per_question
    rngs = {c.name: random.Random(f"{cfg.seed}|{c.operator}|{c.hops}") for c in cells}
    seen_keys: set[tuple[Any, ...]] = set()
    seen_text: set[str] = set()
    seen_gold: set[tuple[Any, ...]] = set()
    answer_counts: dict[str, Counter[int]] = {c.name: Counter() for c in cells}
    done = 0

    canonical_of: dict[int, tuple[Any, ...]] = {}  # a draft's facts come back often: made once each

    def canonical(fid: int) -> tuple[Any, ...]:
        key = canonical_of.get(fid)
        if key is None:
            f = facts[fid]
            s, o = (min(f.s, f.o), max(f.s, f.o)) if f.r in symmetric else (f.s, f.o)
            key = canonical_of[fid] = (s, f.r, o, f.start, f.end)
        return key

    def gold_key(d: Draft) -> tuple[Any, ...]:
        chain = tuple(sorted({canonical(h.fid) for h in d.hops} | {canonical(x) for x in d.extra_fids}, key=repr))
        return (chain, d.answer_is_time, tuple(sorted(d.answers)))

    def answer_cap(cell: _Cell) -> int:
        return max(1, int(cfg.max_answer_share * max(cell.initial_quota, cell.quota)))

    def fill_all(todo: Sequence[_Cell]) -> None:
        # round robin in chunks: cells that compete for the same chains (a 1-hop chain can be one
        # point-in-time or one before/after question, never both) share them in proportion
        while True:
            busy = [c for c in todo if len(c.drafts) < c.quota and not c.exhausted]
            if not busy:
                return
            for c in busy:
                fill(c, len(c.drafts) + FILL_CHUNK)

    def fill(cell: _Cell, target: int) -> None:
        nonlocal done
        rng = rngs[cell.name]
        gen = GENERATORS[cell.operator]
        while len(cell.drafts) < min(cell.quota, target) and cell.attempts < cell.budget:
            if cell.attempts - cell.last_success >= cfg.stall_attempts:
                cell.gave_up = True
                break
            cell.attempts += 1
            d = gen(ctx, rng, cell.hops)
            if d is None:
                cell.rejected["no unique chain"] += 1
                continue
            key = _logical_key(d)
            if key in seen_keys:
                cell.rejected["duplicate logical form"] += 1
                continue
            gk = gold_key(d)
            if gk in seen_gold:
                cell.rejected["duplicate gold chain and answer"] += 1
                continue
            if max(len(d.hops) - 1, 0) > MAX_NESTING:
                cell.rejected["noun phrase nested too deep"] += 1
                continue
            if not d.answer_is_time and any(answer_counts[cell.name][a] >= answer_cap(cell) for a in d.answers):
                cell.rejected["answer-prior cap"] += 1
                continue
            tid, text = render(rd, d, rng)
            answers = _answer_strings(d, idx, label, g)
            if leaks(text, answers + [short_label(a) for a in answers], d.answer_is_time):
                cell.rejected["answer in text"] += 1
                continue
            if garbled(text):
                cell.rejected["garbled text"] += 1
                continue
            norm = text.casefold()
            if norm in seen_text:
                cell.rejected["duplicate text"] += 1
                continue
            seen_keys.add(key)
            seen_gold.add(gk)
            seen_text.add(norm)
            if not d.answer_is_time:
                answer_counts[cell.name].update(d.answers)
            cell.drafts.append((d, tid, text))
            cell.last_success = cell.attempts
            done += 1
            if progress is not None:
                progress(done, cfg.n_questions)

    fill_all(cells)
    for _ in range(6):  # give the quota of exhausted cells to the others
        deficit = sum(c.quota - len(c.drafts) for c in cells if c.exhausted)
        open_cells = [c for c in cells if not c.exhausted and c.weight > 0]
        if deficit <= 0 or not open_cells:
            break
        for c in cells:
            if c.exhausted:
                c.gave_up = True
                c.quota = len(c.drafts)
        grown = False
        for c, extra in zip(open_cells, _quotas([c.weight for c in open_cells], deficit), strict=True):
            extra = min(extra, max(int(cfg.max_quota_growth * c.initial_quota) - c.quota, 0))
            grown = grown or extra > 0
            c.quota += extra
            c.budget += extra * cfg.attempts_per_question
        if not grown:
            break
        fill_all(open_cells)
    for c in cells:  # the answer-prior cap, on the cell's final size
        while True:
            cap = max(1, int(cfg.max_answer_share * len(c.drafts)))
            seen_answers: Counter[int] = Counter()
            kept = []
            for x in c.drafts:
                d = x[0]
                if not d.answer_is_time and any(seen_answers[a] >= cap for a in d.answers):
                    continue
                if not d.answer_is_time:
                    seen_answers.update(d.answers)
                kept.append(x)
            if len(kept) == len(c.drafts):
                break
            c.rejected["answer-prior cap"] += len(c.drafts) - len(kept)
            c.drafts = kept

    # -- questions -------------------------------------------------------------------------------
    drafts = [x for c in cells for x in c.drafts]
    triples: dict[int, Triple] = {}

    def triple(fid: int) -> Triple:
        t = triples.get(fid)
        if t is None:
            t = triples[fid] = fact_triple(facts[fid], doc_ids[fid], label, graph.relation_label)
        return t

    by_cell = Counter((d.operator, complexity_of(d.n_hops)) for d, _, _ in drafts)
    fine = all(by_cell[(op, cx)] >= 10 for op in cfg.operators for cx in COMPLEXITIES[: min(cfg.max_hops, 3)])

    def stratum(x: tuple[Draft, str, str]) -> Any:
        cx = complexity_of(x[0].n_hops)
        return (cx, x[0].operator) if fine else cx

    def group(x: tuple[Draft, str, str]) -> Any:
        # by gold chain: no test question shares its S* with a train question
        d = x[0]
        return tuple(sorted({canonical(h.fid) for h in d.hops} | {canonical(f) for f in d.extra_fids}, key=repr))

    splits = assign_splits(drafts, strata=stratum, group=group, seed=cfg.seed, ratios=cfg.split_ratios)
    questions: list[Question] = []
    flags: list[FunctionalFlags] = []
    for i, ((d, tid, text), split) in enumerate(zip(drafts, splits, strict=True)):
        qid = f"{graph.name}-{i:06d}"
        gold = [h.fid for h in d.hops] + list(d.extra_fids)
        dist, stale = select_negatives(idx, gold, d.t, cfg.max_negatives)
        fd, fs = functional_flags(idx, gold, dist, stale, d.t)
        t_iso = TimePoint.from_unit(d.t, g).isoformat()
        answers = _answer_strings(d, idx, label, g)
        answer_ids = [t_iso] if d.answer_is_time else [idx.ent_names[a] for a in d.answers]
        time_refs: list[dict[str, str]] = []
        if d.ref_fid >= 0:
            ref = facts[d.ref_fid]
            which, tp = ("end", ref.end) if d.variant == "next" and ref.end is not None else ("start", ref.start)
            if tp is not None:
                time_refs.append({"which": which, "value": tp.isoformat(), "of": "anchor"})
        if d.operator in ("interval", "sequence"):
            time_refs.append({"which": "end" if d.variant == "end" else "start", "value": t_iso, "of": "answer"})
        lf = {
            "operator": d.operator,
            "variant": d.variant,
            "anchor": idx.ent_names[d.anchor],
            "path": [{"r": idx.rel_names[h.rel], "dir": "fwd" if h.forward else "inv"} for h in d.hops],
            "t_query": t_iso,
            "static_prefix": d.static_prefix,
            "reference_fact": facts[d.ref_fid].id if d.ref_fid >= 0 else None,
            "offset": d.offset,
            "final_other": idx.ent_names[d.hops[-1].dst] if d.operator == "interval" else None,
        }
        questions.append(
            Question(
                id=qid,
                split=split,
                question=text,
                t_query=t_iso,
                S_star=tuple(triple(f) for f in gold),
                S_dist=tuple(triple(f) for f in dist),
                S_stale=tuple(triple(f) for f in stale),
                S_anchor=(triple(d.ref_fid),) if d.ref_fid >= 0 else (),
                source="kg",
                operator=d.operator,
                hops=d.n_hops,
                answers=tuple(answers),
                answer_ids=tuple(answer_ids),
                answer_type="time" if d.answer_is_time else "entity",
                cardinality="multiple" if len(d.answers) > 1 else "unique",
                template_id=tid,
                render_time=d.operator == "point_in_time",
                granularity=str(g),
                as_of=as_of.isoformat(),
                time_refs=tuple(time_refs),
                logical_form=lf,
                assumes_complete=d.assumes_complete,
            )
        )
        flags.append(FunctionalFlags(qid, fd, fs))

    audit = _audit(
        questions, [[h.fid for h in d.hops] + list(d.extra_fids) for d, _, _ in drafts], facts, is_event, as_of,
        open_end,
    )  # fmt: skip
    if audit["leaks"] or audit["invalid_gold"]:
        raise ChronoqaError(
            f"build audit failed: {audit['leaks']} question(s) contain their answer, {audit['invalid_gold']} "
            f"have an S* fact not valid at t_query (first: {audit['examples'][:3]})"
        )

    # -- manifest and data card --------------------------------------------------------------------
    n = len(questions)
    rates = {
        "dist_functional": round(sum(f.dist_functional for f in flags) / n, 4) if n else 0.0,
        "stale_functional": round(sum(f.stale_functional for f in flags) / n, 4) if n else 0.0,
    }
    composition = {op: {cx: by_cell[(op, cx)] for cx in COMPLEXITIES} for op in OPERATORS if op in cfg.operators}
    split_counts = {s: sum(1 for q in questions if q.split == s) for s in ("train", "dev", "test")}
    cell_info = {
        c.name: {
            "quota": c.quota,
            "initial_quota": c.initial_quota,
            "made": len(c.drafts),
            "attempts": c.attempts,
            "exhausted": c.exhausted,
            "rejected": dict(sorted(c.rejected.items())),
        }
        for c in cells
    }
    non_year = idx.not_year_mask
    assert non_year is not None  # set by GraphIndex.__post_init__
    n_non_year = int(non_year.sum())
    reason_counts = np.bincount(implausible_code[implausible_pos], minlength=len(REASONS)).tolist()
    by_reason = dict(zip(REASONS, reason_counts, strict=True))
    cell_quality: dict[str, dict[str, Any]] = {}
    for c in cells:
        ds = [x[0] for x in c.drafts]
        tf = [d.time_free for d in ds if d.time_free >= 0]
        ent_answers = Counter(a for d in ds if not d.answer_is_time for a in d.answers)
        top = ent_answers.most_common(1)
        cell_quality[c.name] = {
            "questions": len(ds),
            "time_free_multi_share": round(sum(1 for x in tf if x > 1) / len(tf), 4) if tf else None,
            "top_answer": label(idx.ent_names[top[0][0]]) if top else None,
            "top_answer_share": round(top[0][1] / len(ds), 4) if top else None,
            "assumes_complete": sum(1 for d in ds if d.assumes_complete),
        }
    from chronoqa import __version__

    manifest: dict[str, Any] = {
        "toolkit": "chronoqa",
        "version": __version__,
        "builder": "kg",
        "dataset": graph.name,
        "seed": cfg.seed,
        "sampling": ORDER_RULE,
        "config": cfg.to_dict(),
        "sources": dict(sources or {}),
        "phrases": {"source": phr_source, "generic_fallback": fallback},
        "open_end": {"reading": open_end, "declared_by": open_end_by},
        "not_years": {"years": not_years, "declared_by": not_years_by, "facts": n_non_year},
        "cardinality": card_record,
        "symmetric": symmetric,
        "implausible_dates": {"by_reason": {r: by_reason[r] for r in REASONS}, "file": IMPLAUSIBLE_FILE},
        "quality": {
            "per_cell": cell_quality,
            "assumes_complete": sum(1 for q in questions if q.assumes_complete),
            "time_free_cap": TIME_FREE_CAP,
        },
        "entity_labels": {
            "from_graph": len(graph.entity_labels),
            "extra": len(extra_labels),
            "entities": len(idx.ent_names),
        },
        "counts": {
            "questions": n,
            "corpus_docs": len(facts),
            "graph_facts": len(graph.facts),
            "expanded_facts": len(facts) if cfg.expand_years else None,
            "reversed_facts_ignored": int((idx.reversed_mask & ~non_year).sum()),
            "implausible_facts": len(implausible_pos),
            "non_year_facts_ignored": n_non_year,
            "composition": composition,
            "splits": split_counts,
            "by_template": dict(sorted(Counter(q.template_id for q in questions).items())),
            "multi_answer": sum(1 for q in questions if q.cardinality == "multiple"),
        },
        "functional_rates": rates,
        "audit": {"leaks": audit["leaks"], "invalid_gold": audit["invalid_gold"]},
        "cells": cell_info,
        "splits_stratified_by": "complexity x operator" if fine else "complexity",
        "load_report": graph.report.to_dict() if graph.report is not None else None,
    }
    datacard = render_datacard(manifest, questions)

    def corpus() -> Iterator[Doc]:
        return iter_corpus(facts, doc_ids, phr, label, graph.relation_label, as_of, open_end, bad_years)

    def batches() -> ColumnarCorpus:
        return corpus_columns(facts, doc_ids, phr, label, graph.relation_label, as_of, open_end, bad_years)

    listed = [
        {"fact": fact, "doc": doc_ids[i], "reason": REASONS[c]}
        for i, fact, c in zip(
            implausible_pos.tolist(),
            facts.ids[implausible_pos].tolist(),
            implausible_code[implausible_pos].tolist(),
            strict=True,
        )
    ]
    stats = {"cells": cell_info, "engine": cfg.engine}  # the engine is not in the manifest: same bytes for all
    return KGBuild(
        questions, flags, corpus, manifest, datacard, stats, implausible=listed, corpus_batches=batches
    )  # fmt: skip


def graph_relations(facts: Sequence[Fact]) -> list[str]:
    """The relation ids the facts use, sorted (on columns: from the codes, without making a :class:`Fact`)."""
    if isinstance(facts, FactColumns):
        used = np.flatnonzero(np.bincount(facts.r, minlength=len(facts.relations)))
        return sorted(facts.relations[c] for c in used.tolist())
    return sorted({f.r for f in facts})


# ASCII characters that no raw id (see chronoqa.sources.labels.is_raw_id) holds once stripped
_NOT_IN_RAW_IDS = "[" + "".join(
    f"\\x{{{c:02x}}}" for c in range(128) if not (chr(c) in "QP/_" or chr(c).isdigit() or chr(c).islower()
                                                  or chr(c).isspace())
) + "]"  # fmt: skip


def _unreadable(entities: Sequence[str], label: Callable[[str], str]) -> list[str]:
    """The entities whose label is a raw id or blank, sorted; Arrow rules out most labels, ``is_raw_id`` decides."""
    import pyarrow as pa
    import pyarrow.compute as pc

    labels = [label(e) for e in entities]
    if not labels:
        return []
    maybe = np.flatnonzero(~pc.match_substring_regex(pa.array(labels, pa.string()), _NOT_IN_RAW_IDS).to_numpy(False))
    return sorted(entities[i] for i in maybe.tolist() if is_raw_id(labels[i]) or not labels[i].strip())


def _answer_strings(d: Draft, idx: GraphIndex, label: Callable[[str], str], g: Any) -> list[str]:
    if d.answer_is_time:
        return [TimePoint.from_unit(d.answers[0], g).isoformat()]
    return [label(idx.ent_names[a]) for a in d.answers]


def _audit(
    questions: Sequence[Question],
    gold: Sequence[Sequence[int]],
    facts: Sequence[Fact],
    is_event: Mapping[str, bool],
    as_of: TimePoint,
    open_end: str,
) -> dict[str, Any]:
    """Leak audit and S* validity re-check with :func:`chronoqa.time.valid_at` (mode ``certain``)."""
    n_leak = n_invalid = 0
    examples: list[str] = []
    for q, positions in zip(questions, gold, strict=True):
        if leaks(q.question, q.answers, q.answer_type == "time"):
            n_leak += 1
            examples.append(f"{q.id}: leak")
        tq = q.t_query_point
        assert tq is not None
        for pos, t in zip(positions, q.S_star, strict=True):
            f = facts[pos]
            iv = certain_interval(f, is_event.get(f.r, False), open_end)
            if not valid_at(iv, tq, tq.granularity, as_of=as_of, mode="certain"):
                n_invalid += 1
                examples.append(f"{q.id}: S* fact {t.fact_id} not valid at {q.t_query}")
                break
    return {"leaks": n_leak, "invalid_gold": n_invalid, "examples": examples}
