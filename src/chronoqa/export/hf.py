"""The Hugging Face ``datasets`` layout of a release: Parquet per split and a dataset card.

Layout::

    README.md                                  dataset card: the Hub's YAML header + the data card
    questions/<split>-00000-of-00001.parquet   one row per question (config ``questions``, the default)
    corpus/corpus-00000-of-00001.parquet       one row per document (config ``corpus``)
    qrels/<split>-00000-of-00001.parquet       query-id, corpus-id, score (config ``qrels``)

``<split>`` is the Hub's name of the release's split (:func:`hub_split`): ``train``, ``validation`` (the
release's ``dev``) and ``test``; a row's ``split`` field keeps the release's own name.

A question row holds every field of :meth:`chronoqa.records.Question.to_dict`, the triple lists
(``S_star``, ``S_dist``, ``S_stale``, ``S_anchor``) as lists of structs, and the release's functional
flags (``dist_functional``, ``stale_functional``; null where the release has none). The free-form
mappings ``time_refs``, ``reference``, ``logical_form`` and ``answer_names`` are JSON strings (sorted keys), since
their keys differ between the KG and table builders. Writing needs only ``pyarrow``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from chronoqa.artifacts.release import CORPUS_SCHEMA as RELEASE_CORPUS
from chronoqa.artifacts.release import DATACARD_FILE, QRELS_FILE, FunctionalFlags, Release
from chronoqa.errors import ChronoqaError
from chronoqa.escape import md_text, yaml_str
from chronoqa.export.checks import check_stale_splits
from chronoqa.export.provenance import LOW_CONFIDENCE_FILE, VALIDATION_FILE, Provenance, provenance_of
from chronoqa.io import atomic_write, write_text
from chronoqa.records import Question

__all__ = [
    "CORPUS_SCHEMA",
    "JSON_FIELDS",
    "QRELS_SCHEMA",
    "QUESTION_SCHEMA",
    "SPLITS",
    "hub_features",
    "hub_split",
    "question_row",
    "read_qrels",
    "write_hf",
]

SPLITS = ("train", "dev", "test")
#: The Hub's (and ``datasets.Split``'s) names of the release's splits where they differ.
_HUB_SPLITS = {"dev": "validation"}


def hub_split(name: str) -> str:
    """The split's name on the Hugging Face Hub: ``dev`` is ``validation``; other names are kept."""
    return _HUB_SPLITS.get(name, name)


#: The question fields that are objects or lists of objects, written as JSON text: as the record declares them.
JSON_FIELDS = tuple(f.name for f in Question.record_fields() if f.kind in ("maps", "map"))

#: The question columns: :class:`~chronoqa.records.Question`'s Arrow schema (objects as JSON text),
#: with the question's functional flags after them.
QUESTION_SCHEMA = pa.schema([*Question.arrow_schema(), *(f for f in FunctionalFlags.arrow_schema() if f.name != "id")])
#: The release's corpus columns (``artifacts.release.CORPUS_SCHEMA``) as plain strings: the Hub reads no dictionaries.
CORPUS_SCHEMA = pa.schema(
    [pa.field(f.name, f.type.value_type if pa.types.is_dictionary(f.type) else f.type) for f in RELEASE_CORPUS]
)
QRELS_SCHEMA = pa.schema([("query-id", pa.string()), ("corpus-id", pa.string()), ("score", pa.int64())])

_TASKS = ("question-answering", "text-retrieval")
_SIZES = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"))


def _json(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def question_row(q: Mapping[str, Any], flags: Mapping[str, Any] | None) -> dict[str, Any]:
    """One Parquet row of a question (its ``to_dict()`` form) and its functional flags."""
    row = {name: q.get(name) for name in QUESTION_SCHEMA.names}
    for name in JSON_FIELDS:
        row[name] = _json(q.get(name))
    row["dist_functional"] = None if flags is None else bool(flags["dist_functional"])
    row["stale_functional"] = None if flags is None else bool(flags["stale_functional"])
    return row


def read_qrels(release: Release) -> list[tuple[str, str, int]]:
    """The release's qrels file as ``(qid, doc_id, grade)`` rows, in file order."""
    path = release.path / QRELS_FILE
    if not path.exists():
        return []
    rows = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != 4:
                raise ChronoqaError(
                    f"{path}:{n}: expected 'qid 0 doc_id grade' (four fields without spaces inside), got "
                    f"{line.strip()!r}. Fix: rebuild the release with the current chronoqa (question ids hold no "
                    "whitespace), or restore the file"
                )
            rows.append((parts[0], parts[2], int(parts[3])))
    return rows


Sizes = dict[str, tuple[int, int]]  # split -> (rows, bytes of the Arrow table)


def _write_table(path: Path, rows: Sequence[Mapping[str, Any]], schema: pa.Schema) -> tuple[int, int]:
    table = pa.Table.from_pylist(list(rows), schema=schema)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path, "wb") as fh:
        pq.write_table(table, fh, compression="zstd", use_dictionary=True, write_statistics=True)
    return table.num_rows, table.nbytes


def _size_category(n: int) -> str:
    return next((label for limit, label in _SIZES if n < limit), "n>1M")


def _arrow_feature(name: str, t: pa.DataType) -> dict[str, Any]:
    """The Hub's ``dataset_info.features`` entry of one Arrow field."""
    if pa.types.is_list(t):
        v = t.value_type
        if pa.types.is_struct(v):
            return {"name": name, "list": [_arrow_feature(f.name, f.type) for f in v]}
        return {"name": name, "sequence": _DTYPES[str(v)]}
    return {"name": name, "dtype": _DTYPES[str(t)]}


_DTYPES = {"string": "string", "int64": "int64", "bool": "bool"}


def hub_features(schema: pa.Schema) -> list[dict[str, Any]]:
    """The Hub's feature list of an Arrow schema."""
    return [_arrow_feature(f.name, f.type) for f in schema]


def _yaml_scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return yaml_str(v)


def _yaml(obj: Any, indent: int = 0) -> list[str]:
    """Block YAML of nested dicts/lists of scalars (deterministic; no YAML library needed to write)."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(obj, Mapping):
        for k, v in obj.items():
            if isinstance(v, Mapping | list) and v:
                lines.append(f"{pad}{k}:")
                lines.extend(_yaml(v, indent + 2))
            else:
                lines.append(f"{pad}{k}: {_yaml_scalar(v) if not isinstance(v, Mapping | list) else '[]'}")
    else:
        for item in obj:
            if isinstance(item, Mapping | list):
                sub = _yaml(item, indent + 2)
                lines.append(f"{pad}- {sub[0].lstrip()}")
                lines.extend(sub[1:])
            else:
                lines.append(f"{pad}- {_yaml_scalar(item)}")
    return lines


def _splits(sizes: Sizes) -> list[dict[str, Any]]:
    return [{"name": s, "num_bytes": b, "num_examples": n} for s, (n, b) in sizes.items()]


def _card(
    release: Release,
    prov: Provenance,
    split_sizes: Sizes,
    corpus_sizes: Sizes,
    qrels_sizes: Sizes,
) -> str:
    """The dataset card: YAML front matter the Hub reads (configs, features, splits), then the text."""
    header = _card_header(prov, split_sizes, corpus_sizes, qrels_sizes)
    body = _card_body(release, prov)
    return "---\n" + "\n".join(_yaml(header)) + "\n---\n\n" + "\n".join(body).rstrip() + "\n"


def _card_header(prov: Provenance, split_sizes: Sizes, corpus_sizes: Sizes, qrels_sizes: Sizes) -> dict[str, Any]:
    """The card's front matter: licence, task, size, and the three configs with their features and splits."""
    header: dict[str, Any] = {
        "license": prov.hub_licence,
        "language": ["en"],
        "pretty_name": f"chronoqa {prov.dataset} temporal QA",
        "task_categories": list(_TASKS),
        "size_categories": [_size_category(sum(n for n, _ in split_sizes.values()))],
        "tags": ["temporal", "time-sensitive-qa", "retrieval", "chronoqa", f"{prov.builder}-builder"],
        "configs": [
            {
                "config_name": "questions",
                "default": True,
                "data_files": [{"split": s, "path": f"questions/{s}-*.parquet"} for s in split_sizes],
            },
            {"config_name": "corpus", "data_files": [{"split": "corpus", "path": "corpus/*.parquet"}]},
            {
                "config_name": "qrels",
                "data_files": [{"split": s, "path": f"qrels/{s}-*.parquet"} for s in qrels_sizes],
            },
        ],
        "dataset_info": [
            {
                "config_name": "questions",
                "features": hub_features(QUESTION_SCHEMA),
                "splits": _splits(split_sizes),
            },
            {
                "config_name": "corpus",
                "features": hub_features(CORPUS_SCHEMA),
                "splits": _splits(corpus_sizes),
            },
            {
                "config_name": "qrels",
                "features": hub_features(QRELS_SCHEMA),
                "splits": _splits(qrels_sizes),
            },
        ],
    }
    return header


def _card_body(release: Release, prov: Provenance) -> list[str]:
    """The card's text: how to load it, licence and provenance, then the release's own data card."""
    card_path = release.path / DATACARD_FILE
    datacard = card_path.read_text(encoding="utf-8") if card_path.exists() else ""
    licence_text = md_text(prov.licence) if prov.registered else f"**{md_text(prov.licence)}.**"
    body = [
        f"# chronoqa temporal QA benchmark: {md_text(prov.dataset)}",
        "",
        "Generated by chronoqa "
        f"{release.manifest.get('version', '?')} ({prov.builder} builder, seed {release.manifest.get('seed', '?')}).",
        "",
        "## Loading",
        "",
        "```python",
        "from datasets import load_dataset",
        'questions = load_dataset("parquet", data_files={"test": "questions/test-*.parquet"})["test"]',
        "```",
        "",
        "Configs: `questions` (one row per question, nested gold chain `S_star`, negatives `S_dist`/`S_stale`,",
        "anchors `S_anchor`, functional flags), `corpus` (one verbalised fact per document) and `qrels`",
        "(`query-id`, `corpus-id`, `score`: the documents of `S_star`, i.e. time-valid relevance).",
        "`time_refs`, `reference`, `logical_form` and `answer_names` are JSON strings. Splits: `train`,",
        "`validation` (the release's `dev`; a row's `split` field keeps `dev`) and `test`.",
        "",
        "## Licence and provenance",
        "",
        f"- Source data: {md_text(prov.dataset)}" + (f" ({md_text(prov.homepage)})" if prov.homepage else ""),
        f"- Licence of the source data: {licence_text}",
    ]
    if prov.citation:
        body += [f"- Cite the source: {md_text(prov.citation)}"]
    if release.manifest.get("sources"):
        body += ["- Source files (sha256):"]
        for name, src in sorted(dict(release.manifest["sources"]).items()):
            sha = src.get("sha256") if isinstance(src, Mapping) else src
            body += [f"  - {md_text(name)}: {md_text(sha)}"]
    body += ["", "## Data card", ""]
    card = datacard.strip().splitlines()
    if card and card[0].startswith("# "):
        card = card[1:]
    body += [("#" + line) if line.startswith("#") else line for line in card]
    return body


def write_hf(release: Release, out: Path, validation: Path | None = None) -> Path:
    """Write the Hugging Face layout of ``release`` into ``out``; returns ``out``.

    With ``validation`` (a ``chronoqa validate import`` folder) the card gains its summary and
    ``validation/low_confidence.jsonl`` is copied in.
    """
    out.mkdir(parents=True, exist_ok=True)
    prov = provenance_of(release)
    flags = {k: f.to_dict() for k, f in release.flags.items()}
    by_split: dict[str, list[dict[str, Any]]] = {}
    qsplit: dict[str, str] = {}
    for q in release.questions:
        d = q.to_dict()
        by_split.setdefault(q.split, []).append(question_row(d, flags.get(q.id)))
        qsplit[q.id] = q.split
    order = [s for s in SPLITS if s in by_split] + sorted(s for s in by_split if s not in SPLITS)
    for sub in ("questions", "qrels"):
        check_stale_splits(out / sub, "*.parquet", [f"{hub_split(s)}-00000-of-00001.parquet" for s in order])
    sizes: Sizes = {}
    for s in order:
        path = out / "questions" / f"{hub_split(s)}-00000-of-00001.parquet"
        sizes[hub_split(s)] = _write_table(path, by_split[s], QUESTION_SCHEMA)
    docs = [d.to_dict() for d in release.corpus]
    corpus_sizes = {"corpus": _write_table(out / "corpus" / "corpus-00000-of-00001.parquet", docs, CORPUS_SCHEMA)}
    qrels: dict[str, list[dict[str, Any]]] = {}
    for qid, doc, grade in read_qrels(release):
        qrels.setdefault(qsplit.get(qid, "test"), []).append({"query-id": qid, "corpus-id": doc, "score": grade})
    qorder = [s for s in order if s in qrels]
    qrels_sizes: Sizes = {}
    for s in qorder:
        path = out / "qrels" / f"{hub_split(s)}-00000-of-00001.parquet"
        qrels_sizes[hub_split(s)] = _write_table(path, qrels[s], QRELS_SCHEMA)
    card = _card(release, prov, sizes, corpus_sizes, qrels_sizes)
    if validation is not None:
        summary = (validation / VALIDATION_FILE).read_text(encoding="utf-8").strip()
        card = card.rstrip("\n") + "\n\n" + summary + "\n"
        low = (validation / LOW_CONFIDENCE_FILE).read_text(encoding="utf-8")
        (out / "validation").mkdir(exist_ok=True)
        write_text(out / "validation" / LOW_CONFIDENCE_FILE, low)
    write_text(out / "README.md", card)
    return out
