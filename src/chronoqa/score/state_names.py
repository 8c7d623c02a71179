"""States' names in other languages: one table, read two ways.

:data:`STATE_NAMES` gives each state (past and present) by its names in other languages and scripts, keyed by the
English label the data gives it: a translation no letter table makes ("Российская империя", "Königreich Preußen").
Names in Cyrillic or Greek letters are read by their Latin spelling (:func:`chronoqa.score.translit.state_exonym`);
names in Latin letters (German, Polish, French, Spanish, Italian, Hungarian) by their words in order
(``chronoqa.score.answers``). Only names that are one state's: no "Prusy" (the kingdom or the free state), no
"Deutsches Reich" (the empire, Weimar or Nazi Germany), no "Królestwo Polskie" (the medieval kingdom or Congress
Poland).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

STATE_NAMES: Final[Mapping[str, tuple[str, ...]]] = {
    "Russian Empire": (
        "Российская империя",
        "Російська імперія",
        "Ρωσική Αυτοκρατορία",
        "Russisches Kaiserreich",
        "Imperium Rosyjskie",
        "Cesarstwo Rosyjskie",
        "Empire russe",
        "Imperio ruso",
        "Impero russo",
    ),
    "Soviet Union": (
        "СССР",
        "Советский Союз",
        "Союз Советских Социалистических Республик",
        "СРСР",
        "Радянський Союз",
        "ΕΣΣΔ",
        "Σοβιετική Ένωση",
        "Sowjetunion",
        "Związek Radziecki",
        "Związek Sowiecki",
        "ZSRR",
        "UdSSR",
        "Union soviétique",
        "Unión Soviética",
        "Unione Sovietica",
    ),
    "Russia": (
        "Россия",
        "Российская Федерация",
        "Росія",
    ),
    "Russian Soviet Federative Socialist Republic": ("РСФСР",),
    "Ukraine": (
        "Украина",
        "Україна",
        "Ουκρανία",
    ),
    "Ukrainian Soviet Socialist Republic": (
        "УССР",
        "Украинская ССР",
        "УРСР",
        "Українська РСР",
    ),
    "Byelorussian Soviet Socialist Republic": (
        "БССР",
        "Белорусская ССР",
    ),
    "Belarus": (
        "Беларусь",
        "Білорусь",
    ),
    "Moldova": (
        "Молдова",
        "Молдавия",
    ),
    "Moldavian Soviet Socialist Republic": (
        "Молдавская ССР",
        "МССР",
    ),
    "Romania": (
        "Румыния",
        "Румунія",
        "Ρουμανία",
    ),
    "Kingdom of Romania": (
        "Королевство Румыния",
        "Королівство Румунія",
    ),
    "Poland": (
        "Польша",
        "Польща",
        "Πολωνία",
    ),
    "Germany": (
        "Германия",
        "Німеччина",
        "Γερμανία",
    ),
    "German Empire": (
        "Германская империя",
        "Німецька імперія",
        "Deutsches Kaiserreich",
        "Cesarstwo Niemieckie",
        "Empire allemand",
        "Imperio alemán",
        "Impero tedesco",
    ),
    "Austria-Hungary": (
        "Австро-Венгрия",
        "Австро-Угорщина",
        "Αυστροουγγαρία",
        "Österreich-Ungarn",
        "Austro-Węgry",
        "Autriche-Hongrie",
        "Austria-Hungría",
    ),
    "Ottoman Empire": (
        "Османская империя",
        "Османська імперія",
        "Οθωμανική Αυτοκρατορία",
        "Osmanisches Reich",
        "Imperium Osmańskie",
        "Empire ottoman",
        "Imperio otomano",
        "Impero ottomano",
    ),
    "Greece": (
        "Греция",
        "Греція",
        "Ελλάδα",
        "Ελλάς",
    ),
    "Finland": (
        "Финляндия",
        "Фінляндія",
    ),
    "Grand Duchy of Finland": ("Великое княжество Финляндское",),
    "Lithuania": ("Литва",),
    "Latvia": (
        "Латвия",
        "Латвія",
    ),
    "Estonia": (
        "Эстония",
        "Естонія",
    ),
    "Georgia": (
        "Грузия",
        "Грузія",
    ),
    "Kazakhstan": ("Казахстан",),
    "Kingdom of Prussia": (
        "Königreich Preußen",
        "Königreich Preussen",
        "Królestwo Prus",
        "Królestwo Pruskie",
        "Royaume de Prusse",
        "Reino de Prusia",
        "Regno di Prussia",
    ),
    "Free State of Prussia": (
        "Freistaat Preußen",
        "Freistaat Preussen",
        "Wolne Państwo Prusy",
    ),
    "Austrian Empire": (
        "Kaisertum Österreich",
        "Cesarstwo Austriackie",
        "Empire d'Autriche",
        "Imperio austríaco",
    ),
    "Holy Roman Empire": (
        "Heiliges Römisches Reich",
        "Święte Cesarstwo Rzymskie",
        "Saint-Empire romain germanique",
        "Sacro Imperio Romano Germánico",
        "Sacro Romano Impero",
    ),
    "Kingdom of Bavaria": (
        "Königreich Bayern",
        "Królestwo Bawarii",
        "Royaume de Bavière",
    ),
    "Kingdom of Saxony": (
        "Königreich Sachsen",
        "Królestwo Saksonii",
        "Royaume de Saxe",
    ),
    "Kingdom of Hanover": (
        "Königreich Hannover",
        "Królestwo Hanoweru",
    ),
    "Kingdom of Württemberg": (
        "Königreich Württemberg",
        "Królestwo Wirtembergii",
    ),
    "Kingdom of Hungary": (
        "Königreich Ungarn",
        "Królestwo Węgier",
        "Magyar Királyság",
    ),
    "Kingdom of Italy": (
        "Königreich Italien",
        "Królestwo Włoch",
        "Regno d'Italia",
        "Royaume d'Italie",
    ),
    "Duchy of Warsaw": (
        "Księstwo Warszawskie",
        "Herzogtum Warschau",
        "Duché de Varsovie",
    ),
    "Grand Duchy of Lithuania": (
        "Wielkie Księstwo Litewskie",
        "Großfürstentum Litauen",
    ),
    "Polish–Lithuanian Commonwealth": ("Rzeczpospolita Obojga Narodów",),
    "Czechoslovakia": (
        "Tschechoslowakei",
        "Czechosłowacja",
        "Tchécoslovaquie",
        "Checoslovaquia",
        "Cecoslovacchia",
    ),
    "East Germany": (
        "Deutsche Demokratische Republik",
        "Niemiecka Republika Demokratyczna",
        "République démocratique allemande",
    ),
}
