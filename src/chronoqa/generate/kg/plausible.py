"""Implausible dates, detected from the data itself (no hand lists of bad years).

A fact is *implausible* for one of these reasons (checked in this order; the first that applies is
recorded):

* ``event_over_years``: an event relation with a start and an end in different years (an award or a
  birth read as valid over a multi-year span).
* ``open_end_too_long``: under the ``ongoing`` open-end reading, a state with a start and no end that
  would still hold at ``as_of`` after more than its relation's plausible duration (phrase-table field
  ``max_years``, else the table's ``default_max_years``): Wikidata12k's "position held since AD 25".
* ``before_birth`` / ``after_death``: the fact starts before the birth year or after the death year of
  one of its entities, where the graph dates them (relations with ``role = "birth"`` / ``"death"``).
* ``century_outlier``: a date of the fact lies more than :data:`CENTURY_GAP` years from the median year
  of the *other* facts of each of its entities that has at least three other dated facts ("In 427, who
  owned Green Bay Packers?"); an entity with a long history (Rome) keeps its old facts, because the
  other endpoint's facts date them. An entity with only one or two other dated facts gives a verdict only
  on a year before :data:`EARLY` (AD 1-999) that lies more than :data:`CENTURY_GAP` years from all of them;
  where no other fact dates either entity, such an early year is judged against the median year of the
  relation's facts (YAGO11k's "Sho Sakurai created Believe" in AD 100).

Implausible facts are never gold, anchors, references or negatives; they still count against answer
uniqueness (conservative), stay in the corpus, and are counted by reason and listed in the manifest.
Facts already valid nowhere (reversed, non-year dates) are not re-examined.

The rules run as SQL (:data:`chronoqa.generate.kg.sql.plausible.PLAUSIBLE_STEPS`, on DuckDB or Spark):
:func:`chronoqa.generate.kg.sql.plausible.implausible_by_sql` gives the reason of each implausible fact.
"""

from __future__ import annotations

__all__ = ["CENTURY_GAP", "EARLY", "REASONS"]

CENTURY_GAP = 300
EARLY = 1000  # years before this are judged against one or two other facts too
REASONS = ("event_over_years", "open_end_too_long", "before_birth", "after_death", "century_outlier")
