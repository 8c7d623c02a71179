"""The time model: points with granularity, closed validity intervals, validity, Allen relations.

Conventions, stated once and derived everywhere else:

* A :class:`TimePoint` has an explicit :class:`Granularity` (year, month or day). A partial date stands
  for the whole span it covers: ``1994`` is 1994-01-01..1994-12-31, ``1994-03`` is March 1994.
* Years use astronomical numbering on the proleptic Gregorian calendar (``-405`` is the year the data
  calls -405). No ``datetime`` object is ever built, so BC years and year 0 work like any other.
* Comparisons happen at a stated granularity ``g``. A point is mapped to the *units* of ``g`` it
  covers (years, months since year 0, or days since 1970-01-01): a point finer than ``g`` is truncated,
  a point coarser than ``g`` covers several units.
* An :class:`Interval` ``[start, end]`` is closed: it covers every unit from the first unit of
  ``start`` to the last unit of ``end``. A point fact is an interval with ``start == end``.
  ``start=None`` means *unknown start*; ``end=None`` means *open end*: still valid as of ``as_of``
  (an explicit date, never the wall clock), or unbounded when no ``as_of`` is given.
* ``valid_at`` is TempBench's ``t_start <= t_query <= t_end`` generalised to spans. Mode
  ``"possible"`` (the default, conservative for answer uniqueness) asks whether the fact *might* hold
  at some unit of ``t``; an unknown start then counts as "since forever". Mode ``"certain"`` asks
  whether it holds at every unit of ``t``; an unknown start then never does.
* Allen relations are computed on closed unit spans ``[s, e]`` read as half-open ``[s, e + 1)``, so
  every well-formed interval (a one-day or one-year point fact included) is a proper interval and
  exactly one of the 13 relations holds between any two. ``meets`` therefore means "ends in the unit
  just before the other starts" (1999 meets 2000 at year granularity); sharing an end unit is
  ``overlaps``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Literal

__all__ = [
    "Allen",
    "Granularity",
    "Interval",
    "TimeParseError",
    "TimePoint",
    "allen_of_spans",
    "civil_from_days",
    "days_from_civil",
    "days_in_month",
    "is_leap_year",
    "parse_time",
    "point_relation",
    "relate",
    "valid_at",
]

ValidityMode = Literal["possible", "certain"]


class TimeParseError(ValueError):
    """A value could not be read as a time; the message names the value and what was expected."""


class Granularity(IntEnum):
    """How precise a time point is. Larger means finer."""

    YEAR = 1
    MONTH = 2
    DAY = 3

    @classmethod
    def parse(cls, name: str | Granularity) -> Granularity:
        """Read ``"year"``, ``"month"`` or ``"day"`` (any case)."""
        if isinstance(name, Granularity):
            return name
        try:
            return cls[name.strip().upper()]
        except KeyError:
            raise ValueError(f"Unknown granularity {name!r}: expected one of year, month, day") from None

    def __str__(self) -> str:
        return self.name.lower()


# --------------------------------------------------------------------------------------------------
# Calendar arithmetic (proleptic Gregorian, astronomical years, no datetime)
# --------------------------------------------------------------------------------------------------

_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def is_leap_year(year: int) -> bool:
    """Gregorian leap-year rule, for any integer year."""
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def days_in_month(year: int, month: int) -> int:
    """Number of days in ``month`` of ``year``."""
    if month == 2 and is_leap_year(year):
        return 29
    return _MONTH_DAYS[month - 1]


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (valid for any year, BC included)."""
    y = year - (1 if month <= 2 else 0)
    era = y // 400
    yoe = y - era * 400
    mp = (month + 9) % 12
    doy = (153 * mp + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(days: int) -> tuple[int, int, int]:
    """Inverse of :func:`days_from_civil`."""
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return (y + (1 if m <= 2 else 0), m, d)


# --------------------------------------------------------------------------------------------------
# Time points
# --------------------------------------------------------------------------------------------------

_UNKNOWN_MARKERS = frozenset({"", "none", "nan", "null", "na", "n/a", "unknown", "-", "?"})
_DATE_RE = re.compile(r"^\s*(-?\d{1,6})(?:[-_/](\d{1,2}|##)(?:[-_/](\d{1,2}|##))?)?\s*$")
_MIDNIGHT_RE = re.compile(r"^(.*)T00:00(?::00(?:\.0+)?)?(?:Z|\+00:00)?$")
_FLOAT_YEAR_RE = re.compile(r"^\s*(-?\d{1,6})\.0+\s*$")


@dataclass(frozen=True, slots=True, order=False)
class TimePoint:
    """A calendar point with an explicit granularity (``month``/``day`` are ``None`` when coarser)."""

    year: int
    month: int | None = None
    day: int | None = None

    def __post_init__(self) -> None:
        if self.month is None and self.day is not None:
            raise TimeParseError(f"TimePoint({self.year}, None, {self.day}): a day needs a month")
        if self.month is not None and not 1 <= self.month <= 12:
            raise TimeParseError(f"month {self.month} of {self.year} is impossible: expected 1..12")
        if self.day is not None:
            assert self.month is not None
            last = days_in_month(self.year, self.month)
            if not 1 <= self.day <= last:
                raise TimeParseError(
                    f"day {self.day} of {self.year:04d}-{self.month:02d} is impossible: expected 1..{last}"
                )

    # -- construction -----------------------------------------------------------------------------
    @classmethod
    def parse(cls, value: object) -> TimePoint | None:
        """Parse a time value, or return ``None`` for an unknown marker. See :func:`parse_time`."""
        return parse_time(value)

    @classmethod
    def from_unit(cls, unit: int, granularity: Granularity) -> TimePoint:
        """The point of granularity ``granularity`` whose unit number is ``unit``."""
        if granularity is Granularity.YEAR:
            return cls(unit)
        if granularity is Granularity.MONTH:
            return cls(unit // 12, unit % 12 + 1)
        y, m, d = civil_from_days(unit)
        return cls(y, m, d)

    # -- properties -------------------------------------------------------------------------------
    @property
    def granularity(self) -> Granularity:
        """The precision this point was stated at."""
        if self.day is not None:
            return Granularity.DAY
        if self.month is not None:
            return Granularity.MONTH
        return Granularity.YEAR

    def truncate(self, granularity: Granularity) -> TimePoint:
        """Drop precision finer than ``granularity`` (never adds precision)."""
        if granularity >= self.granularity:
            return self
        if granularity is Granularity.YEAR:
            return TimePoint(self.year)
        return TimePoint(self.year, self.month)

    def first_day(self) -> int:
        """Day number (days since 1970-01-01) of the first day this point covers."""
        return days_from_civil(self.year, self.month or 1, self.day or 1)

    def last_day(self) -> int:
        """Day number of the last day this point covers."""
        if self.month is None:
            return days_from_civil(self.year, 12, 31)
        if self.day is None:
            return days_from_civil(self.year, self.month, days_in_month(self.year, self.month))
        return days_from_civil(self.year, self.month, self.day)

    def lo(self, granularity: Granularity) -> int:
        """First unit of ``granularity`` this point covers."""
        if granularity is Granularity.YEAR:
            return self.year
        if granularity is Granularity.MONTH:
            return self.year * 12 + (self.month or 1) - 1
        return self.first_day()

    def hi(self, granularity: Granularity) -> int:
        """Last unit of ``granularity`` this point covers."""
        if granularity is Granularity.YEAR:
            return self.year
        if granularity is Granularity.MONTH:
            return self.year * 12 + (self.month or 12) - 1
        return self.last_day()

    def shift(self, n: int, granularity: Granularity | None = None) -> TimePoint:
        """Move by ``n`` units of ``granularity`` (default: the point's own).

        Month arithmetic clamps to the month's end: 2020-01-31 + 1 month = 2020-02-29.
        """
        g = self.granularity if granularity is None else granularity
        if g is Granularity.YEAR:
            if self.month is None:
                return TimePoint(self.year + n)
            return TimePoint(self.year + n, self.month, None).with_day_clamped(self.day)
        if g is Granularity.MONTH:
            total = self.year * 12 + (self.month or 1) - 1 + n
            if self.month is None:
                return TimePoint(total // 12, total % 12 + 1)
            return TimePoint(total // 12, total % 12 + 1).with_day_clamped(self.day)
        if self.day is None:
            raise ValueError(f"cannot shift {self} by days: it has no day")
        return TimePoint.from_unit(self.first_day() + n, Granularity.DAY)

    def shift_years(self, n: int) -> TimePoint:
        """The same calendar point ``n`` whole years later (earlier for ``n < 0``), at the same granularity.

        Every order and equality between points (of any granularities) is kept, so every Allen relation is.
        A 29 February whose target year is not a leap year has no such point: :class:`ValueError` (a shift by a
        multiple of 4 that avoids century years, e.g. 4, 8 or 28, keeps every leap day of 1901-2099).
        """
        if self.month == 2 and self.day == 29 and not is_leap_year(self.year + n):
            raise ValueError(
                f"{self.isoformat()} shifted by {n} years falls on 29 February of {self.year + n}, not a leap "
                "year: shift by a multiple of 4 years instead"
            )
        return TimePoint(self.year + n, self.month, self.day)

    def side_of(self, cutoff: TimePoint) -> str:
        """Where this point lies against ``cutoff``: ``"before"``, ``"after"`` or ``"straddles"``.

        ``before``: its last day is before ``cutoff``'s first day; ``after``: its first day is at or after it;
        ``straddles``: neither (a year 2023 against a cutoff 2023-10).
        """
        if self.last_day() < cutoff.first_day():
            return "before"
        return "after" if self.first_day() >= cutoff.first_day() else "straddles"

    def with_day_clamped(self, day: int | None) -> TimePoint:
        """This month with ``day``, clamped to the month's last day (``None`` keeps month precision)."""
        if day is None or self.month is None:
            return self
        return TimePoint(self.year, self.month, min(day, days_in_month(self.year, self.month)))

    def isoformat(self) -> str:
        """``1994``, ``1994-03``, ``1994-03-07``; negative years as ``-0405``."""
        y = f"{self.year:05d}" if self.year < 0 else f"{self.year:04d}"
        if self.month is None:
            return y
        if self.day is None:
            return f"{y}-{self.month:02d}"
        return f"{y}-{self.month:02d}-{self.day:02d}"

    def __str__(self) -> str:
        return self.isoformat()

    def sort_key(self) -> tuple[int, int, int]:
        """Order by first day covered, then coarser-first (1994 sorts before 1994-01)."""
        return (self.first_day(), int(self.granularity), self.last_day())


def parse_time(value: object, *, field: str | None = None) -> TimePoint | None:
    """Parse one time value.

    Accepts ``1994``, ``1994-03``, ``1994-03-07``, YAGO's ``1994_03_07`` / ``1994_03`` (and ``##``
    placeholders for an unknown month/day, which coarsen the point), negative years (``-405``),
    TempBench float years (``1994.0`` or the float itself) and ISO timestamps at midnight UTC
    (``1994-03-07T00:00:00Z``). Unknown markers (``None``, empty, ``NaN``, ``null``, ``unknown``)
    give ``None``. Anything else raises :class:`TimeParseError` naming the value and what was
    expected; ``field`` is added to the message.
    """
    where = f" in field {field!r}" if field else ""
    if value is None:
        return None
    if isinstance(value, TimePoint):
        return value
    if isinstance(value, bool):
        raise TimeParseError(f"{value!r}{where} is not a time: expected a year, YYYY-MM or YYYY-MM-DD")
    if isinstance(value, int):
        return TimePoint(value)
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if not value.is_integer():
            raise TimeParseError(f"{value!r}{where} is not a whole year: expected e.g. 1994.0")
        return TimePoint(int(value))
    if not isinstance(value, str):
        raise TimeParseError(f"{value!r}{where} is not a time: expected a string or number")
    text = value.strip()
    if text.lower() in _UNKNOWN_MARKERS:
        return None
    m = _MIDNIGHT_RE.match(text)
    if m:
        text = m.group(1)
    elif "T" in text:
        raise TimeParseError(
            f"{value!r}{where}: only midnight UTC timestamps are accepted (a date is a day, not an instant)"
        )
    m = _FLOAT_YEAR_RE.match(text)
    if m:
        return TimePoint(int(m.group(1)))
    m = _DATE_RE.match(text)
    if not m:
        raise TimeParseError(
            f"{value!r}{where} is not a time: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY_MM_DD, "
            "a float year like 1994.0, or an unknown marker (None, empty, NaN)"
        )
    year = int(m.group(1))
    month_s, day_s = m.group(2), m.group(3)
    if month_s is None or month_s == "##":
        return TimePoint(year)
    month = int(month_s)
    if day_s is None or day_s == "##":
        try:
            return TimePoint(year, month)
        except TimeParseError as exc:
            raise TimeParseError(f"{value!r}{where}: {exc}") from None
    try:
        return TimePoint(year, month, int(day_s))
    except TimeParseError as exc:
        raise TimeParseError(f"{value!r}{where}: {exc}") from None


# --------------------------------------------------------------------------------------------------
# Intervals and validity
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Interval:
    """A closed validity interval. ``start=None``: unknown start; ``end=None``: open end."""

    start: TimePoint | None
    end: TimePoint | None

    @classmethod
    def point(cls, t: TimePoint) -> Interval:
        """A point fact: ``[t, t]``."""
        return cls(t, t)

    @classmethod
    def parse(cls, start: object, end: object) -> Interval:
        """Parse both ends with :func:`parse_time`."""
        return cls(parse_time(start, field="start"), parse_time(end, field="end"))

    @property
    def granularity(self) -> Granularity:
        """The coarsest granularity of the known endpoints (YEAR when none is known)."""
        known = [p.granularity for p in (self.start, self.end) if p is not None]
        return min(known) if known else Granularity.YEAR

    @property
    def is_point(self) -> bool:
        """True for a point fact (``start == end``)."""
        return self.start is not None and self.start == self.end

    def is_reversed(self, granularity: Granularity | None = None) -> bool:
        """True when both ends are known and the start lies after the end at ``granularity``."""
        if self.start is None or self.end is None:
            return False
        g = granularity or min(self.start.granularity, self.end.granularity)
        return self.start.lo(g) > self.end.hi(g)

    def bounds(self, granularity: Granularity, *, as_of: TimePoint | None = None) -> tuple[int | None, int | None]:
        """Inclusive unit bounds at ``granularity``; ``None`` for an unknown start / unbounded end."""
        lo = None if self.start is None else self.start.lo(granularity)
        if self.end is not None:
            hi: int | None = self.end.hi(granularity)
        elif as_of is not None:
            hi = as_of.hi(granularity)
        else:
            hi = None
        return lo, hi

    def __str__(self) -> str:
        s = "?" if self.start is None else str(self.start)
        e = "open" if self.end is None else str(self.end)
        return s if self.is_point else f"[{s}, {e}]"


def valid_at(
    interval: Interval,
    t: TimePoint,
    granularity: Granularity | None = None,
    *,
    as_of: TimePoint | None = None,
    mode: ValidityMode = "possible",
) -> bool:
    """TempBench's ``t_start <= t_query <= t_end``, at ``granularity`` (default: ``t``'s own).

    See the module docstring for what ``"possible"`` and ``"certain"`` mean and how unknown starts
    and open ends are read. A reversed interval is valid nowhere.
    """
    g = t.granularity if granularity is None else granularity
    t_lo, t_hi = t.lo(g), t.hi(g)
    if interval.is_reversed(g):
        return False
    start, end = interval.start, interval.end
    if end is None and as_of is not None:
        end_lo: int | None = as_of.lo(g)
        end_hi: int | None = as_of.hi(g)
    elif end is None:
        end_lo = end_hi = None
    else:
        end_lo, end_hi = end.lo(g), end.hi(g)
    if mode == "possible":
        if start is not None and start.lo(g) > t_hi:
            return False
        return end_hi is None or t_lo <= end_hi
    if mode == "certain":
        if start is None or start.hi(g) > t_lo:
            return False
        return end_lo is None or t_hi <= end_lo
    raise ValueError(f"Unknown validity mode {mode!r}: expected 'possible' or 'certain'")


class Allen(StrEnum):
    """The 13 Allen interval relations, named as TDBench names them (``a R b``)."""

    BEFORE = "before"
    AFTER = "after"
    MEETS = "meets"
    MET_BY = "met-by"
    OVERLAPS = "overlaps"
    OVERLAPPED_BY = "overlapped-by"
    STARTS = "starts"
    STARTED_BY = "started-by"
    DURING = "during"
    CONTAINS = "contains"
    FINISHES = "finishes"
    FINISHED_BY = "finished-by"
    EQUALS = "equals"

    @property
    def converse(self) -> Allen:
        """The relation that holds with the arguments swapped."""
        return _CONVERSE[self]

    @classmethod
    def parse(cls, name: str) -> Allen:
        """Read a relation name (``met-by``, ``met_by``, ``MET BY`` all work)."""
        key = re.sub(r"[\s_]+", "-", name.strip().lower())
        for rel in cls:
            if rel.value == key:
                return rel
        raise ValueError(f"Unknown Allen relation {name!r}: expected one of {', '.join(r.value for r in cls)}")

    def __str__(self) -> str:
        return self.value


_CONVERSE = {
    Allen.BEFORE: Allen.AFTER,
    Allen.AFTER: Allen.BEFORE,
    Allen.MEETS: Allen.MET_BY,
    Allen.MET_BY: Allen.MEETS,
    Allen.OVERLAPS: Allen.OVERLAPPED_BY,
    Allen.OVERLAPPED_BY: Allen.OVERLAPS,
    Allen.STARTS: Allen.STARTED_BY,
    Allen.STARTED_BY: Allen.STARTS,
    Allen.DURING: Allen.CONTAINS,
    Allen.CONTAINS: Allen.DURING,
    Allen.FINISHES: Allen.FINISHED_BY,
    Allen.FINISHED_BY: Allen.FINISHES,
    Allen.EQUALS: Allen.EQUALS,
}


def allen_of_spans(a: tuple[int, int], b: tuple[int, int]) -> Allen:
    """Allen relation of closed unit spans ``a = [a0, a1]`` and ``b = [b0, b1]`` (``a R b``).

    Spans are read as half-open ``[x0, x1 + 1)``, so every span with ``x0 <= x1`` is proper.
    """
    a0, a1 = a
    b0, b1 = b
    if a0 > a1 or b0 > b1:
        raise ValueError(f"reversed span in allen_of_spans({a}, {b}): expected start <= end")
    a1 += 1
    b1 += 1
    if a1 < b0:
        return Allen.BEFORE
    if b1 < a0:
        return Allen.AFTER
    if a1 == b0:
        return Allen.MEETS
    if b1 == a0:
        return Allen.MET_BY
    if a0 == b0:
        if a1 == b1:
            return Allen.EQUALS
        return Allen.STARTS if a1 < b1 else Allen.STARTED_BY
    if a1 == b1:
        return Allen.FINISHES if a0 > b0 else Allen.FINISHED_BY
    if a0 < b0:
        return Allen.OVERLAPS if a1 < b1 else Allen.CONTAINS
    return Allen.DURING if a1 < b1 else Allen.OVERLAPPED_BY


def relate(a: Interval, b: Interval, granularity: Granularity, *, as_of: TimePoint | None = None) -> Allen:
    """Allen relation ``a R b`` at ``granularity``; open ends are closed at ``as_of``.

    Raises :class:`ValueError` when an endpoint is unknown (an unknown start, or an open end with no
    ``as_of``) or an interval is reversed: the relation is then not defined.
    """
    spans = []
    for name, iv in (("first", a), ("second", b)):
        lo, hi = iv.bounds(granularity, as_of=as_of)
        if lo is None or hi is None:
            raise ValueError(f"the {name} interval {iv} has an unknown endpoint; give as_of for open ends")
        if lo > hi:
            raise ValueError(f"the {name} interval {iv} is reversed (start after end)")
        spans.append((lo, hi))
    return allen_of_spans(spans[0], spans[1])


def point_relation(
    t: TimePoint, interval: Interval, granularity: Granularity, *, as_of: TimePoint | None = None
) -> Allen:
    """Relation of a time point to an interval at ``granularity``.

    A point at ``granularity`` is one unit, so the answer is one of ``before``, ``starts``,
    ``during``, ``finishes``, ``after``, ``meets``/``met-by`` (just outside) or ``equals`` (a
    one-unit interval); a point coarser than ``granularity`` is its span and any relation can hold.
    """
    return relate(Interval(t, t), interval, granularity, as_of=as_of)
