"""Calendar words: months and weekdays, as dates and date-like NER spans write them."""

from __future__ import annotations

# Month names in calendar order.
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december")
# Abbreviated months ("Sept. 5, 1990"); "may" needs none.
MONTH_ABBREVIATIONS = ("jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
                       "nov", "dec")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Any written month, full names first.
MONTH_WORDS = MONTHS + MONTH_ABBREVIATIONS
# A capitalised NER date starting with one of these is a date, not a band ("Maroon 5").
CALENDAR_WORDS = frozenset(MONTHS + WEEKDAYS)
# A month as a regex over cased text: "January", "Jan", "Jan.", "Sept.".
MONTH_PATTERN = "(?:%s)" % "|".join(
    [m.capitalize() for m in MONTHS] + [a.capitalize() + r"\.?" for a in MONTH_ABBREVIATIONS])
