"""Which A and T verdicts on YAGO11k changed between the code before the judging work and this tree.

Scores the same answers with both: the source tree of ``--before`` (a git revision, exported with
``git archive`` into a temporary folder) and this tree's ``src/``, each in its own process through
``chronoqa.score.candidates.Judging`` (``chronoqa evaluate``'s judging path) over the YAGO11k release
in ``--releases``. The answers: every YAGO11k item of the blind judging sets (``tests/judging/blind/``,
answers for A, explanations for T: replies written the way LLMs write) and, with ``--answers``, answer
files of a run (``chronoqa run`` writes them under ``answers/``), questions taken from the release.

Prints one Markdown table row per changed verdict (item, question, text, before, after, the rules'
undecided reason) and writes the rows to ``--out`` as JSON. The code before ``f99bf29`` (three verdicts)
is ``5780da0``::

    python benchmarks/judge_changes.py --before 5780da0 --releases /work/ref/base2
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "results" / "judge_changes.json"


def _blind_items() -> Iterator[dict[str, Any]]:
    """YAGO11k items of the blind sets, as plain records (question dict, texts, which verdict)."""
    for folder in sorted((REPO / "tests" / "judging" / "blind").iterdir()):
        qs = {}
        for line in (folder / "questions.jsonl").read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            if d["release"] == "yago11k":
                qs[d["question"]["id"]] = d["question"]
        for name, kind in (("answers.jsonl", "A"), ("explanations.jsonl", "T")):
            for line in (folder / name).read_text(encoding="utf-8").splitlines():
                d = json.loads(line)
                if d["release"] != "yago11k":
                    continue
                yield {"item": f"{folder.name} {kind}{d['n']}", "kind": kind, "question": qs[d["qid"]],
                       "answer": d.get("answer"), "explanation": d.get("explanation")}  # fmt: skip


def _file_items(paths: Sequence[Path], release: Path) -> Iterator[dict[str, Any]]:
    """Every line of answer files, judged for A and T, questions from the release's benchmark."""
    qs = {}
    for line in (release / "benchmark.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        qs[d["id"]] = d
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            if "qid" not in d or d["qid"] not in qs or d.get("status") != "ok":
                continue
            for kind in ("A", "T"):
                yield {"item": f"{path.parent.name} {kind} {d['qid']}", "kind": kind, "question": qs[d["qid"]],
                       "answer": d.get("answer"), "explanation": d.get("explanation")}  # fmt: skip


def worker(release: Path) -> None:
    """Read items (JSON lines) on stdin, write ``right``/``wrong``/``undecided`` and the reason per line."""
    from chronoqa.artifacts.answers import AnswerRecord
    from chronoqa.artifacts.release import load_release
    from chronoqa.records import Question
    from chronoqa.score.candidates import Judging

    judging = Judging(load_release(release).corpus)
    for line in sys.stdin:
        d = json.loads(line)
        q = Question.from_dict(d["question"])
        rec = AnswerRecord(q.id, "x", "ok", d["answer"], d["explanation"])
        if d["kind"] == "A":
            o = judging.answer(q, rec)
            why = getattr(o, "undecided", None)
            value = o.correct
        else:
            row = judging.time(q, rec, True)
            why = getattr(row, "undecided", None)
            value = row.T
        got = "none" if value is None else "undecided" if why else "right" if value else "wrong"
        print(json.dumps({"verdict": got, "why": why}), flush=False)


def _score(src: Path, release: Path, items: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    env = {"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, __file__, "--worker", "--releases", str(release.parent)]
    feed = "".join(json.dumps(it, ensure_ascii=False) + "\n" for it in items)
    out = subprocess.run(cmd, input=feed, capture_output=True, text=True, env=env, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def _cell(text: str | None, n: int = 110) -> str:
    t = " ".join((text or "").split()).replace("|", "\\|")
    return t if len(t) <= n else t[: n - 1] + "…"


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default="5780da0", help="git revision of the code before (default 5780da0)")
    ap.add_argument("--releases", type=Path, required=True, help="folder holding the built yago11k/ release")
    ap.add_argument("--answers", type=Path, nargs="*", default=[], help="answer files of a YAGO11k run")
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    release = args.releases / "yago11k"
    if args.worker:
        worker(release)
        return
    items = [*_blind_items(), *_file_items(args.answers, release)]
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "-C", str(REPO), "archive", args.before, "src"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        before = _score(Path(tmp) / "src", release, items)
    after = _score(REPO / "src", release, items)
    rows = []
    for it, b, a in zip(items, before, after, strict=True):
        if b["verdict"] != a["verdict"]:
            text = it["answer"] if it["kind"] == "A" else it["explanation"]
            rows.append({"item": it["item"], "qid": it["question"]["id"], "question": it["question"]["question"],
                         "text": text, "before": b["verdict"], "after": a["verdict"], "why": a["why"]})  # fmt: skip
    print(f"{len(items)} verdicts ({args.before} against this tree); {len(rows)} changed\n")
    print("| item | question | text | before | after | undecided because |\n|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['item']} | {_cell(r['question'], 70)} | {_cell(r['text'])} | {r['before']} | {r['after']} | "
              f"{r['why'] or ''} |")  # fmt: skip
    args.out.write_text(json.dumps({"before": args.before, "n": len(items), "changed": rows}, indent=1,
                                   ensure_ascii=False) + "\n", encoding="utf-8")  # fmt: skip


if __name__ == "__main__":
    main()
