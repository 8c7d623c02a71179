"""Deterministic tables of three domains chronoqa has no declarations or phrase file for.

Each generator returns ``(header, rows)`` with ISO dates; the rows are made up (seeded names, no real data):

* hospital stays: one row per stay (patient, doctor, condition, hospital, admission, discharge), day level;
  a doctor works at one hospital, a patient's stays never overlap and are days to weeks long;
* employment contracts: one row per contract (employee, employer, position, contract start and end), day level,
  a contract often beginning the day after the previous one ended;
* party memberships: one row per membership (member, party, branch, joined, left), month level, the latest
  membership of some members still open.
"""

from __future__ import annotations

import csv
import datetime
import random
from pathlib import Path

FIRST = ("Ada", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kira", "Liam")
LAST = ("Abara", "Brandt", "Costa", "Dalby", "Eriksen", "Fujita", "Garnier", "Haas", "Ivanova", "Jensen", "Kowal")


def _names(rng: random.Random, n: int, taken: set[str]) -> list[str]:
    out = []
    while len(out) < n:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if name not in taken:
            taken.add(name)
            out.append(name)
    return out


def _day(d: datetime.date) -> str:
    return d.isoformat()


#: Every table ends before this day (its latest date is the build's default ``as_of``).
LAST_DAY = datetime.date(2024, 6, 30)


def hospital_stays(seed: int = 0, patients: int = 60) -> tuple[list[str], list[list[str]]]:
    """Stays of ``patients`` patients, 4 to 7 each, each with a doctor (of one hospital) and a condition."""
    rng = random.Random(f"stays:{seed}")
    taken: set[str] = set()
    hospitals = ["St. Agnes Hospital", "Riverside Clinic", "North Valley Hospital"]
    doctors = {d: hospitals[i % 3] for i, d in enumerate(_names(rng, 6, taken))}
    conditions = ["pneumonia", "a hip fracture", "appendicitis", "asthma", "diabetes", "a concussion"]
    rows = []
    for patient in _names(rng, patients, taken):
        day = datetime.date(2015, 1, 1) + datetime.timedelta(days=rng.randint(0, 900))
        for _ in range(rng.randint(4, 7)):
            doctor = rng.choice(sorted(doctors))
            end = day + datetime.timedelta(days=rng.randint(1, 40))
            if end > LAST_DAY:
                break
            rows.append([patient, doctor, rng.choice(conditions), doctors[doctor], _day(day), _day(end)])
            day = end + datetime.timedelta(days=rng.randint(20, 500))
    return ["Patient", "Doctor", "Condition", "Hospital", "Admission", "Discharge"], rows


def employment_contracts(seed: int = 0, employees: int = 40) -> tuple[list[str], list[list[str]]]:
    """Contracts of ``employees`` people, 3 to 6 each, a new one often starting the day after the last ended."""
    rng = random.Random(f"contracts:{seed}")
    taken: set[str] = set()
    employers = ["Halden Foods", "Orbis Logistics", "Kestrel Software", "Marlow Insurance", "Tamsin Labs"]
    positions = ["analyst", "engineer", "team lead", "consultant", "accountant"]
    rows = []
    for person in _names(rng, employees, taken):
        day = datetime.date(2005, 1, 1) + datetime.timedelta(days=rng.randint(0, 2000))
        last = None
        for _ in range(rng.randint(3, 6)):
            employer = rng.choice([e for e in employers if e != last])
            end = day + datetime.timedelta(days=rng.randint(200, 1800))
            if end > LAST_DAY:
                break
            rows.append([person, employer, rng.choice(positions), _day(day), _day(end)])
            last = employer
            day = end + datetime.timedelta(days=1 if rng.random() < 0.5 else rng.randint(2, 300))
    return ["Employee", "Employer", "Position", "Contract_start", "Contract_end"], rows


def party_memberships(
    seed: int = 0, members: int = 40, *, rows_each: tuple[int, int] = (3, 6), still: float = 0.4
) -> tuple[list[str], list[list[str]]]:
    """Memberships of ``members`` people, ``rows_each`` each, month level; a member's latest is open (still a
    member) with probability ``still``. Few rows each and most still open make a status table (the party a state).
    """
    rng = random.Random(f"memberships:{seed}")
    taken: set[str] = set()
    parties = ["Green Alliance", "Civic Union", "Labour Forum", "Liberty Party", "Rural League", "Unity Movement"]
    branches = ["Northfield", "Eastbrook", "Westmere", "Southport"]
    rows = []
    for person in _names(rng, members, taken):
        month = 1985 * 12 + rng.randint(0, 180)
        last = None
        count = rng.randint(*rows_each)
        for i in range(count):
            party = rng.choice([p for p in parties if p != last])
            end = month + rng.randint(6, 80)
            if end > LAST_DAY.year * 12 + LAST_DAY.month - 1:
                break
            held = i == count - 1 and rng.random() < still
            left = "" if held else f"{end // 12:04d}-{end % 12 + 1:02d}"
            rows.append([person, party, rng.choice(branches), f"{month // 12:04d}-{month % 12 + 1:02d}", left])
            last = party
            month = end + rng.randint(2, 30)
    return ["Member", "Party", "Branch", "Joined", "Left"], rows


DOMAINS = {
    "hospital_stays": hospital_stays,
    "employment_contracts": employment_contracts,
    "party_memberships": party_memberships,
}


def write_domain(name: str, folder: Path, seed: int = 0) -> Path:
    """Write the table of domain ``name`` as ``folder/name.csv``; returns its path."""
    header, rows = DOMAINS[name](seed)
    path = folder / f"{name}.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    return path
