"""TempBench-style benchmark builder for temporal knowledge graphs (``chronoqa build kg``).

See ``docs/kg-builder.md`` for the semantics of every operator, with examples.
"""

from chronoqa.generate.kg.build import KGBuild, build_kg_benchmark, leaks, resolve_phrases
from chronoqa.generate.kg.config import DEFAULT_AS_OF, OPERATORS, KGBuildConfig
from chronoqa.generate.kg.phrases import MissingPhrasesError, PhraseTable, RelationPhrases, load_phrase_table

__all__ = [
    "DEFAULT_AS_OF",
    "OPERATORS",
    "KGBuild",
    "KGBuildConfig",
    "MissingPhrasesError",
    "PhraseTable",
    "RelationPhrases",
    "build_kg_benchmark",
    "leaks",
    "load_phrase_table",
    "resolve_phrases",
]
