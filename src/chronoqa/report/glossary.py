"""What every column and symbol of the report means, said once and shown where it appears.

Each table's header cells carry their explanation as a tooltip (``title``, with a dotted underline that
says there is one), and a short legend under the table spells out the columns it uses, so a reader who
prints the page or never hovers still learns what "A strict" or "CCR" is. The Markdown twin gets the same
legend as a line under each table.
"""

from __future__ import annotations

from collections.abc import Iterable

from chronoqa.escape import html_attr, html_text, md_text

__all__ = ["COLUMN_HELP", "help_th", "legend_html", "legend_markdown"]

COLUMN_HELP: dict[str, str] = {
    # retrieval
    "R@10": "recall: share of the time-valid gold facts (S*) found in the top 10",
    "nDCG@10": "R@10 weighted by rank: a gold fact counts more the higher it is ranked",
    "MRR": "1 / rank of the first time-valid gold fact (0 when none is returned)",
    "TRP": "temporal retrieval precision: share of the returned facts that are time-valid gold facts "
    "(over the questions that returned anything)",
    "CCR": "complete chain retrieval: 1 when every gold fact of the question was returned and each is valid at "
    "the time asked about, else 0",
    "Outrank@10": "share of the questions with a stale or distractor fact where every time-valid gold fact is in "
    "the top 10 above all of them: does the retriever prefer the fact true at the time asked about?",
    # answers
    "A": "answer accuracy as a careful judge reads it: the gold (or an alias) named in a short answer, "
    "no other candidate, no hedging",
    "A strict": "answer accuracy by the older whole-string rule: the whole normalised answer must equal a gold "
    "answer (a sentence around the right name scores 0)",
    "T": "time accuracy: the explanation cites the dates the question turns on",
    "AT": "both A and T right",
    "A all-k": "paraphrase sets: share of the questions with accepted paraphrases answered right in every phrasing "
    "(the original and each paraphrase; the facts shown are those retrieved for the original)",
    "flip rate": "paraphrase sets: share of those questions whose verdict differs across their phrasings",
    "T half": "partial time credit: at least one of the dates the question turns on stated right (one end right)",
    "T loose": "partial time credit: every date right when compared by its year only (right at a coarser granularity)",
    "right, dates right": "the right answer, and its dates stated right (T)",
    "right, dates wrong": "the right answer with its dates missing or wrong",
    "outdated, its dates right": "an earlier holder named for a question about now, with that holder's own dates right",
    "outdated, dates wrong": "an earlier holder named, with that holder's dates missing or wrong",
    "other wrong": "any other wrong answer (wrong name, abstention, failed call, undecided)",
    "join: hop right": "join questions: the reply names the hidden intermediate hop (e.g. the host country)",
    "join: wrong given hop": "join questions whose hidden hop is named right but whose final answer is wrong",
    "abstain": "share of questions the system declined to answer (scored wrong)",
    "error": "share of failed calls (scored wrong, never dropped)",
    # the memory gap (a release against its counterfactual twin) and the two golds (a refreshed release)
    "family": "the question family (operator) of the row; all: every question that has a twin",
    "paired": "the questions in this row that have a twin (the family's, or all of them)",
    "A real": "answer accuracy on the real release's questions",
    "A twin": "answer accuracy on the same questions in the counterfactual twin",
    "gap": "A real − A twin with its 95% paired bootstrap CI: the part of the accuracy that comes from memory",
    "p (paired)": "the paired test's p-value for the gap",
    "score": "A (careful judge), A_strict (whole string) or outdated_rate (an earlier holder named)",
    "old gold": "the same answers scored against the gold of the release before the refresh",
    "new gold": "the same answers scored against the refreshed gold",
    "new − old": "the change in the score that the drift alone makes",
    "n carried": "the carried questions the score is defined on",
    # the explorer's list and the fails-everywhere table
    "id": "the question's id: click to open its verdicts and timeline",
    "question": "the question as asked",
    "operator": "the temporal operation: point_in_time, interval, before_after, sequence, time_alignment",
    "hops": "facts in the gold chain (1: one fact answers it)",
    "relation": "the relation(s) the question asks about (table questions: the Allen relation)",
    "cardinality": "how many answers the gold has: none, unique or multiple",
    "template": "the question template that generated it",
    "fail": "questions of this template and relation that every non-control system got wrong",
    "of": "scored questions of this template and relation",
    "share": "fail / of",
    "questions": "the failing questions: click one to open it in the explorer",
    "system columns": "✓ right, ✗ wrong, – not scored on the system's main metric (CCR for runs, A for answers); "
    "an answer's cell names its outcome class on hover (right holder / outdated holder × right / wrong date, "
    "other wrong) and, on a join question, whether the reply names the intermediate hop (filter: outcome class)",
}
"""Column label → what it means (the labels as the report prints them)."""


def help_th(label: str) -> str:
    """A header cell, with its explanation as a tooltip when the label has one."""
    why = COLUMN_HELP.get(label)
    if why is None:
        return f"<th>{html_text(label)}</th>"
    return f'<th title="{html_attr(why)}" class="help">{html_text(label)}</th>'


def _known(labels: Iterable[str]) -> list[str]:
    return [lb for lb in dict.fromkeys(labels) if lb in COLUMN_HELP]


def legend_html(labels: Iterable[str], *, folded: bool = False) -> str:
    """A compact legend of the columns among ``labels`` that have an explanation (``folded``: behind a summary)."""
    items = "".join(f"<dt>{html_text(lb)}</dt><dd>{html_text(COLUMN_HELP[lb])}</dd>" for lb in _known(labels))
    if not items:
        return ""
    dl = f'<dl class="legend">{items}</dl>'
    return f'<details class="legend"><summary>What the columns mean</summary>{dl}</details>' if folded else dl


def legend_markdown(labels: Iterable[str]) -> list[str]:
    """The same legend as a Markdown list (empty when no column has an explanation)."""
    items = [f"- **{md_text(lb)}** — {md_text(COLUMN_HELP[lb])}" for lb in _known(labels)]
    return ["", *items] if items else []
