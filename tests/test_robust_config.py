"""Run configuration validation: unknown keys name the key and list the valid ones; types are checked.

Each bad TOML below is one the hostile-input trial recorded as a traceback or as a silent coercion
(``seed = 1.5`` became 1); the expected messages are written from the issue, not from the code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chronoqa.errors import ChronoqaError, UnknownNameError
from chronoqa.pipeline.config import load_config


def _toml(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "run.toml"
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ("[retrieve]\nretrievers = 5\n", ["retrievers", "= 5", "valid tuple"]),
        ("[retrieve]\nretrievers = ['bm25', 3]\n", ["retrievers.1", "= 3", "valid string"]),
        ('[build]\nn_questions = "many"\n', ["[build] n_questions", "'many'", "valid integer"]),
        ("seed = 1.5\n", ["seed", "1.5", "valid integer"]),
        ('seed = "1"\n', ["seed", "'1'", "valid integer"]),
        ("seed = true\n", ["seed", "True", "valid integer"]),
        ("[evaluate]\nn_bootstrap = -1\n", ["n_bootstrap must be >= 0", "-1"]),
        ("[retrieve]\nk = 0\n", ["k must be >= 1"]),
        ('dataset = ["a"]\n', ["dataset", "valid string"]),
        ("[build]\nsplit_ratios = 'x'\n", ["[build] split_ratios", "'x'"]),
    ],
)
def test_bad_types_are_errors_naming_the_key(tmp_path: Path, text: str, needles: list[str]) -> None:
    path = _toml(tmp_path, text)
    with pytest.raises(ChronoqaError) as exc:
        load_config(path)
    msg = str(exc.value)
    for needle in needles:
        assert needle in msg, (needle, msg)


@pytest.mark.parametrize(
    ("text", "key", "some_valid"),
    [
        ("[build]\nn_question = 5\n", "n_question", ["n_questions", "seed", "max_hops"]),
        ("[retrieve]\nretreivers = ['bm25']\n", "retreivers", ["retrievers", "controls", "k"]),
        ("[evaluate]\nbootstrap = 5\n", "bootstrap", ["n_bootstrap", "min_slice"]),
        ("sed = 5\n", "sed", ["seed", "dataset", "retrieve"]),
    ],
)
def test_unknown_keys_name_the_key_and_list_valid_ones(
    tmp_path: Path, text: str, key: str, some_valid: list[str]
) -> None:
    with pytest.raises(UnknownNameError) as exc:
        load_config(_toml(tmp_path, text))
    msg = str(exc.value)
    assert repr(key) in msg and "Known: " in msg
    listed = msg.split("Known: ", 1)[1]
    for name in some_valid:
        assert name in listed, (name, msg)


def test_a_good_file_still_loads(tmp_path: Path) -> None:
    cfg = load_config(
        _toml(
            tmp_path,
            "seed = 2\n[build]\nn_questions = 40\nsplit_ratios = [0.5, 0.25, 0.25]\n"
            "[build.operator_weights]\npoint_in_time = 1.0\n[retrieve]\nretrievers = ['bm25']\nk = 3\n",
        ),
        n_bootstrap=0,
    )
    assert cfg.seed == 2 and cfg.k == 3 and cfg.n_bootstrap == 0 and cfg.build["n_questions"] == 40
    # flags (strings from the command line) still split on top-level commas
    assert load_config(None, retrievers="bm25,hybrid(bm25,dense)").retrievers == ("bm25", "hybrid(bm25,dense)")


def test_a_bad_build_value_the_builder_rejects(tmp_path: Path) -> None:
    with pytest.raises(ChronoqaError, match=r"\[build\]"):
        load_config(_toml(tmp_path, "[build]\nmax_hops = 9\n"))
