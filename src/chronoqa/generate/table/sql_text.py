"""An optional LLM step that words a table question from its SQL, kept only when it is faithful.

The deterministic wording (:mod:`.verbalise`) is always made first and stays the question's text unless a model's
rewording passes the one faithfulness check of every rewording step (:func:`chronoqa.generate.faithful.
check_rewording`: every key value and date kept, no other date, name or answer added, the same reading by
chronoqa's time reader; the draft itself passes).

The model is asked through the answer client (:class:`chronoqa.answer.client.ChatClient`, with its response
cache), one request per question; a failed request keeps the wording and is counted. The report
(:class:`chronoqa.generate.faithful.RewordingReport`) gives the rejection rate overall, per reason and per
template. ``chronoqa build table --sql-to-text 'llm(...)'`` runs it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from chronoqa.generate.faithful import RewordingReport
from chronoqa.generate.table.verbalise import reword_questions
from chronoqa.records import Question

__all__ = ["SQL_TEXT_PROMPT", "SQL_TEXT_RULE", "sql_to_text"]

#: The instruction sent with every request (chronoqa's own wording).
SQL_TEXT_PROMPT = (
    "You turn a database query into one natural English question for a quiz. Ask exactly what the query asks. "
    "Keep every name and every date exactly as the draft writes them; add no other name, date or hint of the "
    "answer. Reply with the question only, on one line."
)
#: The rule name of this step's rewordings in the report.
SQL_TEXT_RULE = "sql_to_text"


class ChatLike(Protocol):
    """What the step needs of a client: :meth:`chronoqa.answer.client.ChatClient.chat_many`."""

    def chat_many(self, batch: Sequence[Sequence[Mapping[str, str]]]) -> Sequence[Any]: ...


def _messages(q: Question) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": SQL_TEXT_PROMPT},
        {"role": "user", "content": f"Query (DuckDB SQL): {q.sql}\nDraft: {q.question}\nQuestion:"},
    ]


def sql_to_text(questions: Sequence[Question], client: ChatLike) -> tuple[list[Question], RewordingReport]:
    """Each question with a query reworded by ``client`` where the check finds nothing, else as it was.

    A kept rewording becomes the question's text; the deterministic wording stays in
    ``logical_form["template_question"]``. Questions without a query are not asked (nor counted).
    """
    asked = [i for i, q in enumerate(questions) if q.sql]
    results = client.chat_many([_messages(questions[i]) for i in asked]) if asked else []
    texts: list[str | None] = [None] * len(questions)
    errors: dict[int, str] = {}
    for i, res in zip(asked, results, strict=True):
        if res.ok and res.text is not None:
            texts[i] = res.text.strip()
        else:
            errors[i] = str(getattr(res, "error", None) or "no reply")
    return reword_questions(questions, texts, errors, SQL_TEXT_RULE)
