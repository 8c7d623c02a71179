"""Score a blind judging set with the judging path of ``chronoqa evaluate`` and measure its agreement.

A blind set (``tests/judging/blind/setN/``) was written and labelled by a reader who never saw the
scorer, and frozen before the scorer ran on it (``/work/blind/FORMAT.md`` describes the files):

* ``answers.jsonl``: ``{n, release, qid, answer, label, why}``; ``label`` is a careful judge's A;
* ``explanations.jsonl``: ``{n, release, qid, answer, explanation, label, why}``; ``label`` is T;
* ``questions.jsonl``: the release's question record of every ``(release, qid)`` the set uses,
  copied from the release when the set was taken in (so the items never depend on a rebuild).

The release corpora (candidates, other entities, aliases) come from releases built from the mirror
with the commands the set's questions came from (:data:`BUILDS`); :class:`chronoqa.score.candidates.Judging`
judges each item exactly as ``evaluate`` does. Verdicts are ``right``, ``wrong`` or ``undecided``.

Run ``python tests/judging/blind.py tests/judging/blind/set1 --releases DIR`` (``DIR/<release>/`` built
folders) for a report; ``--take-in /work/blind/set1`` copies a frozen set in first; ``--table
tests/judging/blind`` prints a row per set (the "now" table of docs/metrics.md, "Blind sets").
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chronoqa.artifacts.answers import AnswerRecord
from chronoqa.artifacts.release import load_release
from chronoqa.records import Question
from chronoqa.score.candidates import Judging

HERE = Path(__file__).parent
SETS = HERE / "blind"
RELEASES = ("yago11k", "wikidata12k", "leaders")
FILES = ("answers.jsonl", "explanations.jsonl")

# The CLI arguments that build each release the blind sets' questions came from (after ``chronoqa build``).
BUILDS: Mapping[str, tuple[str, ...]] = {
    "yago11k": ("kg", "--dataset", "yago11k"),
    "wikidata12k": ("kg", "--dataset", "wikidata12k"),
    "leaders": (
        "table",
        "{mirror}/tdbench/dyknow_leaders.csv",
        "--phrases",
        "{repo}/tests/fixtures/tdbench_phrases.json",
    ),
}


@dataclass(frozen=True)
class BlindItem:
    """One labelled answer (A) or explanation (T) of a blind set."""

    n: int
    release: str
    question: Question
    record: AnswerRecord
    label: bool
    why: str


def _rows(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _questions(folder: Path) -> dict[tuple[str, str], Question]:
    out = {}
    for d in _rows(folder / "questions.jsonl"):
        out[(d["release"], d["question"]["id"])] = Question.from_dict(d["question"])
    return out


def read_set(folder: Path) -> tuple[list[BlindItem], list[BlindItem]]:
    """The answers and the explanations of a blind set."""
    qs = _questions(folder)
    out: list[list[BlindItem]] = []
    for name in FILES:
        rows = []
        for d in _rows(folder / name):
            q = qs[(d["release"], d["qid"])]
            rec = AnswerRecord(q.id, "blind-set", "ok", d.get("answer"), d.get("explanation"))
            rows.append(BlindItem(int(d["n"]), d["release"], q, rec, bool(d["label"]), str(d.get("why", ""))))
        out.append(rows)
    return out[0], out[1]


def take_in(src: Path, dst: Path, releases: Path) -> None:
    """Copy a frozen set's files into ``dst`` with the question records its items use."""
    if not (src / "FROZEN").exists():
        raise SystemExit(f"{src}: no FROZEN file; the set is not ready")
    dst.mkdir(parents=True, exist_ok=True)
    for name in (*FILES, "FROZEN"):
        shutil.copyfile(src / name, dst / name)
    wanted = {(d["release"], d["qid"]) for name in FILES for d in _rows(src / name)}
    lines = []
    for rel in RELEASES:
        bench = releases / rel / "benchmark.jsonl"
        if not any(r == rel for r, _ in wanted):
            continue
        for d in _rows(bench):
            if (rel, d["id"]) in wanted:
                lines.append(json.dumps({"release": rel, "question": d}, ensure_ascii=False, sort_keys=True))
    (dst / "questions.jsonl").write_text("\n".join(sorted(lines)) + "\n", encoding="utf-8")


def build_releases(mirror: Path, out: Path, names: Sequence[str] = RELEASES) -> Path:
    """Build the releases named (default seed and settings) into ``out/<name>/`` with the CLI."""
    repo = HERE.parent.parent
    for name in names:
        if (out / name / "benchmark.jsonl").exists():
            continue
        args = [a.format(mirror=mirror, repo=repo) for a in BUILDS[name]]
        cmd = [sys.executable, "-c", "from chronoqa.cli import main; main()", "build", *args, "--out", str(out / name)]
        subprocess.run(cmd, check=True, capture_output=True)
    return out


class Judges:
    """One :class:`Judging` per release, built lazily from ``releases/<name>/``."""

    def __init__(self, releases: Path) -> None:
        self.releases = releases
        self._by: dict[str, Judging] = {}

    def __getitem__(self, name: str) -> Judging:
        if name not in self._by:
            self._by[name] = Judging(load_release(self.releases / name).corpus)
        return self._by[name]

    def answer(self, it: BlindItem) -> str:
        """``right``, ``wrong`` or ``undecided`` for an answer item."""
        o = self[it.release].answer(it.question, it.record)
        return verdict(o.correct, getattr(o, "undecided", None))

    def time(self, it: BlindItem) -> str:
        """``right``, ``wrong`` or ``undecided`` for an explanation item; ``none`` where the question has no
        time reference (no T by definition: ``evaluate`` leaves it out and counts it as ``n_no_refs``)."""
        row = self[it.release].time(it.question, it.record, True)
        if row.T is None:
            return "none"
        return verdict(row.T, getattr(row, "undecided", None))


def verdict(value: bool, undecided: str | None) -> str:
    return "undecided" if undecided else ("right" if value else "wrong")


@dataclass
class Measured:
    """Agreement with the labels: over the decided items, with false accepts and false rejects apart."""

    n: int = 0
    agree: int = 0
    false_accepts: list[int] = field(default_factory=list)
    false_rejects: list[int] = field(default_factory=list)
    undecided: list[int] = field(default_factory=list)
    no_refs: list[int] = field(default_factory=list)

    @property
    def decided(self) -> int:
        return self.n - len(self.undecided) - len(self.no_refs)

    @property
    def rate(self) -> float:
        """Agreement over the items the judge decides."""
        return self.agree / self.decided if self.decided else 0.0

    @property
    def undecided_share(self) -> float:
        return len(self.undecided) / self.n if self.n else 0.0

    def line(self) -> str:
        return (
            f"{self.agree}/{self.decided} decided agree ({self.rate:.1%}); false accepts {len(self.false_accepts)}, "
            f"false rejects {len(self.false_rejects)}; undecided {len(self.undecided)}/{self.n} "
            f"({self.undecided_share:.1%})" + (f"; no time reference {len(self.no_refs)}" if self.no_refs else "")
        )


def measure(items: Sequence[BlindItem], judge: Callable[[BlindItem], str]) -> Measured:
    """Compare ``judge(item)`` (right / wrong / undecided) with each item's label."""
    m = Measured()
    for it in items:
        v = judge(it)
        m.n += 1
        if v == "undecided":
            m.undecided.append(it.n)
        elif v == "none":
            m.no_refs.append(it.n)
        elif (v == "right") == it.label:
            m.agree += 1
        elif v == "right":
            m.false_accepts.append(it.n)
        else:
            m.false_rejects.append(it.n)
    return m


def cell(m: Measured) -> str:
    """One verdict's columns of the docs' table: agreement, false accepts, false rejects, undecided."""
    share = f"{len(m.undecided)} ({m.undecided_share:.1%})"
    return f"{m.agree}/{m.decided} = {m.rate:.1%} | {len(m.false_accepts)} | {len(m.false_rejects)} | {share}"


def table(sets: Path, releases: Path) -> None:
    """Print docs/metrics.md's "now" table: a row per set of ``sets`` (``setN/`` folders, in order)."""
    judges = Judges(releases)
    for folder in sorted(sets.glob("set*"), key=lambda f: int(f.name[3:])):
        answers, explanations = read_set(folder)
        a, t = measure(answers, judges.answer), measure(explanations, judges.time)
        print(f"| {folder.name} | {cell(a)} | {cell(t)} |")


def report(folder: Path, releases: Path, show: bool = False) -> dict[str, Measured]:
    """Measure A and T of one set; print the figures (and with ``show`` every miss)."""
    answers, explanations = read_set(folder)
    judges = Judges(releases)
    out = {"A": measure(answers, judges.answer), "T": measure(explanations, judges.time)}
    for key, items in (("A", answers), ("T", explanations)):
        m = out[key]
        print(f"{folder.name} {key}: {m.line()}")
        if show:
            by_n = {it.n: it for it in items}
            for kind, ns in (("FA", m.false_accepts), ("FR", m.false_rejects), ("UN", m.undecided), ("NO", m.no_refs)):
                for n in ns:
                    it = by_n[n]
                    text = it.record.answer if key == "A" else it.record.explanation
                    print(f"  {kind} {key}{n} [{it.release} {it.question.id}] {it.question.question}")
                    print(f"     gold={list(it.question.answers)} refs={list(it.question.time_refs)}")
                    print(f"     text={text!r}\n     why={it.why}")
    return out


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--releases", type=Path, required=True, help="folder with built yago11k/, wikidata12k/, leaders/")
    ap.add_argument("--take-in", type=Path, help="a frozen set to copy into FOLDER first")
    ap.add_argument("--show", action="store_true", help="print every disagreement and undecided item")
    ap.add_argument("--table", action="store_true", help="FOLDER holds sets: print a table row per set")
    args = ap.parse_args(argv)
    if args.take_in is not None:
        take_in(args.take_in, args.folder, args.releases)
    if args.table:
        table(args.folder, args.releases)
    else:
        report(args.folder, args.releases, args.show)


if __name__ == "__main__":
    main()
