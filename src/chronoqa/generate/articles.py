"""The definite article before entity labels in question text ("born in the United States").

Entity labels are printed bare in answers and corpus documents; inside a question they get "the" when
the label names something English writes with the article. One rule for both builders (the KG builder's
entity labels, the table builder's key values: "the legal status ... in the Czech Republic", "the CEO of
the World Bank"). It is deliberately small and label-based (no model), documented in
``docs/kg-builder.md``:

* never for a label that already starts with "the", or for a Wikidata Q-id;
* a label starting with "United ", "Republic of", "Kingdom of", "University of", "Academy of",
  "Order of", "College of", "Institute of", "State of", "Commonwealth of", "World Bank", save one naming a
  person's office (a word of :data:`OFFICE_WORDS`: "United States senator", "United States Secretary of War"):
  an office title reads bare after "took office as" and "the position of", as "President of Argentina" does,
  while the country ("the United States") and a body ("the United States Senate") keep the article;
* a label containing the word "national" and ending in "team" (national football teams);
* a label whose head word is a prize, body or country-like noun: the label with a trailing
  parenthesis removed, cut before its first " in ", " for " or " of ", ends in one of
  :data:`HEAD_WORDS` ("Nobel Prize in Literature", "Timoshenko Medal", "Democratic Party (United
  States)", "Czech Republic", "Soviet Union", "International Olympic Committee", "North Atlantic Treaty
  Organization").
* a few plural country names (:data:`PLURAL_PLACES`: "Netherlands", "Philippines", ...).
"""

from __future__ import annotations

import re

__all__ = ["HEAD_WORDS", "OFFICE_WORDS", "PLURAL_PLACES", "PREFIXES", "definite", "wants_the"]

PREFIXES = (
    "United ", "Republic of", "Kingdom of", "University of", "Academy of", "Order of", "College of",
    "Institute of", "State of", "Commonwealth of", "World Bank",
)  # fmt: skip
HEAD_WORDS = frozenset(
    {
        "Prize", "Award", "Medal", "Trophy", "Cup", "Fellowship", "Lectureship", "Party", "Academy", "Society",
        "Institute", "Foundation", "Orchestra", "Army", "Navy", "Museum", "Republic", "Union", "Kingdom",
        "Emirates", "Islands", "Team", "Order", "Organization", "Organisation", "Committee", "Agency", "Council",
        "Assembly", "Parliament",
    }
)  # fmt: skip
# Words of a person's office (casefolded, whole words: "representatives" is a house, "representative" a member).
# Not "commissioner": "the United Nations High Commissioner for Refugees" names the agency as well (a prize winner).
OFFICE_WORDS = frozenset({"senator", "representative", "secretary", "ambassador", "attorney", "postmaster"})
PLURAL_PLACES = frozenset({"Netherlands", "Philippines", "Bahamas", "Gambia", "Maldives", "Comoros", "Seychelles"})
_PAREN = re.compile(r"\s*\([^()]*\)\s*$")
_CUT = re.compile(r" (?:in|for|of) ")
_QID = re.compile(r"^Q\d+$")
_WORD = re.compile(r"[\s-]+")


def wants_the(label: str) -> bool:
    """True when the label reads with "the" in running text (the rule in the module docstring)."""
    text = label.strip()
    if not text or text.lower().startswith("the ") or _QID.match(text):
        return False
    if text in PLURAL_PLACES:
        return True
    if text.startswith(PREFIXES):
        return not OFFICE_WORDS.intersection(_WORD.split(text.casefold()))
    words = text.split()
    if "national" in (w.lower() for w in words) and words[-1].lower() == "team":
        return True
    head = _CUT.split(_PAREN.sub("", text), maxsplit=1)[0].split()
    return bool(head) and head[-1] in HEAD_WORDS


def definite(label: str) -> str:
    """``label`` with "the " in front when :func:`wants_the` says so."""
    return f"the {label}" if wants_the(label) else label
