"""TDBench's two answer settings as prompt protocols: ``tdbench_closed@1`` and ``tdbench_open@1``.

TDBench asks each question closed-book (the question alone) or open-book (part of the table shown as a
Markdown table above the question), and asks the model to give the answer with the dates of the facts it
rests on, which its time accuracy judges. chronoqa's versions (facts about TDBench: ``docs/tdbench.md``):

* ``tdbench_closed@1``: the question alone, and the instruction to answer and explain with dates: the
  start and the end of each fact the answer rests on, at the precision the question is asked at.
* ``tdbench_open@1``: the same instruction and a Markdown table of the release's own rows: the gold
  rows (``S_star``), the rows of other periods of the same key (``S_dist``, ``S_stale``, ``S_anchor``)
  and :data:`RANDOM_ROWS` rows of other keys drawn from the corpus (same relation where it has enough),
  all in an order shuffled with a seed made of the answerer's seed and the question id. Unlike TDBench,
  a question whose gold is empty ("none") gets its table too (TDBench shows no table then, which tells
  the model the answer), and each question draws its own random rows (TDBench draws with one fixed
  state, so every question gets the rows at the same positions).

The table's columns are the question's key columns, its value column, ``Start`` and ``End``
(``logical_form.tfd`` of a table question, ``Country,Role->Name``); a KG question, or a row whose key
does not split into those columns, is shown as ``Subject | Relation | Object | Start | End``. An empty
``End`` is a row that still held at the release's ``as_of``, which the prompt says.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from chronoqa.records import Doc, Question

__all__ = [
    "RANDOM_ROWS",
    "RowPool",
    "closed_messages",
    "markdown_table",
    "open_book_rows",
    "open_messages",
    "rows_by_question",
]

RANDOM_ROWS = 3
"""Rows of other keys shown besides the question's own (TDBench shows three on its tables)."""

Row = Mapping[str, Any]

_SYSTEM = (
    "Answer the question about facts that hold over periods of time, then explain with dates. "
    "Reply in exactly this format:\n"
    "Answer: <the answer only: a name or a value; several answers separated by '; '; 'none' if no one fits>\n"
    "Explanation: <one or two sentences that give, for each fact the answer rests on, the date it began and "
    "the date it ended (or that it still holds), as precisely as the question asks>\n"
    "If you do not know, write 'Answer: unknown'."
)

_HEAD = ("Subject", "Relation", "Object", "Start", "End")


def _cell(value: object) -> str:
    return "" if value is None else str(value).replace("|", "/").replace("\n", " ")


def _columns(q: Question) -> tuple[list[str], list[str]] | None:
    """The question's key columns and value column from ``logical_form.tfd`` (``A,B->C``), if it has one."""
    tfd = q.logical_form.get("tfd") if isinstance(q.logical_form, Mapping) else None
    if not isinstance(tfd, str) or "->" not in tfd:
        return None
    lhs, rhs = tfd.split("->", 1)
    keys = [c.strip() for c in lhs.split(",") if c.strip()]
    values = [c.strip() for c in rhs.split(",") if c.strip()]
    return (keys, values) if keys and len(values) == 1 else None


def markdown_table(q: Question, rows: Sequence[Row]) -> str:
    """``rows`` as one Markdown table under the question's column names (see the module docstring)."""
    cols = _columns(q)
    split = [str(r.get("s_id") or r.get("s") or "").split(" | ") for r in rows]
    if cols is not None and all(len(parts) == len(cols[0]) for parts in split):
        head = [*cols[0], cols[1][0], "Start", "End"]
        body = [[*parts, r.get("o"), r.get("t_start"), r.get("t_end")] for parts, r in zip(split, rows, strict=True)]
    else:
        head = list(_HEAD)
        body = [[r.get("s"), r.get("r"), r.get("o"), r.get("t_start"), r.get("t_end")] for r in rows]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in body]
    return "\n".join(lines)


class RowPool:
    """The corpus rows a question's random rows are drawn from, grouped by relation (read once, lazily)."""

    def __init__(self, corpus: Callable[[], Sequence[Doc]]) -> None:
        self._corpus = corpus
        self._docs: Sequence[Doc] | None = None
        self._keys: list[str] = []
        self._by_rel: dict[str, list[int]] = {}

    def _load(self) -> Sequence[Doc]:
        if self._docs is None:
            self._docs = self._corpus()
            for i, d in enumerate(self._docs):
                self._keys.append(d.s_id or d.s)
                self._by_rel.setdefault(d.r_id or d.r, []).append(i)
        return self._docs

    def draw(self, rel: str | None, keys: set[str], n: int, rng: random.Random) -> list[Row]:
        """``n`` rows of relation ``rel`` (any relation when it has too few) whose key is not in ``keys``."""
        docs = self._load()
        if n <= 0 or not docs:
            return []
        pool = self._by_rel.get(rel or "", [])
        picked = self._pick(pool, keys, n, rng)
        if len(picked) < n:
            picked = self._pick(range(len(docs)), keys, n, rng)
        return [docs[i].triple().to_dict() for i in sorted(picked)]

    def _pick(self, pool: Sequence[int], keys: set[str], n: int, rng: random.Random) -> list[int]:
        """Up to ``n`` distinct positions of ``pool`` whose key is not in ``keys``, drawn with ``rng``.

        A few random draws find them in a large pool without scanning it; a small or crowded pool is filtered
        whole and sampled.
        """
        picked: list[int] = []
        seen: set[int] = set()
        for _ in range(8 * n if len(pool) > 64 else 0):
            i = pool[rng.randrange(len(pool))]
            if i not in seen:
                seen.add(i)
                if self._keys[i] not in keys:
                    picked.append(i)
                    if len(picked) == n:
                        return picked
        others = [i for i in pool if self._keys[i] not in keys]
        return rng.sample(others, min(n, len(others)))


def open_book_rows(q: Question, pool: RowPool, seed: int, n_random: int = RANDOM_ROWS) -> list[Row]:
    """The rows ``tdbench_open@1`` shows for ``q``: its own rows and random ones, in a seeded order."""
    own: dict[tuple[Any, ...], Row] = {}
    for t in (*q.S_star, *q.S_dist, *q.S_stale, *q.S_anchor):
        d = t.to_dict()
        own.setdefault((d.get("s"), d.get("r"), d.get("o"), d.get("t_start"), d.get("t_end")), d)
    rows = list(own.values())
    keys = {str(r.get("s_id") or r.get("s")) for r in rows}
    rel = next((str(r.get("r_id") or r.get("r")) for r in rows), None)
    rng = random.Random(f"tdbench_open:{seed}:{q.id}")
    rows += pool.draw(rel, keys, n_random, rng)
    rng.shuffle(rows)
    return rows


def _user(q: Question, table: str | None) -> str:
    parts: list[str] = []
    if table is not None:
        held = f" on {q.as_of}" if q.as_of else ""
        parts += [f"Table (an empty End means the row still held{held}):", table, ""]
    parts.append(f"Question: {q.question}")
    return "\n".join(parts)


def closed_messages(q: Question, evidence: Sequence[Row], k: int) -> list[dict[str, str]]:
    """``tdbench_closed@1``: the instruction and the question."""
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": _user(q, None)}]


def open_messages(q: Question, evidence: Sequence[Row], k: int) -> list[dict[str, str]]:
    """``tdbench_open@1``: the instruction, the rows (``evidence``: :func:`open_book_rows`) and the question."""
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": _user(q, markdown_table(q, evidence))}]


def rows_by_question(
    questions: Iterable[Question], corpus: Callable[[], Sequence[Doc]], seed: int
) -> dict[str, list[Row]]:
    """:func:`open_book_rows` of every question (one pool of the corpus for all)."""
    pool = RowPool(corpus)
    return {q.id: open_book_rows(q, pool, seed) for q in questions}
