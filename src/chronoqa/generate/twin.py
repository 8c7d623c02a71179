"""Counterfactual twins of a release: the same world with shifted years, new names or permuted holders.

This module holds the transforms, the pairing and the KG twin; a table release's rows are read as facts by
:mod:`chronoqa.generate.twin_table` and go through the same :class:`Transform` and :func:`pair_questions`.

A twin is made from the release's *source facts*, never from its questions: the facts are transformed, written
to a temporary quintuple file and built again by :func:`chronoqa.generate.rebuild.rebuild_like` with the
release's own configuration and seed, so the twin's facts, corpus, question texts and every gold are the
builder's. The transforms (:class:`Transform`, one pure function of a fact's content):

* ``shift_years`` (N): every date moves by N whole years (:meth:`chronoqa.time.TimePoint.shift_years`, which
  keeps every Allen relation and granularity and refuses a 29 February that would not exist); ``as_of`` moves
  too. Numbers the phrase table declares not to be years (``[not_years]``) are not dates and stay; so do years
  before 1000 (:data:`~chronoqa.generate.kg.plausible.EARLY`: the builder judges them by their value), which
  keeps the map of dates strictly increasing (a shift that would move a later year below 1000 is refused). The
  phrase table's declared divisions (``[divided]``) move with the dates: the twin's world is divided N years later.
* ``rename_entities``: every entity gets a new id and a name built from syllables (seeded), checked against
  every id and label of the source so that no name is a real one.
* ``permute_holders``: within each role (relation and object), a seeded bijection among the role's holders
  (subjects): the same offices, teams and prizes with the same dates, held by other entities of the graph.

The twin's questions are paired to the source's by logical form up to the transform (operator, template,
hops, ``t_query`` and the gold facts ``S*``, all transformed): ``twin_of.jsonl`` in the twin lists each pair
(``{"twin": id, "source": id}``); ``chronoqa evaluate --twin`` scores them paired. The twin build takes the
facts in the source's content order (``rebuild_like(..., keep_order=True)``), so it draws the same positions and,
for ``shift_years`` and ``rename_entities``, every question has its twin; ``permute_holders`` changes who holds
what, so only the questions whose transformed form is still drawn are paired. ``twin_facts.tsv`` keeps the
transformed facts beside the release. The transform, its seed and
the pairing counts are recorded under ``twin`` in the twin's manifest and in its data card.
"""

from __future__ import annotations

import csv
import random
import re
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from chronoqa.artifacts.release import Release
from chronoqa.errors import ChronoqaError
from chronoqa.generate.kg.plausible import EARLY, YOUTH_WORDS
from chronoqa.records import Question, TemporalGraph
from chronoqa.time import TimePoint, parse_time

if TYPE_CHECKING:
    from chronoqa.generate.kg.phrases import PhraseTable

__all__ = [
    "KINDS", "TWIN_FACTS", "TWIN_FILE", "Transform", "make_twin", "pair_questions", "read_twin_pairs", "syllable_names",
]  # fmt: skip

#: The transforms a twin can apply.
KINDS: Final = ("shift_years", "rename_entities", "permute_holders")
#: The pairing file of a twin release.
TWIN_FILE: Final = "twin_of.jsonl"
#: The twin's transformed source facts (a quintuple TSV with labels), kept in the twin release.
TWIN_FACTS: Final = "twin_facts.tsv"

_WORD: Final = re.compile(r"\w+")
_QUALIFIER: Final = re.compile(r"\s*\([^)]*\)$")
_DISAMBIGUATOR: Final = re.compile(r"\([^()]*\)$")  # "Liberal Party (1922)", "X (footballer, born 1983)"
_YEAR: Final = re.compile(r"\b\d{4}\b")
_ONSETS: Final = ("b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "dr", "kr", "tr")
_VOWELS: Final = ("a", "e", "i", "o", "u", "ai", "ou")
_CODAS: Final = ("", "", "", "n", "r", "l", "th")
_LAST_VOWELS: Final = ("a", "o", "u")
_LAST_CODAS: Final = ("n", "k", "m")  # a word's end no English stemmer strips, so each word keeps one stem

Key = tuple[str, str, str, str | None, str | None]
"""A fact by content: subject, relation and object ids, start and end as written."""


def _word(rng: random.Random, syllables: int) -> str:
    head = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS) for _ in range(syllables - 1))
    return (head + rng.choice(_ONSETS) + rng.choice(_LAST_VOWELS) + rng.choice(_LAST_CODAS)).title()


def syllable_names(n: int, seed: int, taken: Iterable[str], *, words: int = 2) -> list[str]:
    """``n`` distinct names of ``words`` syllable-built words (deterministic in ``seed``), none equal to a ``taken``.

    Names are compared case-insensitively and with spaces and underscores alike, so ``<Kora_Vel>`` is taken
    by ``Kora Vel``.
    """

    def norm(s: str) -> str:
        return s.strip("<>").replace("_", " ").casefold()

    used = {norm(t) for t in taken}
    rng = random.Random(f"twin-names:{seed}")
    out: list[str] = []
    while len(out) < n:
        name = " ".join(_word(rng, rng.randint(2, 3)) for _ in range(words))
        if norm(name) not in used:
            used.add(norm(name))
            out.append(name)
    return out


def holder_bijection(seed: int, role: tuple[str, str], holders: Iterable[str]) -> dict[str, str]:
    """A seeded permutation of a role's ``holders`` (old holder → new holder)."""
    old = sorted(holders)
    new = old[:]
    random.Random(f"twin-holders:{seed}:{role[0]}:{role[1]}").shuffle(new)
    return dict(zip(old, new, strict=True))


def check_years(years: int) -> int:
    """``years`` of ``--shift-years``, refused when 0 (a copy)."""
    if not years:
        raise ChronoqaError("--shift-years 0 would make a copy, not a twin: give a number of years such as 28")
    return years


@dataclass
class Transform:
    """One twin transform as a pure function of a fact's content (:meth:`fact`); ``record`` goes to the manifest."""

    kind: str
    seed: int
    years: int = 0
    not_years: Mapping[str, frozenset[int]] = field(default_factory=dict)
    entity_map: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    holders: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)
    #: a table's facts: the holder is the object (the role is subject and relation: key values and column)
    table: bool = False

    def date(self, r: str, value: str | None) -> str | None:
        """A date as written, shifted by ``years`` (unshifted: ``None``, a declared non-year of relation ``r``).

        A year before :data:`~chronoqa.generate.kg.plausible.EARLY` stays too: the builder judges it by its value.
        """
        point = parse_time(value)
        if point is None or not self.years or point.year in self.not_years.get(r, frozenset()) or point.year < EARLY:
            return value
        moved = point.shift_years(self.years)
        if moved.year < EARLY:
            raise ChronoqaError(
                f"--shift-years {self.years} moves {value} before the year {EARLY}, which the builder judges apart "
                "(early years keep their value), so the order of dates would change: shift by fewer years"
            )
        return moved.isoformat()

    def fact(self, key: Key) -> Key:
        """The twin of a fact: ids renamed, holder permuted within its role, dates shifted."""
        s, r, o, start, end = key
        if self.table:
            o = self.holders.get((s, r), {}).get(o, o)
        else:
            s = self.holders.get((r, o), {}).get(s, s)
        s, o = self.entity_map.get(s, s), self.entity_map.get(o, o)
        return (s, r, o, self.date(r, start), self.date(r, end))

    def record(self) -> dict[str, Any]:
        """The transform as the twin's manifest records it."""
        out: dict[str, Any] = {"kind": self.kind, "seed": self.seed}
        if self.kind == "shift_years":
            out["years"] = self.years
            if not self.table:
                out["labels_with_years_moved"] = len(self.labels)  # a disambiguator's years: "(... born 1983)"
                out["unshifted_non_years"] = {r: sorted(v) for r, v in sorted(self.not_years.items())}
                out["unshifted_before_year"] = EARLY
        if self.kind == "rename_entities":
            out["entities_renamed"] = len(self.entity_map)
            out["names"] = (
                "holders renamed (syllable-built names), key columns kept; no name equal to a cell of the table"
                if self.table
                else "labels renamed word by word (syllable-built words); no label equal to a real one"
            )
        if self.kind == "permute_holders":
            out["roles"] = len(self.holders)
            out["holders_moved"] = sum(1 for m in self.holders.values() for a, b in m.items() if a != b)
        return out


def _point(value: TimePoint | None) -> str | None:
    return None if value is None else value.isoformat()


def _keys(graph: TemporalGraph) -> list[Key]:
    return [(f.s, f.r, f.o, _point(f.start), _point(f.end)) for f in graph]


def _shape(new: str, old: str) -> str:
    """``new`` written in the case of ``old`` (upper, title or lower)."""
    return new.upper() if old.isupper() and len(old) > 1 else new.title() if old[:1].isupper() else new.lower()


def _rename(t: Transform, graph: TemporalGraph, vocabulary: frozenset[str]) -> None:
    """New ids (``E0000001``..., in the order of the old ones) and labels renamed word by word.

    Every word of a label (case-folded) gets one syllable-built word, the same wherever it occurs, so labels that
    share words still share them and a label's length is kept; words of the builder's own text (``vocabulary``:
    the words of the release's questions and corpus outside entity labels) and words with digits stay. A whole
    label that comes out equal to a real one is renamed again word by word with the next names.
    """
    ents = sorted({e for k in _keys(graph) for e in (k[0], k[2])})
    labels = {e: graph.entity_label(e) for e in ents}
    real = {x.casefold() for x in (*ents, *labels.values(), *graph.entity_labels.values())}
    words = sorted({w.casefold() for lab in labels.values() for w in _WORD.findall(lab)})
    moved = [w for w in words if w not in vocabulary and len(w) > 1 and not any(c.isdigit() for c in w)]
    fresh = iter(syllable_names(len(moved) + len(ents), t.seed, [*words, *vocabulary, *real], words=1))
    word_map = dict(zip(moved, fresh, strict=False))
    width = len(str(len(ents)))
    for i, e in enumerate(ents):
        new = _WORD.sub(lambda m: _shape(word_map.get(m.group().casefold(), m.group()), m.group()), labels[e])
        while new.casefold() in real:
            new = f"{new} {next(fresh).title()}"
        t.entity_map[e] = f"E{i:0{width}d}"
        t.labels[t.entity_map[e]] = new


def _shifted_labels(t: Transform, graph: TemporalGraph) -> dict[str, str]:
    """Labels whose disambiguator holds a year ("(footballer, born 1983)", "(1974 film)"): a date, moved too."""
    out = {}
    for e in sorted({e for k in _keys(graph) for e in (k[0], k[2])}):
        label = graph.entity_label(e)
        moved = _DISAMBIGUATOR.sub(lambda m: _YEAR.sub(lambda y: t.date("", y.group()) or "", m.group()), label)
        if moved != label:
            out[e] = moved
    return out


def _transform(
    kind: str, graph: TemporalGraph, manifest: Mapping[str, Any], seed: int, years: int, vocabulary: frozenset[str]
) -> Transform:
    """The transform of ``kind`` for this graph (its names, holder bijections or non-years)."""
    t = Transform(kind, seed)
    if kind == "shift_years":
        declared = ((manifest.get("not_years") or {}).get("years")) or {}
        t.years, t.not_years = check_years(years), {r: frozenset(int(y) for y in ys) for r, ys in declared.items()}
        t.labels = _shifted_labels(t, graph)
    elif kind == "rename_entities":
        _rename(t, graph, vocabulary)
    elif kind == "permute_holders":
        roles: dict[tuple[str, str], set[str]] = {}
        for s, r, o, _, _ in _keys(graph):
            roles.setdefault((r, o), set()).add(s)
        t.holders = {role: holder_bijection(seed, role, subjects) for role, subjects in sorted(roles.items())}
    else:
        raise ChronoqaError(f"twin transform {kind!r}: expected one of {', '.join(KINDS)}")
    return t


def _vocabulary(release: Release) -> frozenset[str]:
    """The words the builder itself reads or writes, which a renamed label keeps.

    Those of the release's corpus and questions outside entity labels, the label words its phrase table
    declares (``not_named``: a label ending in one is unfit; a role's ``object_named``; a ``no_value`` label) and
    those of a youth side's age mark (its rule).
    """
    from chronoqa.generate.kg.phrases import load_phrase_table
    from chronoqa.generate.rebuild import recorded_phrases

    def words(text: str, labels: Iterable[str]) -> set[str]:  # case-folded: a sentence may capitalise a label
        text = text.casefold()
        for lab in sorted({lab.casefold() for lab in labels}, key=len, reverse=True):
            text = text.replace(lab, " ")
        return set(_WORD.findall(text))

    table = load_phrase_table(recorded_phrases(release.manifest) or str(release.manifest["dataset"]))
    out: set[str] = {w.casefold() for t in table.types.values() for w in t.not_named} | set(YOUTH_WORDS)
    for rel in table.relations.values():  # a role's label words and the labels that record no value
        out |= {w for words, _ in rel.roles for w in words} | {w for v in rel.no_value for w in _WORD.findall(v)}
    labels: set[str] = set()
    for doc in release.corpus:
        out |= words(doc.text, (doc.s, doc.o, _QUALIFIER.sub("", doc.s), _QUALIFIER.sub("", doc.o)))
        labels.update((doc.s, doc.o))
    labels |= {_QUALIFIER.sub("", lab) for lab in labels}  # questions name "X (footballer)" as "X"
    for q in release.questions:  # any label of the corpus cut out: an entity the question names outside its facts
        folded = q.question.casefold()
        out |= words(q.question, [lab for lab in labels if lab.casefold() in folded])
    return frozenset(out)


def _write_source(graph: TemporalGraph, t: Transform, path: Path) -> None:
    """The transformed facts as a quintuple TSV with labels (what ``chronoqa build kg --input`` reads)."""

    def label(e: str) -> str:
        return t.labels.get(e) or graph.entity_label(e)

    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, delimiter="\t", lineterminator="\n")
        w.writerow(["subject", "relation", "object", "start", "end", "s_label", "r_label", "o_label"])
        for key in _keys(graph):
            s, r, o, start, end = t.fact(key)
            w.writerow([s, r, o, start or "", end or "", label(s), graph.relation_label(r), label(o)])


def _question_key(q: Question, fact: Callable[[Key], Key], date: Callable[[str | None], str | None]) -> tuple[Any, ...]:
    star = sorted((fact((x.s_id, x.r_id, x.o_id, x.t_start, x.t_end)) for x in q.S_star), key=repr)
    ref = q.reference or {}  # a table question's reference interval; its key, for a question with no answer
    table = (q.allen, tuple(q.logical_form.get("key") or ()), date(ref.get("start")), date(ref.get("end")))
    return (q.operator, q.template_id, q.hops, date(q.t_query), tuple(star), table)


def pair_questions(source: Iterable[Question], twin: Iterable[Question], t: Transform) -> list[tuple[str, str]]:
    """``(twin id, source id)`` for every twin question whose logical form is a source question's, transformed.

    The logical form compared: operator, template, hops, ``t_query`` and the gold facts ``S*`` by content, and
    for a table question its Allen relation, key and reference interval (a twin keeps a table's key columns). A
    source question whose form the twin build did not draw stays unpaired.
    """

    def date(v: str | None) -> str | None:  # t_query is a date of no relation: always shifted
        return t.date("", v)

    wanted = {_question_key(q, t.fact, date): q.id for q in source}
    pairs = []
    for q in twin:
        src = wanted.pop(_question_key(q, lambda k: k, lambda v: v), None)
        if src is not None:
            pairs.append((q.id, src))
    return pairs


def read_twin_pairs(twin: Path) -> dict[str, str]:
    """Twin question id → source question id, from a twin release's ``twin_of.jsonl``."""
    from chronoqa.io import read_jsonl

    path = twin / TWIN_FILE
    if not path.is_file():
        raise ChronoqaError(f"{twin}: no {TWIN_FILE}, so it is not a twin release; make one with chronoqa twin")
    return {str(d["twin"]): str(d["source"]) for d in read_jsonl(path)}


def _source_graph(manifest: Mapping[str, Any], release: Path, source: Path | None) -> TemporalGraph:
    """The facts the release was built from: its named dataset, or ``source`` (its ``--input``)."""
    from chronoqa import datasets
    from chronoqa.sources import read_graph

    as_of = parse_time(manifest["config"]["as_of"], field="as_of")
    if source is not None:
        return read_graph(source, as_of=as_of, on_bad_row="skip")
    name = (manifest.get("sources") or {}).get("dataset")
    if not name:
        raise ChronoqaError(
            f"{release}: built from --input {manifest['sources'].get('input')!r}, which chronoqa twin cannot find: "
            "give the same file with --source FILE"
        )
    return datasets.load_graph(str(name), on_bad_row="skip", as_of=as_of)


def _datacard_section(rec: Mapping[str, Any]) -> str:
    t = rec["transform"]
    lines = [
        "",
        "## Counterfactual twin",
        "",
        f"This release is a counterfactual twin of `{rec['of']['dataset']}` (`{rec['of']['release']}`): its source "
        f"facts were transformed by `{t['kind']}` (seed {t['seed']}) and built again with the source release's "
        "configuration and seed; every question and gold is the builder's own.",
        "",
        "| field | value |",
        "|---|---|",
        *(f"| {k} | {v} |" for k, v in t.items() if k not in ("kind", "seed")),
        f"| questions paired to the source ({TWIN_FILE}) | {rec['pairs']:,} of {rec['questions']:,} |",
        "",
    ]
    return "\n".join(lines)


def _twin_phrases(manifest: Mapping[str, Any], t: Transform) -> PhraseTable | None:
    """The phrase table of the twin's world; ``None``: the recorded one as it is.

    A year shift moves the recorded table's declared divisions with the dates (Berlin, divided 1945-1990, is divided
    1973-2018 in a world 28 years later), and the years its declared names hold in.
    """
    from chronoqa.generate.kg.phrases import load_phrase_table
    from chronoqa.generate.rebuild import recorded_phrases

    if t.kind != "shift_years":
        return None
    table = load_phrase_table(recorded_phrases(manifest) or str(manifest["dataset"]))
    return table.shift_years(t.years) if table.divided or table.goes_by else None


def _rebuild_kg_twin(release: Path, kind: str, out: Path, *, seed: int, years: int, source: Path | None) -> Transform:
    """Write the ``kind`` twin of the KG release ``release`` into ``out``; returns the transform applied."""
    from chronoqa.artifacts.release import load_release
    from chronoqa.generate.kg.order import canonical_graph
    from chronoqa.generate.rebuild import rebuild_like
    from chronoqa.io import write_text

    real = load_release(release)
    manifest = real.manifest
    graph = canonical_graph(_source_graph(manifest, release, source), int(manifest["seed"]))
    t = _transform(kind, graph, manifest, seed, years, _vocabulary(real) if kind == "rename_entities" else frozenset())
    with tempfile.TemporaryDirectory(prefix="chronoqa-twin-") as tmp:
        facts = Path(tmp) / f"{manifest['dataset']}-{kind.replace('_', '-')}.tsv"
        _write_source(graph, t, facts)
        as_of = t.date("", manifest["config"]["as_of"])
        rebuild_like(release, facts, out, as_of=as_of, phrases=_twin_phrases(manifest, t), keep_order=True)
        write_text(out / TWIN_FACTS, facts.read_text(encoding="utf-8"))
    return t


def make_twin(
    release: Path,
    kind: str,
    out: Path,
    *,
    seed: int = 0,
    years: int = 0,
    source: Path | None = None,
    phrases: Path | None = None,
) -> dict[str, Any]:
    """Write the ``kind`` twin of ``release`` to ``out`` (see the module docstring); returns its ``twin`` record.

    A table release (:mod:`chronoqa.generate.twin_table`) reads its phrase file from ``phrases``, as
    ``chronoqa refresh`` does, or else the one its manifest records.
    """
    from chronoqa.artifacts.release import DATACARD_FILE, MANIFEST_FILE, load_release
    from chronoqa.generate.twin_table import rebuild_table_twin
    from chronoqa.io import write_json, write_jsonl, write_text

    real = load_release(release)
    manifest = dict(real.manifest)
    if not manifest:
        raise ChronoqaError(
            f"{release}: no {MANIFEST_FILE}, so chronoqa twin cannot tell how the release was built (its builder, "
            "graph and config): build the release with `chronoqa build`, which writes one"
        )
    if manifest.get("builder") != "table" and phrases is not None:
        raise ChronoqaError(
            f"--phrases {phrases}: a phrase file is for a table release; {release} is a KG release, whose phrase "
            "table its manifest records: leave out --phrases"
        )
    if manifest.get("builder") == "table":
        t = rebuild_table_twin(release, kind, out, seed=seed, years=years, source=source, phrases=phrases)
    else:
        t = _rebuild_kg_twin(release, kind, out, seed=seed, years=years, source=source)
    twin = load_release(out)
    pairs = pair_questions(real.questions, twin.questions, t)
    write_jsonl(out / TWIN_FILE, ({"twin": a, "source": b} for a, b in pairs))
    rec = {
        "of": {"dataset": manifest["dataset"], "release": release.name, "seed": manifest["seed"]},
        "transform": t.record(),
        "pairs": len(pairs),
        "questions": len(twin.questions),
        "source_questions": len(real.questions),
    }
    write_text(out / DATACARD_FILE, (out / DATACARD_FILE).read_text(encoding="utf-8") + _datacard_section(rec))
    write_json(out / MANIFEST_FILE, {**dict(twin.manifest), "twin": rec})
    return rec
