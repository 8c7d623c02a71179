"""The data behind the report's question explorer, "fails everywhere" view, heatmaps and significance matrix.

:func:`build_explorer` joins a release's scored questions with the per-question verdicts the evaluate stage
wrote (:func:`chronoqa.artifacts.metrics.read_verdicts`) into one JSON-able mapping:

* ``systems``: every scored run (``kind`` ``"ret"``, metric CCR) and answer folder (``kind`` ``"ans"``,
  metrics A and T), controls marked;
* ``questions``: one record per scored question (``id``, ``split``, ``text``, ``operator``, ``hops``,
  ``complexity``, ``relation``, ``cardinality``, ``allen``, ``assumes_complete``, ``template``, ``t_query``,
  ``gold``, ``time_refs``, ``facts``, ``ret``, ``ans``) with its facts
  (``[set index, s, r, o, start day, end day, start label, end label]``, ``None`` for an unknown start or
  an open end) placed on a day axis (times are turned into day numbers and labels here, by :mod:`chronoqa.time`, so the
  page's script only draws) and, per system, its verdict (an answer folder's: A, T, outcome, answer, TDBench's
  outcome class, on a join question whether the reply names the intermediate hop, and with a paraphrase set
  each paraphrase with its verdict and answer);
* ``fails``: questions every non-control system got wrong, grouped by template and relation;
* ``heat``: CCR / A per operator x hops cell per system; ``grid``: table benchmarks' relation x cardinality;
* ``significance``: paired McNemar tests between the non-control systems on their main metric (and runs on
  Outrank@10 too), BH-adjusted.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from chronoqa.artifacts.metrics import (
    AnswerVerdict,
    Phrasing,
    RetrievalVerdict,
    Verdict,
    read_metrics,
    read_verdicts,
)
from chronoqa.artifacts.release import Release, load_release
from chronoqa.records import COMPLEXITIES, Question
from chronoqa.report.verdicts import FACT_SETS, OUTRANK, question_facts
from chronoqa.score.stats import benjamini_hochberg, mcnemar
from chronoqa.time import TimeParseError, parse_time

__all__ = ["build_explorer", "pack_explorer", "question_relation"]


def question_relation(q: Question) -> str:
    """The relation a question asks about: a table question's Allen relation, else its S* relations in order."""
    if q.source == "table":
        return str(q.allen or q.logical_form.get("relation") or q.operator)
    seen: list[str] = []
    for t in q.S_star:
        if t.r not in seen:
            seen.append(t.r)
    return " → ".join(seen) or "–"


def _day(value: str | None, *, last: bool) -> int | None:
    try:
        p = parse_time(value)
    except TimeParseError:
        return None
    if p is None:
        return None
    return p.last_day() if last else p.first_day()


def _label(value: str | None) -> str | None:
    try:
        p = parse_time(value)
    except TimeParseError:
        return str(value)
    return None if p is None else p.isoformat()


def _question(q: Question) -> dict[str, Any]:
    facts = [
        [
            FACT_SETS.index(kind),
            t.s,
            t.r,
            t.o,
            _day(t.t_start, last=False),
            _day(t.t_end, last=True),
            _label(t.t_start),
            _label(t.t_end),
        ]
        for kind, t in question_facts(q)
    ]
    tq = None
    if q.t_query:
        tq = [_day(q.t_query, last=False), _day(q.t_query, last=True), _label(q.t_query)]
    return {
        "id": q.id,
        "split": q.split,
        "text": q.question,
        "operator": q.operator,
        "hops": q.hops,
        "complexity": q.complexity,
        "relation": question_relation(q),
        "cardinality": q.cardinality,
        "allen": q.allen or "",
        "assumes_complete": q.assumes_complete,
        "template": q.template_id,
        "t_query": tq,
        "gold": list(q.answers),
        "time_refs": [f"{r.get('which', 'any')} {r.get('value')}" for r in q.time_refs],
        "facts": facts,
    }


def _mean(xs: Sequence[int]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _grid(
    qs: Sequence[Mapping[str, Any]], rows: Sequence[str], cols: Sequence[str], row_key: str, col_key: str, values: Any
) -> dict[str, Any]:
    cells: dict[tuple[str, str], list[int]] = defaultdict(list)
    counts: Counter[tuple[str, str]] = Counter()
    for q in qs:
        key = (str(q[row_key]), str(q[col_key]))
        counts[key] += 1
        v = values(q)
        if v is not None:
            cells[key].append(int(v))
    return {
        "rows": list(rows),
        "cols": list(cols),
        "value": [[_mean(cells.get((r, c), [])) for c in cols] for r in rows],
        "n": [[len(cells.get((r, c), [])) for c in cols] for r in rows],
        "count": [[counts.get((r, c), 0) for c in cols] for r in rows],
    }


def _verdict(row: Verdict | None) -> list[Any] | None:
    if isinstance(row, RetrievalVerdict):
        return [row.CCR, row.stale_hit, row.dist_hit, row.n_retrieved, row.marks, row.Outrank]
    if isinstance(row, AnswerVerdict):
        return [row.A, row.T, row.outcome, row.answer, row.outcome_class, row.intermediate, row.phrasings]
    return None


def build_explorer(release: str | Path | Release, eval_dir: str | Path, *, split: str = "test") -> dict[str, Any]:
    """Everything the report's explorer, fails view and plots show (see the module docstring)."""
    rel = release if isinstance(release, Release) else load_release(release)
    folder = read_metrics(eval_dir)
    systems: list[dict[str, Any]] = []
    verdicts: list[dict[str, Verdict]] = []
    for rec in folder.retrieval:
        systems.append({"kind": "ret", "name": rec.name, "control": rec.control, "metrics": ["CCR"]})
        verdicts.append({r.qid: r for r in read_verdicts(eval_dir, "retrieval", rec.name)})
    for rec in folder.answers:
        control = rec.answer_meta is not None and rec.answer_meta.run_control
        systems.append({"kind": "ans", "name": rec.name, "control": control, "metrics": ["A", "T"]})
        verdicts.append({r.qid: r for r in read_verdicts(eval_dir, "answers", rec.name)})
    scored = set().union(*(v.keys() for v in verdicts)) if verdicts else set()
    if scored:  # the questions evaluate scored, in release order
        qs_src = [q for q in rel.questions if q.id in scored]
    else:  # nothing scored yet: the split (``all``: every question), unscored
        qs_src = [q for q in rel.questions if split in ("all", q.split)]
    ret_idx = [i for i, s in enumerate(systems) if s["kind"] == "ret"]
    ans_idx = [i for i, s in enumerate(systems) if s["kind"] == "ans"]
    questions = []
    for q in qs_src:
        qrec = _question(q)
        qrec["ret"] = [_verdict(verdicts[i].get(q.id)) for i in ret_idx]
        qrec["ans"] = [_verdict(verdicts[i].get(q.id)) for i in ans_idx]
        questions.append(qrec)

    def main_value(q: Mapping[str, Any], i: int) -> int | None:
        s = systems[i]
        v = q["ret"][ret_idx.index(i)] if s["kind"] == "ret" else q["ans"][ans_idx.index(i)]
        return None if v is None else int(v[0])

    real = [i for i, s in enumerate(systems) if not s["control"]]
    ops = sorted({q["operator"] for q in questions})
    comps = [c for c in COMPLEXITIES if any(q["complexity"] == c for q in questions)]
    heat = [
        {
            "system": systems[i]["name"],
            "metric": "CCR" if systems[i]["kind"] == "ret" else "A",
            **_grid(questions, ops, comps, "operator", "complexity", lambda q, i=i: main_value(q, i)),
        }
        for i in real
    ]
    fails = _fails(questions, real, main_value)
    out: dict[str, Any] = {
        "systems": systems,
        "questions": questions,
        "fails": fails,
        "heat": heat,
        "significance": _significance(questions, systems, real, main_value, ret_idx),
        "table": None,
    }
    if any(q.source == "table" for q in qs_src):
        out["table"] = _table_composition(qs_src, questions, systems, real, main_value)
    return out


def _fails(questions: Sequence[Mapping[str, Any]], real: Sequence[int], main_value: Any) -> dict[str, Any]:
    """Questions that every non-control system scored (at least one) got wrong, by (template, relation)."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    totals: Counter[tuple[str, str]] = Counter()
    n = 0
    for q in questions:
        key = (q["template"], q["relation"])
        totals[key] += 1
        vals = [main_value(q, i) for i in real]
        vals = [v for v in vals if v is not None]
        if vals and not any(vals):
            groups[key].append(q["id"])
            n += 1
    rows = [
        {"template": t, "relation": r, "n": len(ids), "of": totals[(t, r)], "ids": ids}
        for (t, r), ids in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    ]
    return {"n": n, "n_questions": len(questions), "groups": rows}


_OUTRANK_AT = 5
"""Where a retrieval verdict's Outrank sits in its explorer row (:func:`_verdict`)."""


def _significance(
    questions: Sequence[Mapping[str, Any]],
    systems: Sequence[Mapping[str, Any]],
    real: Sequence[int],
    main_value: Any,
    ret_idx: Sequence[int] = (),
) -> list[dict[str, Any]]:
    """Per kind and metric: McNemar between every pair of non-control systems on the questions both scored, then BH.

    Runs are compared on CCR and on Outrank@10 (the rank of the time-valid fact against its negatives: where a
    time-aware retriever differs from a time-blind one), answers on A.
    """

    def outrank(q: Mapping[str, Any], i: int) -> int | None:
        v = q["ret"][ret_idx.index(i)]
        return None if v is None or len(v) <= _OUTRANK_AT or v[_OUTRANK_AT] is None else int(v[_OUTRANK_AT])

    out = []
    for kind, metric, value in (("ret", "CCR", main_value), ("ret", OUTRANK, outrank), ("ans", "A", main_value)):
        idx = [i for i in real if systems[i]["kind"] == kind]
        if len(idx) < 2 or (metric == OUTRANK and all(value(q, i) is None for q in questions for i in idx)):
            continue
        pairs = []
        for a in range(len(idx)):
            for b in range(a + 1, len(idx)):
                xs, ys = [], []
                for q in questions:
                    va, vb = value(q, idx[a]), value(q, idx[b])
                    if va is not None and vb is not None:
                        xs.append(bool(va))
                        ys.append(bool(vb))
                res = mcnemar(xs, ys)
                pairs.append({"a": a, "b": b, "diff": res.diff, "p": res.p_value, "n": res.n})
        qvals = benjamini_hochberg([p["p"] for p in pairs])
        for p, qv in zip(pairs, qvals, strict=True):
            p["q"] = qv
        out.append({"kind": kind, "metric": metric, "systems": [systems[i]["name"] for i in idx], "pairs": pairs})
    return out


def _table_composition(
    qs: Sequence[Question],
    questions: Sequence[Mapping[str, Any]],
    systems: Sequence[Mapping[str, Any]],
    real: Sequence[int],
    main_value: Any,
) -> dict[str, Any]:
    """A table benchmark's composition: relation x cardinality counts (and A per answer system), TFDs, alignment."""
    rels = sorted({q["relation"] for q in questions})
    cards = [c for c in ("none", "unique", "multiple") if any(q["cardinality"] == c for q in questions)]
    cards += sorted({q["cardinality"] for q in questions} - set(cards))
    grids = [
        {"system": systems[i]["name"], "metric": "A"}
        | _grid(questions, rels, cards, "relation", "cardinality", lambda q, i=i: main_value(q, i))
        for i in real
        if systems[i]["kind"] == "ans"
    ]
    counts = _grid(questions, rels, cards, "relation", "cardinality", lambda q: None)
    tfds = Counter(str(q.logical_form.get("tfd")) for q in qs if q.logical_form.get("tfd"))
    tables = Counter(str(q.logical_form.get("table")) for q in qs if q.logical_form.get("table"))
    n_align = sum(1 for q in qs if q.operator == "time_alignment")
    return {
        "counts": counts,
        "grids": grids,
        "tfds": dict(sorted(tfds.items())),
        "tables": dict(sorted(tables.items())),
        "time_alignment": n_align,
        "n": len(qs),
    }


def _code(ccr: int, stale: int, dist: int) -> int:
    return ccr + 2 * (stale + 1) + 6 * (dist + 1)


def _pack_phrasings(rows: Sequence[Phrasing] | None, s: Any) -> list[int]:
    """A question's paraphrases and verdicts, flat: ``[text, A, answer, ...]`` (strings as indices)."""
    return [x for r in rows or () for x in (s(r.text), r.A, s(r.answer))]


def pack_explorer(ex: Mapping[str, Any]) -> dict[str, Any]:
    """What the page embeds: the systems and the questions as columns over one string table.

    Repeated strings (labels, relations, answers, outcomes, date labels) are indices into ``strs`` (-1: none);
    a fact is 8 numbers; a run's verdict is ``[code, n_retrieved, fact, rank, fact, rank, ...]`` with
    ``code = CCR + 2 * (stale + 1) + 6 * (dist + 1)`` (stale, dist: -1 undefined, 0, 1) and an answer
    folder's ``[A + 2 * (T + 1), outcome, answer, outcome class, hop, phrasings]`` (T, hop -1: undefined;
    phrasings ``[text, A, answer, ...]`` per accepted paraphrase, ``[]`` without a set; ``[]``: not scored). The page's
    script unpacks it into the records of :func:`build_explorer` (about 2.5x smaller than plain records).
    """
    strs: list[str] = []
    index: dict[str, int] = {}

    def s(x: Any) -> int:
        if x is None:
            return -1
        k = str(x)
        if k not in index:
            index[k] = len(strs)
            strs.append(k)
        return index[k]

    def tri(x: Any) -> int:
        return -1 if x is None else int(x)

    cols: dict[str, list[Any]] = {
        k: [] for k in ("id", "text", "split", "operator", "hops", "relation", "cardinality", "allen", "ac",
                        "template", "tq", "gold", "refs", "facts", "ret", "ans")
    }  # fmt: skip
    for q in ex["questions"]:
        cols["id"].append(q["id"])
        cols["text"].append(q["text"])
        for k in ("split", "operator", "relation", "cardinality", "allen", "template"):
            cols[k].append(s(q[k]))
        cols["hops"].append(q["hops"])
        cols["ac"].append(int(q["assumes_complete"]))
        tq = q["t_query"]
        cols["tq"].append(None if tq is None else [tq[0], tq[1], s(tq[2])])
        cols["gold"].append([s(g) for g in q["gold"]])
        cols["refs"].append([s(r) for r in q["time_refs"]])
        cols["facts"].append(
            [x for f in q["facts"] for x in (f[0], s(f[1]), s(f[2]), s(f[3]), f[4], f[5], s(f[6]), s(f[7]))]
        )
        cols["ret"].append(
            [
                []
                if v is None
                else [v[0] + 2 * (tri(v[1]) + 1) + 6 * (tri(v[2]) + 1), v[3], *(x for m in v[4] for x in m)]
                for v in q["ret"]
            ]
        )
        cols["ans"].append(
            [
                []
                if v is None
                else [v[0] + 2 * (tri(v[1]) + 1), s(v[2]), s(v[3]), s(v[4]), tri(v[5]), _pack_phrasings(v[6], s)]
                for v in q["ans"]
            ]
        )
    return {"systems": ex["systems"], "strs": strs, "q": cols}
