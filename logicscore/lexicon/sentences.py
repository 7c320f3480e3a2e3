"""Sentence splitting: abbreviations written with a full stop that does not end a sentence."""

from __future__ import annotations

from ._sets import subset, words
from .dates import MONTH_ABBREVIATIONS
from .names import COURTESY_TITLES, GENERATIONS, OFFICE_TITLES

ABBREVIATIONS = (
    subset(COURTESY_TITLES, "mr mrs ms dr rev prof") | subset(OFFICE_TITLES, "st")
    | subset(GENERATIONS, "jr sr")
    | subset(frozenset(MONTH_ABBREVIATIONS), "jan feb aug sept oct nov dec")
    | words("vs inc ltd co no gen lt col capt mt ft u.s u.k approx ca c vol op fr bros lit"))
