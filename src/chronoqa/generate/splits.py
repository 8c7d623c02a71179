"""Deterministic, stratified, group-aware train/dev/test splits (shared by the KG and table builders).

:func:`assign_splits` puts every item in one split so that

* items sharing a *group* key always land in the same split (no leakage of an anchor + relation
  path + ``t_query`` across splits);
* within each *stratum* (e.g. complexity, or complexity × operator) the split sizes follow the
  ratios as closely as whole groups allow;
* the result depends only on the items' keys, the ratios and the seed (never on set iteration order
  or the global RNG).

Algorithm: per stratum, the groups are shuffled with ``random.Random(seed)`` (after sorting them by
their ``repr`` so the input order of equal keys does not matter) and assigned greedily to the split
whose current share lies furthest below its target. A group whose items fall in several strata is
assigned in the stratum of its first item (groups are atomic; strata are best effort).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

__all__ = ["assign_splits"]

T = TypeVar("T")


def assign_splits(
    items: Sequence[T],
    *,
    strata: Callable[[T], Hashable],
    group: Callable[[T], Hashable],
    seed: int,
    ratios: tuple[float, float, float] = (0.7, 0.1, 0.2),
    names: tuple[str, str, str] = ("train", "dev", "test"),
) -> list[str]:
    """Split names for ``items`` (same order), stratified by ``strata`` and never splitting a ``group``.

    Args:
        items: The things to split (questions, rows...).
        strata: Key whose distribution each split should mirror (e.g. the complexity label).
        group: Key of items that must share a split (e.g. anchor + relation path + t_query).
        seed: Seed of the shuffle; same items, keys, ratios and seed give the same answer.
        ratios: Target shares of the splits; non-negative, summing to a positive number
            (normalised).
        names: The split names, in the order of ``ratios``.

    Returns:
        One split name per item.

    Raises:
        ValueError: On bad ratios or names.

    """
    if len(ratios) != len(names):
        raise ValueError(f"ratios {ratios} and names {names} must have the same length")
    if any(r < 0 for r in ratios) or sum(ratios) <= 0:
        raise ValueError(f"ratios {ratios} must be non-negative and sum to more than 0")
    if len(set(names)) != len(names):
        raise ValueError(f"split names {names} must be distinct")
    total = float(sum(ratios))
    targets = [r / total for r in ratios]

    # group key -> (stratum of its first item, item count); stratum -> list of groups
    group_stratum: dict[Hashable, Hashable] = {}
    group_size: dict[Hashable, int] = {}
    keys: list[Hashable] = []
    for item in items:
        g = group(item)
        keys.append(g)
        if g not in group_stratum:
            group_stratum[g] = strata(item)
            group_size[g] = 0
        group_size[g] += 1
    by_stratum: dict[Hashable, list[Hashable]] = {}
    for g, s in group_stratum.items():
        by_stratum.setdefault(s, []).append(g)

    rng = random.Random(seed)
    assigned: dict[Hashable, str] = {}
    for s in sorted(by_stratum, key=repr):
        groups = sorted(by_stratum[s], key=repr)
        rng.shuffle(groups)
        counts = [0] * len(names)
        done = 0
        for g in groups:
            size = group_size[g]
            after = done + size
            # the split furthest below its target share once this group is added
            best = max(range(len(names)), key=lambda i: (targets[i] * after - counts[i], -i))
            counts[best] += size
            done = after
            assigned[g] = names[best]
    return [assigned[k] for k in keys]
