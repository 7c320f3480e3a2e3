"""Invented proper names from syllable tables, so world knowledge cannot help.

Names are capitalised so spaCy tags them PROPN; persons are "Firstname Lastname". Within one
case no two names share a token or look alike (rapidfuzz), so an entity matcher that merges
similar mentions cannot merge two different entities by accident.
"""

from __future__ import annotations

import random

from rapidfuzz import fuzz

_FIRST_A = ("Ca", "Da", "Ela", "Fa", "Ga", "Ha", "Ilo", "Jo", "Ka", "La", "Ma", "Na", "Ora",
            "Pe", "Ra", "Sa", "Ta", "Va", "Ya", "Ze", "Bri", "Cor", "Del", "Mi", "Ro", "Ti")
_FIRST_B = ("rin", "lia", "ren", "mon", "lo", "vin", "ra", "na", "den", "lys", "ric", "mir")
_LAST_A = ("Ash", "Bel", "Cal", "Dor", "Fen", "Gar", "Hol", "Kes", "Lom", "Mar", "Nor", "Ost",
           "Pell", "Quin", "Rav", "Sel", "Tor", "Var", "Wen", "Yor", "Brak", "Dunn", "Falk")
_LAST_B = ("brook", "dez", "vane", "ick", "sen", "mont", "ard", "ley", "holt", "ward", "ling",
           "stad", "orne", "ett")
_PLACE_A = ("Vel", "Or", "Tar", "Kas", "Mel", "Dun", "Zan", "Bel", "Sor", "Lin", "Quen", "Ard",
            "Thal", "Esk", "Mor", "Pral", "Cyr", "Hesk", "Ulm", "Nav")
_CITY_B = ("mora", "vik", "dria", "port", "heim", "ova", "ith", "enza", "ossa", "ara", "ingen",
           "avel", "burg", "ines")
_COUNTRY_B = ("ania", "ovia", "istan", "mark", "eria", "esia", "onia", "una")
_WORK_A = ("Sel", "Ka", "Mor", "Ve", "Tas", "Il", "Or", "Quo", "Zy", "Ny", "Ae", "Lu", "Ser",
           "Fae", "Gil", "Hy")
_WORK_B = ("va", "ri", "lo", "ne", "ta", "ma", "sa", "do")
_WORK_C = ("rine", "dor", "sis", "mar", "len", "quin", "vel", "thas", "mira", "wyn")
_SUFFIX = {"company": ("Dynamics", "Industries", "Holdings", "Works", "Systems", "Labs"),
           "club": ("United", "Rovers", "Athletic", "Wanderers", "Albion"),
           "band": ("Collective", "Ensemble", "Quartet", "Choir", "Orchestra")}


def _word(rng: random.Random, *tables: tuple[str, ...]) -> str:
    return "".join(rng.choice(t) for t in tables).capitalize()


def _raw(rng: random.Random, etype: str) -> tuple[str, str, str]:
    """(full name, first, last) for a fresh entity of `etype`; first/last only for persons."""
    if etype == "person":
        first = _word(rng, _FIRST_A, _FIRST_B)
        last = _word(rng, _LAST_A, _LAST_B)
        return f"{first} {last}", first, last
    if etype == "city":
        return _word(rng, _PLACE_A, _CITY_B), "", ""
    if etype == "country":
        return _word(rng, _PLACE_A, _COUNTRY_B), "", ""
    if etype in ("film", "novel"):
        name = _word(rng, _WORK_A, _WORK_B, _WORK_C)
        if rng.random() < 0.3:
            name += " " + _word(rng, _WORK_A, _WORK_C)
        return name, "", ""
    return f"{_word(rng, _PLACE_A, _WORK_B, _WORK_C)} {rng.choice(_SUFFIX[etype])}", "", ""


class NameBook:
    """Hands out names for one case, keeping them mutually distinct."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.names: list[str] = []
        self.tokens: list[str] = []

    def new(self, etype: str) -> tuple[str, str, str]:
        for _ in range(200):
            full, first, last = _raw(self.rng, etype)
            if self._ok(full):
                self.names.append(full)
                self.tokens.extend(t.lower() for t in full.split())
                return full, first, last
        raise RuntimeError("name tables exhausted")  # pragma: no cover - 200 draws never fail

    def _ok(self, full: str) -> bool:
        toks = [t.lower() for t in full.split()]
        if len(set(toks)) != len(toks):
            return False
        for tok in toks:
            # No shared token and no look-alike token: surnames alone must stay unique, and
            # the greedy baseline's lower-case substring match must not hit a neighbour.
            for seen in self.tokens:
                if tok in seen or seen in tok or fuzz.ratio(tok, seen) >= 70:
                    return False
        return all(fuzz.ratio(full.lower(), n.lower()) < 70 for n in self.names)
