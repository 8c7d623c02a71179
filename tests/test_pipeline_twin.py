"""``chronoqa run`` with ``[twin]`` and ``[cutoff]``, and on a refreshed release: the report's extra sections.

The tiny YAGO11k run makes a year-shifted twin, answers it with every answerer and reports the memory gap; the
knowledge cutoff adds the before / after slices. The numbers are checked against the run's own verdict files and
the twin's pairing, counted here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from answer_fixtures import questions, write_fixture
from chronoqa.artifacts.changes import ChangeRecord, write_changes
from chronoqa.artifacts.metrics import read_verdicts
from chronoqa.artifacts.release import load_release
from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.generate.twin import read_twin_pairs
from chronoqa.pipeline.config import load_config
from chronoqa.pipeline.run import run_pipeline
from chronoqa.score.cutoff import cutoff_side
from chronoqa.time import parse_time


def test_twin_and_cutoff_settings_are_checked(tmp_path: Path) -> None:
    toml = tmp_path / "run.toml"
    toml.write_text('[twin]\nkind = "shift_years"\nseed = 3\nyears = 12\n\n[cutoff]\ndate = "2001-06"\n')
    cfg = load_config(toml, seed=1)
    assert (cfg.twin_kind, cfg.twin_seed, cfg.twin_years, cfg.cutoff_date, cfg.seed) == (
        "shift_years", 3, 12, "2001-06", 1,
    )  # fmt: skip
    assert cfg.to_dict()["twin"] == {"kind": "shift_years", "seed": 3, "years": 12}
    for text, error in (
        ('[twin]\nkind = "swap"\n', UnknownNameError),
        ('[twin]\nkind = "shift_years"\nyears = 0\n', ChronoqaError),
        ('[cutoff]\ndate = "last autumn"\n', ChronoqaError),
        ("[twin]\nnames = 1\n", UnknownNameError),
    ):
        toml.write_text(text)
        with pytest.raises(error):
            load_config(toml)


def test_tiny_run_with_twin_and_cutoff_writes_both_sections(tmp_path: Path, mirror: Path) -> None:
    toml = tmp_path / "run.toml"
    toml.write_text('[twin]\nkind = "shift_years"\nseed = 5\nyears = 28\n\n[cutoff]\ndate = "2000"\n')
    out = tmp_path / "run"
    cfg = load_config(toml, dataset="yago11k", out=str(out), build={"n_questions": 300}, retrievers="",
                      controls="oracle", baselines="extractive,prior", n_bootstrap=50)  # fmt: skip
    res = run_pipeline(cfg)
    names = [s.name for s in res.stages]
    assert {"twin", "twin-retrieve-oracle", "twin-answer-extractive@oracle", "twin-answer-prior"} <= set(names)
    real = load_release(out / "build")
    pairs = {src for _, src in read_twin_pairs(out / "twin" / "release").items()}
    scored = [q for q in real.questions if q.split == "test"]
    for row in res.summary.answers:
        gap = row.memory_gap
        assert gap is not None, row.name
        assert gap.twin.paired == sum(q.id in pairs for q in scored)
        assert gap.twin.paired + gap.twin.unpaired == len(scored)
        # A(real) over the paired questions, from the run's own verdicts
        verdicts = {v.qid: v.A for v in read_verdicts(out / "evaluate", "answers", row.name)}
        a_real = [verdicts[q.id] for q in scored if q.id in pairs]
        assert gap.all.a == pytest.approx(sum(a_real) / len(a_real))
        assert gap.all.diff == pytest.approx(gap.all.a - gap.all.b)  # type: ignore[operator]
        # the cutoff slices count the scored questions by the side of the cutoff their gold became true on
        sides = [cutoff_side(q, parse_time("2000")) for q in scored]  # type: ignore[arg-type]
        cells = row.slices["by_cutoff"]
        assert {k: c.n_questions for k, c in cells.items()} == {s: sides.count(s) for s in set(sides)}
    md = res.report_md.read_text(encoding="utf-8")
    html = res.report_html.read_text(encoding="utf-8")
    assert "## Memory gap: A(real) − A(twin)" in md and "Memory gap: A(real) − A(twin)</h2>" in html
    assert "gold before cutoff" in md and "gold after cutoff" in md
    assert all(s.skipped for s in run_pipeline(cfg).stages)  # resumable: nothing recomputed


def test_run_on_a_refreshed_release_reports_both_golds(tmp_path: Path) -> None:
    """A hand-made refreshed release (q1's gold was Red FC): the prior's answers scored under both golds."""
    rel, _ = write_fixture(tmp_path)
    golds = {q.id: q.answers for q in questions()}
    old = {"q1": ("Red FC",)}
    write_changes(
        rel / "changes.jsonl",
        [
            ChangeRecord(q, "gold_changed" if q in old else "unchanged", f"k:{q}", "c", q,
                         old_answers=old.get(q, golds[q]), new_answers=golds[q])
            for q in ("q1", "q2", "q3", "q4")
        ],
    )  # fmt: skip
    cfg = load_config(None, bench=str(rel), out=str(tmp_path / "run"), retrievers="", controls="", baselines="prior",
                      n_bootstrap=20)  # fmt: skip
    res = run_pipeline(cfg)
    (row,) = res.summary.answers
    tg = row.two_gold
    assert tg is not None and tg.n_questions == 4
    verdicts = {v.qid: v for v in read_verdicts(tmp_path / "run" / "evaluate", "answers", "prior")}
    new_a = sum(v.A for v in verdicts.values()) / len(verdicts)
    old_a = sum(int((v.answer or "") in (golds | old)[q]) for q, v in verdicts.items()) / len(verdicts)
    assert tg.new_gold.metrics["A"].value == pytest.approx(new_a)
    assert tg.old_gold.metrics["A"].value == pytest.approx(old_a)
    assert "## Two golds: old gold vs new gold" in res.report_md.read_text(encoding="utf-8")


def test_closed_book_model_that_remembers_the_real_release_shows_a_memory_gap(tmp_path: Path, mirror: Path) -> None:
    """A fake closed-book LLM answers from a memory of the real release's questions: A(twin) falls, the gap shows.

    Expected accuracies are worked here by exact match: on the real release it knows every gold; on a
    year-shifted twin it answers only questions whose wording it has seen, with the gold it remembers.
    """
    from chronoqa import datasets
    from chronoqa.generate.kg import KGBuildConfig, build_kg_benchmark
    from chronoqa.generate.kg.order import canonical_graph
    from fake_openai import FakeOpenAI

    kcfg = KGBuildConfig(n_questions=300, seed=0)
    graph = canonical_graph(datasets.load_graph("yago11k", on_bad_row="skip", as_of=kcfg.as_of_point), kcfg.seed)
    real = build_kg_benchmark(graph, kcfg, sources={"dataset": "yago11k"}).write(tmp_path / "real")
    memory = {q.question: q.answers[0] for q in load_release(real).questions if len(q.answers) == 1}

    def reply(n: int, payload: dict[str, object]) -> tuple[int, str, dict[str, str]]:
        content = str(payload["messages"][-1]["content"])  # type: ignore[index]
        seen = max((t for t in memory if t in content), key=len, default=None)
        return 200, f"Answer: {memory[seen] if seen else 'I do not know'}\nExplanation: from memory.", {}

    toml = tmp_path / "run.toml"
    toml.write_text('[twin]\nkind = "shift_years"\nyears = 28\n')
    with FakeOpenAI(reply) as srv:
        cfg = load_config(toml, bench=str(real), out=str(tmp_path / "run"), retrievers="", controls="",
                          baselines="", llm=f"llm(model=fake,base_url={srv.base_url})", protocols="closed_book@1",
                          n_bootstrap=200)  # fmt: skip
        res = run_pipeline(cfg)
    (row,) = res.summary.answers
    gap = row.memory_gap
    assert gap is not None
    twin = load_release(tmp_path / "run" / "twin" / "release")
    by_id = {q.id: q for q in load_release(real).questions}
    pairs = [(by_id[s], t) for t, s in sorted(read_twin_pairs(twin.path).items()) if by_id[s].split == "test"]
    twin_q = {q.id: q for q in twin.questions}
    pairs = [(a, twin_q[b]) for a, b in pairs if b in twin_q]
    right_real = [memory.get(a.question) in a.answers for a, _ in pairs]
    right_twin = [memory.get(b.question) in b.answers for _, b in pairs]
    assert gap.twin.paired == len(pairs)
    assert gap.all.a == pytest.approx(sum(right_real) / len(pairs), abs=0.02)
    assert gap.all.b == pytest.approx(sum(right_twin) / len(pairs), abs=0.02)
    assert sum(right_twin) < sum(right_real)  # the twin's dated wordings are not in its memory
    assert gap.all.diff is not None and gap.all.ci_low is not None and gap.all.ci_low > 0  # the gap is not noise
    md = res.report_md.read_text(encoding="utf-8")
    assert f"| {gap.all.diff:+.3f} [{gap.all.ci_low:+.3f}, " in md.replace("\\", "")
