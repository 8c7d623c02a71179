"""INDEPENDENT checker of KG benchmark questions.

Written apart from the builder: it imports nothing from ``chronoqa.generate``. It reads the phrase
table's ``kind`` fields itself (plain ``tomllib``), keeps the graph as plain Python lists and dicts of
facts, decides validity with :func:`chronoqa.time.valid_at` alone, and recomputes every answer set
by brute force from the question's logical form over all facts of the graph. Semantics checked (the
documented ones, ``docs/kg-builder.md``):

* an event without an end happens at its start; an open-ended state (start, no end) is possibly valid
  until ``as_of``; it is certainly valid until ``as_of`` under the ``ongoing`` open-end reading and only
  in its start unit under the ``unknown`` reading (the reading is taken from the release's manifest,
  :func:`open_end_of`);
* reversed facts (start after end) are valid nowhere and ignored; so are facts with a non-year date (a
  start or end year that the release's recorded ``not_years`` setting lists for the fact's relation,
  :func:`not_years_of`), and no S*, S_dist, S_stale or S_anchor triple may be such an ignored fact;
* S* facts are *certainly* valid at ``t_query``; answer sets count every fact *possibly* valid.

World validity (:meth:`Checker.world_errors`, :func:`release_errors`), from the phrase table's own
declarations (``objects_at_once`` / ``subjects_at_once``, ``symmetric``, ``max_years``, ``role``):

* every hop that yields an entity (all hops of point_in_time / before_after, the static prefix of interval
  and sequence, the final hop of sequence) goes in a ``one`` direction (no open class);
* the time matters: the same path over facts valid at any time gives another answer set (sequence: the
  timeline has two or more distinct values);
* every hop matters: skipping an intermediate hop (going on from its source) gives another answer set; for
  interval, the named entity's own facts of the relation do not already pin the asked time;
* no raw id (``Q123``) in the text or the answers, no doubled function word, no noun phrase nested over two
  deep; first/last questions are marked ``assumes_complete``;
* no S*, S_anchor or negative fact has an implausible date, recomputed here by brute force;
* across a release: no two questions share a gold chain (symmetric facts read as one) and answer set, no
  test S* equals a train S*, and no entity answers more than 2% of an operator x hop cell of 50 or more.

Systematic defects (:func:`defect_report`, counted over a whole release; each should be 0):

* ``hop missing from text``: for each relation of the gold path, the question text holds fewer phrases of
  that relation (the literal words of its phrase-table fields, :func:`relation_cores`) than the path has
  hops over it ("What was the country of Kyiv Oblast?" for "the capital of the country of Kyiv Oblast");
* ``last over open ends``: a sequence "last" over a state timeline in which another spell has no end (it
  may still run after the answer's start, so "last" by start is not "most recently");
* ``open end read as ongoing``: an S* or S_anchor state fact with no end whose validity is asserted at a
  unit after its start unit (nothing in the data says it still held then);
* ``disambiguator in answer``: an answer label ending in a parenthesised disambiguator ("John Heard (actor)");
  where a namesake needs it, the question is not asked;
* ``graph-walk phrasing`` (:func:`graph_walk_errors`): a relational noun that ends in its slot ("the capital
  of {o}", read from the phrase table) followed by another ("the capital of the country of Riga"), or, in a
  question of two or more hops, one hop's declared ``answer_type`` word twice outside entity labels ("In which
  administrative unit was the administrative unit containing X located?");
* ``chain across regimes`` (:func:`regime_errors`, from the phrase table's ``containment`` declarations and
  the raw facts; ``capital_of`` counts as containment for the last rule only): a containment fact whose
  start (end) is its container's first start (last end) in the data, or falls at a batch unit of it (a quarter,
  and three at least, of the container's dated starts (ends): Germany 1990), used for its time (a reference fact,
  or the asked fact of a time, duration or yes/no question); a containment hop at a ``t_query`` outside the
  window of its part, where the part is itself a container (from the first start to the last end of the
  facts placing something in it, an open end counting up to its start); or a chain passing through an
  entity with two or more containers over the data from a containment hop to another kind of hop.
* ``direct parent read as membership`` (:func:`parent_change_errors`): a containment fact used for its time (as
  above) whose start (end) the data does not show to be a change of membership: in the year before (after) it,
  no other containment fact of the part is possibly valid, or one is whose container lies (transitively, over
  containment facts possibly valid that year, at most 8 levels up) inside the fact's container or has no
  container recorded that year (a unit with no containment facts at all ends a chain, but the earlier container
  itself counts as unknown unless the fact's container has none either). Cuxhaven "became part of Lower Saxony"
  in 2004 when its Regierungsbezirk, inside Lower Saxony, was abolished;
* ``youth side over age`` (:func:`youth_errors`): an S* or S_anchor fact with an under-N side ("U17", "U-21",
  "under-19", N from 14 to 23) starting more than N + 2 years after the person's birth year on the other side
  (older than N + 1 all year: a cycle's cut-off lets 22-year-olds play an under-21 final); also marked
  implausible here (``youth_over_age``);
* ``place presupposed in a life time`` (:func:`life_place_errors`): an interval question on a birth or death (a
  relation whose ``role`` is ``birth`` / ``death``) whose text names the place ("When was X born in Brooklyn?":
  the place is context, not the question), or whose subject has births (deaths) in two or more years;
* ``bridge or hub`` (:func:`bridge_errors`, from the TOML's ``[bridges]`` and the raw facts): a question of two
  or more hops with an intermediate entity named over a direction the TOML does not declare a bridge, over an
  ``at a time`` direction in a question that shows no time (a static prefix whose ``render_time`` is false)
  and pins none (a path step's ``at``, whose year the text states), or read at a time (``at``, else ``t_query``)
  not strictly between its fact's recorded start and end years; or with an intermediate entity
  or an entity answer that is a hub (the 1% of entities with a valid fact that have the most, ties in, and at
  least 20);
* ``value changes near the time`` (:func:`change_errors`, from the TOML's ``[bridges]`` and the raw facts): an
  ``at a time`` value read at ``t_query`` (a bridge, or the answer of point-in-time, before/after, relative, two
  facts and present state) where another fact of the same entity, relation and direction starts or ends within
  a year of it (several values in the year, or a change dated a year off: Kyiv's administrative unit in 1918);
  or such a value, or any answer read at ``t_query``, whose own spell starts (ends) in that year while no other
  spell of the group may hold the year before (after) and one lies further on (a gap in the record: the missing
  value may share the boundary year, Mertens's AGOVV Apeldoorn in 2006);
* ``closed-world superlative``: a sequence ``first`` question (no date closes a timeline's start), or a ``last``
  question that does not say "up to <horizon>" or whose answer's spell ended before the horizon year (a stale
  record: Berlin's "last" head of government Wowereit, to 2014). The horizon is recomputed here: the latest year
  holding at least 0.1% of the known start and end years of the facts valid somewhere, before ``as_of``'s year;
* ``containment of a non-place``: an S* or S_anchor fact whose relation's words presume a type of one side
  (``subject_type`` / ``object_type``) where no fact of the graph shows that entity is of the type (the TOML's
  ``[types.<name>] shown_by`` sides) and some fact shows it in another role (a side that neither shows nor
  presumes it): "Which country was the NIN Prize part of?";
* ``type the relation excludes``: an S* or S_anchor fact whose relation's words exclude a type of one side
  (``subject_not`` / ``object_not``) where a fact shows the entity is of it: "the year after Denmark received the
  Konrad-Duden Prize";
* ``unfit label``: a question naming or answering an entity the data shows is of a type whose label ends in a
  word that type's ``not_named`` lists ("Old Main street" for an administrative unit), or, for a type declaring
  ``not_articles``, whose label titles an article about a topic (:func:`article_title`: a list, a
  disambiguation page, "Political positions of Rudy Giuliani", "Presidency of X" where X is of the type too);
* ``one label, two entities``: an entity of a question's facts other than its answers shares its label with another
  entity of its facts, answers or the values it chooses among (the neighbours, over its relation and either way, of
  both ends of its final and reference facts), or two answers share one ("next after the Kingdom of Hungary" among
  a city's countries: 1000-1526 and 1940-1944): nothing names them apart;
* ``end of an open fact asked`` / ``end declared unknown asked`` (:func:`end_read_errors`): a question naming or
  comparing an end the data does not record, or one of a relation declared ``end_unknown`` (or reading its spell
  whole); ``relation declared unasked`` (:func:`unasked_errors`): a fact of an ``ask = false`` relation in a
  question's chain or reference; ``namesake asked bare`` (:func:`namesake_bare_errors`): an entity named or
  answered whose full label another entity of the graph bears;
* ``unrelated reference fact`` (:func:`unrelated_reference_errors`): a two-facts or relative question whose
  reference fact shares no entity with the names of its asked chain (anchor or bridge): two unrelated facts
  joined by a date ("At the time Pont Saint-Bénézet received the heritage designation, where was Karl
  Weierstraß educated?");
* ``duration over per-term spells`` (:func:`per_term_errors`): a duration over a state relation the data stores
  per term (at least 4%, and 10, of its dated (s, r, o) triples hold a spell starting at most a year after
  another's end): one spell in the graph need not be the whole tenure ("How long was Bevin an MP?");
* ``nested spell ordered`` (:func:`nested_order_errors`): a sequence, relative or before/after question ordering a
  state timeline (the reference fact in the asked subject's spells of the asked relation) where the reference's or
  the answer's spell is nested with another spell of that timeline and role (one starts strictly inside the other);
* ``end of a per-term spell`` (:func:`tenure_end_errors`): a question resting on the recorded end of a spell of a
  relation stored per term (a time reference ``end`` of the answer or anchor fact; a yes/no ``yes`` asks inside the
  spell and rests on none) where that end is not a tenure's: spells of one (s, r, o) that touch (the next starts at
  most a year after the previous end) are one tenure whose only end is its last, and that end counts only where in
  a direction the TOML declares ``one`` another value starts in the end year or the next (another club joined,
  a successor in office);
* ``role asked as the relation``: an answer that is the object of a gold fact whose relation declares roles
  (``[relations.<key>.roles.<role>]``), whose label holds one of the role's ``object_named`` words, asked by a
  question that does not name the role ("which team did X play for?" answered by a national team); a role that
  keeps the relation's question (no ``ask_object`` of its own: Wikidata's P166 titles) is asked as the relation;
* ``role not named in a two-role timeline`` (:func:`role_unnamed_errors`): a question asking for the object of a
  fact whose relation declares roles, of a subject holding spells of two roles of it (a club and a national
  team), whose text does not name the answer's role (its name; the relation's own: its ``answer_type``, "club")
  or names another's ("After Cheltenham, which team did Craig Dobson play for next?": Barnet and Jamaica);
* ``end of a move within a club`` (:func:`squad_move_errors`): a question reading the end of a spell of a relation
  declared ``squads`` (its end, its length, "still in", :func:`ends_read`) where the subject's spell at the same
  club's other team (a label one marker word longer or shorter, the marker extending two labels of the relation's
  objects or a single letter: "B", "II", "Academy") starts in its end unit or the next (Fonte's Sporting CP youth
  spell to 2002, then Sporting CP B);
* ``end of a loan`` (:func:`loan_errors`): a question reading the end of a spell of a relation declaring
  ``one_spell_per_object`` (its end, its length, "still in", :func:`ends_read`) that lies within another spell of
  the subject of the same role (:meth:`Checker.role_of`), both ends recorded, the other starting no later and ending
  no earlier (Keogh's Carlisle United loan 2007-2008 inside Bristol City 2005-2008: the source keeps one spell per
  club, so his permanent Carlisle spell is lost and the loan's end is no leaving);
* ``date by convention compared`` (:func:`convention_errors`): a question asking the date of a fact of a relation
  declaring ``date_convention`` (Wikidata dates a nomination by the film's year), or comparing or pairing it with
  a fact of another relation;
* ``year uncertain by one used`` (:func:`year_uncertain_errors`): a question using, as gold, hop, anchor or reference,
  a fact whose object's label holds every word of a mark its relation declares ``year_uncertain`` (an award at a
  ceremony early in the year after the work: Wikidata dates it by either year, so it is one too early or right);
* ``country asked as administrative unit`` (:func:`country_unit_errors`): a question whose chain reaches a country
  (an entity the data shows as the object of a relation whose ``answer_type`` is "country", not marked a Soviet
  republic) over a hop whose words say "administrative unit" while the question does not say "country";
* ``nested clause before a verb`` (:func:`nested_clause_errors`): a relative clause ending in its verb or
  preposition ("the administrative unit X was in") followed by another clause's verb ("... was in part of");
* ``non-value asked as a value`` (:func:`no_value_errors`): a question using, as gold, hop, anchor or reference, a
  fact whose object its relation declares ``no_value`` (the absence of a value: "independent politician" for a
  party), or naming that object;
* ``confederation asked as a country`` (:func:`confederation_errors`): a chain reaching an entity whose label holds
  the word "Confederation" in a question that says "country" (Brunswick in the German Confederation, 1823);
* ``bulk-dated start asked`` (:func:`bulk_start_errors`): a question that asks, bounds or refers to the start of a
  state fact one of ten or more of its subject's facts of that relation share, none with an end (a batch's date:
  Radio New Zealand's 24 stations "acquired" in 1996);
* ``youth side asked as a national team`` (:func:`youth_team_errors`): a question answered by a youth or Olympic
  national team ("Turkey national under-21 football team") that asks for a "national team" without its level (the
  player's senior side, which the data may lack, answers it as well);
* ``capital outside its polity`` (:func:`capital_polity_errors`): a question that asks a place's container at its
  time (as answer or bridge) while the place is then possibly the capital of another container that no containment
  fact places it in (Moscow, the RSFSR's capital from 1918, recorded in it from 1931: "in 1927, in which unit was
  Moscow located?" has the RSFSR as a second answer the data leaves out);
* ``level named ambiguously`` (:func:`level_errors`): a question that describes a container by its relation's
  words (a hop reaching it over a part-of relation, or a contains relation read backwards, as a bridge or as an
  entity answer: "the Soviet republic X was in", "in which administrative unit was X located") while the words fit
  another level too: the dated containment facts possibly valid then place the hop's part (directly or up to 8
  levels up, the container's own containers among them) in another entity, not an answer, that some fact of the
  hop's relation places something in and that holds the container's role under it (the TOML's role, by its label
  or its sides, else the relation's own words: Cuxhaven's Lüneburg Government Region in 1993 beside Lower Saxony;
  Berlin's German Empire in 1893 beside the Kingdom of Prussia); or the container's own role extends the role the
  text names and the text does not name it ("the Soviet republic Sevastopol was in" in 1924 for the Crimean ASSR,
  an autonomous republic inside the RSFSR);
* ``level not named`` (:func:`described_errors`): a question that describes a container (a hop reaching it over a
  part-of relation, or a contains relation read backwards, as a bridge or as an entity answer, at any time) by words
  the TOML declares ``levels_unnamed``: the role the fact's object holds (its label's marker or its sides), else the
  relation's own ("in which administrative unit was Kutzenhausen located?": its Kreis, Unterelsaß and
  Alsace-Lorraine alike);
* ``union asked as a country`` (:func:`described_errors`): likewise, words whose role the TOML declares
  ``union_of_states`` ("which country was X part of?" -> Austria-Hungary, for a place in the Kingdom of Hungary);
* ``disambiguator repeated`` (:func:`repeated_disambiguator_errors`): a parenthesised disambiguator written twice
  after the same word in one question ("Billy Clarke (footballer, born 1987) ... did Billy Clarke (footballer, born
  1987) leave"), save where another entity of the question reads the same without its brackets (only they tell the
  two apart);
* ``name repeated`` (:func:`repeated_name_errors`): a gold fact's subject or object label, without its
  disambiguator, written twice in one question ("How many years after X joined Y did X leave Y?": English writes
  "after joining Y did X leave it"), save where another entity of the question reads the same;
* ``order fixed by a life`` (:func:`life_order_errors`): an Allen before / after comparison (not "in the same year",
  not "still") of a birth or death fact (TOML ``role``) with a fact of which its subject is the subject or the object
  ("Is it true that Betty Hutton married Alan W. Livingston after Alan W. Livingston died?": no, always);
* ``asked at a boundary unit`` (:func:`boundary_errors`): a point-in-time, present-state or yes/no question asking
  a state in the start or end unit of a spell its gold rests on (a unit of change: "Who was De Palma married to in
  1984?", the marriage recorded 1979-1984); a ``no`` not strictly inside a spell of another value and within a
  unit of a spell of its timeline;
* ``residence read as a move`` (:func:`residence_move_errors`): a question that asks, bounds or refers to (a time,
  duration or yes/no answer's fact, or its reference fact) a fact of a relation declared ``residence`` whose start
  the data gives no reason to read as a move: its place is the subject's birthplace (the object of a ``birth``
  fact) or lies in it or contains it (containment facts at any time, followed transitively), or it spans one unit
  with no earlier residence of the subject elsewhere ("At the time Mikhail Pogodin moved to Moscow": 1833 only);
  and a question reading such a fact's end (:func:`ends_read`: named, compared or the spell read whole) with no
  later residence of the subject elsewhere (starting in the end unit or after): an end there is no move away
  (Moholy-Nagy's Chicago residence ends in 1946 because he died there);
* ``start at birth asked`` (:func:`birth_start_errors`): the same for a fact of a relation declared ``from_birth``
  (citizenship) whose start is the subject's birth: the unit of a dated ``birth`` fact of the subject, or, with
  none, the start of the subject's whole record as for ``status at founding`` ("When did Villumsen become a citizen
  of Denmark?" -> 1985);
* ``divided entity`` (:func:`divided_errors`): a question reading, at a year of its span, a fact the TOML's
  ``[divided]`` table makes a divided place's own (the place its subject, or either side of a symmetric relation):
  every gold and reference fact read at ``t_query``, and a reference fact, or the asked fact of a time, duration or
  yes/no question, at its start and end year too ("As of 1980, who was the head of government of Berlin?" -> West
  Berlin's mayor); a fact of another subject placed in it (lived in) holds in either half;
* ``bridge named twice in a duration``: a duration question of two hops or more (its spell is named at its start and
  at its end, so the bridge's description reads twice: "the spouse of X as of 1970 ... that spouse").

The last two rules also mark facts implausible here (``not_of_type``, ``label_unfit``), recomputed by brute force;
so does ``mirror_disagrees``: a fact of a ``symmetric`` relation whose dated mirror facts ``(o, r, s)`` all state
other start or end years (where both state one); and ``birth_contradicted``: a birth at least two, and at least
half, of its subject's facts of no ``role`` with a start precede (no birth then for ``before_birth`` and the youth
rules).
"""

from __future__ import annotations

import math
import re
import statistics
import tomllib
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from itertools import pairwise, product
from pathlib import Path

from chronoqa.records import Fact, Question, TemporalGraph, Triple
from chronoqa.time import Granularity, Interval, TimePoint, days_from_civil, parse_time, valid_at

PHRASES = Path(__file__).resolve().parents[1] / "src" / "chronoqa" / "generate" / "phrases"


def kinds_from_toml(path: Path, graph: TemporalGraph) -> dict[str, str]:
    """Relation id -> "state"/"event", read straight from a phrase TOML (by id, else by label)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))["relations"]
    out = {}
    for r in {f.r for f in graph.facts}:
        entry = data.get(r) or data.get(graph.relation_label(r))
        assert entry is not None, f"no phrase entry for {r}"
        out[r] = entry["kind"]
    return out


def declarations_from_toml(path: Path, graph: TemporalGraph) -> dict[str, dict[str, object]]:
    """Relation id -> its phrase-table entry (plus ``default_max_years``), read straight from the TOML."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = {}
    for r in {f.r for f in graph.facts}:
        entry = data["relations"].get(r) or data["relations"].get(graph.relation_label(r))
        assert entry is not None, f"no phrase entry for {r}"
        out[r] = {**entry, "default_max_years": data.get("default_max_years", 100)}
    return out


def bridges_from_toml(path: Path, graph: TemporalGraph) -> dict[tuple[str, str], str]:
    """(relation id, "object" | "subject") -> the declared ``holds`` of the TOML's ``[bridges]`` table."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    out = {}
    for item, entry in data.get("bridges", {}).items():
        key, side = item.rsplit(" ", 1)
        for r in {f.r for f in graph.facts}:
            if key in (r, graph.relation_label(r)):
                out[(r, side)] = entry["holds"]
    return out


def divided_from_toml(path: Path) -> dict[str, tuple[int, int]]:
    """Entity id -> (first year, last year) of the TOML's ``[divided]`` table, read straight from it."""
    data = tomllib.loads(path.read_text(encoding="utf-8")).get("divided", {})
    return {e: (int(entry["from"]), int(entry["to"])) for e, entry in data.items()}


def types_from_toml(path: Path) -> dict[str, dict[str, object]]:
    """Type name -> its ``[types.<name>]`` table (``shown_by``, ``not_named``), read straight from the TOML."""
    return dict(tomllib.loads(path.read_text(encoding="utf-8")).get("types", {}))


RAW_ID = re.compile(r"(?<![\w-])[QP]\d+(?![\w-])")
DOUBLED = re.compile(r"\b(in|the|of|a|an|to|for|by|with|at|from|was|did|on)\s+\1\b", re.IGNORECASE)
# the documented titles of an office of a holder's spouse (docs/kg-builder.md, not_spouse_roles)
SPOUSE_OFFICE = re.compile(r"\b(?:first (?:lady|gentleman|spouse)|consort)\b", re.IGNORECASE)
CENTURIES = 300  # the documented century-outlier distance (docs/kg-builder.md)


def open_end_of(manifest: Mapping[str, object]) -> str:
    """The open-end reading a release declares (``manifest["open_end"]["reading"]``); ``ongoing`` if absent."""
    entry = manifest.get("open_end")
    if isinstance(entry, Mapping):
        reading = entry.get("reading")
        assert reading in ("ongoing", "unknown"), f"bad open_end reading {reading!r}"
        return str(reading)
    return "ongoing"


def not_years_of(manifest: Mapping[str, object]) -> dict[str, set[int]]:
    """The non-year setting a release records (``manifest["not_years"]["years"]``: relation id -> years)."""
    entry = manifest.get("not_years")
    if not isinstance(entry, Mapping):
        return {}
    years = entry.get("years")
    assert isinstance(years, Mapping), f"bad not_years record {entry!r}"
    out: dict[str, set[int]] = {}
    for r, ys in years.items():
        assert isinstance(ys, list) and all(isinstance(y, int) for y in ys), f"bad not_years entry {r}: {ys!r}"
        out[str(r)] = set(ys)
    return out


class Checker:
    """Brute-force verifier over all facts of a graph."""

    def __init__(
        self,
        graph: TemporalGraph,
        kinds: Mapping[str, str],
        granularity: str = "year",
        as_of: str = "2026-01-01",
        labels: Mapping[str, str] | None = None,
        open_end: str = "ongoing",
        not_years: Mapping[str, set[int]] | None = None,
        decl: Mapping[str, Mapping[str, object]] | None = None,
        types: Mapping[str, Mapping[str, object]] | None = None,
        bridges: Mapping[tuple[str, str], str] | None = None,
        bridges_declared: bool | None = None,
        entity_subset: bool = False,
        divided: Mapping[str, tuple[int, int]] | None = None,
    ) -> None:
        assert open_end in ("ongoing", "unknown")
        self.divided = dict(divided or {})  # the TOML's [divided]: entity id -> (first year, last year)
        self.entity_subset = entity_subset  # the TOML's top-level entity_subset: a gap in a timeline is missing data
        self.bridges = dict(bridges or {})
        # the table has a [bridges] table (its rules apply, even where none of the graph's relations is declared)
        self.bridges_declared = bool(self.bridges) if bridges_declared is None else bridges_declared
        self.decl = dict(decl or {})
        self.types = dict(types or {})
        self.symmetric = {r for r, d in self.decl.items() if d.get("symmetric")}
        self.open_end = open_end
        self.not_years = {r: set(ys) for r, ys in (not_years or {}).items()}
        self.graph = graph
        self.kinds = kinds
        self.g = Granularity.parse(granularity)
        asof = parse_time(as_of)
        assert asof is not None
        self.as_of: TimePoint = asof
        self.labels = dict(labels or {})
        self.by_id: dict[int, Fact] = {f.id: f for f in graph.facts}
        self.good: list[Fact] = [f for f in graph.facts if not self.ignored(f)]
        # plain lists of facts touching each entity (a convenience: every answer set below is still
        # computed by scanning *all* facts of that entity, never a sample)
        self.touching: dict[str, list[Fact]] = defaultdict(list)
        for f in self.good:
            self.touching[f.s].append(f)
            if f.o != f.s:
                self.touching[f.o].append(f)
        self._labelled: dict[str, list[str]] | None = None  # label -> entities, on first use
        self.shown: dict[str, set[str]] = self._shown_types()
        self.implausible: dict[int, str] = self._find_implausible() if self.decl else {}
        self._triples: Counter[tuple[object, ...]] | None = None  # canonical (s, r, o) -> facts, on first use

    @classmethod
    def from_table(cls, graph: TemporalGraph, path: Path, **kw: object) -> Checker:
        """A checker with the kinds and world declarations of the phrase TOML at ``path``."""
        decl = declarations_from_toml(path, graph)
        bridges = bridges_from_toml(path, graph)
        top = tomllib.loads(path.read_text(encoding="utf-8"))
        return cls(
            graph, kinds_from_toml(path, graph), decl=decl, types=types_from_toml(path), bridges=bridges,
            bridges_declared="bridges" in top, entity_subset=bool(top.get("entity_subset", False)),
            divided=divided_from_toml(path), **kw,  # type: ignore[arg-type]
        )  # fmt: skip

    # -- semantics ---------------------------------------------------------------------------------
    def interval(self, f: Fact) -> Interval:
        if self.kinds[f.r] == "event" and f.end is None and f.start is not None:
            return Interval(f.start, f.start)
        return Interval(f.start, f.end)

    def _reversed(self, f: Fact) -> bool:
        return f.start is not None and f.end is not None and f.start.lo(self.g) > f.end.hi(self.g)

    def non_year(self, f: Fact) -> bool:
        """A start or end year listed as not a year for the fact's relation."""
        listed = self.not_years.get(f.r, set())
        return (f.start is not None and f.start.year in listed) or (f.end is not None and f.end.year in listed)

    def ignored(self, f: Fact) -> bool:
        """Valid nowhere: reversed, or with a non-year date."""
        return self._reversed(f) or self.non_year(f)

    def possible(self, f: Fact, t: TimePoint) -> bool:
        return valid_at(self.interval(f), t, self.g, as_of=self.as_of, mode="possible")

    def certain(self, f: Fact, t: TimePoint) -> bool:
        iv = self.interval(f)
        if self.open_end == "unknown" and self.kinds[f.r] == "state" and f.start is not None and f.end is None:
            # no end recorded: nothing is asserted after the start unit
            iv = Interval(f.start, f.start)
        return valid_at(iv, t, self.g, as_of=self.as_of, mode="certain")

    def label(self, e: str) -> str:
        return self.labels.get(e) or self.graph.entity_label(e)

    def neighbours(self, e: str, r: str, fwd: bool) -> list[tuple[Fact, str]]:
        out = []
        sym = r in self.symmetric
        for f in self.touching.get(e, ()):
            if f.r != r:
                continue
            if sym:  # read the same both ways; traversed forward only
                if fwd:
                    out.append((f, f.o if f.s == e else f.s))
            elif fwd and f.s == e:
                out.append((f, f.o))
            elif not fwd and f.o == e:
                out.append((f, f.s))
        return out

    def unit_iso(self, p: TimePoint | None) -> str | None:
        if p is None or p.granularity < self.g:
            return None
        return TimePoint.from_unit(p.lo(self.g), self.g).isoformat()

    # -- checks ------------------------------------------------------------------------------------
    def check_triple(self, t: Triple, errs: list[str], where: str) -> Fact | None:
        f = self.by_id.get(t.fact_id)
        if f is None:
            errs.append(f"{where}: fact {t.fact_id} is not in the graph")
            return None
        if (t.s_id, t.r_id, t.o_id) != (f.s, f.r, f.o):
            errs.append(f"{where}: ids {(t.s_id, t.r_id, t.o_id)} differ from fact {f}")
        if t.s != self.label(f.s) or t.o != self.label(f.o) or t.r != self.graph.relation_label(f.r):
            errs.append(f"{where}: labels {(t.s, t.r, t.o)} differ from the fact's")
        ts = None if f.start is None else f.start.isoformat()
        te = None if f.end is None else f.end.isoformat()
        if (t.t_start, t.t_end) != (ts, te):
            errs.append(f"{where}: times {(t.t_start, t.t_end)} differ from the fact's {(ts, te)}")
        if t.doc_id != f"F{f.id}":
            errs.append(f"{where}: doc id {t.doc_id} is not F{f.id}")
        if self.ignored(f):
            errs.append(f"{where}: fact {f.id} {f.interval} is reversed or has a non-year date (valid nowhere)")
        return f

    def check(self, q: Question, flags: tuple[bool, bool] | None = None) -> list[str]:
        errs: list[str] = []
        lf = q.logical_form
        tq = parse_time(q.t_query)
        if tq is None:
            return [f"{q.id}: no t_query"]
        if parse_time(q.as_of) != self.as_of or q.granularity != str(self.g):
            errs.append(f"{q.id}: as_of/granularity differ from the build's")
        star = [self.check_triple(t, errs, f"{q.id} S*") for t in q.S_star]
        if errs or any(f is None for f in star):
            return errs
        facts: list[Fact] = [f for f in star if f is not None]
        path = lf["path"]
        chain = facts[: len(path)]
        # 1. S* is a valid chain from the anchor along the path
        cur = lf["anchor"]
        nodes = [cur]
        for step, f in zip(path, chain, strict=True):
            fwd = step["dir"] == "fwd"
            if f.r in self.symmetric and fwd and cur in (f.s, f.o):
                cur = f.o if f.s == cur else f.s
                nodes.append(cur)
                continue
            if f.r != step["r"] or (f.s if fwd else f.o) != cur:
                errs.append(f"{q.id}: S* fact {f.id} does not continue the chain at {cur} over {step}")
                return errs
            cur = f.o if fwd else f.s
            nodes.append(cur)
        # 2. every S* fact certainly valid at t_query (a yes/no "no": the asked fact is the one that does not hold)
        for i, f in enumerate(facts):
            if op_is_no(q) and i == len(path) - 1:
                continue
            if not self.certain(f, tq):
                errs.append(f"{q.id}: S* fact {f.id} {f.interval} not valid at {q.t_query}")
        # 3. answers recomputed over the whole graph
        op = q.operator
        if op in ("point_in_time", "before_after", "two_facts", "relative"):
            current = {lf["anchor"]}
            for i, step in enumerate(path):
                nxt = set()
                for e in current:
                    for f, other in self.neighbours(e, step["r"], step["dir"] == "fwd"):
                        if self.possible(f, tq):
                            nxt.add(other)
                if i < len(path) - 1 and nxt != {nodes[i + 1]}:
                    errs.append(f"{q.id}: hop {i + 1} is not unique at {q.t_query}: {sorted(nxt)[:5]}")
                    return errs
                current = nxt
            if current != set(q.answer_ids):
                errs.append(f"{q.id}: answer set {sorted(current)[:5]} != {list(q.answer_ids)}")
            if q.cardinality == "unique" and len(current) != 1:
                errs.append(f"{q.id}: labelled unique with {len(current)} answers")
            if nodes[-1] not in current:
                errs.append(f"{q.id}: chain end {nodes[-1]} is not an answer")
            if op == "before_after":
                self._check_reference(q, tq, errs)
            elif op == "two_facts":
                self._check_other_fact(q, tq, nodes, errs)
            elif op == "relative":
                self._check_relative(q, tq, nodes, errs)
            elif q.S_anchor:
                errs.append(f"{q.id}: point_in_time with S_anchor")
        elif op in ("interval", "sequence", "duration", "yes_no", "present_state", "allen"):
            for i in range(len(path) - 1):
                step = path[i]
                at = parse_time(step["at"]) if "at" in step else None  # a pinned bridge: unique at its time
                others = {
                    o for f, o in self.neighbours(nodes[i], step["r"], step["dir"] == "fwd")
                    if at is None or self.possible(f, at)
                }  # fmt: skip
                if others != {nodes[i + 1]}:
                    errs.append(f"{q.id}: static hop {i + 1} is not unique: {sorted(others)[:5]}")
                    return errs
            e, last = nodes[-2], path[-1]
            fwd = last["dir"] == "fwd"
            if op == "interval":
                matches = [f for f, o in self.neighbours(e, last["r"], fwd) if o == lf["final_other"]]
                if len(matches) != 1:
                    errs.append(f"{q.id}: {len(matches)} facts for the asked triple")
                    return errs
                f = matches[0]
                want = self.unit_iso(f.end if lf["variant"] == "end" else f.start)
                if want is None or [want] != list(q.answers) or want != q.t_query:
                    errs.append(f"{q.id}: interval answer {q.answers} / t_query {q.t_query} != {want}")
                if f.id != facts[-1].id:
                    errs.append(f"{q.id}: S* final fact is not the asked fact")
            elif op == "sequence":
                self._check_sequence(q, e, last["r"], fwd, lf, facts, errs)
            elif op == "present_state":
                self._check_present(q, e, last["r"], fwd, tq, facts, errs)
            else:
                matches = [f for f, o in self.neighbours(e, last["r"], fwd) if o == lf["final_other"]]
                if len(matches) != 1 or matches[0].id != facts[-1].id:
                    errs.append(f"{q.id}: {len(matches)} facts for the asked triple, or not the S* one")
                    return errs
                if op == "duration":
                    self._check_duration(q, matches[0], tq, errs)
                elif op == "yes_no":
                    self._check_yes_no(q, e, matches[0], tq, errs)
                else:
                    self._check_allen(q, matches[0], nodes, errs)
        else:
            errs.append(f"{q.id}: unknown operator {op}")
        for t in q.S_anchor:
            self.check_triple(t, errs, f"{q.id} S_anchor")
        # 4. negatives and flags
        star_ids = {f.id for f in facts}
        gold_sr = {(f.s, f.r) for f in facts}
        gold_sro = {(f.s, f.r, f.o) for f in facts}
        dist_ok = []
        for t in q.S_dist:
            f = self.check_triple(t, errs, f"{q.id} S_dist")
            dist_ok.append(
                f is not None
                and f.id not in star_ids
                and (f.s, f.r) in gold_sr
                and any((f.s, f.r) == (g.s, g.r) and f.o != g.o for g in facts)
            )
        stale_ok = []
        for t in q.S_stale:
            f = self.check_triple(t, errs, f"{q.id} S_stale")
            stale_ok.append(
                f is not None and f.id not in star_ids and (f.s, f.r, f.o) in gold_sro and not self.possible(f, tq)
            )
        if not all(dist_ok):
            errs.append(f"{q.id}: an S_dist fact breaks its definition")
        if not all(stale_ok):
            errs.append(f"{q.id}: an S_stale fact breaks its definition")
        if flags is not None:
            want = (bool(dist_ok) and all(dist_ok), bool(stale_ok) and all(stale_ok))
            if tuple(flags) != want:
                errs.append(f"{q.id}: flags {flags} != {want}")
        # 5. leaks and render_time
        for a in q.answers if op not in ("yes_no", "allen") else ():  # "no" in a yes/no question is no leak
            needles = [a]
            if q.answer_type == "time":
                p = parse_time(a)
                assert p is not None
                needles.append(str(p.year))
            for n in needles:
                if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", q.question, re.IGNORECASE):
                    errs.append(f"{q.id}: question text contains its answer {n!r}")
        # 6. time_refs contract: which in {start, end}, of in {answer, anchor}, values at the fact's ends
        for tr in q.time_refs:
            if tr.get("which") not in ("start", "end") or tr.get("of") not in ("answer", "anchor"):
                errs.append(f"{q.id}: bad time_refs entry {tr}")
            elif tr["of"] == "anchor":
                ref = self.by_id.get(lf["reference_fact"]) if lf.get("reference_fact") is not None else None
                p = None if ref is None else (ref.start if tr["which"] == "start" else ref.end)
                if p is None or p.isoformat() != tr["value"]:
                    errs.append(f"{q.id}: anchor time_ref {tr} is not the reference fact's {tr['which']}")
            elif op in ("duration", "yes_no", "allen") and tr["which"] == "end":
                end = facts[len(path) - 1].end
                if end is None or tr["value"] != end.isoformat():
                    errs.append(f"{q.id}: answer end time_ref {tr} is not the asked fact's end {end}")
            elif tr["value"] != q.t_query:
                errs.append(f"{q.id}: answer time_ref {tr} != t_query {q.t_query}")
        if q.render_time != (op in ("point_in_time", "yes_no", "present_state")):
            errs.append(f"{q.id}: render_time {q.render_time} for {op}")
        return errs

    def _check_reference(self, q: Question, tq: TimePoint, errs: list[str]) -> None:
        lf = q.logical_form
        ref = self.by_id.get(lf["reference_fact"])
        if ref is None or len(q.S_anchor) != 1 or q.S_anchor[0].fact_id != ref.id:
            errs.append(f"{q.id}: S_anchor is not the reference fact")
            return
        if self._triples is None:
            self._triples = Counter(self.canon(f)[:3] for f in self.good)
        same = self._triples[self.canon(ref)[:3]]
        if same != 1:
            errs.append(f"{q.id}: reference event is ambiguous ({same} facts)")
        if lf["anchor"] not in (ref.s, ref.o):
            errs.append(f"{q.id}: the reference fact is not the anchor's")
        if ref.start is None or ref.start.lo(self.g) + lf["offset"] != tq.lo(self.g) or lf["offset"] not in (-1, 1):
            errs.append(f"{q.id}: t_query {q.t_query} is not the reference start {ref.start} {lf['offset']:+d}")

    def _check_other_fact(self, q: Question, tq: TimePoint, nodes: Sequence[str], errs: list[str]) -> None:
        """two_facts: t_query is the start unit of an unambiguous, known-start fact of a named chain entity."""
        lf = q.logical_form
        ref = self.by_id.get(lf["reference_fact"]) if lf.get("reference_fact") is not None else None
        if ref is None or len(q.S_anchor) != 1 or q.S_anchor[0].fact_id != ref.id:
            errs.append(f"{q.id}: S_anchor is not the reference fact")
            return
        if self._triples is None:
            self._triples = Counter(self.canon(f)[:3] for f in self.good)
        if self._triples[self.canon(ref)[:3]] != 1:
            errs.append(f"{q.id}: reference fact {ref.id} is ambiguous")
        named = set(nodes[:-1]) - set(q.answer_ids)  # the anchor and the bridges
        shared = {ref.s, ref.o} & named
        if len(shared) != 1 or ({ref.s, ref.o} - shared) & (set(nodes) | set(q.answer_ids)):
            errs.append(f"{q.id}: the reference fact {ref.id} shares no one named entity with the chain, or touches "
                        "another or the answer")  # fmt: skip
        if ref.start is None or self.unit_iso(ref.start) != q.t_query or lf["offset"] != 0:
            errs.append(f"{q.id}: t_query {q.t_query} is not the reference start {ref.start}")
        if [tr["which"] for tr in q.time_refs] != ["start"]:
            errs.append(f"{q.id}: time_refs {q.time_refs} is not the reference start")

    def _unique_triple(self, f: Fact) -> bool:
        if self._triples is None:
            self._triples = Counter(self.canon(g)[:3] for g in self.good)
        return self._triples[self.canon(f)[:3]] == 1

    def _reference_fact(self, q: Question, errs: list[str]) -> Fact | None:
        """The logical form's reference fact: the one S_anchor fact, the only fact with its (s, r, o)."""
        lf = q.logical_form
        ref = self.by_id.get(lf["reference_fact"]) if lf.get("reference_fact") is not None else None
        if ref is None or len(q.S_anchor) != 1 or q.S_anchor[0].fact_id != ref.id:
            errs.append(f"{q.id}: S_anchor is not the reference fact")
            return None
        if not self._unique_triple(ref):
            errs.append(f"{q.id}: reference fact {ref.id} is ambiguous")
        return ref

    def _check_relative(self, q: Question, tq: TimePoint, nodes: Sequence[str], errs: list[str]) -> None:
        """relative: t_query is the anchor's reference fact's start (offset 2 or 3) or recorded end (1 to 3) +- n."""
        lf = q.logical_form
        ref = self._reference_fact(q, errs)
        if ref is None:
            return
        side, which = lf["variant"].split("_")
        if lf["anchor"] not in (ref.s, ref.o) or ({ref.s, ref.o} - {lf["anchor"]}) & (set(nodes) | set(q.answer_ids)):
            errs.append(f"{q.id}: the reference fact {ref.id} is not the anchor's, or touches the chain")
        point = ref.start if which == "start" else ref.end
        if which == "end" and self.kinds[ref.r] != "state":
            errs.append(f"{q.id}: an event has no end to count from")
        allowed = {2, 3} if which == "start" else {1, 2, 3}
        off = lf["offset"]
        if abs(off) not in allowed or (off > 0) != (side == "after"):
            errs.append(f"{q.id}: offset {off} not allowed {side} a {which}")
        if point is None or self.unit_iso(point) is None:
            errs.append(f"{q.id}: the reference {which} is not recorded at the granularity")
            return
        if self.units(point, tq) != off:
            errs.append(f"{q.id}: t_query {q.t_query} is not the reference {which} {point} {off:+d}")
        if [(tr["which"], tr["of"]) for tr in q.time_refs] != [(which, "anchor")]:
            errs.append(f"{q.id}: time_refs {q.time_refs} is not the reference {which}")

    def endpoint(self, f: Fact, which: str) -> int | str | None:
        """A fact's endpoint as a unit number (``None``: not recorded; ``"bad"``: no known start, or an event over
        several units). An event is read at its start."""
        if f.start is None or self.unit_iso(f.start) is None:
            return "bad"
        if self.kinds[f.r] == "event":
            if f.end is not None and self.unit_iso(f.end) != self.unit_iso(f.start):
                return "bad"
            p: TimePoint | None = f.start
        else:
            p = f.start if which == "start" else f.end
        if p is None or self.unit_iso(p) is None:
            return None
        if self.g is Granularity.YEAR:
            return p.year
        if self.g is Granularity.MONTH:
            assert p.month is not None
            return p.year * 12 + p.month
        assert p.month and p.day
        return days_from_civil(p.year, p.month, p.day)

    def comparison(self, a: Fact, b: Fact, variant: str) -> bool | None:
        """The truth of a comparison over every completion of the record (``None``: the record leaves it open).

        Each endpoint lies somewhere inside its unit (tried at a quarter and three quarters of it); an end that is
        not recorded lies anywhere at or after its start (tried at every unit up to past the other endpoints).
        """
        ends = {(f.id, w): self.endpoint(f, w) for f in (a, b) for w in ("start", "end")}
        if "bad" in ends.values():
            return None
        known = [v for v in ends.values() if isinstance(v, int)]
        span = range(min(known), max(known) + 3)
        choices = []
        for (fid, _), v in ends.items():
            start = ends[(fid, "start")]
            assert isinstance(start, int)
            units = [v] if v is not None else [u for u in span if u >= start]
            choices.append([u + frac for u in units for frac in (0.25, 0.75)])
        truths = set()
        for sa, ea, sb, eb in product(*choices):
            if ea < sa or eb < sb:
                continue
            if variant == "still":
                if sb > ea:
                    truths.add(False)
                elif sa < sb < ea:
                    truths.add(True)
                else:
                    truths.add(None)
                continue
            pa, op, pb = variant.split("_")
            x, y = (sa if pa == "start" else ea), (sb if pb == "start" else eb)
            truths.add(int(x) == int(y) if op == "same" else (x < y if op == "before" else x > y))
        return truths.pop() if len(truths) == 1 else None

    def _check_allen(self, q: Question, a: Fact, nodes: Sequence[str], errs: list[str]) -> None:
        """allen: a fact of the named entity, unambiguous and off the chain; its comparison with A gives the label."""
        lf = q.logical_form
        b = self._reference_fact(q, errs)
        if b is None:
            return
        if b.id == a.id or lf["final_other"] not in (b.s, b.o):
            errs.append(f"{q.id}: the reference fact {b.id} is not another fact of {lf['final_other']}")
        if ({b.s, b.o} - {lf["final_other"]}) & set(nodes):
            errs.append(f"{q.id}: the reference fact {b.id} touches the chain")
        if not self._unique_triple(a):
            errs.append(f"{q.id}: the asked fact {a.id} is ambiguous")
        truth = self.comparison(a, b, lf["variant"])
        if truth is None or list(q.answers) != ["yes" if truth else "no"] or q.answer_ids != q.answers:
            errs.append(f"{q.id}: comparison {lf['variant']} of {a.interval} and {b.interval} is {truth}: {q.answers}")

    def allen_relation(self, a: Fact, b: Fact) -> str:
        """The Allen relation of two recorded windows (unit spans read half-open), or ``undetermined``."""
        ends = [self.endpoint(f, w) for f in (a, b) for w in ("start", "end")]
        if not all(isinstance(v, int) for v in ends):
            return "undetermined"
        a0, a1, b0, b1 = (int(v) for v in ends)  # type: ignore[arg-type]
        a1, b1 = a1 + 1, b1 + 1
        table = [
            (a1 < b0, "before"), (b1 < a0, "after"), (a1 == b0, "meets"), (b1 == a0, "met-by"),
            (a0 == b0 and a1 == b1, "equals"), (a0 == b0 and a1 < b1, "starts"), (a0 == b0, "started-by"),
            (a1 == b1 and a0 > b0, "finishes"), (a1 == b1, "finished-by"), (a0 < b0 and a1 < b1, "overlaps"),
            (a0 < b0, "contains"), (a1 < b1, "during"), (True, "overlapped-by"),
        ]  # fmt: skip
        return next(name for holds, name in table if holds)

    def units(self, a: TimePoint, b: TimePoint) -> int:
        """Whole units of the checker's granularity from ``a`` to ``b`` (calendar arithmetic, not unit codes)."""
        if self.g is Granularity.YEAR:
            return b.year - a.year
        if self.g is Granularity.MONTH:
            assert a.month is not None and b.month is not None
            return (b.year - a.year) * 12 + b.month - a.month
        assert a.month and a.day and b.month and b.day
        return days_from_civil(b.year, b.month, b.day) - days_from_civil(a.year, a.month, a.day)

    def _check_duration(self, q: Question, f: Fact, tq: TimePoint, errs: list[str]) -> None:
        """A closed state's length in units, written ``P<n>Y`` / ``<n> years``; t_query its start."""
        if self.kinds[f.r] != "state" or self.unit_iso(f.start) is None or self.unit_iso(f.end) is None:
            errs.append(f"{q.id}: duration over a fact without a known start and end: {f}")
            return
        assert f.start is not None and f.end is not None
        n = self.units(f.start, f.end)
        word = str(self.g)
        want_text = f"{n} {word}" if n == 1 else f"{n} {word}s"
        if n < 1 or list(q.answer_ids) != [f"P{n}{word[0].upper()}"] or list(q.answers) != [want_text]:
            errs.append(f"{q.id}: duration {q.answers}/{q.answer_ids} != {n} {word}s")
        if q.t_query != self.unit_iso(f.start):
            errs.append(f"{q.id}: duration t_query {q.t_query} is not the start {f.start}")

    def _check_yes_no(self, q: Question, e: str, f: Fact, tq: TimePoint, errs: list[str]) -> None:
        """Yes: the closed spell holds at t, after its start unit; no: it had ended and no such fact may hold."""
        if self.kinds[f.r] != "state" or f.end is None or f.start is None:
            errs.append(f"{q.id}: yes/no over a fact without a known end (the answer would be a guess)")
            return
        ended = f.end.hi(self.g) < tq.lo(self.g) and not self.possible(f, tq)
        held = self.certain(f, tq) and f.start.hi(self.g) < tq.lo(self.g) and tq.hi(self.g) < f.end.lo(self.g)
        if held == ended:
            errs.append(f"{q.id}: yes/no label undecided at {q.t_query} for {f.interval}")
            return
        if list(q.answers) != ["yes" if held else "no"] or list(q.answer_ids) != list(q.answers):
            errs.append(f"{q.id}: yes/no answer {q.answers} != {'yes' if held else 'no'}")

    def _check_present(
        self, q: Question, e: str, r: str, fwd: bool, tq: TimePoint, facts: Sequence[Fact], errs: list[str]
    ) -> None:
        """The one value of (e, r) possibly valid at t; outdated: the other values of spells ended before t."""
        now = {o for f, o in self.neighbours(e, r, fwd) if self.possible(f, tq)}
        if now != set(q.answer_ids) or len(now) != 1:
            errs.append(f"{q.id}: values at {q.t_query} {sorted(now)[:5]} != {list(q.answer_ids)}")
            return
        last = facts[-1]
        if last.end is None and last.start is not None and self.unit_iso(last.start) != q.t_query:
            errs.append(f"{q.id}: an open spell asserted after its start unit")
        old = {
            DISAMBIGUATOR.sub("", self.label(o))
            for f, o in self.neighbours(e, r, fwd)
            if o not in now and f.end is not None and f.end.hi(self.g) < tq.lo(self.g)
        }
        if not old or {DISAMBIGUATOR.sub("", a) for a in q.outdated_answers} != old:
            errs.append(f"{q.id}: outdated answers {list(q.outdated_answers)} != {sorted(old)}")

    def _check_sequence(
        self, q: Question, e: str, r: str, fwd: bool, lf: Mapping[str, object], facts: Sequence[Fact], errs: list[str]
    ) -> None:
        timeline = self.neighbours(e, r, fwd)
        starts = [self.unit_iso(f.start) for f, _ in timeline]
        if len(timeline) < 2 or any(s is None for s in starts):
            errs.append(f"{q.id}: timeline has {len(timeline)} facts or an unknown start")
            return

        def su(f: Fact) -> int:
            assert f.start is not None
            return f.start.lo(self.g)

        variant = lf["variant"]
        if variant in ("first", "last"):
            best = (min if variant == "first" else max)(su(f) for f, _ in timeline)
            cands = [(f, o) for f, o in timeline if su(f) == best]
        else:
            y = self.by_id.get(lf["reference_fact"])  # type: ignore[arg-type]
            if y is None or len(q.S_anchor) != 1 or q.S_anchor[0].fact_id != y.id:
                errs.append(f"{q.id}: S_anchor is not the sequence reference fact")
                return
            y_other = (y.o if y.s == e else y.s) if r in self.symmetric else (y.o if fwd else y.s)
            if sum(1 for _, o in timeline if o == y_other) != 1 or all(f.id != y.id for f, _ in timeline):
                errs.append(f"{q.id}: the sequence reference is ambiguous or outside the timeline")
                return
            if fwd:  # spells of another role (national teams beside clubs) are another timeline
                timeline = [(f, o) for f, o in timeline if self.role_of(f) == self.role_of(y)]
            if self.kinds[r] == "event":
                after = [(f, o) for f, o in timeline if su(f) > su(y)]
            else:
                if y.end is None or y.end.granularity < self.g:
                    errs.append(f"{q.id}: state reference without an end")
                    return
                y_end = y.end.lo(self.g)
                after = [(f, o) for f, o in timeline if su(f) >= y_end and su(f) > su(y)]
            if not after:
                errs.append(f"{q.id}: nothing after the reference")
                return
            best = min(su(f) for f, _ in after)
            cands = [(f, o) for f, o in after if su(f) == best]
        if len(cands) != 1:
            errs.append(f"{q.id}: sequence answer is not unique ({len(cands)} facts)")
            return
        f, o = cands[0]
        if [o] != list(q.answer_ids) or f.id != facts[-1].id:
            errs.append(f"{q.id}: sequence answer {o} / fact {f.id} != {q.answer_ids} / {facts[-1].id}")
        if self.unit_iso(f.start) != q.t_query:
            errs.append(f"{q.id}: sequence t_query {q.t_query} != answer start {f.start}")

    # -- world validity ----------------------------------------------------------------------------
    def canon(self, f: Fact) -> tuple[object, ...]:
        """(s, r, o, start, end) with a symmetric fact's endpoints in sorted order."""
        s, o = (min(f.s, f.o), max(f.s, f.o)) if f.r in self.symmetric else (f.s, f.o)
        return (s, f.r, o, f.start, f.end)

    def one(self, r: str, fwd: bool) -> bool:
        d = self.decl[r]
        return d.get("objects_at_once" if fwd or r in self.symmetric else "subjects_at_once") == "one"

    def birth_contradicted(self, f: Fact) -> bool:
        """``f`` is a birth at least two, and at least half, of its subject's facts of relations with no ``role``
        (with a start, on either side) start before: the fewest facts to disbelieve is the birth."""
        if f.start is None or self.decl.get(f.r, {}).get("role") != "birth":
            return False
        life = [
            g.start.year
            for g in self.touching[f.s]
            if g.start is not None and self.decl.get(g.r, {}).get("role") is None
        ]
        before = sum(y < f.start.year for y in life)
        return before >= 2 and 2 * before >= len(life)

    def life_years(self) -> tuple[dict[str, int], dict[str, int]]:
        """Each entity's birth year (the earliest, of births no ``birth_contradicted``) and death year (the latest)."""
        births: dict[str, int] = {}
        deaths: dict[str, int] = {}
        for f in self.good:
            role = self.decl.get(f.r, {}).get("role")
            if role == "birth" and f.start is not None and not self.birth_contradicted(f):
                births[f.s] = min(births.get(f.s, 10**9), f.start.year)
            if role == "death" and f.start is not None:
                deaths[f.s] = max(deaths.get(f.s, -(10**9)), f.start.year)
        return births, deaths

    def _find_implausible(self) -> dict[int, str]:
        """Brute force, from the declarations: fact id -> reason (the rules of docs/kg-builder.md)."""
        births, deaths = self.life_years()

        def first_year(f: Fact) -> int | None:
            return f.start.year if f.start is not None else (f.end.year if f.end is not None else None)

        out: dict[int, str] = {}
        for f in self.good:
            d = self.decl[f.r]
            event = d["kind"] == "event"
            if event and f.start is not None and f.end is not None and f.end.year > f.start.year:
                out[f.id] = "event_over_years"
                continue
            if not event and self.open_end == "ongoing" and f.start is not None and f.end is None:
                limit = d.get("max_years", d["default_max_years"])
                assert isinstance(limit, int)
                if self.as_of.year - f.start.year > limit:
                    out[f.id] = "open_end_too_long"
                    continue
            span_max = d.get("max_years")  # declared only: a closed state longer than it
            closed = not event and f.start is not None and f.end is not None
            if closed and isinstance(span_max, int) and f.end.year - f.start.year > span_max:  # type: ignore[union-attr]
                out[f.id] = "span_too_long"
                continue
            if d.get("role") is None and f.start is not None:
                age = int(d.get("min_age", 0))  # type: ignore[call-overload]
                if any(f.start.year < births.get(e, -(10**9)) + age for e in (f.s, f.o)):
                    out[f.id] = "before_birth"
                    continue
                if any(f.start.year > deaths.get(e, 10**9) for e in (f.s, f.o)):
                    out[f.id] = "after_death"
                    continue
                if self.youth_over_age(f, births):
                    out[f.id] = "youth_over_age"
                    continue
            years = [p.year for p in (f.start, f.end) if p is not None]
            if not years:
                continue
            verdicts = []
            for e in {f.s, f.o}:
                others = [y for g in self.touching[e] if g.id != f.id and (y := first_year(g)) is not None]
                if len(others) >= 3:
                    med = statistics.median(others)
                    verdicts.append(any(abs(y - med) > CENTURIES for y in years))
                elif others and min(years) < 1000:  # AD 1-999 far from each of one or two other facts
                    verdicts.append(all(abs(y - o) > CENTURIES for y in years for o in others))
            if verdicts and all(verdicts):
                out[f.id] = "century_outlier"
            elif not verdicts and min(years) < 1000:
                rel_years = [y for g in self.good if g.r == f.r and (y := first_year(g)) is not None]
                if abs(min(years) - statistics.median(rel_years)) > CENTURIES:
                    out[f.id] = "century_outlier"
        unfit = {e for e in self.shown if self.unfit_label(e)}
        for f in self.good:
            if f.id in out:
                continue
            if self.unshown_side(f) is not None or self.excluded_side(f) is not None:
                out[f.id] = "not_of_type"
            elif f.s in unfit or f.o in unfit:
                out[f.id] = "label_unfit"
        for f in self.good:  # the graph contradicting itself, after the type rules (as their indices in REASONS)
            if f.id in out:
                continue
            if self.birth_contradicted(f):
                out[f.id] = "birth_contradicted"
            elif self.decl[f.r].get("symmetric") and f.s != f.o and self._mirror_disagrees(f):
                out[f.id] = "mirror_disagrees"
        return out

    def youth_over_age(self, f: Fact, births: Mapping[str, int]) -> bool:
        """``f`` starts when the person on one side was older than N + 1 all year, N of the under-N side on the
        other (born in year b: up to N + 2 years after b is allowed, a cycle's cut-off and a late birthday)."""
        if f.start is None or self.decl.get(f.r, {}).get("role") is not None:
            return False
        for person, side in ((f.s, f.o), (f.o, f.s)):
            words = self.label(side).replace("_", " ").replace("-", " ").casefold().split()
            glued = [w[1:] for w in words if len(w) == 3 and w[0] == "u"]
            glued += [w[5:] for w in words if w.startswith("under")]
            limits = [int(n) for n in glued if n.isdigit() and len(n) == 2 and n.isascii()]
            limits += [int(b) for a, b in pairwise(words) if a in ("u", "under") and b.isdigit() and len(b) == 2]
            limits = [n for n in limits if 14 <= n <= 23]
            if limits and person in births and f.start.year - births[person] > limits[0] + 2:
                return True
        return False

    def _mirror_disagrees(self, f: Fact) -> bool:
        """The graph holds dated mirror facts ``(o, r, s)`` of ``f`` and none states the same years as ``f``."""

        def same(a: TimePoint | None, b: TimePoint | None) -> bool:
            return a is None or b is None or a.year == b.year

        mirrors = [
            g for g in self.touching[f.o]
            if g.id != f.id and g.r == f.r and g.s == f.o and g.o == f.s and (g.start or g.end) is not None
        ]  # fmt: skip
        return bool(mirrors) and not any(same(f.start, g.start) and same(f.end, g.end) for g in mirrors)

    # -- types (the TOML's [types.<name>] tables) ---------------------------------------------------
    def _shown_types(self) -> dict[str, set[str]]:
        """Entity -> the types some fact valid somewhere shows it is of (it stands on a ``shown_by`` side), and
        ``"other:<type>"`` where a fact shows it on a side that neither shows nor presumes the type."""
        out: dict[str, set[str]] = defaultdict(set)
        for name, t in self.types.items():
            sides = {tuple(str(item).rsplit(" ", 1)) for item in t.get("shown_by", [])}  # type: ignore[attr-defined]
            for f in self.good:
                for e, side in ((f.s, "subject"), (f.o, "object")):
                    keys = {(f.r, side), (self.graph.relation_label(f.r), side)}
                    if keys & sides:
                        out[e].add(name)
                    elif self.decl.get(f.r, {}).get(f"{side}_type") != name:
                        out[e].add(f"other:{name}")
        return out

    def unshown_side(self, f: Fact) -> str | None:
        """The entity of ``f`` whose presumed type no fact shows while a fact shows it in another role, or None."""
        d = self.decl.get(f.r, {})
        for field_name, e in (("subject_type", f.s), ("object_type", f.o)):
            t = d.get(field_name)
            has = self.shown.get(e, set())
            if t is not None and t not in has and f"other:{t}" in has:
                return e
        return None

    def excluded_side(self, f: Fact) -> str | None:
        """The entity of ``f`` that a fact shows is of the type the relation excludes of its side, or None."""
        d = self.decl.get(f.r, {})
        for field_name, e in (("subject_not", f.s), ("object_not", f.o)):
            t = d.get(field_name)
            if t is not None and t in self.shown.get(e, set()):
                return e
        return None

    def unfit_label(self, e: str) -> bool:
        """``e`` is shown to be of a type whose ``not_named`` lists its label's last word, or that declares
        ``not_articles`` while its label titles an article about a topic (:func:`article_title`)."""
        words = self.label(e).split()
        last = words[-1].casefold() if words else ""
        types = [t for t in self.shown.get(e, ()) if t in self.types]
        if any(last in {w.casefold() for w in self.types[t].get("not_named", [])} for t in types):  # type: ignore[attr-defined]
            return True
        if any(self.types[t].get("not_spouse_roles") for t in types) and SPOUSE_OFFICE.search(self.label(e)):
            return True
        for t in types:
            if self.types[t].get("not_articles"):  # type: ignore[attr-defined]
                whole, of = article_title(self.label(e))
                if whole or any(t in self.shown.get(x, ()) for x in self._by_label().get(of or "", ()) if x != e):
                    return True
        return False

    def _by_label(self) -> dict[str, list[str]]:
        """Label (underscores read as spaces) -> the entities of the graph that bear it."""
        if self._labelled is None:
            self._labelled = defaultdict(list)
            for e in sorted({x for f in self.graph.facts for x in (f.s, f.o)}):
                self._labelled[" ".join(self.label(e).replace("_", " ").split())].append(e)
        return self._labelled

    def role_of(self, f: Fact) -> str | None:
        """The declared role (TOML ``roles``) with an ``object_named`` marker whose words the object label all holds
        (the marker of most words wins, ties by name), else one whose ``object_shown_by`` sides the object shows in
        the data (a label marker wins)."""
        words = set(self.label(f.o).casefold().split())
        roles = self.decl.get(f.r, {}).get("roles", {})
        best: tuple[int, str] | None = None
        for name, entry in sorted(roles.items()):  # type: ignore[attr-defined]
            for w in entry.get("object_named", []):
                n = len(w.split())
                if set(w.casefold().split()) <= words and (best is None or n > best[0]):
                    best = (n, str(name))
        if best is not None:
            return best[1]
        for name, entry in sorted(roles.items()):  # type: ignore[attr-defined]
            if any(self.shows(f.o, side) for side in entry.get("object_shown_by", [])):
                return str(name)
        return None

    def shows(self, e: str, side: str) -> bool:
        """Whether ``e`` stands on ``side`` ("<relation id or label> subject|object") of a kept fact of the graph."""
        key, which = side.rsplit(" ", 1)
        return any(
            key in (f.r, self.graph.relation_label(f.r)) and (f.s if which == "subject" else f.o) == e
            for f in self.touching.get(e, ())
        )

    def horizon_year(self) -> int:
        """The data's horizon: the latest year holding 0.1% of the known start and end years, before as_of's."""
        years = Counter(p.year for f in self.good for p in (f.start, f.end) if p is not None)
        total = sum(years.values())
        top = max((y for y, n in years.items() if n >= 0.001 * total), default=self.as_of.year - 1)
        return min(top, self.as_of.year - 1)

    def cspan(self, f: Fact) -> tuple[int, int] | None:
        """Units where the fact is certainly valid (``None``: nowhere), by the open-end reading."""
        if f.start is None or f.id in self.implausible:
            return None
        lo = f.start.hi(self.g)  # a partial start is certain from the last unit it may stand for
        if f.end is not None:
            hi = f.end.lo(self.g)
        elif self.kinds[f.r] == "event" or self.open_end == "unknown":
            hi = f.start.lo(self.g)
        else:
            hi = self.as_of.lo(self.g)
        return (lo, hi) if lo <= hi else None

    def overlapping(self, e: str, r: str, fwd: bool) -> bool:
        """Two distinct values of (e, r, dir) certainly valid together for two units or more."""
        nb = [(self.cspan(f), x) for f, x in self.neighbours(e, r, fwd)]
        for i, (p, x) in enumerate(nb):
            for q, y in nb[i + 1 :]:
                if x != y and p is not None and q is not None and min(p[1], q[1]) - max(p[0], q[0]) >= 1:
                    return True
        return False

    def follow(self, start: set[str], steps: Sequence[Mapping[str, str]], t: TimePoint | None) -> set[str]:
        cur = set(start)
        for step in steps:
            nxt = set()
            for e in cur:
                for f, other in self.neighbours(e, step["r"], step["dir"] == "fwd"):
                    if t is None or self.possible(f, t):
                        nxt.add(other)
            cur = nxt
        return cur

    def world_errors(self, q: Question) -> list[tuple[str, str]]:
        """``(category, message)`` for each way ``q`` is not valid in the world (see the module docstring)."""
        out: list[tuple[str, str]] = []
        lf = q.logical_form
        path = lf["path"]
        op = q.operator
        tq = parse_time(q.t_query)
        assert tq is not None
        entity_hops = range(len(path) - 1 if op in ("interval", "duration", "yes_no", "allen") else len(path))
        chain_nodes = [lf["anchor"]]
        for t in q.S_star[: len(path)]:
            chain_nodes.append(t.o_id if chain_nodes[-1] == t.s_id else t.s_id)
        for i in entity_hops:
            if not self.one(path[i]["r"], path[i]["dir"] == "fwd"):
                out.append(("open-class hop", f"{q.id}: hop {i + 1} {path[i]} is a 'many' direction: {q.question}"))
            elif self.overlapping(chain_nodes[i], path[i]["r"], path[i]["dir"] == "fwd"):
                out.append(("open-class hop", f"{q.id}: hop {i + 1}: {chain_nodes[i]} holds two values at once"))
        gold = set(q.answer_ids)
        if op in ("point_in_time", "before_after", "two_facts", "present_state", "relative"):
            if self.follow({lf["anchor"]}, path, None) == gold:
                out.append(("time-insensitive", f"{q.id}: the time-free path gives the gold: {q.question}"))
            for i in range(len(path) - 1):
                if self.follow({chain_nodes[i]}, path[i + 1 :], tq) == gold:
                    out.append(("redundant hop", f"{q.id}: skipping hop {i + 1} gives the gold: {q.question}"))
        elif op == "interval" and len(path) > 1:
            final = self.by_id[q.S_star[len(path) - 1].fact_id]
            other = lf["final_other"]
            r = final.r
            side = "fwd" if r in self.symmetric or final.s == other else "inv"
            which = "end" if lf["variant"] == "end" else "start"
            times = {
                self.unit_iso(f.end if which == "end" else f.start) for f, _ in self.neighbours(other, r, side == "fwd")
            }
            if times == {q.t_query}:
                out.append(("redundant hop", f"{q.id}: {other}'s own facts already give the time: {q.question}"))
        elif op == "sequence":
            e = chain_nodes[-2]
            values = {o for _, o in self.neighbours(e, path[-1]["r"], path[-1]["dir"] == "fwd")}
            if len(values) < 2:
                out.append(("time-insensitive", f"{q.id}: one value over all time: {q.question}"))
            if q.assumes_complete != (lf["variant"] in ("first", "last")):
                out.append(("assumes_complete", f"{q.id}: assumes_complete {q.assumes_complete} for {lf['variant']}"))
        elif op == "allen":
            a, b = self.by_id[q.S_star[len(path) - 1].fact_id], self.by_id[q.S_anchor[0].fact_id]
            if a.s == b.s and any(self.decl.get(r, {}).get("role") for r in (a.r, b.r)):
                out.append(("known a priori", f"{q.id}: one's own birth or death against one's life: {q.question}"))
        if op != "sequence" and q.assumes_complete:
            out.append(("assumes_complete", f"{q.id}: marked assumes_complete"))
        # a readable name of the question's own entities may hold an id-like word ("Norwegian P2 listener's
        # literature award"): the graph's labels of those entities are spared, unless a label is itself an id
        facts = [self.by_id[t.fact_id] for t in (*q.S_star, *q.S_anchor) if t.fact_id in self.by_id]
        names = {self.label(e) for f in facts for e in (f.s, f.o)}
        spared = sorted((n for n in names if not RAW_ID.fullmatch(n.strip())), key=len, reverse=True)
        for text in (q.question, *q.answers):
            for name in spared:
                text = text.replace(name, " ")
            if RAW_ID.search(text):
                out.append(("raw id", f"{q.id}: raw id in {text!r}"))
        if DOUBLED.search(q.question) or len(path) > 3:
            out.append(("garbled", f"{q.id}: doubled word or noun phrase nested over two deep: {q.question}"))
        for part in (q.S_star, q.S_anchor, q.S_dist, q.S_stale):
            for t in part:
                if t.fact_id in self.implausible:
                    out.append(("implausible gold", f"{q.id}: fact {t.fact_id} ({self.implausible[t.fact_id]})"))
        return out


#: Operators whose question asserts the final S* fact at t_query (the others name it and ask its times).
ASSERT_FINAL = ("point_in_time", "before_after", "two_facts", "present_state", "yes_no", "relative")


def op_is_no(q: Question) -> bool:
    """A yes/no question answered no: its final S* fact is the one that does not hold at t_query."""
    return q.operator == "yes_no" and list(q.answers) == ["no"]


def release_errors(checker: Checker, questions: Sequence[Question]) -> list[tuple[str, str]]:
    """Duplicates, split overlap by gold chain and the answer-prior shortcut, over a whole release."""
    out: list[tuple[str, str]] = []
    seen: dict[tuple[object, ...], str] = {}
    chains: dict[str, set[frozenset[tuple[object, ...]]]] = defaultdict(set)
    for q in questions:
        chain = frozenset(checker.canon(checker.by_id[t.fact_id]) for t in q.S_star)
        key = (chain, tuple(sorted(q.answer_ids)))
        if key in seen:
            out.append(("duplicate", f"{q.id} repeats {seen[key]}: {q.question}"))
        seen[key] = q.id
        chains[q.split].add(chain)
    for c in chains["test"] & chains["train"]:
        out.append(("split overlap", f"a test S* is a train S*: {sorted(map(str, c))[:2]}"))
    cells: dict[tuple[str, int], Counter[str]] = defaultdict(Counter)
    sizes: Counter[tuple[str, int]] = Counter()
    for q in questions:
        cell = (q.operator, min(q.hops, 3))
        sizes[cell] += 1
        if q.answer_type == "entity":
            cells[cell].update(q.answer_ids)
    for cell, counts in cells.items():
        top, n = counts.most_common(1)[0]
        if sizes[cell] >= 50 and n > 0.02 * sizes[cell]:
            out.append(("answer prior", f"{cell}: {top} answers {n} of {sizes[cell]}"))
    return out


def world_report(checker: Checker, questions: Sequence[Question]) -> dict[str, list[str]]:
    """Category -> messages, for every question's :meth:`Checker.world_errors` and the release checks."""
    out: dict[str, list[str]] = defaultdict(list)
    for q in questions:
        for cat, msg in checker.world_errors(q):
            out[cat].append(msg)
    for cat, msg in release_errors(checker, questions):
        out[cat].append(msg)
    return dict(out)


FUNCTION_WORDS = frozenset(
    {
        "a", "an", "the", "of", "in", "at", "by", "for", "to", "from", "with", "on", "was", "were", "is", "did",
        "do", "does", "who", "whom", "whose", "what", "which", "when", "where", "how", "as", "into",
    }
)  # fmt: skip
DISAMBIGUATOR = re.compile(r"\s\([^()]*\)$")
_PHRASE_FIELDS = (
    "ask_object", "ask_subject", "object_of", "subject_of", "statement",
    "start_clause", "end_clause", "ask_start", "ask_end", "object_at", "subject_at",
)  # fmt: skip


def relation_cores(entry: Mapping[str, object]) -> list[str]:
    """The literal word runs of a relation's phrase fields (and its roles'), without slots and edge function words.

    A role's ``object_named`` words count too: a role's phrases may say no more than "was {o}".

    A run that ends in an appositive type word before its slot ("left the party {o}") also counts without it
    ("left"), the documented reading when the slot holds a noun phrase.
    """
    cores: set[str] = set()
    roles = entry.get("roles", {})
    for role in roles.values() if isinstance(roles, Mapping) else ():
        # a role's statement may be bare ("{s} was {o}"): the object it names ("First Lady of ...") shows the hop
        cores.update(str(w).lower() for w in role.get("object_named", ()))
    fields = [(e, n) for e in (entry, *(roles.values() if isinstance(roles, Mapping) else ())) for n in _PHRASE_FIELDS]
    for e, name in fields:
        text = e.get(name)
        if not isinstance(text, str):
            continue
        for run in re.split(r"\{[sot]\}", text):
            words = run.split()
            variants = [words]
            if "the" in words:  # "... the party" before a slot: also without the appositive
                cut = len(words) - 1 - words[::-1].index("the")
                tail = words[cut + 1 :]
                if tail and not any(w in FUNCTION_WORDS for w in tail):
                    variants.append(words[:cut])
            for ws in variants:
                while ws and ws[0].lower() in FUNCTION_WORDS:
                    ws = ws[1:]
                while ws and ws[-1].lower() in FUNCTION_WORDS:
                    ws = ws[:-1]
                if ws:
                    cores.add(" ".join(ws).lower())
    cores |= {f"{_ing(c.split()[0])} {c.partition(' ')[2]}".strip() for c in cores if _ing(c.split()[0])}
    cores |= {x for c in cores if (x := _to_infinitive(c)) is not None}
    return sorted(cores, key=len, reverse=True)


_BEFORE_TO = {"stopped": "ceasing to", "started": "starting to"}


def _to_infinitive(core: str) -> str | None:
    """A core whose verb takes a gerund, as a gerund clause writes it: "stopped owning" -> "ceasing to own"."""
    words = core.split()
    if len(words) < 2 or words[0] not in _BEFORE_TO or not words[1].endswith("ing"):
        return None
    return " ".join([_BEFORE_TO[words[0]], words[1][:-3], *words[2:]])


_ING_IRREGULAR = {"became": "becoming", "left": "leaving", "won": "winning", "took": "taking", "had": "having"}
_ING_IRREGULAR |= {"held": "holding", "lost": "losing"}


def _ing(verb: str) -> str | None:
    """The -ing form of a past-tense verb that opens a core ("joined" -> "joining", "married" -> "marrying"): a
    clause sharing the question's subject may be written as a gerund. None for a word that is no such verb."""
    if verb in _ING_IRREGULAR:
        return _ING_IRREGULAR[verb]
    if verb.endswith("ied"):
        return verb[:-3] + "ying"
    return verb[:-2] + "ing" if verb.endswith("ed") and len(verb) > 3 else None


def _phrase_count(text: str, cores: Sequence[str]) -> int:
    """The most non-overlapping occurrences in ``text`` of any of ``cores`` (whole words, any case).

    Every occurrence of every core is a span; the greedy choice by earliest end gives the most disjoint ones
    ("become part of the country of Ankara" holds "become part" and "country of" apart).
    """
    spans = []
    for c in cores:
        pat = re.compile(r"(?=(?<!\w)" + re.escape(c) + r"(?!\w))", re.IGNORECASE)  # overlapping ones too
        spans += [(m.start() + len(c), m.start()) for m in pat.finditer(text)]
    n, free_from = 0, 0
    for end, start in sorted(set(spans)):
        if start >= free_from:
            n, free_from = n + 1, end
    return n


_LIST_HEADS = {"list", "lists", "timeline", "outline", "index", "glossary", "chronology", "bibliography"}
_LIST_HEADS |= {"discography", "filmography"}


def article_title(label: str) -> tuple[bool, str | None]:
    """Whether ``label`` titles a Wikipedia article about a topic (a list or timeline, a disambiguation page, a
    capitalised head of two or more words whose later words are lower case before "of": "Political positions of
    X"), and else the part after "of" of a one-word head ("X" of "Presidency of X"), or None."""
    words = label.replace("_", " ").split()
    if words and words[-1] == "(disambiguation)":
        return True, None
    if "of" not in words[1:-1]:
        return False, None
    k = words.index("of", 1)
    head, rest = words[:k], words[k + 1 :]

    def lower(w: str) -> bool:
        return w.isascii() and w.isalpha() and w.islower()

    if not (head[0][:1].isascii() and head[0][:1].isupper() and lower(head[0][1:])):
        return False, None
    if head[0].casefold() in _LIST_HEADS and len(head) == 1:
        return True, None
    if len(head) > 1 and all(lower(w) for w in head[1:]):
        return True, None
    return False, (" ".join(rest) if len(head) == 1 else None)


def defect_report(checker: Checker, questions: Sequence[Question]) -> dict[str, list[str]]:
    """Category -> messages for each systematic defect of the module docstring, over a whole release."""
    out: dict[str, list[str]] = {
        "hop missing from text": [],
        "last over open ends": [],
        "open end read as ongoing": [],
        "disambiguator in answer": [],
        "graph-walk phrasing": graph_walk_errors(checker, questions),
        "chain across regimes": regime_errors(checker, questions),
        "direct parent read as membership": parent_change_errors(checker, questions),
        "youth side over age": youth_errors(checker, questions),
        "place presupposed in a life time": life_place_errors(checker, questions),
        "bridge or hub": bridge_errors(checker, questions),
        "value changes near the time": change_errors(checker, questions),
        "closed-world superlative": [],
        "next not unique": next_errors(checker, questions),
        "status at founding": founding_errors(checker, questions),
        "containment of a non-place": [],
        "type the relation excludes": [],
        "unfit label": [],
        "one label, two entities": [],
        "role asked as the relation": [],
        "unrelated reference fact": unrelated_reference_errors(questions),
        "duration over per-term spells": per_term_errors(checker, questions),
        "end of a per-term spell": tenure_end_errors(checker, questions),
        "namesake disambiguator dropped": namesake_errors(checker, questions),
        "state read as a moment": moment_errors(checker, questions),
        "duration beside a career gap": career_gap_errors(checker, questions),
        "interrupted spell": interrupted_errors(checker, questions),
        "nested spell ordered": nested_order_errors(checker, questions),
        "next across a gap": next_gap_errors(checker, questions),
        "asked at a boundary unit": boundary_errors(checker, questions),
        "unrelated Allen pair": unrelated_pair_errors(checker, questions),
        "end of an open fact asked": end_read_errors(checker, questions, declared=False),
        "end declared unknown asked": end_read_errors(checker, questions, declared=True),
        "relation declared unasked": unasked_errors(checker, questions),
        "namesake asked bare": namesake_bare_errors(checker, questions),
        "name ambiguous in the world": world_ambiguous_errors(checker, questions),
        "role not named in a two-role timeline": role_unnamed_errors(checker, questions),
        "end of a move within a club": squad_move_errors(checker, questions),
        "end of a loan": loan_errors(checker, questions),
        "date by convention compared": convention_errors(checker, questions),
        "year uncertain by one used": year_uncertain_errors(checker, questions),
        "country asked as administrative unit": country_unit_errors(checker, questions),
        "nested clause before a verb": nested_clause_errors(questions),
        "non-value asked as a value": no_value_errors(checker, questions),
        "confederation asked as a country": confederation_errors(checker, questions),
        "bulk-dated start asked": bulk_start_errors(checker, questions),
        "youth side asked as a national team": youth_team_errors(questions),
        "capital outside its polity": capital_polity_errors(checker, questions),
        "level named ambiguously": level_errors(checker, questions),
        "level not named": described_errors(checker, questions, "levels_unnamed"),
        "union asked as a country": described_errors(checker, questions, "union_of_states"),
        "disambiguator repeated": repeated_disambiguator_errors(checker, questions),
        "name repeated": repeated_name_errors(checker, questions),
        "order fixed by a life": life_order_errors(checker, questions),
        "residence read as a move": residence_move_errors(checker, questions),
        "start at birth asked": birth_start_errors(checker, questions),
        "divided entity": divided_errors(checker, questions),
        "relation followed back": followed_back_errors(checker, questions),
        "bridge described by its own name": own_name_errors(checker, questions),
        "stilted wording": stilted_errors(checker, questions),
        "bridge named twice in a duration": [
            f"{q.id}: {q.question!r}" for q in questions if q.operator == "duration" and len(q.logical_form["path"]) > 1
        ],
    }
    horizon = checker.horizon_year()
    cores = {r: relation_cores(d) for r, d in checker.decl.items()}
    for q in questions:
        lf = q.logical_form
        path = lf["path"]
        for r, n in Counter(step["r"] for step in path).items():
            if _phrase_count(q.question, cores[r]) < n:
                out["hop missing from text"].append(f"{q.id}: {n} hop(s) over {r} not all in {q.question!r}")
        if q.operator == "sequence" and lf["variant"] == "last" and checker.kinds[path[-1]["r"]] == "state":
            final = checker.by_id[q.S_star[len(path) - 1].fact_id]
            e = _chain_end_source(q)
            open_other = [
                f.id for f, _ in checker.neighbours(e, path[-1]["r"], path[-1]["dir"] == "fwd")
                if f.id != final.id and f.end is None
            ]  # fmt: skip
            if open_other:
                out["last over open ends"].append(f"{q.id}: spells {open_other} have no end: {q.question!r}")
        tq = parse_time(q.t_query)
        assert tq is not None
        asserted = q.S_star if q.operator in ASSERT_FINAL and not op_is_no(q) else q.S_star[: len(path) - 1]
        for t in asserted:
            f = checker.by_id[t.fact_id]
            is_open = checker.kinds[f.r] == "state" and f.end is None and f.start is not None
            if is_open and f.start is not None and tq.lo(checker.g) > f.start.lo(checker.g):
                out["open end read as ongoing"].append(
                    f"{q.id}: fact {f.id} from {f.start} with no end asserted at {q.t_query}: {q.question!r}"
                )
        for a in q.answers:
            if DISAMBIGUATOR.search(a):
                out["disambiguator in answer"].append(f"{q.id}: answer {a!r}")
        superlative = q.operator == "sequence" and lf["variant"] in ("first", "last")
        if superlative and not _closed_superlative(checker, q, horizon):
            out["closed-world superlative"].append(f"{q.id}: {q.question!r} -> {list(q.answers)}")
        facts = [checker.by_id[t.fact_id] for t in (*q.S_star, *q.S_anchor)]
        unshown = {e for f in facts if (e := checker.unshown_side(f)) is not None}
        if unshown:
            out["containment of a non-place"].append(f"{q.id}: {sorted(unshown)} in {q.question!r}")
        excluded = {e for f in facts if (e := checker.excluded_side(f)) is not None}
        if excluded:
            out["type the relation excludes"].append(f"{q.id}: {sorted(excluded)} in {q.question!r}")
        named = {e for f in facts for e in (f.s, f.o)}
        if any(checker.unfit_label(e) for e in named):
            out["unfit label"].append(f"{q.id}: {q.question!r}")
        bearers: dict[str, set[str]] = defaultdict(set)
        in_text = named - set(q.answer_ids)  # the anchor, bridges and other entities of its facts
        for e in named | set(q.answer_ids) | _options(checker, q):
            bearers[checker.label(e).casefold()].add(e)
        twins = sorted({checker.label(e).casefold() for e in in_text if len(bearers[checker.label(e).casefold()]) > 1})
        if len({checker.label(a).casefold() for a in q.answer_ids}) < len(set(q.answer_ids)):
            twins.append("two answers")
        if twins:
            out["one label, two entities"].append(f"{q.id}: {twins} in {q.question!r} -> {list(q.answers)}")
        for f in facts[: len(q.S_star)]:
            role = checker.role_of(f)
            asks_own = role is not None and _asks_own(checker, f, role)
            if asks_own and f.o in q.answer_ids and str(role).casefold() not in q.question.casefold():
                out["role asked as the relation"].append(f"{q.id}: {checker.label(f.o)!r} for {q.question!r}")
    return out


def _asks_own(checker: Checker, f: Fact, role: str) -> bool:
    """Whether the role words its own question (TOML ``ask_object``); one that keeps the relation's ("which award
    did X receive?" answered by a title) is asked as the relation by design: a subject's values at a time may be of
    several roles, and the relation's question covers them all."""
    return "ask_object" in checker.decl.get(f.r, {}).get("roles", {}).get(role, {})  # type: ignore[union-attr]


_SLOT_AT_END = re.compile(r"\{[so]\}\s*$")
_RELATIONAL = re.compile(r"\bthe\s+[^{}]*?\b(?:of|by|containing|within|contained|with)\s*$")


def relational_nouns(decl: Mapping[str, Mapping[str, object]]) -> set[str]:
    """Noun phrases of the phrase table that end in their slot after a preposition ("the capital of")."""
    out = set()
    for entry in decl.values():
        for name in ("object_of", "subject_of", "ask_object", "ask_subject"):
            text = entry.get(name)
            m = _SLOT_AT_END.search(text) if isinstance(text, str) else None
            head = _RELATIONAL.search(text[: m.start()]) if m is not None and isinstance(text, str) else None
            if head is not None:
                out.add(" ".join(head.group(0).split()).lower())
    return out


def graph_walk_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions whose text walks the graph (see the module docstring)."""
    nouns = relational_nouns(checker.decl)
    stacked = [re.compile(r"(?<!\w)" + re.escape(a) + r"\s+" + re.escape(b) + r"(?!\w)") for a in nouns for b in nouns]
    out = []
    for q in questions:
        text = " ".join(q.question.split()).lower()
        if any(p.search(text) for p in stacked):
            out.append(f"{q.id}: stacked relational nouns: {q.question!r}")
            continue
        path = q.logical_form["path"]
        if len(path) < 2:
            continue
        names = {x for t in [*q.S_star, *q.S_anchor] for x in (t.s, t.o)} | {checker.label(q.logical_form["anchor"])}
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(DISAMBIGUATOR.sub("", name).lower(), " ").replace(name.lower(), " ")
        types = {str(checker.decl[step["r"]].get("answer_type", "entity")).lower() for step in path} - {"entity"}
        if any(len(re.findall(r"(?<!\w)" + re.escape(t) + r"(?!\w)", text)) >= 2 for t in types):
            out.append(f"{q.id}: a type word repeated over the chain: {q.question!r}")
    return out


def hubs_of(checker: Checker) -> set[str]:
    """The documented hubs: the 1% of entities with a valid fact that have the most (ties in), 20 facts or more."""
    deg = {e: len(fs) for e, fs in checker.touching.items() if fs}
    ranked = sorted(deg.values(), reverse=True)
    if not ranked:
        return set()
    cut = max(20, ranked[max(0, math.ceil(0.01 * len(ranked)) - 1)])
    return {e for e, d in deg.items() if d >= cut}


def bridge_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Multi-hop questions whose intermediate entities are not one in the world, or that pass or answer a hub.

    A bridge (every hop but the last) must be declared in the TOML's ``[bridges]``; an ``at a time`` one must be
    read at a time the question shows, strictly inside its fact's recorded start and end years: ``t_query`` where
    the question renders it, else the time the path step pins (``at``; its year stated in the text, not
    ``t_query``, which may be the answer).
    """
    if not checker.bridges:
        return []
    hubs, g, out = hubs_of(checker), checker.g, []
    for q in questions:
        lf = q.logical_form
        path = lf["path"]
        if len(path) < 2:
            continue
        tq = parse_time(q.t_query)
        assert tq is not None
        node, why = lf["anchor"], []
        for i, step in enumerate(path[:-1]):
            f = checker.by_id[q.S_star[i].fact_id]
            node = f.o if node == f.s else f.s
            holds = checker.bridges.get((step["r"], "object" if step["dir"] == "fwd" else "subject"))
            at = parse_time(step["at"]) if "at" in step else None  # the time a pinned bridge's words state
            if at is not None and (step["at"] == q.t_query or str(at.year) not in q.question):
                why.append(f"hop {i + 1}: pinned at {step['at']}, which the text does not state or is t_query")
            read = at or tq
            if holds is None:
                why.append(f"hop {i + 1} over {step['r']} is no declared bridge")
            elif holds == "at a time" and at is None and lf["static_prefix"] and not q.render_time:
                why.append(f"hop {i + 1} over {step['r']} named without a time")
            elif holds == "at a time" and (
                f.start is None or f.end is None or not f.start.lo(g) < read.lo(g) < f.end.lo(g)
            ):
                why.append(f"hop {i + 1}: fact {f.id} does not span {read.isoformat()} with a year either side")
            if node in hubs:
                why.append(f"bridge {node} is a hub")
        if q.answer_type == "entity" and set(q.answer_ids) & hubs:
            why.append(f"answer {sorted(set(q.answer_ids) & hubs)} is a hub")
        if why:
            out.append(f"{q.id}: {'; '.join(why)}: {q.question!r}")
    return out


ANSWER_AT_T = {"point_in_time", "before_after", "relative", "two_facts", "present_state"}  # answers read at t_query


def change_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions reading an ``at a time`` value at ``t_query`` (a bridge; the answer of an operator asking the value
    at that time) where the raw facts date a change of it near that year: another fact of the same entity, relation
    and direction starts or ends within one year of it; or any answer read at ``t_query`` beside a gap in the record
    (:func:`_gap_beside`)."""
    if not checker.bridges_declared:
        return []
    out = []
    for q in questions:
        lf, tq = q.logical_form, parse_time(q.t_query)
        path = lf["path"]
        if tq is None or (lf["static_prefix"] and not q.render_time):
            continue
        read = len(path) if q.operator in ANSWER_AT_T and q.answer_type == "entity" else len(path) - 1
        node, why = lf["anchor"], []
        for i, step in enumerate(path[:read]):
            f = checker.by_id[q.S_star[i].fact_id]
            fwd = step["dir"] == "fwd"
            src, node = node, (f.o if node == f.s else f.s)
            at_a_time = checker.bridges.get((step["r"], "object" if fwd else "subject")) == "at a time"
            others = [g for g, _ in checker.neighbours(src, step["r"], fwd) if g.id != f.id]
            if at_a_time or i == len(path) - 1:  # the answer read at t: its own spell beside a gap in the record
                gap = _gap_beside(checker, f, others, tq.year)
                if gap:
                    why.append(f"hop {i + 1} fact {f.id}, {gap}")
            if not at_a_time:
                continue
            near = [g.id for g in others if any(p is not None and abs(p.year - tq.year) <= 1 for p in (g.start, g.end))]
            if near:
                why.append(f"hop {i + 1} fact {f.id}, changed near it by facts {near}")
        if why:
            out.append(f"{q.id} at {q.t_query}: {'; '.join(why)}: {q.question!r}")
    return out


def _gap_beside(checker: Checker, f: Fact, others: Sequence[Fact], year: int) -> str:
    """Where ``f`` starts (ends) in ``year`` and no other spell may hold the year before (after) while one starts
    after it (ends before it): the record has a gap beside the boundary year; ``""`` where it has none."""
    for own, beside, step in ((f.end, year + 1, 1), (f.start, year - 1, -1)):
        if own is None or own.year != year:
            continue
        further = [
            g for g in others
            if (step > 0 and g.start is not None and g.start.year > beside)
            or (step < 0 and g.end is not None and g.end.year < beside)
        ]  # fmt: skip
        if further and not any(checker.possible(g, TimePoint(beside)) for g in others):
            side = "ends" if step > 0 else "starts"
            return f"{side} in {year} beside a gap {'before' if step > 0 else 'after'} fact {further[0].id}"
    return ""


BATCH_SHARE = 0.25  # the documented share of a container's dated starts (ends) that makes a unit a batch date
BATCH_MIN = 3


def regime_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions whose chain reads the source's regime modelling as the world (see the module docstring)."""
    g = checker.g
    role = {r: d.get("containment") for r, d in checker.decl.items()}
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    wholes: defaultdict[str, set[str]] = defaultdict(set)
    dated: dict[str, defaultdict[str, Counter[int]]] = {"start": defaultdict(Counter), "end": defaultdict(Counter)}

    def batch(which: str, whole: str, p: TimePoint | None) -> bool:  # a quarter (3 at least) of the container's
        c = dated[which][whole]
        return p is not None and c[p.lo(g)] >= max(BATCH_MIN, BATCH_SHARE * sum(c.values()))

    def part_whole(f: Fact) -> tuple[str, str]:
        return (f.s, f.o) if role[f.r] == "part_of" else (f.o, f.s)

    for f in checker.good:
        if role.get(f.r) not in ("part_of", "contains"):  # a capital dates nothing about the polity's extent
            continue
        part, whole = part_whole(f)
        wholes[part].add(whole)
        for which, p in (("start", f.start), ("end", f.end)):
            if p is not None:
                dated[which][whole][p.lo(g)] += 1
        if f.start is not None:
            first[whole] = min(first.get(whole, f.start.lo(g)), f.start.lo(g))
        end = f.end.lo(g) if f.end is not None else f.start.lo(g) if f.start is not None else None
        if end is not None:  # an open end is evidence up to its start only
            last[whole] = max(last.get(whole, end), end)
    out = []
    for q in questions:
        path = q.logical_form["path"]
        chain = [checker.by_id[t.fact_id] for t in q.S_star[: len(path)]]
        timed = [checker.by_id[t.fact_id] for t in q.S_anchor]
        if q.answer_type in ("time", "duration", "yes_no"):
            timed.append(chain[-1])
        for f in timed:
            if role.get(f.r) not in ("part_of", "contains"):
                continue
            whole = part_whole(f)[1]
            if (
                (f.start is not None and f.start.lo(g) == first.get(whole))
                or (f.end is not None and f.end.lo(g) == last.get(whole))
                or batch("start", whole, f.start)
                or batch("end", whole, f.end)
            ):
                out.append(f"{q.id}: fact {f.id} dates its container's own start or end: {q.question!r}")
                break
        else:
            tq = parse_time(q.t_query)
            assert tq is not None
            u = tq.lo(g)
            outside = [f for f in chain if role.get(f.r) in ("part_of", "contains") and part_whole(f)[0] in first]
            outside = [f for f in outside if not first[part_whole(f)[0]] <= u <= last[part_whole(f)[0]]]
            if outside:
                out.append(f"{q.id}: fact {outside[0].id} asked outside its part's window: {q.question!r}")
                continue
            node = q.logical_form["anchor"]
            for a, b in pairwise(chain):
                node = a.o if node == a.s else a.s
                if len(wholes[node]) >= 2 and bool(role.get(a.r)) != bool(role.get(b.r)):
                    out.append(f"{q.id}: passes {node} across regimes: {q.question!r}")
                    break
    return out


PARENT_DEPTH = 8  # the documented depth of containment chains followed


def _membership_changed(checker: Checker, f: Fact, year: int, parts: Mapping[str, list[Fact]]) -> bool:
    """The data shows the part of containment fact ``f`` outside its container in ``year``."""
    role = checker.decl[f.r].get("containment")
    part, whole = (f.s, f.o) if role == "part_of" else (f.o, f.s)

    def containers(e: str) -> list[str]:
        out = []
        for g in parts.get(e, []):
            if g.id != f.id and (g.start is not None or g.end is not None) and checker.possible(g, TimePoint(year)):
                out.append(g.o if checker.decl[g.r].get("containment") == "part_of" else g.s)
        return out

    level = containers(part)
    if not level:
        return False
    unknown = False
    for depth in range(PARENT_DEPTH + 2):
        if whole in level:
            return False
        if depth > PARENT_DEPTH:
            return False  # chain too long to follow: unknown
        nxt = []
        for e in level:
            up = containers(e)
            if not up and (e in parts or (depth == 0 and whole in parts)):
                unknown = True
            nxt += up
        level = nxt
        if not level:
            break
    return not unknown


def life_place_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Interval questions on a birth or death (a relation whose ``role`` dates a life) naming its place, or asked
    where the subject's births (deaths) give more than one year."""
    out = []
    for q in questions:
        f = checker.by_id[q.S_star[len(q.logical_form["path"]) - 1].fact_id]
        if q.operator != "interval" or checker.decl.get(f.r, {}).get("role") not in ("birth", "death"):
            continue
        years = {g.start.year for g, _ in checker.neighbours(f.s, f.r, True) if g.start is not None}
        text = q.question.casefold().replace(checker.label(f.s).casefold(), "")  # "Patriarch Tikhon of Moscow"
        if checker.label(f.o).casefold() in text or len(years) > 1:
            out.append(f"{q.id}: {q.question!r} ({checker.label(f.o)}, years {sorted(years)})")
    return out


def youth_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions with an S* or S_anchor fact of an under-N side that starts when the person was older than N."""
    births, _ = checker.life_years()
    out = []
    for q in questions:
        hit = [t.fact_id for t in (*q.S_star, *q.S_anchor) if checker.youth_over_age(checker.by_id[t.fact_id], births)]
        if hit:
            out.append(f"{q.id}: facts {hit} put a person over age in a youth side: {q.question!r}")
    return out


def parent_change_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions timed by a containment start (end) the data does not show to be a change of membership."""
    parts: defaultdict[str, list[Fact]] = defaultdict(list)
    for f in checker.good:
        role = checker.decl.get(f.r, {}).get("containment")
        if role in ("part_of", "contains"):
            parts[f.s if role == "part_of" else f.o].append(f)
    out = []
    for q in questions:
        timed = [checker.by_id[t.fact_id] for t in q.S_anchor]
        if q.answer_type in ("time", "duration", "yes_no"):
            timed.append(checker.by_id[q.S_star[len(q.logical_form["path"]) - 1].fact_id])
        for f in timed:
            if checker.decl.get(f.r, {}).get("containment") not in ("part_of", "contains"):
                continue
            if (f.start is not None and not _membership_changed(checker, f, f.start.year - 1, parts)) or (
                f.end is not None and not _membership_changed(checker, f, f.end.year + 1, parts)
            ):
                out.append(f"{q.id}: fact {f.id}'s start or end is not shown to change membership: {q.question!r}")
                break
    return out


def founding_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions timed by a ``status`` fact that starts with its subject's whole record.

    The subject's record: every valid fact with the subject on either side; it starts with the status fact when
    there is another, none has an unknown start and none starts earlier.
    """
    status = {r for r, d in checker.decl.items() if d.get("status")}
    g = checker.g

    def dates(f: Fact) -> bool:
        others = [x for x in checker.touching[f.s] if x.id != f.id]
        if not others:
            return False
        return f.start is not None and all(x.start is not None and x.start.lo(g) >= f.start.lo(g) for x in others)

    out = []
    for q in questions:
        path = q.logical_form["path"]
        timed = [checker.by_id[t.fact_id] for t in q.S_anchor]
        if q.answer_type in ("time", "duration", "yes_no"):
            timed.append(checker.by_id[q.S_star[len(path) - 1].fact_id])
        hit = [f.id for f in timed if f.r in status and dates(f)]
        if hit:
            out.append(f"{q.id}: status fact {hit[0]} dates its subject's own start or end: {q.question!r}")
    return out


def _spaced(label: str) -> str:
    return " ".join(label.replace("_", " ").split())


def namesake_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions naming an entity by its label without a disambiguator that marks a namesake: one whose short label
    another graph label shares, or whose bracket holds a number (a year) or another entity's short label (a place).
    """
    labels = list(checker._by_label())
    shorts = Counter(DISAMBIGUATOR.sub("", x).casefold() for x in labels)
    out = []
    for q in questions:
        named = {x for t in (*q.S_star, *q.S_anchor) for x in (t.s_id, t.o_id)} - set(q.answer_ids)
        for e in sorted(named):
            full = _spaced(checker.label(e))
            m = DISAMBIGUATOR.search(full)
            kind = _kind_word(full)  # "the company GMA Network" names it as well as "GMA Network (company)"
            said = [full] if kind is None else [full, f"{kind} {DISAMBIGUATOR.sub('', full)}"]
            if m is None or any(x.casefold() in q.question.casefold() for x in said):
                continue
            inner = m.group(0).strip()[1:-1].strip()
            shared = shorts[DISAMBIGUATOR.sub("", full).casefold()] > 1
            if shared or re.search(r"\d", inner) or shorts[inner.casefold()]:
                out.append(f"{q.id}: {full!r} read without its bracket in {q.question!r}")
    return out


def _core(template: str) -> str:
    """A phrase template's words between its slots ("{s} was twinned with {o}": "was twinned with")."""
    return " ".join(re.sub(r"\{[so]\}", " ", template).split()).casefold()


def moment_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions whose reference fact, a state, is worded as the state itself where the question reads it as a
    moment ("at the time Kyiv was twinned with Florence"): the relation's statement words are in the text and its
    start words (its change) are not, more often than the asked facts of the relation account for."""
    out = []
    for q in questions:
        asked = Counter(checker.by_id[t.fact_id].r for t in q.S_star)
        text = q.question.casefold()
        for t in q.S_anchor:
            f = checker.by_id[t.fact_id]
            d = checker.decl.get(f.r, {})
            state, start = _core(str(d.get("statement", ""))), _core(str(d.get("start_clause", "")))
            if checker.kinds[f.r] != "state" or not state or text.count(state) <= asked[f.r]:
                continue
            if start == state or start not in text:
                out.append(f"{q.id}: {q.question!r}")
    return out


def career_gap_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Duration questions over a spell of a ``career`` relation whose subject has another spell of it ending before
    the year before its start (starting after the year after its end) and none possibly valid in that year: the
    record has a gap the asked employer may fill."""
    out = []
    for q in questions:
        if q.operator != "duration":
            continue
        f = checker.by_id[q.S_star[len(q.logical_form["path"]) - 1].fact_id]
        if not checker.decl.get(f.r, {}).get("career") or f.start is None or f.end is None:
            continue
        a, b = f.start.year, f.end.year
        others = [x for x, _ in checker.neighbours(f.s, f.r, True) if x.id != f.id]
        before = any(x.end is not None and x.end.year < a - 1 for x in others)
        after = any(x.start is not None and x.start.year > b + 1 for x in others)
        gap_before = before and not any(checker.possible(x, TimePoint(a - 1)) for x in others)
        gap_after = after and not any(checker.possible(x, TimePoint(b + 1)) for x in others)
        if gap_before or gap_after:
            out.append(f"{q.id}: {q.question!r}")
    return out


def unrelated_pair_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Allen questions whose two facts' subjects differ and share no fact of the graph (two players of one club, two
    winners of one prize, two people born in one city)."""
    out = []
    for q in questions:
        if q.operator != "allen" or not q.S_anchor:
            continue
        a, b = q.S_star[len(q.logical_form["path"]) - 1].s_id, q.S_anchor[0].s_id
        if a != b and not any(b in (f.s, f.o) for f in checker.touching.get(a, ())):
            out.append(f"{q.id}: {a} and {b} share no fact: {q.question!r}")
    return out


def next_gap_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """``next`` questions whose answer starts after the unit the reference spell ends (an event: more than a unit
    after the unit it happens), on any graph: the units between may hold a spell the data misses (an entity a
    subset graph dropped, a loan the source never recorded)."""
    out = []
    for q in questions:
        lf = q.logical_form
        if q.operator != "sequence" or lf["variant"] != "next":
            continue
        y, ans = checker.by_id[lf["reference_fact"]], checker.by_id[q.S_star[len(lf["path"]) - 1].fact_id]
        event = checker.kinds[y.r] == "event" or y.end is None
        ref = y.start if event else y.end
        assert ref is not None and ans.start is not None
        if ans.start.lo(checker.g) - ref.lo(checker.g) > (1 if event else 0):
            out.append(f"{q.id}: next starts {ans.start} after {ref}: {q.question!r}")
    return out


def _strictly_inside(checker: Checker, f: Fact, year: int) -> bool:
    """``year`` lies after ``f``'s start unit and before its end unit (an unrecorded side bounds nothing)."""
    g = checker.g
    return (f.start is None or f.start.lo(g) < year) and (f.end is None or year < f.end.lo(g))


def boundary_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions asking a state at ``t_query`` (point in time, present state, yes/no) where ``t_query`` is not
    strictly inside a state fact the gold rests on (every hop read at the time; a static prefix is not): a spell's
    start or end unit is one in which the state changes. A yes/no ``no`` rests on its asked spell's end instead:
    ``t_query`` lies strictly inside a spell of another value of either party (same relation), or more than a unit
    from every spell of both parties."""
    out = []
    for q in questions:
        lf, tq = q.logical_form, parse_time(q.t_query)
        if q.operator not in ("point_in_time", "present_state", "yes_no") or tq is None:
            continue
        path, y = lf["path"], tq.year
        read = range(len(path) - 1 if lf["static_prefix"] else 0, len(path))
        why = []
        for i in read:
            f = checker.by_id[q.S_star[i].fact_id]
            if checker.kinds[f.r] == "event":
                continue
            if i == len(path) - 1 and q.operator == "yes_no" and q.answers == ("no",):
                src = _chain_end_source(q)
                asked, fwd = (f.o if f.s == src else f.s), path[i]["dir"] == "fwd"
                sides = [
                    (checker.neighbours(e, path[i]["r"], d), x)
                    for e, d, x in ((src, fwd, asked), (asked, not fwd, src))
                ]
                rules_out = any(
                    x != partner and g.start is not None and g.end is not None and _strictly_inside(checker, g, y)
                    for group, partner in sides
                    for g, x in group
                )
                near = any(
                    checker.possible(g, TimePoint(u)) for group, _ in sides for g, _ in group for u in (y - 1, y, y + 1)
                )
                if not rules_out and near:
                    why.append(f"no at {y} beside a spell's boundary")
            elif not _strictly_inside(checker, f, y):
                why.append(f"hop {i + 1} fact {f.id} ({f.start}-{f.end}) has {y} as a boundary unit")
        if why:
            out.append(f"{q.id} at {q.t_query}: {'; '.join(why)}: {q.question!r}")
    return out


def interrupted_spells(checker: Checker) -> set[int]:
    """Ids of the closed spells of ``exclusive`` relations in which another spell of the same subject, relation and
    role with another object starts (in the spell's start year or later, before its end year)."""
    g = checker.g
    groups: defaultdict[tuple[str, str, str | None], list[Fact]] = defaultdict(list)
    for f in checker.good:
        if checker.decl.get(f.r, {}).get("exclusive"):
            groups[(f.s, f.r, checker.role_of(f))].append(f)
    out = set()
    for fs in groups.values():
        for f in fs:
            if f.start is None or f.end is None:
                continue
            lo, hi = f.start.lo(g), f.end.lo(g)
            if any(x.o != f.o and x.start is not None and lo <= x.start.lo(g) < hi for x in fs):
                out.add(f.id)
    return out


ORDERING_OPERATORS = ("sequence", "relative", "before_after")  # questions that order facts of one timeline


def nested_order_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions ordering a state timeline (sequence next / last, relative, before/after with the reference fact in
    the asked subject's timeline of the asked relation) where another spell of that timeline (same role) starts
    strictly inside the reference's or the answer's spell, or either starts strictly inside another spell: a loan
    inside a spell makes "next after X", "N years before joining X", "last" mean two things."""
    g, out = checker.g, []

    def inside(a: Fact, b: Fact) -> bool:  # b starts strictly inside a's spell (both dated at the granularity)
        if a.start is None or a.end is None or b.start is None:
            return False
        return a.start.lo(g) < b.start.lo(g) < a.end.lo(g)

    for q in questions:
        lf = q.logical_form
        if q.operator not in ORDERING_OPERATORS or not q.S_star or not lf.get("path"):
            continue
        path = lf["path"]
        r, fwd = path[-1]["r"], path[-1]["dir"] == "fwd"
        if checker.kinds[r] == "event":
            continue
        ans = checker.by_id[q.S_star[len(path) - 1].fact_id]
        pairs = checker.neighbours(_chain_end_source(q), r, fwd)
        other = {f.id: o for f, o in pairs}
        timeline = [f for f, _ in pairs]
        ids = set(other)
        asked = [ans] + [checker.by_id[t.fact_id] for t in q.S_anchor if t.fact_id in ids]
        if q.operator != "sequence" and len(asked) < 2:
            continue  # the reference is of another timeline: no order over this one
        for f in asked:
            same = [x for x in timeline if x.id != f.id and (not fwd or checker.role_of(x) == checker.role_of(f))]
            hit = [x.id for x in same if other[x.id] != other.get(f.id) and (inside(f, x) or inside(x, f))]
            if hit:
                out.append(f"{q.id}: spell {hit[0]} nested with {f.id}: {q.question!r}")
                break
    return out


def interrupted_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions reading an interrupted spell (:func:`interrupted_spells`) by its end (a time reference ``end``), its
    length (duration), its holding on (yes/no, either label; Allen ``still``): no membership of that span."""
    bad = interrupted_spells(checker)
    out = []
    for q in questions:
        asked = q.S_star[len(q.logical_form["path"]) - 1] if q.S_star else None
        read = []
        if asked is not None and (q.operator in ("duration", "yes_no") or q.logical_form.get("variant") == "still"):
            read.append(asked.fact_id)
        for ref in q.time_refs:
            t = asked if ref["of"] == "answer" else (q.S_anchor[0] if q.S_anchor else None)
            if ref["which"] == "end" and t is not None:
                read.append(t.fact_id)
        hit = [f for f in read if f in bad]
        if hit:
            out.append(f"{q.id}: reads interrupted spell {hit[0]}: {q.question!r}")
    return out


def ends_read(checker: Checker, q: Question) -> tuple[list[Fact], list[Fact]]:
    """The facts whose end a question names or compares, read from its operator and variant (never from its
    time references, which record only ends the data has), and the fact whose spell it reads whole."""
    lf, variant = q.logical_form, str(q.logical_form.get("variant"))
    asked = checker.by_id[q.S_star[len(lf["path"]) - 1].fact_id] if q.S_star and lf.get("path") else None
    ref = checker.by_id[q.S_anchor[0].fact_id] if q.S_anchor else None
    ends: list[Fact | None] = []
    if q.operator == "allen":
        parts = variant.split("_")
        ends += [asked] if variant == "still" or parts[0] == "end" else []
        ends += [ref] if parts[-1] == "end" else []
    elif (q.operator, variant[-4:]) == ("relative", "_end") or (q.operator, variant) == ("sequence", "next"):
        ends.append(ref)
    elif q.operator == "interval" and variant == "end":
        ends.append(asked)
    whole = [asked] if asked is not None and q.operator in ("duration", "yes_no") else []
    return [f for f in ends if f is not None and checker.kinds.get(f.r) != "event"], whole


def end_read_errors(checker: Checker, questions: Sequence[Question], declared: bool) -> list[str]:
    """Questions naming or comparing the end of a state whose end the data does not record (``declared`` false),
    or of a relation declared ``end_unknown`` (``declared`` true: its end, its length, "still in"): an unknown end
    is never a guess, whatever label the comparison over every completion gives."""
    unknown = {r for r, d in checker.decl.items() if d.get("end_unknown")}
    out = []
    for q in questions:
        ends, whole = ends_read(checker, q)
        if declared:
            hit = [f.id for f in [*ends, *whole] if f.r in unknown]
        else:
            hit = [f.id for f in ends if f.end is None and f.r not in unknown]
        if hit:
            out.append(f"{q.id}: reads the end of fact {hit[0]}: {q.question!r}")
    return out


# a disambiguator that is a lower-case noun of kind or occupation ("geneticist"), not a field ("soccer")
_KIND = re.compile(r"[a-z][a-z' -]*[a-z]")
_FIELD_WORDS = frozenset(
    {"football", "soccer", "basketball", "baseball", "cricket", "rugby", "rugby union", "rugby league", "hockey",
     "ice hockey", "tennis", "golf", "boxing", "cycling", "athletics", "music", "television", "radio", "politics"}
)  # fmt: skip


def _kind_word(label: str) -> str | None:
    m = DISAMBIGUATOR.search(label)
    if m is None:
        return None
    inner = " ".join(m.group(0).strip()[1:-1].split())
    return inner if _KIND.fullmatch(inner) and inner not in _FIELD_WORDS else None


def world_ambiguous_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions naming an entity whose Wikipedia disambiguator is a lower-case descriptor ("Harry Harris
    (geneticist)") by the bare name: the disambiguator exists because another article bears the name, so the text
    must say "the geneticist Harry Harris". An answer that gains the descriptor or the bracket counts too."""
    out = []
    for q in questions:
        text = " ".join(q.question.split()).casefold()
        named = {x for t in (*q.S_star, *q.S_anchor) for x in (t.s_id, t.o_id)} - set(q.answer_ids)
        for e in sorted(named):
            full = _spaced(checker.label(e))
            kind = _kind_word(full)
            bare = DISAMBIGUATOR.sub("", full)
            named_bare = bare.casefold() in text and f"{kind} {bare}".casefold() not in text  # not a bridge
            if kind is not None and named_bare and full.casefold() not in text:
                out.append(f"{q.id}: {full!r} named bare in {q.question!r}")
        for e, a in zip(q.answer_ids, q.answers, strict=False):
            kind = _kind_word(_spaced(checker.label(e)))
            if kind is not None and kind.casefold() in a.casefold():
                out.append(f"{q.id}: answer {a!r} carries its descriptor")
    return out


def namesake_bare_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions naming or answering an entity by a full label another entity of the graph bears too (the two
    read alike to a reader of the corpus; the data gives no disambiguator to name them apart)."""
    bearers: Counter[str] = Counter()
    for label, ents in checker._by_label().items():
        bearers[label.casefold()] += len(ents)
    out = []
    for q in questions:
        ents = {x for t in (*q.S_star, *q.S_anchor) for x in (t.s_id, t.o_id)} | set(q.answer_ids)
        hit = sorted(e for e in ents if bearers[_spaced(checker.label(e)).casefold()] > 1)
        if hit:
            out.append(f"{q.id}: {hit[0]} ({checker.label(hit[0])!r}) shares its label: {q.question!r}")
    return out


def unasked_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions with a fact of a relation declared ``ask = false`` in their gold chain or as their reference."""
    unasked = {r for r, d in checker.decl.items() if d.get("ask") is False}
    out = []
    for q in questions:
        hit = [t.fact_id for t in (*q.S_star, *q.S_anchor) if checker.by_id[t.fact_id].r in unasked]
        if hit:
            out.append(f"{q.id}: rests on fact {hit[0]} of an unasked relation: {q.question!r}")
    return out


def unrelated_reference_errors(questions: Sequence[Question]) -> list[str]:
    """Two-facts and relative questions whose reference fact shares no entity the question names with the asked
    chain (its anchor or an intermediate entity): two unrelated facts joined by a date alone."""
    out = []
    for q in questions:
        if q.operator not in ("two_facts", "relative") or not q.S_anchor:
            continue
        named = ({q.logical_form["anchor"]} | {x for t in q.S_star for x in (t.s_id, t.o_id)}) - set(q.answer_ids)
        ref = q.S_anchor[0]
        if not {ref.s_id, ref.o_id} & named:
            out.append(f"{q.id}: reference {ref.s} / {ref.o} shares nothing with the chain: {q.question!r}")
    return out


PER_TERM_SHARE = 0.04  # the documented share of a state relation's triples split into adjacent spells
PER_TERM_MIN = 10  # ... and at least this many such triples


def per_term_relations(checker: Checker) -> set[str]:
    """State relations the data stores per term: at least ``PER_TERM_SHARE`` (and ``PER_TERM_MIN``) of their dated
    (s, r, o) triples hold two spells of which one starts at most a unit after the previous one's end."""
    g = checker.g
    spells: defaultdict[tuple[str, str, str], list[Fact]] = defaultdict(list)
    for f in checker.good:
        if checker.kinds[f.r] == "state" and f.start is not None:
            spells[(f.s, f.r, f.o)].append(f)
    triples: Counter[str] = Counter()
    split: Counter[str] = Counter()
    for (_, r, _), fs in spells.items():
        triples[r] += 1
        fs.sort(key=lambda f: f.start.lo(g) if f.start is not None else 0)
        if any(a.end is not None and b.start is not None and 0 <= b.start.lo(g) - a.end.lo(g) <= 1
               for a, b in pairwise(fs)):  # fmt: skip
            split[r] += 1
    return {r for r, n in split.items() if n >= PER_TERM_MIN and n >= PER_TERM_SHARE * triples[r]}


def per_term_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Duration questions over a relation stored per term: one spell in the graph need not be the whole tenure."""
    terms = per_term_relations(checker)
    return [
        f"{q.id}: {q.S_star[len(q.logical_form['path']) - 1].r} is stored per term: {q.question!r}"
        for q in questions
        if q.operator == "duration" and q.S_star[len(q.logical_form["path"]) - 1].r_id in terms
    ]


def tenure_ends(checker: Checker) -> set[int]:
    """Ids of the facts of per-term relations whose recorded end is a tenure's end (see :func:`tenure_end_errors`)."""
    g = checker.g
    terms = per_term_relations(checker)
    spells: defaultdict[tuple[str, str, str], list[Fact]] = defaultdict(list)
    starts: defaultdict[tuple[str, str, int], set[str]] = defaultdict(set)  # (entity, r, start) -> values, per side
    for f in checker.good:
        if f.r in terms and f.start is not None:
            spells[(f.s, f.r, f.o)].append(f)
            if checker.decl.get(f.r, {}).get("objects_at_once") == "one":
                starts[("fwd:" + f.s, f.r, f.start.lo(g))].add(f.o)
            if checker.decl.get(f.r, {}).get("subjects_at_once") == "one":
                starts[("inv:" + f.o, f.r, f.start.lo(g))].add(f.s)
    out: set[int] = set()
    for (s, r, o), fs in spells.items():
        fs.sort(key=lambda f: f.start.lo(g) if f.start is not None else 0)
        tenures: list[list[Fact]] = []
        reach = None  # the furthest end of the current tenure (math.inf: open)
        for f in fs:
            assert f.start is not None
            end = math.inf if f.end is None else f.end.lo(g)
            if reach is None or f.start.lo(g) > reach + 1:
                tenures.append([])
                reach = end
            tenures[-1].append(f)
            reach = max(reach, end)
        for tenure in tenures:
            last = max(math.inf if f.end is None else f.end.lo(g) for f in tenure)
            if last == math.inf:
                continue
            end_year = int(last)
            followed = any(
                starts.get((side + e, r, end_year + k), set()) - {v}
                for side, e, v in (("fwd:", s, o), ("inv:", o, s)) for k in (0, 1)
            )  # fmt: skip
            if followed:
                out.update(f.id for f in tenure if f.end is not None and f.end.lo(g) == end_year)
    return out


def tenure_end_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions resting on a per-term spell's recorded end that is not a tenure's end (a ``yes`` rests on none)."""
    terms = per_term_relations(checker)
    ends = tenure_ends(checker)
    out = []
    for q in questions:
        if q.operator == "yes_no" and q.answers == ("yes",):
            continue
        asked = q.S_star[len(q.logical_form["path"]) - 1] if q.S_star else None
        for ref in q.time_refs:
            t = asked if ref["of"] == "answer" else (q.S_anchor[0] if q.S_anchor else None)
            if ref["which"] == "end" and t is not None and t.r_id in terms and t.fact_id not in ends:
                out.append(f"{q.id}: rests on the end of per-term spell {t.fact_id} ({t.s} / {t.o}): {q.question!r}")
                break
    return out


def _closed_superlative(checker: Checker, q: Question, horizon: int) -> bool:
    """A ``last`` question that says "up to <horizon>" and whose answer still held in the horizon year."""
    if q.logical_form["variant"] != "last" or f"up to {horizon}," not in q.question.casefold():
        return False
    f = checker.by_id[q.S_star[len(q.logical_form["path"]) - 1].fact_id]
    end = f.start if checker.kinds[f.r] == "event" else f.end
    if end is None and checker.kinds[f.r] == "state":  # an open end holds on only where it is read as ongoing
        return checker.open_end == "ongoing"
    return end is not None and end.year >= horizon


def next_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """``next`` questions with another spell starting from the reference's end (an event: start) to the answer's.

    "Immediately after X left Y, which team did X join?" has two answers when another spell starts in the unit X
    left Y (or between that and the gold's start), whether or not it starts after the reference's own start.
    Spells of another role (TOML ``roles``: national teams beside clubs) are another timeline: neither counted
    here nor a ``next`` answer (counted too).
    """
    out = []
    for q in questions:
        lf = q.logical_form
        if q.operator != "sequence" or lf["variant"] != "next":
            continue
        path = lf["path"]
        r, fwd = path[-1]["r"], path[-1]["dir"] == "fwd"
        y, ans = checker.by_id[lf["reference_fact"]], checker.by_id[q.S_star[len(path) - 1].fact_id]
        ref = y.start if checker.kinds[r] == "event" or y.end is None else y.end
        assert ref is not None and ans.start is not None
        lo, hi = ref.lo(checker.g), ans.start.lo(checker.g)
        if fwd and checker.role_of(y) != checker.role_of(ans):
            out.append(
                f"{q.id}: next after a {checker.role_of(y)} spell is a {checker.role_of(ans)} one: {q.question!r}"
            )
            continue
        others = [
            f.id for f, _ in checker.neighbours(_chain_end_source(q), r, fwd)
            if f.id not in (y.id, ans.id) and f.start is not None and lo <= f.start.lo(checker.g) <= hi
            and (not fwd or checker.role_of(f) == checker.role_of(y))
        ]  # fmt: skip
        if others:
            out.append(f"{q.id}: spells {others} also start from {ref} to {ans.start}: {q.question!r}")
    return out


def _options(checker: Checker, q: Question) -> set[str]:
    """The values a question chooses among: the neighbours, over its relation and in either direction, of both
    ends of its final gold fact and of its reference facts."""
    facts = [checker.by_id[t.fact_id] for t in (q.S_star[len(q.logical_form["path"]) - 1], *q.S_anchor)]
    return {x for f in facts for e in (f.s, f.o) for fwd in (True, False) for _, x in checker.neighbours(e, f.r, fwd)}


def _chain_end_source(q: Question) -> str:
    """The entity the final hop of ``q``'s gold chain starts from (walked from the anchor)."""
    lf = q.logical_form
    cur = lf["anchor"]
    for t in q.S_star[: len(lf["path"]) - 1]:
        cur = t.o_id if cur == t.s_id else t.s_id
    return cur


def _says(text: str, words: str) -> bool:
    """Whether ``text`` holds ``words`` as whole words (any case)."""
    return re.search(r"(?<!\w)" + re.escape(words) + r"(?!\w)", text, re.IGNORECASE) is not None


def _role_noun(checker: Checker, f: Fact) -> str:
    """The noun naming ``f``'s object: its role's name, else its relation's ``answer_type``."""
    return checker.role_of(f) or str(checker.decl.get(f.r, {}).get("answer_type", ""))


def role_unnamed_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions asking for the object of a fact of a relation with roles, whose subject holds spells of two roles of
    it, that do not name the answer's role (a declared role: its name; the relation's own: its ``answer_type``) or
    that name another role (a reader ranks every spell the words cover)."""
    out = []
    for q in questions:
        path = q.logical_form.get("path") or []
        if not path or path[-1]["dir"] != "fwd":
            continue
        f = checker.by_id[q.S_star[len(path) - 1].fact_id]
        roles = checker.decl.get(f.r, {}).get("roles")
        if not roles or f.o not in q.answer_ids:
            continue
        if len({checker.role_of(g) for g, _ in checker.neighbours(f.s, f.r, True)}) < 2:
            continue
        nouns = {None: str(checker.decl[f.r].get("answer_type", "")), **{str(k): str(k) for k in roles}}  # type: ignore[union-attr]
        own = nouns[checker.role_of(f)]
        # the nouns of the chain's other hops ("the administrative unit X was in") and the entities' own labels
        # ("Club Libertad") name no role of the answer
        hops = [checker.by_id[t.fact_id] for t in q.S_star[: len(path) - 1]]
        used = {_role_noun(checker, g) for g in hops}
        others = [n for n in nouns.values() if n != own and not _says(own, n) and n not in used]
        text = q.question
        # the longest label first: "Lubny" taken out of "Lubny Raion" would leave a role noun behind
        for e in sorted({e for t in (*q.S_star, *q.S_anchor) for e in (t.s, t.o)}, key=lambda x: (-len(x), x)):
            # a role noun in apposition to an entity names that entity ("joined the national team Brazil Olympic
            # football team" in a reference clause), not the answer's role
            for n in nouns.values():
                text = re.sub(rf"(?i)(?<!\w){re.escape(n)} {re.escape(e)}", " ", text) if n else text
            text = text.replace(e, " ")
        if not _says(text, own) or any(_says(text, n) for n in others):
            out.append(f"{q.id}: {checker.label(f.o)!r} ({own}) for {q.question!r}")
    return out


def squad_moves(checker: Checker) -> set[int]:
    """Spells of a relation declared ``squads`` whose end is a move within one club: the subject's spell at the
    club's other team (its label one marker word longer or shorter) starts in the end unit or the next. A marker is a
    word that extends two labels of the relation's objects, or a single letter (derived from the data)."""
    out: set[int] = set()
    for r in (r for r, d in checker.decl.items() if d.get("squads")):
        facts = [f for f in checker.good if f.r == r]
        words = {f.o: tuple(_spaced(checker.label(f.o)).casefold().split()) for f in facts}
        labels = set(words.values())
        ext = Counter(w[-1] for w in labels if len(w) > 1 and w[:-1] in labels)
        markers = {m for m, n in ext.items() if n >= 2 or (len(m) == 1 and m.isalpha())}
        spells: dict[str, list[Fact]] = defaultdict(list)
        for f in facts:
            spells[f.s].append(f)
        for f in (f for f in facts if f.end is not None):
            end, a = f.end.lo(checker.g), words[f.o]  # type: ignore[union-attr]
            for g in spells[f.s]:
                b = words[g.o]
                pair = (a, b) if len(a) < len(b) else (b, a)
                within = len(pair[1]) == len(pair[0]) + 1 and pair[1][:-1] == pair[0] and pair[1][-1] in markers
                if within and g.start is not None and end <= g.start.lo(checker.g) <= end + 1:
                    out.add(f.id)
    return out


def squad_move_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions reading the end of a spell whose end is a move within one club (:func:`squad_moves`): its end, its
    length or its holding on ("In what year did José Fonte leave Sporting CP?": to its B team, not away)."""
    return _ends_read_of(checker, questions, squad_moves(checker), "fact")


def _ends_read_of(checker: Checker, questions: Sequence[Question], spells: set[int], what: str) -> list[str]:
    """Questions reading the end of one of ``spells`` (:func:`ends_read`: its end, its length or its holding on)."""
    out = []
    for q in questions:
        ends, whole = ends_read(checker, q)
        hit = [f.id for f in [*ends, *whole] if f.id in spells]
        if hit:
            label = checker.label(checker.by_id[hit[0]].o)
            out.append(f"{q.id}: reads the end of {what} {hit[0]} ({label}): {q.question!r}")
    return out


def loans(checker: Checker) -> set[int]:
    """Spells of a relation declaring ``one_spell_per_object`` lying within another spell (not itself) of the same
    subject and relation, both of no declared role (a national side is no club) and with both ends recorded: the
    other starts in the same unit or earlier and ends in the same unit or later."""
    out: set[int] = set()
    rels = {r for r, d in checker.decl.items() if d.get("one_spell_per_object")}
    spells: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for f in checker.good:
        if f.r in rels and f.start is not None and f.end is not None and checker.role_of(f) is None:
            spells[(f.s, f.r)].append(f)
    g = checker.g
    for group in spells.values():
        for f in group:
            if any(
                h is not f and h.start.lo(g) <= f.start.lo(g) and h.end.lo(g) >= f.end.lo(g)  # type: ignore[union-attr]
                for h in group
            ):
                out.add(f.id)
    return out


def loan_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions reading the end of a loan (:func:`loans`): its end, its length or its holding on ("What year did
    Richard Keogh leave Carlisle United F.C.?" -> 2008, the end of a loan; he signed for Carlisle that year)."""
    return _ends_read_of(checker, questions, loans(checker), "loan")


def convention_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions resting on the date of a fact of a relation declaring ``date_convention`` other than comparing it
    with another fact of the same relation: asking it ("What year was X nominated for Y?"), or pairing it with a
    fact of another relation (same year, before, after, when, counted from)."""
    conv = {r for r, d in checker.decl.items() if d.get("date_convention")}
    out = []
    for q in questions:
        path = q.logical_form.get("path") or []
        if not path:
            continue
        asked = checker.by_id[q.S_star[len(path) - 1].fact_id]
        ref = checker.by_id[q.S_anchor[0].fact_id] if q.S_anchor else None
        rels = {asked.r} | ({ref.r} if ref is not None else set())
        if rels & conv and (ref is None or len(rels) > 1):
            out.append(f"{q.id}: {sorted(rels & conv)} dated by convention in {q.question!r}")
    return out


def year_uncertain_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions that use, as gold, hop, anchor or reference, a fact whose object's label holds every word of a mark
    its relation declares ``year_uncertain`` (Mary Steenburgen's Golden Globe, dated 1980, the film's year; she
    received it on 31 January 1981): every question reads its facts at their dates, and this one's is uncertain."""
    marks = {r: [set(v.casefold().split()) for v in d["year_uncertain"]["objects"]]
             for r, d in checker.decl.items() if d.get("year_uncertain")}  # fmt: skip
    out = []
    for q in questions:
        for t in (*q.S_star, *q.S_anchor):
            f = checker.by_id[t.fact_id]
            if any(m <= set(checker.label(f.o).casefold().split()) for m in marks.get(f.r, ())):
                out.append(f"{q.id}: {checker.label(f.o)!r} dated {f.start} in {q.question!r}")
                break
    return out


def countries(checker: Checker) -> set[str]:
    """The entities the data shows as countries: objects of a relation whose ``answer_type`` is "country", less
    those that a role of it marks otherwise (a Soviet republic)."""
    facts = [f for f in checker.good if checker.decl.get(f.r, {}).get("answer_type") == "country"]
    return {f.o for f in facts if checker.role_of(f) is None} - {f.o for f in facts if checker.role_of(f) is not None}


def country_unit_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions whose chain reaches a country over a hop whose relation says "administrative unit", and whose text
    does not say "country" ("In 1938, in which administrative unit was Jelgava located?" -> Latvia)."""
    nations, out = countries(checker), []
    units = {r for r, d in checker.decl.items() if d.get("answer_type") == "administrative unit"}
    for q in questions:
        path = q.logical_form.get("path") or []
        reached = []
        for step, t in zip(path, q.S_star, strict=False):
            f = checker.by_id[t.fact_id]
            if f.r in units:
                reached.append(f.o if step["dir"] == "fwd" else f.s)
        hit = [e for e in reached if e in nations]
        if hit and not _says(q.question, "country"):
            out.append(f"{q.id}: {checker.label(hit[0])!r} asked as administrative unit in {q.question!r}")
    return out


# a relative clause that ends in its verb or preposition, then another clause's verb ("the administrative unit X
# was in part of", "the Soviet republic the administrative unit X was in was in")
_NESTED_CLAUSE = re.compile(
    r" (?:was in|was part of|belonged to|played for|governed)"
    r" (?:was|were|located|part|did|belong|play|become|cease|join|leave|contain)\b"
)


def nested_clause_errors(questions: Sequence[Question]) -> list[str]:
    """Questions whose text nests a relative clause ending in a verb or preposition before another verb."""
    return [f"{q.id}: {q.question!r}" for q in questions if _NESTED_CLAUSE.search(q.question)]


def no_value_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions that use a fact whose object the table declares the absence of a value (``no_value``: Wikidata's
    party "independent politician"), as gold, hop, anchor or reference, or name that object in their text."""
    bad = {r: {v.casefold() for v in d["no_value"]["objects"]} for r, d in checker.decl.items() if d.get("no_value")}
    out = []
    for q in questions:
        facts = [checker.by_id[t.fact_id] for t in (*q.S_star, *q.S_anchor)]
        hit = [
            f
            for f in facts
            if any(set(v.split()) <= set(checker.label(f.o).casefold().split()) for v in bad.get(f.r, ()))
        ]
        named = [v for vs in bad.values() for v in vs if v in q.question.casefold()]
        if hit or named:
            out.append(f"{q.id}: {q.question!r}")
    return out


def confederation_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions that reach an entity whose label says "Confederation" over a hop and call it a country ("Which
    country was Brunswick part of in 1823?" -> German Confederation)."""
    out = []
    for q in questions:
        path = q.logical_form.get("path") or []
        for step, t in zip(path, q.S_star, strict=False):
            f = checker.by_id[t.fact_id]
            e = f.o if step["dir"] == "fwd" else f.s
            if "confederation" in checker.label(e).casefold().split() and _says(q.question, "country"):
                out.append(f"{q.id}: {checker.label(e)!r} asked as a country in {q.question!r}")
                break
    return out


def bulk_start_errors(checker: Checker, questions: Sequence[Question], least: int = 10) -> list[str]:
    """Questions whose asked fact (a time, duration or yes/no answer) or reference fact is a state whose subject
    holds ``least`` or more facts of its relation with that start unit and no end (a batch's import date)."""
    groups: Counter[tuple[str, str, str | None]] = Counter(
        (f.s, f.r, checker.unit_iso(f.start))
        for f in checker.good
        if checker.kinds[f.r] == "state" and f.start is not None and f.end is None
    )
    out = []
    for q in questions:
        path = q.logical_form.get("path") or []
        timed = [q.S_star[len(path) - 1].fact_id] if path and q.answer_type != "entity" else []
        timed += [t.fact_id for t in q.S_anchor[:1]]
        for f in (checker.by_id[i] for i in timed):
            key = (f.s, f.r, checker.unit_iso(f.start))
            if checker.kinds[f.r] == "state" and f.start is not None and f.end is None and groups[key] >= least:
                out.append(f"{q.id}: {checker.label(f.s)!r} {f.r} from {key[2]} ({groups[key]} so) in {q.question!r}")
                break
    return out


# a youth (age-group) or Olympic national side by its label; the words that name such a level in a question
_YOUTH_TEAM = re.compile(r"(?i)\bnational\b.*\b(?:under|u)[- ]?\d\d\b|\bnational youth\b|\bolympic football team\b")
_LEVEL = re.compile(r"(?i)\b(?:youth|under-\d\d|u-?\d\d|olympic)\b")


def youth_team_errors(questions: Sequence[Question]) -> list[str]:
    """Questions whose gold is a youth or Olympic national team asked as "national team" with no level named."""
    out = []
    for q in questions:
        if q.answer_type != "entity" or not any(_YOUTH_TEAM.search(a) for a in q.answers):
            continue
        if _says(q.question, "national team") and not _LEVEL.search(q.question):
            out.append(f"{q.id}: {list(q.answers)} for {q.question!r}")
    return out


def capital_polity_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Entity questions with a hop asking a place's container at ``t_query`` whose place is possibly the capital of
    another container then, with no containment fact possibly valid then placing it there."""
    role = {r: d.get("containment") for r, d in checker.decl.items()}
    cont = [f for f in checker.good if role.get(f.r) in ("part_of", "contains")]
    containers = {f.o if role[f.r] == "part_of" else f.s for f in cont}
    out = []
    for q in questions:
        t = parse_time(q.t_query) if q.t_query and q.answer_type == "entity" else None
        path = q.logical_form.get("path") or []
        for step, tr in zip(path, q.S_star, strict=False) if t is not None else ():
            f = checker.by_id[tr.fact_id]
            kind = role.get(f.r)
            if (kind, step["dir"]) not in (("part_of", "fwd"), ("contains", "inv")):
                continue
            part, whole = (f.s, f.o) if kind == "part_of" else (f.o, f.s)
            near = [g for g in cont if part in (g.s, g.o) and checker.possible(g, t)]
            held = {g.o if role[g.r] == "part_of" else g.s for g in near} - {part}
            caps = [
                g.o for g in checker.touching.get(part, ())
                if role.get(g.r) == "capital_of" and g.s == part and checker.possible(g, t)
            ]  # fmt: skip
            missing = [x for x in caps if x != whole and x in containers and x not in held]
            if missing:
                out.append(f"{q.id}: {checker.label(part)!r} capital of {checker.label(missing[0])!r}: {q.question!r}")
                break
    return out


def level_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions describing a container by words that fit another level (the module docstring)."""
    out = []
    for q in questions:
        t = parse_time(q.t_query) if q.t_query else None
        path = q.logical_form.get("path") or []
        for i, (step, tr) in enumerate(zip(path, q.S_star, strict=False)):
            f = checker.by_id[tr.fact_id]
            kind = checker.decl.get(f.r, {}).get("containment")
            named = i == len(path) - 1 and q.answer_type != "entity"  # a final container named, not described
            if t is None or named or (kind, step["dir"]) not in (("part_of", "fwd"), ("contains", "inv")):
                continue
            part, whole = (f.s, f.o) if kind == "part_of" else (f.o, f.s)
            own = _level(checker, f.r, whole)
            wider = [str(r) for r in checker.decl[f.r].get("roles", {}) if own and r != own and _says(own, str(r))]  # type: ignore[union-attr]
            unnamed = bool(own) and not _says(q.question, str(own)) and any(_says(q.question, r) for r in wider)
            others = _containers_at(checker, part, t) - {whole, *q.answer_ids}
            also = sorted(checker.label(x) for x in others if own is not None and _level(checker, f.r, x) == own)
            if unnamed or also:
                out.append(f"{q.id}: {checker.label(whole)!r} ({own or f.r}) beside {also}: {q.question!r}")
                break
    return out


def divided_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions reading a divided place's own fact at a year of its declared span (the module docstring)."""
    out = []
    for q in questions:
        if not checker.divided:
            break
        path = q.logical_form.get("path") or []
        timed = list(q.S_anchor) + ([q.S_star[len(path) - 1]] if path and q.answer_type in ANSWERS_TIMED else [])
        tq = parse_time(q.t_query)
        for tr in (*q.S_star, *q.S_anchor):
            f = checker.by_id[tr.fact_id]
            own = [f.s, f.o] if f.r in checker.symmetric else [f.s]
            spans = [checker.divided[e] for e in own if e in checker.divided]
            points = [tq] + ([f.start, f.end] if tr in timed else [])
            years = {p.year for p in points if p is not None}
            hit = sorted(y for y in years for lo, hi in spans if lo <= y <= hi)
            if hit:
                out.append(f"{q.id}: {checker.label(own[0])!r} read in {hit[0]}: {q.question!r} -> {list(q.answers)}")
                break
    return out


def followed_back_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Chains that follow a relation from a bridge over the same relation back: the spouse of a spouse, the head of
    government of the place another head governed."""
    out = []
    for q in questions:
        path = q.logical_form.get("path") or []
        if any(a["r"] == b["r"] and (a["r"] in checker.symmetric or a["dir"] != b["dir"]) for a, b in pairwise(path)):
            out.append(f"{q.id}: {q.question!r}")
    return out


def _label_words(label: str) -> tuple[str, ...]:
    return tuple(re.findall(r"\w+", re.sub(r"\([^()]*\)", " ", label).casefold()))


def _within(outer: tuple[str, ...], inner: tuple[str, ...]) -> bool:
    n = len(inner)
    return 0 < n <= len(outer) and any(outer[i : i + n] == inner for i in range(len(outer) - n + 1))


def own_name_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Bridges described from an anchor whose label holds the bridge's label as whole words, or the other way round
    ("the capital of Moscow Governorate" for Moscow)."""
    out = []
    for q in questions:
        lf = q.logical_form
        named, node = _label_words(checker.label(lf["anchor"])), lf["anchor"]
        for t in q.S_star[: len(lf["path"]) - 1]:
            node = t.o_id if node == t.s_id else t.s_id
            bridge = _label_words(checker.label(node))
            if _within(named, bridge) or _within(bridge, named):
                out.append(
                    f"{q.id}: bridge {checker.label(node)!r} from {checker.label(lf['anchor'])!r}: {q.question!r}"
                )
                break
    return out


# the frames a blind reader called stilted: yes/no's "did it still hold", present state's "going by the situation",
# relative's "counting from", an event's dangling gerund ("when dying in")
STILTED = re.compile(
    r"^Did it still hold in|^Going by the situation in|counting from|(?:when|time of) (?:dying|being born)\b"
)


def stilted_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions worded in a frame of :data:`STILTED`, or naming a bridge "as of" its pinned year where the TOML
    gives the relation a dated description (``object_at`` / ``subject_at``: "the person married to X in 1942")."""
    out = []
    for q in questions:
        dated = [
            s for s in q.logical_form.get("path") or []
            if "at" in s and checker.decl.get(s["r"], {}).get("object_at" if s["dir"] == "fwd" else "subject_at")
        ]  # fmt: skip
        if STILTED.search(q.question) or any(f"as of {parse_time(s['at']).year}" in q.question for s in dated):
            out.append(f"{q.id}: {q.question!r}")
    return out


ANSWERS_TIMED = ("time", "duration", "yes_no")  # the asked fact's start or end is the answer or bounds it


def described_errors(checker: Checker, questions: Sequence[Question], flag: str) -> list[str]:
    """Questions describing a container by words (the fact's role, else its relation) the TOML declares ``flag`` of:
    ``levels_unnamed`` or ``union_of_states`` (the module docstring). A role never takes its relation's flag."""
    out = []
    for q in questions:
        path = q.logical_form.get("path") or []
        for i, (step, tr) in enumerate(zip(path, q.S_star, strict=False)):
            f = checker.by_id[tr.fact_id]
            kind = checker.decl.get(f.r, {}).get("containment")
            named = i == len(path) - 1 and q.answer_type != "entity"  # a final container named, not described
            if named or (kind, step["dir"]) not in (("part_of", "fwd"), ("contains", "inv")):
                continue
            role = checker.role_of(f)
            entry = checker.decl[f.r].get("roles", {}).get(role, {}) if role else checker.decl[f.r]  # type: ignore[union-attr]
            if entry.get(flag):
                whole = f.o if kind == "part_of" else f.s
                out.append(f"{q.id}: {checker.label(whole)!r} ({role or f.r}): {q.question!r}")
                break
    return out


def _level(checker: Checker, r: str, e: str) -> str | None:
    """The role the TOML gives ``e`` as a container of relation ``r`` ("": the relation's own words; None: no fact of
    ``r`` places anything in ``e``)."""
    kind = checker.decl.get(r, {}).get("containment")
    if not any(g.r == r and (g.o if kind == "part_of" else g.s) == e for g in checker.touching.get(e, ())):
        return None
    return checker.role_of(Fact(-1, "", r, e, None, None)) or ""


def _containers_at(checker: Checker, e: str, t: TimePoint) -> set[str]:
    """What the dated containment facts possibly valid at ``t`` place ``e`` in, transitively (8 levels up)."""
    seen: set[str] = set()
    level = {e}
    for _ in range(PARENT_DEPTH):
        nxt = set()
        for x in level:
            for g in checker.touching.get(x, ()):
                kind = checker.decl.get(g.r, {}).get("containment")
                if kind not in ("part_of", "contains") or (g.start is None and g.end is None):
                    continue
                inner, outer = (g.s, g.o) if kind == "part_of" else (g.o, g.s)
                if inner == x and checker.possible(g, t):
                    nxt.add(outer)
        level = nxt - seen - {e}
        seen |= level
    return seen


_UNBRACKETED = re.compile(r"\s\([^()]*\)")  # a bracket anywhere in a label
# a parenthesised disambiguator and the word before it ("Clarke (footballer, born 1987)")
_BRACKETED = re.compile(r"([^\s()]+)\s+(\([^()]*\))")


def repeated_disambiguator_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions writing one name with its disambiguator twice, save where another entity of the question shares the
    short name (only the bracket tells the two apart)."""
    out = []
    for q in questions:
        twice = [m for m, n in Counter(_BRACKETED.findall(q.question)).items() if n > 1]
        ents = {x for t in (*q.S_star, *q.S_anchor) for x in (t.s_id, t.o_id)} | set(q.answer_ids)
        plain = {e: _UNBRACKETED.sub("", _spaced(checker.label(e))).casefold() for e in ents}
        shorts = Counter(plain.values())
        for word, bracket in twice:
            full = [e for e in ents if f"{word} {bracket}" in _spaced(checker.label(e))]
            if not any(shorts[plain[e]] > 1 for e in full):
                out.append(f"{q.id}: {word} {bracket} twice in {q.question!r}")
                break
    return out


def repeated_name_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions writing a gold fact's subject or object label (without its disambiguator) twice, where English names
    it once and then leaves it to a gerund or "it" ("How many years after X joined Y did X leave Y?"); save where
    another entity of the question reads the same without its brackets (each mention names a different one)."""
    out = []
    for q in questions:
        ents = {x for t in (*q.S_star, *q.S_anchor) for x in (t.s_id, t.o_id)}
        plain = {e: _UNBRACKETED.sub("", _spaced(checker.label(e))) for e in ents}
        shared = Counter(p.casefold() for p in plain.values())
        text = q.question
        for e in sorted(ents, key=lambda x: (-len(plain[x]), x)):  # a longer label first: "FC Porto B", "FC Porto"
            pat = re.compile(r"(?<!\w)" + re.escape(plain[e]) + r"(?!\w)")
            n = len(pat.findall(text))
            text = pat.sub(" ", text)
            if n > 1 and shared[plain[e].casefold()] == 1:
                out.append(f"{q.id}: {plain[e]} written {n} times in {q.question!r}")
                break
    return out


def life_order_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Allen before / after questions pairing one's birth or death with a fact one is a party of: the life gives the
    answer, not the data."""
    out = []
    for q in questions:
        variant = q.logical_form.get("variant", "")
        if q.operator != "allen" or variant == "still" or "_same_" in variant or not q.S_anchor:
            continue
        a, b = q.S_star[len(q.logical_form["path"]) - 1], q.S_anchor[0]
        for x, y in ((a, b), (b, a)):
            if checker.decl.get(x.r_id, {}).get("role") and x.s_id in (y.s_id, y.o_id):
                out.append(f"{q.id}: {x.s_id}'s {x.r} against {y.r}: {q.question!r}")
                break
    return out


def _timed(checker: Checker, q: Question) -> list[Fact]:
    """The facts a question asks, bounds or refers to the time of: a time, duration or yes/no answer's, a reference."""
    path = q.logical_form.get("path") or []
    ids = [q.S_star[len(path) - 1].fact_id] if path and q.answer_type in ("time", "duration", "yes_no") else []
    return [checker.by_id[i] for i in ids + [t.fact_id for t in q.S_anchor]]


def _births(checker: Checker, e: str) -> list[Fact]:
    return [f for f in checker.touching.get(e, ()) if f.s == e and checker.decl.get(f.r, {}).get("role") == "birth"]


def _one_way(checker: Checker, e: str, up: bool) -> set[str]:
    """The places ``e`` lies in (``up``) or that lie in it, by containment facts at any time, transitively."""
    kinds = {r: d.get("containment") for r, d in checker.decl.items()}
    seen, todo = set(), [e]
    while todo:
        x = todo.pop()
        for f in checker.touching.get(x, ()):
            k = kinds.get(f.r)
            if k not in ("part_of", "contains"):
                continue
            inner, outer = (f.s, f.o) if k == "part_of" else (f.o, f.s)
            y = outer if up and inner == x else inner if not up and outer == x else None
            if y is not None and y not in seen:
                seen.add(y)
                todo.append(y)
    return seen


def residence_move_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions timed by a residence fact whose start the data gives no reason to read as a move."""
    res = {r for r, d in checker.decl.items() if d.get("residence")}

    def no_move(f: Fact) -> str | None:
        if f.r not in res or f.start is None:
            return None
        near = _one_way(checker, f.o, True) | _one_way(checker, f.o, False) | {f.o}
        if any(b.o in near for b in _births(checker, f.s)):
            return "birthplace"
        su = checker.unit_iso(f.start)
        if su is None or checker.unit_iso(f.end) != su:
            return None
        lo = f.start.lo(checker.g)
        earlier = [
            g for g in checker.touching[f.s] if g.s == f.s and g.r == f.r and g.o != f.o
            and ((g.start is not None and g.start.lo(checker.g) < lo)
                 or (g.start is None and g.end is not None and g.end.lo(checker.g) < lo))
        ]  # fmt: skip
        return None if earlier else "one unit"

    def no_move_away(f: Fact) -> str | None:
        if f.r not in res or f.end is None:
            return None
        end = f.end.lo(checker.g)
        later = [
            g for g in checker.touching[f.s] if g.s == f.s and g.r == f.r and g.o != f.o
            and g.start is not None and g.start.lo(checker.g) >= end
        ]  # fmt: skip
        return None if later else "end, no later residence elsewhere"

    out = []
    for q in questions:
        ends, whole = ends_read(checker, q)
        checks = [(f, no_move) for f in _timed(checker, q)] + [(f, no_move_away) for f in ends + whole]
        for f, rule in checks:
            why = rule(f)
            if why:
                out.append(f"{q.id}: {checker.label(f.s)!r} in {checker.label(f.o)!r} ({why}): {q.question!r}")
                break
    return out


def birth_start_errors(checker: Checker, questions: Sequence[Question]) -> list[str]:
    """Questions timed by a fact of a ``from_birth`` relation whose start is its subject's birth."""
    held = {r for r, d in checker.decl.items() if d.get("from_birth")}
    g = checker.g

    def at_birth(f: Fact) -> bool:
        if f.r not in held or f.start is None:
            return False
        units = [checker.unit_iso(b.start) for b in _births(checker, f.s) if b.start is not None]
        if units:
            return checker.unit_iso(f.start) in units
        others = [x for x in checker.touching[f.s] if x.id != f.id]
        return bool(others) and all(x.start is not None and x.start.lo(g) >= f.start.lo(g) for x in others)

    out = []
    for q in questions:
        hit = [f for f in _timed(checker, q) if at_birth(f)]
        if hit:
            f = hit[0]
            out.append(f"{q.id}: {checker.label(f.s)!r} {f.r} {checker.label(f.o)!r} from birth: {q.question!r}")
    return out


def load_release(graph: TemporalGraph, release: Path) -> tuple[Checker, list[Question]]:
    """A checker for a written release folder (its manifest's readings) and the release's questions."""
    import json

    manifest = json.loads((release / "manifest.json").read_text(encoding="utf-8"))
    checker = Checker.from_table(
        graph, PHRASES / f"{graph.name}.toml", open_end=open_end_of(manifest), not_years=not_years_of(manifest)
    )
    with (release / "benchmark.jsonl").open(encoding="utf-8") as fh:
        questions = [Question.from_dict(json.loads(line)) for line in fh if line.strip()]
    return checker, questions


def check_all(
    checker: Checker, questions: Sequence[Question], flags: Mapping[str, tuple[bool, bool]] | None = None
) -> list[str]:
    errs: list[str] = []
    for q in questions:
        errs += checker.check(q, None if flags is None else flags[q.id])
    return errs


if __name__ == "__main__":  # python tests/kg_checker.py yago11k RELEASE_DIR: the defect counts of a release
    import os
    import sys

    from chronoqa.datasets import wikidata12k, yago11k

    name, folder = sys.argv[1], Path(sys.argv[2])
    mirror = Path(os.environ["CHRONOQA_MIRROR"]) / name
    g = {"yago11k": yago11k.load, "wikidata12k": wikidata12k.load}[name](mirror)
    chk, qs = load_release(g, folder)
    for cat, msgs in defect_report(chk, qs).items():
        print(f"{cat}: {len(msgs)}")
        for m in msgs[: int(os.environ.get("SHOW", "3"))]:
            print("   ", m)
