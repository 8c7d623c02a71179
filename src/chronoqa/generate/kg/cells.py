"""The operator × hop cells of a KG build and how they are filled with drafts.

A :class:`Cell` holds one operator's questions of one chain length. :class:`CellFiller` fills cells round
robin, a chunk at a time, with drafts from the operator's ``draft`` function, keeping a draft only when it is
new (logical form, gold chain and answer, text), not nested too deep, within the answer-prior cap, free of its
answer and readable. A cell that stalls or spends its budget gives its quota to the others
(:meth:`CellFiller.hand_over`); the answer-prior cap is applied again on each cell's final size
(:func:`cap_answers`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chronoqa.generate.kg.bridges import answer_change_reason, bridge_reason, bridge_wording_reason, pin_bridges
from chronoqa.generate.kg.config import KGBuildConfig
from chronoqa.generate.kg.modelling import modelling_reason
from chronoqa.generate.kg.operators import REGISTRY, AnswerKind, Draft, GenContext
from chronoqa.generate.kg.regime import regime_reason
from chronoqa.generate.kg.templates import (
    Renderer,
    garbled,
    graph_walk,
    label_twins,
    name_repeated,
    nested_clause,
    render,
    short_label,
)
from chronoqa.generate.kg.tenure import nested_reason, tenure_reason

__all__ = [
    "FILL_CHUNK",
    "MAX_NESTING",
    "Cell",
    "CellFiller",
    "Drafted",
    "balance_labels",
    "cap_answers",
    "plan_cells",
    "quotas",
]

MAX_NESTING = 2  # noun phrases nest at most this deep ("the team the spouse of X played for")
FILL_CHUNK = 25  # cells are filled round robin, this many questions at a time
#: TempBench's operators (declared ``tempbench``): the rows of the operator x hops matrix the coverage account covers
MATRIX = tuple(name for name, op in REGISTRY.items() if op.tempbench)
MADE = "made a question"  # the outcome of a draw that became a question

#: A kept draft: the draft, its template id and its text.
Drafted = tuple[Draft, str, str]


@dataclass
class Cell:
    """One operator × chain-length cell: its quota, its draw budget, its drafts and why candidates were rejected."""

    operator: str
    hops: int
    weight: float
    quota: int = 0
    budget: int = 0
    attempts: int = 0
    drafts: list[Drafted] = field(default_factory=list)
    rejected: Counter[str] = field(default_factory=Counter)
    no_chain: Counter[str] = field(default_factory=Counter)  # the "no unique chain" draws by the rule that decided
    # per drawn candidate (its chain's facts, or final fact and entity): its draws' outcomes (coverage account)
    candidates: dict[tuple[int, ...], Counter[str]] = field(default_factory=dict)
    gave_up: bool = False
    last_success: int = 0
    initial_quota: int = 0

    @property
    def exhausted(self) -> bool:
        """The cell stalled, or spent its budget short of its quota."""
        return self.gave_up or (self.attempts >= self.budget and len(self.drafts) < self.quota)

    @property
    def name(self) -> str:
        """``operator/hops`` (the manifest's key)."""
        return f"{self.operator}/{self.hops}"


def quotas(weights: Sequence[float], total: int) -> list[int]:
    """``total`` spread over ``weights`` (largest remainders first, ties by position)."""
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


def plan_cells(cfg: KGBuildConfig) -> list[Cell]:
    """The cells of the configured operators (registry order) and chain lengths, with their quotas and budgets."""
    op_w = dict(cfg.operator_weights)
    cells: list[Cell] = []
    for op in REGISTRY:
        if op not in cfg.operators:
            continue
        for k in range(1, cfg.max_hops + 1):
            hw = cfg.hop_weights[min(k, 3) - 1] / (1 if k < 3 else cfg.max_hops - 2)
            cells.append(Cell(op, k, op_w.get(op, 0.0) * hw))
    for c, q in zip(cells, quotas([c.weight for c in cells], cfg.n_questions), strict=True):
        c.quota = c.initial_quota = q
        c.budget = q * cfg.attempts_per_question
    return cells


def logical_key(d: Draft) -> tuple[Any, ...]:
    """What makes two drafts the same question whatever their words."""
    return (d.operator, d.variant, d.anchor, tuple((h.rel, h.forward) for h in d.hops), d.t, d.ref_fid, d.hops[-1].dst)


@dataclass
class CellFiller:
    """Fills cells with kept drafts; what was seen is shared by every cell of the build.

    ``fact_key(fid)`` is a fact's content key (a symmetric fact and its mirror share it); ``answers(d)`` the
    answer strings of a draft; ``leaks(text, answers, is_time)`` the answer strings found in a text.
    """

    cfg: KGBuildConfig
    ctx: GenContext
    renderer: Renderer
    fact_key: Callable[[int], tuple[Any, ...]]
    answers: Callable[[Draft], list[str]]
    leaks: Callable[[str, Sequence[str], bool], list[str]]
    progress: Callable[[int, int], None] | None = None
    rngs: dict[str, random.Random] = field(default_factory=dict)
    seen_keys: set[tuple[Any, ...]] = field(default_factory=set)
    seen_text: set[str] = field(default_factory=set)
    seen_gold: set[tuple[Any, ...]] = field(default_factory=set)
    answer_counts: dict[str, Counter[int]] = field(default_factory=dict)
    done: int = 0

    def gold_key(self, d: Draft) -> tuple[Any, ...]:
        """The gold chain (as fact content) and the answer: no two questions share it."""
        chain = frozenset(self.fact_key(h.fid) for h in d.hops) | {self.fact_key(x) for x in d.extra_fids}
        return (chain, d.kind, tuple(sorted(d.answers)))

    def answer_cap(self, cell: Cell) -> int:
        """The most questions one entity may answer in ``cell`` while it fills."""
        return max(1, int(self.cfg.max_answer_share * max(cell.initial_quota, cell.quota)))

    def fill_all(self, todo: Sequence[Cell]) -> None:
        """Fill ``todo`` round robin in chunks: cells that compete for the same chains share them in proportion.

        (A 1-hop chain can be one point-in-time or one before/after question, never both.)
        """
        while True:
            busy = [c for c in todo if len(c.drafts) < c.quota and not c.exhausted]
            if not busy:
                return
            for c in busy:
                self.fill(c, len(c.drafts) + FILL_CHUNK)

    def fill(self, cell: Cell, target: int) -> None:
        """Draw candidates for ``cell`` until it holds ``target`` drafts (or its quota), stalls or spends its budget."""
        rng = self.rngs.setdefault(cell.name, random.Random(f"{self.cfg.seed}|{cell.operator}|{cell.hops}"))
        op = REGISTRY[cell.operator]
        while len(cell.drafts) < min(cell.quota, target) and cell.attempts < cell.budget:
            if cell.attempts - cell.last_success >= self.cfg.stall_attempts:
                cell.gave_up = True
                break
            cell.attempts += 1
            self.ctx.miss, self.ctx.drawn = "", ()
            d = op.draft(self.ctx, rng, cell.hops)
            if d is None:
                cell.rejected["no unique chain"] += 1
                cell.no_chain[self.ctx.miss or "not recorded"] += 1
                self.note(cell, self.ctx.miss or "not recorded")
                continue
            d = pin_bridges(self.ctx.bridges, self.ctx.index, d, rng)  # "the spouse of X as of 1995"
            why = self.reject(cell, d)
            if why is None:
                tid, text = render(self.renderer, d, op.templates, rng)
                why = self.reject_text(d, text)
            self.note(cell, why or MADE)
            if why is not None:
                cell.rejected[why] += 1
                continue
            self.keep(cell, d, tid, text)

    def note(self, cell: Cell, outcome: str) -> None:
        """Count the outcome of the current draw for the candidate it drew (the coverage account's rows only)."""
        drawn = self.ctx.drawn
        if drawn and cell.operator in MATRIX:
            seen = cell.candidates.get(drawn)
            if seen is None:
                seen = cell.candidates[drawn] = Counter()
            seen[outcome] += 1

    def reject(self, cell: Cell, d: Draft) -> str | None:
        """Why a draft cannot be kept before it is put into words, or ``None``."""
        if logical_key(d) in self.seen_keys:
            return "duplicate logical form"
        if self.gold_key(d) in self.seen_gold:
            return "duplicate gold chain and answer"
        if max(len(d.hops) - 1, 0) > MAX_NESTING:
            return "noun phrase nested too deep"
        br, idx = self.ctx.bridges, self.ctx.index
        why = regime_reason(self.ctx.regimes, d) or modelling_reason(self.ctx.modelling, d, idx)
        why = why or bridge_reason(br, idx, d) or answer_change_reason(br, idx, d) or tenure_reason(idx, d)
        why = why or nested_reason(idx, d, self.ctx.object_roles)
        if why is not None:
            return why
        counts = self.answer_counts.setdefault(cell.name, Counter())
        if d.kind.is_entity and any(counts[a] >= self.answer_cap(cell) for a in d.answers):
            return "answer-prior cap"
        if d.kind is AnswerKind.YES_NO and counts[d.answers[0]] >= (max(cell.quota, 1) + 1) // 2:
            return "label balance"
        return None

    def reject_text(self, d: Draft, text: str) -> str | None:
        """Why a draft's words cannot be kept, or ``None``."""
        answers = self.answers(d) if d.kind is not AnswerKind.YES_NO else []  # "no" is no leak of the label
        if self.leaks(text, answers + [short_label(a) for a in answers], d.kind.is_time):
            return "answer in text"
        if d.kind.is_entity and any(short_label(a) != a for a in answers):
            return "answer needs its disambiguator"  # a namesake reads the same without it: not asked
        if label_twins(self.renderer, d):
            return "two entities share a label"
        if (why := bridge_wording_reason(self.ctx.index, self.renderer.labels, d)) is not None:
            return why
        if (why := REGISTRY[d.operator].worded_rule(self.ctx, d)) is not None:
            return why
        if garbled(text):
            return "garbled text"
        if graph_walk(self.renderer, d, text):
            return "graph-walk phrasing"
        if nested_clause(self.renderer, d, text):
            return "nested clause before a verb"
        if name_repeated(self.renderer, d, text):
            return "name repeated"
        if text.casefold() in self.seen_text:
            return "duplicate text"
        return None

    def keep(self, cell: Cell, d: Draft, tid: str, text: str) -> None:
        """Keep a draft in ``cell`` and remember what it uses."""
        self.seen_keys.add(logical_key(d))
        self.seen_gold.add(self.gold_key(d))
        self.seen_text.add(text.casefold())
        if d.kind.is_entity or d.kind is AnswerKind.YES_NO:
            self.answer_counts.setdefault(cell.name, Counter()).update(d.answers)
        cell.drafts.append((d, tid, text))
        cell.last_success = cell.attempts
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.cfg.n_questions)

    def hand_over(self, cells: Sequence[Cell], rounds: int = 6) -> None:
        """Give the quota of exhausted cells to the others (each up to ``max_quota_growth`` × its own) and fill."""
        for _ in range(rounds):
            deficit = sum(c.quota - len(c.drafts) for c in cells if c.exhausted)
            open_cells = [c for c in cells if not c.exhausted and c.weight > 0]
            if deficit <= 0 or not open_cells:
                break
            for c in cells:
                if c.exhausted:
                    c.gave_up = True
                    c.quota = len(c.drafts)
            grown = False
            for c, extra in zip(open_cells, quotas([c.weight for c in open_cells], deficit), strict=True):
                extra = min(extra, max(int(self.cfg.max_quota_growth * c.initial_quota) - c.quota, 0))
                grown = grown or extra > 0
                c.quota += extra
                c.budget += extra * self.cfg.attempts_per_question
            if not grown:
                break
            self.fill_all(open_cells)


def balance_labels(c: Cell) -> None:
    """A yes/no cell keeps as many yes as no questions: the later drafts of the larger label are dropped."""
    labels = Counter(x[0].answers[0] for x in c.drafts if x[0].kind is AnswerKind.YES_NO)
    if not labels or len(c.drafts) != labels.total():
        return
    keep = min(labels[0], labels[1])
    seen: Counter[int] = Counter()
    kept = []
    for x in c.drafts:
        seen[x[0].answers[0]] += 1
        if seen[x[0].answers[0]] <= keep:
            kept.append(x)
    if len(kept) < len(c.drafts):
        c.rejected["label balance"] += len(c.drafts) - len(kept)
        c.drafts = kept


def cap_answers(cells: Sequence[Cell], max_answer_share: float) -> None:
    """The answer-prior cap on each cell's final size: later drafts of an over-used answer are dropped.

    A yes/no cell is balanced instead (:func:`balance_labels`).
    """
    for c in cells:
        balance_labels(c)
        while True:
            cap = max(1, int(max_answer_share * len(c.drafts)))
            seen_answers: Counter[int] = Counter()
            kept = []
            for x in c.drafts:
                d = x[0]
                if d.kind.is_entity and any(seen_answers[a] >= cap for a in d.answers):
                    continue
                if d.kind.is_entity:
                    seen_answers.update(d.answers)
                kept.append(x)
            if len(kept) == len(c.drafts):
                break
            c.rejected["answer-prior cap"] += len(c.drafts) - len(kept)
            c.drafts = kept
