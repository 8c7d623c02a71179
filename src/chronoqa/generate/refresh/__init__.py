"""``chronoqa refresh``: a release rebuilt on newer data, every old question re-grounded and classified.

:func:`refresh` rebuilds the old release's recorded config and seed on the newer data
(:func:`~chronoqa.generate.rebuild.rebuild`), then matches questions by their canonical key
(:func:`question_key`: logical form and template, never the text or a position) and re-grounds every old question
on the newer data, so that a question the new build happened not to draw (sampling) is carried, not retired:

* table questions: the question's own SQL is run on the new build's tables (the builder's stores: same
  granularity, declarations and readings), its rows are the new gold;
* KG questions: the new build's record where it drew the same key (the builder's grounding: gold verified unique);
  else each ``S*`` fact is looked up in the new graph (a re-dated one followed where the answer allows) and the
  operator's own gold rule (the build audit's) is run on it; a fact the newer data added at a hop of an entity
  question's chain (possibly valid at ``t_query``) retires it as no longer unique
  (:mod:`chronoqa.generate.refresh.ground`).

The new release holds the unchanged and gold-changed questions (old ids kept) and the new ones that drift made
(a question of the new build using a fact the old data did not hold); the new build's other questions, drawn
anew from facts both snapshots hold, are sampling, not drift: they are left out and counted, so a refresh never
grows a release by resampling it. It adds
``CHANGES.md``, ``changes.jsonl`` (:mod:`chronoqa.artifacts.changes`), a ``release_version`` and a ``refresh``
section in the manifest and a drift section in the data card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from chronoqa.artifacts.changes import CHANGE_CLASSES, CHANGES_FILE, CHANGES_MD, ChangeRecord, write_changes
from chronoqa.artifacts.release import FunctionalFlags, Release, load_release, write_release
from chronoqa.generate.rebuild import rebuild
from chronoqa.generate.refresh.ground import KGGround, TableGround
from chronoqa.generate.refresh.keys import (
    FIRST_VERSION,
    NEW_DRIFT,
    Grounding,
    fact_diff,
    fact_key,
    next_version,
    question_key,
)
from chronoqa.generate.refresh.report import changes_markdown, drift_section, refresh_manifest
from chronoqa.generate.result import BuildResult
from chronoqa.io import sha256_file, write_text
from chronoqa.outdir import OutputFolder
from chronoqa.records import Question, Triple

__all__ = ["Refresh", "cell_of", "classify", "question_key", "refresh"]


@dataclass
class Refresh:
    """What :func:`refresh` computed: the release's questions and flags, the change records, the versions."""

    questions: list[Question]
    flags: list[FunctionalFlags]
    changes: list[ChangeRecord]
    old_version: str
    version: str
    counts: dict[str, int] = field(default_factory=dict)
    sampled_out: int = 0
    """Questions the new build drew from facts both snapshots hold (sampling, not drift): left out."""


def refresh(old: Path, source: Path, out: Path, *, as_of: str | None = None, phrases: Path | None = None) -> Refresh:
    """Refresh release ``old`` on the newer data ``source`` into ``out`` (see the module docstring)."""
    release = load_release(old)
    build = rebuild(old, source, as_of=as_of, phrases=phrases)
    result = classify(release, build)
    _write(release, build, result, out)
    return result


def classify(release: Release, build: BuildResult) -> Refresh:
    """Every old question re-grounded and matched by key to the new build; the new build's other questions new."""
    drawn = {question_key(q): q for q in build.questions}
    ground = TableGround(build) if build.manifest["builder"] == "table" else KGGround(build, release)
    flags = {f.id: f for f in build.flags}
    kept: dict[str, tuple[Question, FunctionalFlags]] = {}  # question key -> the release's question and flags
    changes: list[ChangeRecord] = []
    for q in release.questions:
        key = question_key(q)
        g = Grounding(drawn[key]) if key in drawn else ground(q)  # drawn: the builder's own grounding
        if g.question is None:
            changes.append(_record(q, None, key, "retired", g, held=ground.docs.as_held(q.S_star)))
            continue
        nq = replace(g.question, id=q.id, split=q.split)
        flag = flags.get(drawn[key].id) if key in drawn else release.flags.get(q.id)
        kept[key] = (
            nq,
            FunctionalFlags(q.id, bool(nq.S_dist), bool(nq.S_stale)) if flag is None else replace(flag, id=q.id),
        )
        same = nq.answers == q.answers and {fact_key(t) for t in nq.S_star} == {fact_key(t) for t in q.S_star}
        changes.append(_record(q, nq, key, "unchanged" if same else "gold_changed", g))
    # a re-dated time answer moves its question's t_query: the new build's draw of that form is the same question
    old_keys = {question_key(q) for q in release.questions} | {question_key(q) for q, _ in kept.values()}
    old_ids = {q.id for q in release.questions}
    old_facts = {fact_key(d) for d in release.corpus}
    sampled = 0
    for key, q in drawn.items():
        if key in old_keys:
            continue
        if all(fact_key(t) in old_facts for t in q.S_star):  # drawn anew from facts both snapshots hold
            sampled += 1
            continue
        nq = replace(q, id=q.id if q.id not in old_ids else f"{q.id}-r")  # an old id is never reused
        kept[key] = (nq, replace(flags[q.id], id=nq.id))
        changes.append(_record(None, nq, key, "new", Grounding(nq, NEW_DRIFT)))
    order = {k: i for i, k in enumerate(drawn)}  # the new build's order; questions it did not draw after it
    ordered = sorted(kept.items(), key=lambda kv: order.get(kv[0], len(order)))
    counts = Counter(c.change for c in changes)
    old_version = str(release.manifest.get("release_version") or FIRST_VERSION)
    return Refresh(
        [q for _, (q, _) in ordered], [f for _, (_, f) in ordered], changes, old_version,
        next_version(old_version, counts), {c: counts.get(c, 0) for c in CHANGE_CLASSES}, sampled,
    )  # fmt: skip


def _record(
    old: Question | None, new: Question | None, key: str, change: str, g: Grounding, held: Sequence[Triple] = ()
) -> ChangeRecord:
    """``held``: a retired question's S* facts as the newer data holds them (what it dropped, re-dated, kept)."""
    q = new if new is not None else old
    assert q is not None
    added, removed, redated = fact_diff(old.S_star if old else (), new.S_star if new else held)
    if change == "new":
        added = removed = redated = []
    return ChangeRecord(
        id=q.id, change=change, key=key, cell=cell_of(q), question=q.question, reason=g.reason,
        old_answers=old.answers if old else (), old_answer_ids=old.answer_ids if old else (),
        new_answers=new.answers if new else (), facts_added=tuple(added), facts_removed=tuple(removed),
        facts_redated=tuple(redated),
        regrounded=g.regrounded,
    )  # fmt: skip


def cell_of(q: Question) -> str:
    """A question's cell: operator x complexity (KG), relation x cardinality (table)."""
    if q.source == "table":
        return f"{q.allen or q.operator} x {q.cardinality}"
    return f"{q.operator} x {q.complexity}"


def _write(release: Release, build: BuildResult, r: Refresh, out: Path) -> None:
    """The new release: questions and flags of the refresh, the new build's corpus, manifest and data card extended."""
    manifest = refresh_manifest(release, build.manifest, r, sha256_file(release.path / "manifest.json"))
    datacard = build.datacard.rstrip("\n") + "\n\n" + drift_section(r)
    with OutputFolder(out, "release"):
        corpus = build.corpus_batches() if build.corpus_batches is not None else build.corpus()
        write_text(out / CHANGES_MD, changes_markdown(r))
        write_changes(out / CHANGES_FILE, r.changes)
        write_release(out, r.questions, corpus, r.flags, manifest, datacard, build.implausible)
