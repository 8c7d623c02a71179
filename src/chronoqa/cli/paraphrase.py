"""``chronoqa paraphrase``: k rewordings of each question of a release, each kept only if the check passes.

A thin layer over :func:`chronoqa.paraphrase.paraphrase_questions`: writes ``paraphrases.jsonl`` (every judged
candidate, the contract of :mod:`chronoqa.artifacts.paraphrases`) and prints the rejection rates per template.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from chronoqa.cli._ui import plain_console

__all__ = ["register"]


def _rates_table(rates: dict[str, Any]) -> Table:
    table = Table(title="rejection rate per template (rejected / checked candidates)", title_justify="left")
    for col in ("template", "checked", "rejected", "rate"):
        table.add_column(col, justify="left" if col == "template" else "right")
    rows = [*rates["by_template"].items(), ("all", {**rates, "checked": rates["accepted"] + rates["rejected"]})]
    for name, r in rows:
        rate = "–" if r["rejection_rate"] is None else f"{r['rejection_rate']:.3f}"
        table.add_row(name, str(r["checked"]), str(r["rejected"]), rate)
    return table


def register(app: typer.Typer) -> None:
    """Add this module's command to the root app."""

    @app.command("paraphrase")
    def paraphrase_cmd(
        release: Annotated[str, typer.Argument(help="Benchmark release folder (a path or a URI).")],
        n: Annotated[int, typer.Option("--n", min=1, help="Rewordings kept per question (at most).")] = 3,
        llm: Annotated[
            str | None,
            typer.Option("--llm", help="Ask a model instead of the grammar, e.g. 'llm(model=m,base_url=http://...)'."),
        ] = None,
        out: Annotated[
            Path | None, typer.Option("--out", help="Folder of paraphrases.jsonl (default: the release folder).")
        ] = None,
        cache: Annotated[
            Path | None, typer.Option("--cache", help="Response cache of --llm (default: <out>/cache/paraphrase).")
        ] = None,
        phrased: Annotated[
            Path | None,
            typer.Option("--phrased-release", help="Also write a release of the originals and paraphrases to answer."),
        ] = None,
    ) -> None:
        """Write k faithful rewordings of every question (grammar, or --llm) and report the rejection rates."""
        from chronoqa.artifacts.paraphrases import PARAPHRASES_FILE, write_paraphrases
        from chronoqa.artifacts.release import load_release
        from chronoqa.artifacts.remote import local_release
        from chronoqa.io import write_json
        from chronoqa.paraphrase import GrammarParaphraser, Paraphraser, paraphrase_questions, write_phrased_release
        from chronoqa.paraphrase.llm import LLMParaphraser

        folder = local_release(release)
        dest = out if out is not None else Path(folder)
        paraphraser: Paraphraser = GrammarParaphraser()
        if llm:
            paraphraser = LLMParaphraser.from_spec(llm, cache or dest / "cache" / "paraphrase")
        rel = load_release(folder)
        result = paraphrase_questions(list(rel.questions), paraphraser, n)
        path = dest / PARAPHRASES_FILE
        write_paraphrases(path, result.records)
        if phrased is not None:
            write_phrased_release(rel, result.records, phrased)
        write_json(dest / "paraphrases.rates.json", {"paraphraser": paraphraser.name, **result.rates})
        console = plain_console()
        console.print(_rates_table(result.rates))
        r = result.rates
        console.print(
            f"{r['n_with_all_n']} of {r['n_questions']} questions have {n} rewordings, {r['n_with_none']} none; "
            f"written to {path}"
        )
