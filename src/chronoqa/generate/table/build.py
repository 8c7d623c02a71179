"""``build_table_benchmark``: TDBench's method (TFD → temporal SQL → questions), done properly.

For each input table: detect the true granularity, load it into DuckDB (:class:`TableStore`), discover
TFDs (or take the named ones), and for each kept TFD generate Allen and time-alignment questions
(:mod:`.questions`); joins add implicit-time 2-hop and 3-hop questions (:mod:`.join_questions`). Every
row gets one canonical triple (:mod:`.triples`) shared by its corpus document (:mod:`.corpus`) and every
question naming it. The result is a :class:`~chronoqa.generate.result.BuildResult` with the schema's
manifest and a data card (:mod:`.datacard`); ``result.write(out_dir)`` writes the release.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from chronoqa.artifacts.release import FunctionalFlags
from chronoqa.errors import BadRowPolicy, ChronoqaError, UnknownNameError
from chronoqa.generate.faithful import RewordingReport
from chronoqa.generate.result import BuildResult, manifest_header
from chronoqa.generate.splits import assign_splits
from chronoqa.generate.table.config import AS_OF_DATA, TableBuildConfig, latest_date
from chronoqa.generate.table.corpus import table_corpus
from chronoqa.generate.table.datacard import answer_shares, question_counts, render_datacard
from chronoqa.generate.table.declared import declared_rows
from chronoqa.generate.table.families import event_questions, status_questions
from chronoqa.generate.table.join import JoinResult, temporal_join
from chronoqa.generate.table.join_questions import join_questions
from chronoqa.generate.table.kinds import MULTI_VALUE_RE, TableKind, column_is_multi_value, span_names, table_kind
from chronoqa.generate.table.questions import (
    SPELL_FAMILIES,
    TFDContext,
    alignment_questions,
    allen_questions,
    spell_questions,
)
from chronoqa.generate.table.sql_text import ChatLike, sql_to_text
from chronoqa.generate.table.store import GranularityReport, TableStore, detect_granularity
from chronoqa.generate.table.tfd import TFD, TFDReport, check_tfd, discover_tfds, select_tfds
from chronoqa.generate.table.triples import check_identity, primary_tfd
from chronoqa.generate.table.verbalise import (
    ROLE_COLUMNS,
    PhraseBook,
    column_label,
    paraphrase_questions,
)
from chronoqa.io import sha256_file
from chronoqa.records import Doc, Question, TemporalTable
from chronoqa.sources._common import check_reversed_policy
from chronoqa.sources.tables import read_table
from chronoqa.time import Granularity, TimePoint, parse_time

__all__ = ["TableBuild", "build_table_benchmark", "cap_none", "read_table_files"]

#: The table builder's name for the result every builder returns.
TableBuild = BuildResult


def read_table_files(
    paths: Sequence[str | Path], *, on_bad_row: BadRowPolicy = "raise", on_reversed: str | None = None
) -> tuple[list[TemporalTable], dict[str, dict[str, str]]]:
    """Read table files (each named by its file stem; a path given twice is read once) and their sources.

    ``on_reversed`` is :func:`~chronoqa.sources.tables.read_table`'s policy for a row whose end is before
    its start (``None``: as ``on_bad_row`` says).

    Returns ``(tables, sources)``, ``sources`` mapping a table name to ``{"path", "sha256"}`` for the
    manifest. Two different files with the same stem are an error (table names must differ).
    """
    tables: dict[str, TemporalTable] = {}
    sources: dict[str, dict[str, str]] = {}
    for raw in paths:
        path = Path(raw)
        name = path.stem
        if name in sources:
            if Path(sources[name]["path"]) != path:
                raise ChronoqaError(
                    f"{path} and {sources[name]['path']} would both be table {name!r}: rename one of the files"
                )
            continue
        if not path.exists():
            raise ChronoqaError(f"{path}: no such table file")
        reversed_policy = None if on_reversed is None else check_reversed_policy(on_reversed)
        tables[name] = read_table(path, name=name, on_bad_row=on_bad_row, on_reversed=reversed_policy)
        sources[name] = {"path": str(path), "sha256": sha256_file(path)}
    return list(tables.values()), sources


def cap_none(questions: Sequence[Question], max_share: float) -> tuple[list[Question], int]:
    """Keep at most ``max_share`` of ``none`` questions: ``(kept questions in order, number dropped)``.

    The kept ``none`` questions are taken round-robin over their cells (table, TFD, relation or operator),
    each cell in generation order, so every cell keeps its first ones.
    """
    nones = [i for i, q in enumerate(questions) if q.cardinality == "none"]
    others = len(questions) - len(nones)
    allowed = int(max_share * others / (1 - max_share)) if max_share < 1 else len(nones)
    if len(nones) <= allowed:
        return list(questions), 0
    cells: dict[tuple[str, str, str], list[int]] = {}
    for i in nones:
        q = questions[i]
        cells.setdefault(
            (str(q.logical_form.get("table")), str(q.logical_form.get("tfd")), q.allen or q.operator), []
        ).append(i)
    keep: set[int] = set()
    rank = 0
    while len(keep) < allowed:
        for cell in cells.values():
            if rank < len(cell) and len(keep) < allowed:
                keep.add(cell[rank])
        rank += 1
    kept = [q for i, q in enumerate(questions) if q.cardinality != "none" or i in keep]
    return kept, len(questions) - len(kept)


def _why_no_questions(
    names: Sequence[str],
    stores: Mapping[str, TableStore],
    reports: Mapping[str, Sequence[TFDReport]],
    kept: Mapping[str, Sequence[TFD]],
    cfg: TableBuildConfig,
    kinds: Mapping[str, TableKind],
) -> str:
    """One line per table saying why it gave no question, and what to try."""
    why = []
    for n in names:
        store = stores[n]
        total = len(store.table)
        if len(store.rows) == 0:
            notes = "; ".join(f"{k}: {v}" for k, v in sorted(store.notes.items()))
            why.append(f"{n}: all {total} rows were left out ({notes or 'no rows'})")
            continue
        kind = kinds.get(n)
        if kind is not None and kind.kind != "role":
            declared = {c.split(".", 1)[1]: d for c, d in cfg.delimiters.items() if c.split(".", 1)[0] == n}
            multi = [c for c in store.table.columns if column_is_multi_value(store.table, c, declared)]
            hint = (
                f"; read as lists of values (never a name or an answer): {', '.join(multi)}: if one holds names "
                f"with commas, declare --delimiter {n}.{min(multi, key=lambda c: _delimited_share(store, c))}=none"
                if multi
                else ""
            )
            why.append(
                f"{n}: {'an' if kind.kind == 'event' else 'a'} {kind.kind} table ({kind.why}) whose columns allow "
                f"no {kind.kind} question (key "
                f"{list(kind.key) or 'none'}, state {kind.state}, category {kind.category}, entity {kind.entity})"
                f"{hint}; declare another kind with --kind, or name a TFD with --tfd"
            )
            continue
        if not kept.get(n):
            changing = [r for r in reports.get(n, ()) if r.changing_keys > 0]
            if not changing:
                why.append(
                    f"{n}: no usable TFD: no column's value changes over time for any key (each key holds one "
                    "value), so there is nothing time-sensitive to ask"
                )
                continue
            best = min(changing, key=lambda r: (r.violation_rate, -r.changing_share, str(r.tfd)))
            why.append(
                f"{n}: no usable TFD: the best candidate {best.tfd} has violation rate {best.violation_rate:.2f} "
                f"(allowed {cfg.threshold}) and changes for {best.changing_keys} of {best.keys} keys (needed "
                f"{cfg.min_changing_keys} and {cfg.min_changing_share:.0%}); name one with --tfd 'X->Y' or raise "
                "--threshold"
            )
            continue
        why.append(f"{n}: TFDs {', '.join(map(str, kept[n]))} found no reference inside a key's coverage")
    return "no question could be made: " + "; ".join(why or ["no table to build questions from"])


def _delimited_share(store: TableStore, column: str) -> float:
    vals = [v for v in store.table.column(column) if v is not None]
    return sum(1 for v in vals if MULTI_VALUE_RE.search(v)) / max(1, len(vals))


def _tfd_reports(
    store: TableStore, named: Sequence[str], config: TableBuildConfig, columns: Sequence[str] | None = None
) -> tuple[list[TFDReport], list[TFDReport]]:
    """(kept reports, all candidate reports) for one table (discovered over ``columns``, default all)."""
    if named:
        reports = [check_tfd(store, TFD.parse(t, store.table.columns)) for t in named]
        return reports, reports
    candidates = discover_tfds(store, max_lhs=config.max_lhs, columns=columns)
    kept = select_tfds(
        candidates,
        threshold=config.threshold,
        min_changing_keys=config.min_changing_keys,
        min_changing_share=config.min_changing_share,
    )
    return [_with_role(r, candidates) for r in kept], candidates


def _with_role(kept: TFDReport, candidates: Sequence[TFDReport]) -> TFDReport:
    """Add a role-like column that is constant within each key (same keys), so questions can name it."""
    if any(column_label(c) in ROLE_COLUMNS for c in kept.tfd.lhs):
        return kept
    for r in candidates:
        extra = set(r.tfd.lhs) - set(kept.tfd.lhs)
        if (
            r.tfd.rhs == kept.tfd.rhs
            and set(kept.tfd.lhs) < set(r.tfd.lhs)
            and len(extra) == 1
            and column_label(next(iter(extra))) in ROLE_COLUMNS
            and r.keys == kept.keys
            and r.violations == kept.violations
        ):
            return r
    return kept


def _read_handovers(store: TableStore, tfd: TFD, config: TableBuildConfig) -> dict[str, object]:
    """Apply the declared reading of same-unit handovers along the primary TFD's key, and record it."""
    coarse = store.granularity != Granularity.DAY
    if config.handovers == "meets" and coarse:
        pairs, rows = store.read_handovers_as_meets(tfd.lhs)
        why = "a row ending in the unit where the next row of its key begins is read as meeting it"
    else:
        pairs, rows = 0, 0
        why = (
            "declared overlap: rows sharing their change unit overlap"
            if config.handovers == "overlap"
            else "day granularity: a same-day handover shares the day (overlaps)"
        )
    return {
        "reading": config.handovers if coarse else "overlap",
        "key": list(tfd.lhs),
        "pairs": pairs,
        "rows": rows,
        "why": why,
    }


def _spell_templates(book: PhraseBook, table: str) -> dict[str, str]:
    """The phrase file's ``spell_start`` / ``spell_end`` templates of ``table`` ("In which year did {Name} join?")."""
    entry = book.tables.get(table, {})
    return {f: str(entry[f]) for f in SPELL_FAMILIES if f in entry}


def _report_dict(table: TemporalTable) -> dict[str, object] | None:
    return None if table.report is None else table.report.to_dict()


def build_table_benchmark(
    tables: Sequence[TemporalTable],
    config: TableBuildConfig | None = None,
    *,
    phrases: PhraseBook | None = None,
    paraphrase: Callable[[str], str] | None = None,
    sources: Mapping[str, Mapping[str, Any]] | None = None,
    sql_client: ChatLike | None = None,
    sql_client_name: str = "",
    phrase_file: Mapping[str, str] | None = None,
) -> BuildResult:
    """Build a table benchmark from ``tables`` (see the module docstring).

    ``paraphrase``, when given, rewrites each question; a paraphrase that drops a key value or a date
    is rejected (the template text stays) and counted in the manifest. ``sql_client`` (a chat client, named
    ``sql_client_name`` in the manifest), when given, words each question from its SQL
    (:func:`~chronoqa.generate.table.sql_text.sql_to_text`), kept only where the faithfulness check passes,
    the rejection counts in the manifest's ``sql_to_text`` and the data card. ``sources`` (table name →
    path/sha256) is recorded in the manifest as is, and so is ``phrase_file`` (the phrase file ``phrases`` was
    read from: ``{"file", "sha256"}``, :func:`chronoqa.generate.rebuild.table_phrase_record`) as ``phrases``, so
    that ``chronoqa refresh`` and ``chronoqa twin`` rebuild with it. The build is the steps of :data:`STEPS`, in
    order, over one :class:`TableBuildState`.
    """
    b = TableBuildState(tables, *_resolve_config(config or TableBuildConfig(), phrases or PhraseBook(), tables))
    b.paraphrase, b.sources = paraphrase, sources
    b.sql_client, b.sql_client_name = sql_client, sql_client_name
    b.phrase_file = None if phrase_file is None else dict(phrase_file)
    for step in STEPS:
        step(b)
    assert b.result is not None
    return b.result


@dataclass
class TableBuildState:
    """The state of one table build: its inputs, then what each step of :data:`STEPS` adds."""

    tables: Sequence[TemporalTable]
    cfg: TableBuildConfig
    book: PhraseBook
    complete_by: dict[str, str]
    as_of: TimePoint
    as_of_source: str
    paraphrase: Callable[[str], str] | None = None
    sql_client: ChatLike | None = None
    sql_client_name: str = ""
    sources: Mapping[str, Mapping[str, Any]] | None = None
    phrase_file: dict[str, str] | None = None
    stores: dict[str, TableStore] = field(default_factory=dict)
    gran_reports: dict[str, GranularityReport] = field(default_factory=dict)
    to_build: list[str] = field(default_factory=list)
    con: Any = None
    questions: list[Question] = field(default_factory=list)
    kinds: dict[str, TableKind] = field(default_factory=dict)
    tfd_reports: dict[str, tuple[TFDReport, ...]] = field(default_factory=dict)
    tfd_manifest: dict[str, Any] = field(default_factory=dict)
    kept_by_table: dict[str, list[TFD]] = field(default_factory=dict)
    #: TFDs found while choosing a table's kind (kept reports, all candidates), used by its role questions
    discovered: dict[str, tuple[list[TFDReport], list[TFDReport]]] = field(default_factory=dict)
    family_candidates: dict[str, dict[str, int]] = field(default_factory=dict)
    family_notes: dict[str, dict[str, str]] = field(default_factory=dict)
    declared: dict[str, dict[str, object]] = field(default_factory=dict)
    excluded: dict[str, tuple[int, ...]] = field(default_factory=dict)
    handovers: dict[str, dict[str, object]] = field(default_factory=dict)
    joins: list[JoinResult] = field(default_factory=list)
    join_manifest: list[dict[str, Any]] = field(default_factory=list)
    none_dropped: int = 0
    para_report: RewordingReport | None = None
    sql_report: RewordingReport | None = None
    corpus: list[Doc] = field(default_factory=list)
    result: BuildResult | None = None

    @property
    def names(self) -> list[str]:
        """The input tables' names, in input order."""
        return [t.name for t in self.tables]

    @property
    def by_name(self) -> dict[str, TemporalTable]:
        """The input tables by name."""
        return {t.name: t for t in self.tables}


def _resolve_config(
    cfg: TableBuildConfig, book: PhraseBook, tables: Sequence[TemporalTable]
) -> tuple[TableBuildConfig, PhraseBook, dict[str, str], TimePoint, str]:
    """The config with what the phrase file declares (TFDs, completeness) and ``as_of`` made a date."""
    _check_rows(tables)  # an empty input is the first error: no as_of or TFD can help it
    # a phrase file may name a table's TFD ({"tables": {"dyknow_sports": {"tfd": "Name->Team"}}}): a fact of the
    # data a person knows (a player's teams), used unless the config names TFDs for that table
    from_book = {
        t.name: [str(book.tables[t.name]["tfd"])]
        for t in tables
        if "tfd" in book.tables.get(t.name, {}) and not cfg.tfds.get(t.name)
    }
    if from_book:
        cfg = replace(cfg, tfds={**cfg.tfds, **from_book})
    # completeness: declared by the config or the phrase file ({"tables": {"olympic": {"complete": "true"}}})
    complete_by = {n: "config" for n in cfg.complete} | {
        n: "phrase file" for n in sorted(book.complete_tables() - set(cfg.complete))
    }
    cfg = replace(cfg, complete=tuple(sorted(complete_by)))
    if cfg.as_of == AS_OF_DATA:
        as_of = latest_date(tables)
        return replace(cfg, as_of=as_of.isoformat()), book, complete_by, as_of, "latest date in the input tables"
    parsed = parse_time(cfg.as_of, field="as_of")
    if parsed is None:
        raise ChronoqaError(f"as_of {cfg.as_of!r} is not a date: expected e.g. 2025-01-01, or {AS_OF_DATA!r}")
    return cfg, book, complete_by, parsed, "given"


def _check_rows(tables: Sequence[TemporalTable]) -> None:
    """Raise when no input table holds a data row (a header only, or every row skipped), naming each file."""
    if any(len(t) for t in tables):
        return
    why = []
    for t in tables:
        source = t.report.source if t.report is not None else t.name
        read = t.report.rows_read if t.report is not None else 0
        why.append(f"{source}: {'no data rows (a header only)' if not read else f'all {read} rows were skipped'}")
    raise ChronoqaError(
        f"no question could be made: {'; '.join(why) or 'no input table'}. "
        "Fix: give a table with data rows, or fix the rows the load report lists"
    )


def _check_inputs(b: TableBuildState) -> None:
    """Table names unique; every table and column a ``--delimiter`` names exists."""
    dup = sorted(n for n, c in Counter(b.names).items() if c > 1)
    if dup:
        raise ChronoqaError(f"two input tables are both named {dup[0]!r}: give them different names")
    by_name = b.by_name
    for delim in b.cfg.delimiters:  # --delimiter table.column=...: both must exist
        tname, _, col = delim.partition(".")
        if tname not in by_name:
            raise UnknownNameError("table (in a delimiter)", tname, sorted(by_name))
        if col not in by_name[tname].columns:
            raise UnknownNameError(f"column of {tname} (in a delimiter)", col, by_name[tname].columns)


def _store_tables(b: TableBuildState) -> None:
    """Each table in DuckDB at its granularity (detected, or the config's); the tables to ask about."""
    import duckdb

    b.con = duckdb.connect(":memory:")
    tables = []
    for t in b.tables:
        # the phrase file's declarations: cells corrected ("map:"), rows declared wrong ("exclude:") left out
        declared = declared_rows(t, b.book.tables.get(t.name, {}))
        t = declared.table
        tables.append(t)
        if declared.notes:
            b.family_notes[t.name] = dict(declared.notes)
            b.declared[t.name] = {"mapped": declared.mapped, "excluded": len(declared.excluded)}
            b.excluded[t.name] = tuple(sorted(declared.excluded))
        rep = detect_granularity(t)
        b.gran_reports[t.name] = rep
        g = Granularity.parse(b.cfg.granularity.get(t.name, rep.granularity))
        b.stores[t.name] = TableStore.build(t, as_of=b.as_of, granularity=g, con=b.con)
        for why in declared.excluded.values():
            b.stores[t.name].notes[f"rows declared wrong by the phrase file ({why})"] += 1
    b.tables = tables
    event_only = {j.left for j in b.cfg.joins} - {j.right for j in b.cfg.joins}
    cfg = b.cfg
    b.to_build = list(cfg.build_tables) if cfg.build_tables is not None else [n for n in b.names if n not in event_only]
    for n in b.to_build:
        if n not in b.by_name:
            raise UnknownNameError("table", n, b.names)


def _table_questions(b: TableBuildState) -> None:
    """Each table's kind, then its questions: families of status and event tables, TFD questions of role tables."""
    fact_sides = {j.right for j in b.cfg.joins}
    for n in b.names:
        if n not in b.to_build and n not in fact_sides:
            continue
        b.kinds[n] = _kind_of(b, n, named=bool(b.cfg.tfds.get(n)) or n in fact_sides)
        if b.kinds[n].kind != "role":
            _family_questions(b, n)
        else:
            _role_questions(b, n)


def _kind_of(b: TableBuildState, n: str, named: bool) -> TableKind:
    """A table with TFDs named for it (or the fact side of a join) is a role table unless its kind is declared."""
    if named and n not in b.cfg.kinds:
        return TableKind("role", "TFDs named for it (or the fact side of a join): role", "config")
    declared = {c.split(".", 1)[1]: d for c, d in b.cfg.delimiters.items() if c.split(".", 1)[0] == n}
    kind = table_kind(b.by_name[n], b.cfg.kinds.get(n), declared)
    if kind.kind != "event" or kind.declared_by != "detected" or span_names(b.by_name[n]):
        return kind
    # short spans no column names (a hospital stay, a visit) are spells of a key, not named events: where a TFD
    # holds over them ("patient ->T doctor"), the table is asked by the TFD path (the 13 Allen relations)
    kept, candidates = _spell_tfds(b, n)
    if not kept:
        return kind
    b.discovered[n] = (kept, candidates)
    why = (
        f"{kind.why}, but no column names a row's span (each row is a spell of its key) and the TFD(s) "
        f"{', '.join(str(r.tfd) for r in kept)} hold over the spans: role (the TFD path)"
    )
    return TableKind("role", why, "detected")


def _spell_tfds(b: TableBuildState, n: str) -> tuple[list[TFDReport], list[TFDReport]]:
    """TFDs discovered over the columns holding one value a cell (a list of member states is no key or value)."""
    table = b.by_name[n]
    declared = {c.split(".", 1)[1]: d for c, d in b.cfg.delimiters.items() if c.split(".", 1)[0] == n}
    columns = [c for c in table.columns if not column_is_multi_value(table, c, declared)]
    return _tfd_reports(b.stores[n], (), b.cfg, columns)


def _family_questions(b: TableBuildState, n: str) -> None:
    """A status or event table: its families' questions; on a detected status table, also those of its TFDs.

    A status table whose keys have a history (one membership after another, the latest still held) where a TFD
    holds over the rows' spans is also asked the Allen families of that TFD (not "as of" questions: the key's
    current state is asked by ``status_since``); the families then name rows by the TFD's triples.
    """
    kept: list[TFDReport] = []
    if b.kinds[n].kind == "status" and b.kinds[n].declared_by == "detected":
        kept, candidates = _spell_tfds(b, n)
    if kept:
        b.discovered[n] = (kept, candidates)
        _role_questions(b, n, alignment=False)
    else:
        b.tfd_reports[n] = ()
        b.kept_by_table[n] = []
        b.tfd_manifest[n] = {
            "named": [],
            "kept": [],
            "candidates": [],
            "not_used": f"TFDs are not used on {b.kinds[n].kind} tables",
        }
    family = status_questions if b.kinds[n].kind == "status" else event_questions
    primary = primary_tfd(b.kept_by_table[n])
    made, candidates_by_family, notes = family(b.stores[n], b.kinds[n], b.book, primary, b.cfg)
    b.family_candidates[n] = b.family_candidates.get(n, {}) | candidates_by_family
    b.family_notes[n] = dict(sorted((b.family_notes.get(n, {}) | notes).items()))
    b.questions.extend(made)


def _role_questions(b: TableBuildState, n: str, *, alignment: bool = True) -> None:
    """A role table: its TFDs (named or discovered), handovers, and the questions of each TFD kept.

    ``alignment``: ask "as of" questions too (when the config does).
    """
    found = b.discovered.pop(n) if n in b.discovered else None
    kept, candidates = found or _tfd_reports(b.stores[n], b.cfg.tfds.get(n, ()), b.cfg)
    b.tfd_reports[n] = tuple(candidates)
    b.kept_by_table[n] = [r.tfd for r in kept]
    b.tfd_manifest[n] = {
        "named": list(b.cfg.tfds.get(n, ())),
        "kept": [r.to_dict() for r in kept],
        "candidates": [
            {k: v for k, v in r.to_dict().items() if k != "examples"} for r in candidates if r.changing_keys > 0
        ],
    }
    main = primary_tfd(b.kept_by_table[n])
    if main is not None:
        b.handovers[n] = _read_handovers(b.stores[n], main, b.cfg)
    if n not in b.to_build:
        return
    declined: dict[str, int] = {}
    conflicts = 0
    split = 0
    many_valued: Counter[str] = Counter()  # family -> candidates not asked (a many-valued TFD, not complete)
    many_tfds: list[str] = []
    for kept_rep in kept:
        ctx, not_asked = _tfd_questions(b, n, kept_rep, alignment=alignment)
        declined |= ctx.declined
        conflicts += ctx.conflicts
        split += ctx.split_skipped
        if not_asked is not None:
            many_tfds.append(str(kept_rep.tfd))
            many_valued.update(not_asked)
    if many_tfds:
        b.family_candidates.setdefault(n, {}).update(many_valued)
        b.family_notes[n] = b.family_notes.get(n, {}) | _many_valued_notes(n, many_tfds, many_valued)
    b.tfd_manifest[n]["conflicts_skipped"] = conflicts
    b.tfd_manifest[n]["split_holdings_skipped"] = split  # the gold rests on a boundary inside one holding
    if n in b.handovers:
        b.handovers[n]["end_questions_skipped"] = b.stores[n].handover_skipped
    if declined:  # key -> rows: a role cell naming several titles ("director / manager")
        b.tfd_manifest[n]["declined_keys"] = dict(sorted(declined.items()))


def _tfd_questions(
    b: TableBuildState, n: str, kept: TFDReport, *, alignment: bool = True
) -> tuple[TFDContext, dict[str, int] | None]:
    """The questions of one kept TFD: Allen relations and time alignment.

    On a many-valued TFD (several values of a key at once) of a table not declared complete, the start and
    end of one listed spell are asked instead, and the counts of the families not asked are returned.
    """
    functional = kept.violation_rate <= b.cfg.threshold  # one holder at a time
    ctx = TFDContext(b.stores[n], kept.tfd, b.book, primary_tfd(b.kept_by_table[n]), functional=functional)
    by_family = {"allen": allen_questions(ctx, b.cfg)}
    if b.cfg.alignment and alignment:
        by_family["time_alignment"] = alignment_questions(ctx, b.cfg)
    if functional:
        b.questions.extend(q for qs in by_family.values() for q in qs)
        return ctx, None
    if b.cfg.is_complete(n):  # several values at once: the gold lists every value, only a complete table can
        b.questions.extend(replace(q, assumes_complete=True) for qs in by_family.values() for q in qs)
        return ctx, None
    # several values of a key at once, and the table may miss one (Messi's senior national team): "the team of X
    # whose spell began before 2017 ..." presumes every team listed; ask about one spell instead
    spells = spell_questions(ctx, b.cfg, _spell_templates(b.book, n))
    b.questions.extend(spells)
    b.family_candidates.setdefault(n, {}).update({f: sum(1 for q in spells if q.operator == f) for f in SPELL_FAMILIES})
    return ctx, {f: len(qs) for f, qs in by_family.items()}


def _many_valued_notes(n: str, many_tfds: list[str], many_valued: Counter[str]) -> dict[str, str]:
    """Why the families of a many-valued TFD were not asked of a table not declared complete."""
    return {
        f: f"{c} candidates not asked: on the many-valued TFD {', '.join(many_tfds)} (several values of a key "
        "at once: violation rate above the threshold) the gold lists every value of the key at the asked time, "
        f"which holds only if the table lists every value in the world, and {n} is not declared complete "
        '(phrase file "complete": "true", or TableBuildConfig.complete); asked instead: the start and end '
        "of one listed spell (spell_start, spell_end)"
        for f, c in sorted(many_valued.items())
    }


def _join_questions(b: TableBuildState) -> None:
    """Each temporal join's implicit-time 2- and 3-hop questions, over the fact side's TFDs that hold the join."""
    primary = {n: primary_tfd(b.kept_by_table.get(n, [])) for n in b.names}
    by_name = b.by_name
    for spec in b.cfg.joins:
        for side in (spec.left, spec.right):
            if side not in by_name:
                raise UnknownNameError("table", side, b.names)
        ls, rs = b.stores[spec.left], b.stores[spec.right]
        g = max(ls.granularity, rs.granularity)
        jr = temporal_join(
            by_name[spec.left], by_name[spec.right], granularity=g, as_of=b.as_of, on=spec.on, aliases=spec.aliases
        )
        b.joins.append(jr)
        jstore = TableStore.build(jr.table, as_of=b.as_of, granularity=g, con=b.con)
        usable = [t for t in b.kept_by_table.get(spec.right, []) if set(jr.on) <= set(t.lhs)]
        join_reports: list[TFDReport] = []
        for rtfd in usable:
            qs, reps = join_questions(jr, rtfd, jstore, (ls, rs), primary, b.book, b.cfg)
            b.questions.extend(qs)
            join_reports.extend(reps)
        b.join_manifest.append(
            {
                "left": spec.left,
                "right": spec.right,
                "on": list(jr.on),
                "granularity": str(g),
                "rows": len(jr.table),
                "unmatched_left_rows": [by_name[spec.left].lines[i] for i in jr.unmatched_left],
                "tfds": [r.to_dict() for r in join_reports],
            }
        )


def _finish_questions(b: TableBuildState) -> None:
    """At most ``max_none_share`` "none" answers; the SQL-to-text and paraphrase steps, if any; the splits."""
    b.questions, b.none_dropped = cap_none(b.questions, b.cfg.max_none_share)
    if not b.questions:
        raise ChronoqaError(_why_no_questions(b.to_build, b.stores, b.tfd_reports, b.kept_by_table, b.cfg, b.kinds))
    if b.sql_client is not None:
        b.questions, b.sql_report = sql_to_text(b.questions, b.sql_client)
    if b.paraphrase is not None:
        b.questions, b.para_report = paraphrase_questions(b.questions, b.paraphrase)
    splits = assign_splits(
        b.questions,
        strata=lambda q: (q.operator, q.allen or "", q.cardinality),
        group=lambda q: (str(q.logical_form.get("table")), tuple(q.logical_form.get("key", ()))),
        seed=b.cfg.seed,
        ratios=b.cfg.ratios,
    )
    b.questions = [replace(q, split=s) for q, s in zip(b.questions, splits, strict=True)]


def _corpus(b: TableBuildState) -> None:
    """One document per stored row (its canonical triple, shared by every question naming it), identity checked."""
    primary = {n: primary_tfd(b.kept_by_table.get(n, [])) for n in b.names}
    b.corpus = table_corpus(list(b.stores.values()), b.book, primary)
    check_identity(b.questions, b.corpus)


def _result(b: TableBuildState) -> None:
    """The manifest (through the shared header), the data card and the build result."""
    manifest = manifest_header(
        builder="table",
        dataset="+".join(b.names),
        seed=b.cfg.seed,
        config=b.cfg.to_dict(),
        sources={k: dict(v) for k, v in sorted((b.sources or {}).items())},
        questions=b.questions,
        corpus_docs=len(b.corpus),
    )
    manifest["counts"]["assumes_complete"] = sum(1 for q in b.questions if q.assumes_complete)
    manifest |= {
        "as_of": b.cfg.as_of,
        "as_of_source": b.as_of_source,
        "tables": {n: _table_manifest(b, n) for n in b.names},
        "tfds": b.tfd_manifest,
        "joins": b.join_manifest,
        "cells": question_counts(b.questions),
        "closed_world": {
            "assumes_complete": sum(1 for q in b.questions if q.assumes_complete),
            "why": "a 'none' answer, the first / most recent event of a value and the keys whose state began in a "
            "window hold only if the table lists every row (closed world): they are asked only on tables declared "
            "complete; no question asks about a time outside its key's coverage, and before/after are asked in "
            "their bounded form (the last ... before, the first ... after)",
            "complete_tables": sorted(b.complete_by),
            "max_none_share": b.cfg.max_none_share,
            "none_dropped": b.none_dropped,
        },
        "paraphrase": None if b.para_report is None else b.para_report.to_dict(),
    }
    if b.sql_report is not None:  # only when asked: a build without the step keeps its manifest as it was
        manifest["sql_to_text"] = {"client": b.sql_client_name, **b.sql_report.to_dict()}
    if b.phrase_file is not None:  # only with a phrase file: a build without one keeps its manifest as it was
        manifest["phrases"] = b.phrase_file
    flags = [FunctionalFlags(q.id, bool(q.S_dist), bool(q.S_stale)) for q in b.questions]
    docs = tuple(b.corpus)
    # "stores" (each table in DuckDB as the build read it): what a refresh re-runs an older question's SQL on
    primary = {n: primary_tfd(b.kept_by_table.get(n, [])) for n in b.names}
    extras = {"tfd_reports": b.tfd_reports, "joins": tuple(b.joins), "stores": b.stores, "primary": primary}
    b.result = BuildResult(b.questions, flags, lambda: iter(docs), manifest, render_datacard(manifest), extras)


def _table_manifest(b: TableBuildState, n: str) -> dict[str, Any]:
    """One table's entry in the manifest: sizes, granularity, what was left out, kind, families and checks."""
    store, table = b.stores[n], b.by_name[n]
    return {
        "rows": len(table) + len(b.excluded.get(n, ())),  # as read, rows declared wrong included
        "stored_rows": len(store.rows),
        "granularity": b.gran_reports[n].to_dict() | {"used": str(store.granularity)},
        "left_out": dict(sorted(store.notes.items())),
        "declared": b.declared.get(n),
        "load_report": _report_dict(table),
        "kind": b.kinds[n].to_dict() if n in b.kinds else None,
        "family_candidates": b.family_candidates.get(n),
        "family_notes": b.family_notes.get(n),
        "handovers": b.handovers.get(n),
        "precision": {"coarse_cells": store.coarse_cells, "questions_skipped": store.precision_skipped},
        "complete": {"declared": n in b.complete_by, "by": b.complete_by.get(n)},
        "answer_shares": answer_shares(b.questions, n),
    }


#: The table build, step by step: each step reads and extends the :class:`TableBuildState`.
STEPS: tuple[Callable[[TableBuildState], None], ...] = (
    _check_inputs,
    _store_tables,
    _table_questions,
    _join_questions,
    _finish_questions,
    _corpus,
    _result,
)
