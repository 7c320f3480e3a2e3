"""Words that constrain an answer but name nothing of their own: nationalities, languages,
numbers, ordinals and years ("American", "French", "1934", "first", "seven members")."""

from __future__ import annotations

import functools
import re

from .numbers import COUNT_WORDS, ORDINAL_WORDS

# Peoples, nationalities and faiths, as adjectives or nouns ("American", "Catholic").
DEMONYMS = frozenset("""
afghan albanian algerian american andorran angolan argentine argentinian armenian australian
austrian azerbaijani bahamian bahraini bangladeshi barbadian belarusian belgian belizean
beninese bhutanese bolivian bosnian botswanan brazilian british bruneian bulgarian burkinabe
burmese burundian cambodian cameroonian canadian chadian chilean chinese colombian congolese
croatian cuban cypriot czech danish djiboutian dominican dutch ecuadorian egyptian emirati
english eritrean estonian ethiopian fijian filipino finnish french gabonese gambian georgian
german ghanaian greek grenadian guatemalan guinean guyanese haitian honduran hungarian
icelandic indian indonesian iranian iraqi irish israeli italian ivorian jamaican japanese
jordanian kazakh kenyan korean kosovar kuwaiti kyrgyz lao latvian lebanese liberian libyan
lithuanian luxembourgish macedonian malagasy malawian malaysian maldivian malian maltese
mauritanian mauritian mexican moldovan monegasque mongolian montenegrin moroccan mozambican
namibian nepalese nepali nigerian nigerien norwegian omani pakistani palestinian panamanian
paraguayan persian peruvian polish portuguese qatari romanian russian rwandan salvadoran
samoan saudi scottish senegalese serbian sierra singaporean slovak slovakian slovenian somali
spanish sudanese surinamese swazi swedish swiss syrian taiwanese tajik tanzanian thai togolese
tongan trinidadian tunisian turkish turkmen ugandan ukrainian uruguayan uzbek venezuelan
vietnamese welsh yemeni zambian zimbabwean soviet roman prussian bavarian flemish catalan
basque kurdish tamil bengali punjabi hispanic latino african asian european arab arabic
scandinavian caribbean latin anglo irish-american african-american
jewish catholic protestant muslim christian hindu buddhist
""".split())
# Languages: a plural of one names no people ("Englishes" is not "the English").
LANGUAGES = frozenset("""
english french german spanish italian portuguese russian chinese mandarin cantonese japanese
korean arabic hindi urdu bengali punjabi tamil telugu marathi gujarati persian farsi turkish
greek latin hebrew yiddish dutch swedish norwegian danish finnish icelandic polish czech slovak
hungarian romanian bulgarian serbian croatian ukrainian vietnamese thai malay indonesian tagalog
swahili esperanto sanskrit welsh gaelic irish catalan basque galician
""".split())
GENERIC_WORDS = DEMONYMS | LANGUAGES
# The ordinals a question may name a position with ("first", "last").
QUESTION_ORDINALS = frozenset(ORDINAL_WORDS[1:]) | {"last", "final"}
_YEAR = re.compile(r"^(?:the\s+)?(?:\d{2,4}s?|'\d0s)(?:\s*(?:bc|bce|ad|ce))?$", re.I)
_NUMBER = re.compile(r"^[\d.,]+(?:\s*(?:million|billion|thousand|hundred|percent|%))?$", re.I)
# A count or measure ("25 years", "seven members") constrains the answer; it names nothing.
_QUANTITY = re.compile(
    r"^(?:[\d.,]+|" + "|".join(sorted(COUNT_WORDS))
    + r")(?:\s+(?:million|billion|thousand|hundred))?\s+[a-z]+$", re.I)
_ORDINAL = re.compile(r"^\d+(?:st|nd|rd|th)$", re.I)


# A pure function of the text, asked again of the same names by each stage (question
# reading, mention carving, references): its answers are remembered.
@functools.lru_cache(maxsize=16384)
def is_generic(name: str) -> bool:
    """True for names that constrain but do not anchor: nationalities, languages, years,
    numbers and ordinals ("American", "1934", "first")."""
    text = name.strip().strip(".,;:!?\"'").strip()
    low = text.lower()
    if not low:
        return True
    if low in GENERIC_WORDS or low in QUESTION_ORDINALS or low in COUNT_WORDS:
        return True
    if low.endswith("s") and low[:-1] in GENERIC_WORDS and low[:-1] not in LANGUAGES:
        return True  # plural demonyms: "Americans"
    if _QUANTITY.match(text) and text.split()[-1].islower():
        return True
    if _YEAR.match(low) or _NUMBER.match(low) or _ORDINAL.match(low):
        return True
    # "Mexican-American", "Serbian and Croatian", "11–1", "1932 American": generic parts.
    parts = [p for p in re.split(r"[\s\-–—/]+", text) if p and p.lower() not in ("and", "or")]
    return len(parts) > 1 and all(is_generic(p) for p in parts)

# A period of a language is a stage of that language ("Old English", "Vulgar Latin").
LANGUAGE_PERIODS = ("Old", "Middle", "Early", "Late", "Ancient", "Classical", "Medieval", "Vulgar",
                    "Modern")
