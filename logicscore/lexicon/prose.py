"""Words of a model's answer about itself: refusals, hedges, restatements of the question, and
the function words that tell which language a long answer is written in (docs/metrics.md)."""

from __future__ import annotations

import re

from ._sets import words

# A refusal: the model says it cannot answer, whatever it writes around it.
REFUSAL = re.compile(
    r"\b(?:i (?:do not|don't|don’t) know|i(?:'m| am) (?:not able|unable) to (?:answer|determine|find)"
    r"|(?:i )?(?:cannot|can't|can’t|could not|couldn't) (?:be )?(?:determine|answer|find|tell|say)\w*"
    r"|(?:the )?(?:context|passage|text|documents?|information)(?: provided| given)? "
    r"(?:does not|doesn't|doesn’t|did not) (?:say|mention|state|specify|contain|provide)"
    r"|there is no (?:information|mention|answer)|not enough information|no information (?:is )?"
    r"(?:given|provided|available))\b",
    re.I,
)
# A short answer that only refuses.
REFUSAL_ANSWER = re.compile(
    r"^\W*(?:unknown|not known|no answer|none given|none|nobody|no one|n/?a|insufficient information|"
    r"not enough information|undetermined|unclear|not (?:stated|mentioned|specified|given)|"
    r"(?:(?:it|i|we) )?(?:cannot|can ?not|can't|can’t|am unable to|are unable to) (?:be )?"
    r"(?:determined?|answered?|say|tell)|i (?:do not|don't|don’t) know)\W*$", re.I)
# A short answer that only says yes or no: to a question that asks for a thing, no answer.
YES_OR_NO = re.compile(r"^\W*(?:yes|no)\W*$", re.I)

# The commonest function words of English and of the languages models most often answer in
# instead; a long answer whose words are mostly another language's is not read as English.
ENGLISH = words("""
the of and to in is was a that for it with as by on are from at his her this which an be
has had were who not or its their also but have been he she they
""")
OTHER_LANGUAGES: dict[str, frozenset[str]] = {
    "de": words("der die das und ist war ein eine nicht mit von zu den dem des im auf für sich "
                "wurde auch als bei einer"),
    "fr": words("le la les et est était un une des du dans pour pas avec sur qui que il elle "
                "sont au aux par ce"),
    "es": words("el la los las y es fue un una del en por con para que se su no al como"),
    "it": words("il lo la gli le e è era un una del della di che per con non sono nel"),
    "pt": words("o os as e é foi um uma do da dos das em por com para que não no na"),
    "nl": words("de het een en is was van niet met op voor dat die zijn werd ook bij"),
}

# A sentence that restates the question instead of answering it: "The question asks for …",
# "We need to find …", "To answer this, first …", "I need to determine …". Its own claims are
# the question's, not the answer's; its descriptions may still be named later.
RESTATEMENT = re.compile(
    r"^\W*(?:(?:so|first|now|here|ok(?:ay)?|well|alright)\b,?\s+)?(?:"
    r"(?:the|this) question (?:is |was )?(?:ask(?:s|ing|ed)?|want(?:s|ing)|request(?:s|ing)?"
    r"|seek(?:s|ing)|inquir(?:es|ing)|concern(?:s|ing)|is about|is looking)"
    r"|(?:the|this) question is(?: asking)?:?\s+(?:who|what|which|where|when|how|whether|why)"
    r"|(?:we|i) (?:first |will |must |should )?(?:need|have|want|are asked|am asked|are trying|am trying)"
    r" to (?:first )?(?:find|determine|identify|know|figure out|work out|establish|answer)"
    r"|(?:we|i) (?:first )?(?:must|should|will|shall) (?:first )?(?:find|determine|identify|figure out|work out)"
    r"|(?:in order )?to answer (?:this|the|that)(?: question)?"
    r"|let(?:'s|’s| us) (?:first )?(?:find|determine|identify|figure out|work out|break)"
    r"|(?:we|i) (?:are|am) (?:looking for|asked (?:for|about|to))"
    r")\b",
    re.I,
)

# Every hedge pattern of the extractor holds one of these words, lowercased (a stem where
# the word varies: "possibl", "rumo"; a trailing space where it must end): a sentence holding
# none is not searched.
HEDGE_WORDS = (
    "reportedly", "allegedly", "possibl", "perhaps", "rumo", "supposedly", "purportedly",
    "presumably", "probably", "likely", "apparently", "unconfirmed", "may ", "might ", "could ",
    "unclear ", "believe", "thought", "said", "sure", "certain", "think", "guess", "suspect",
    "correctly")

# Words before a sentence that say where its claim comes from or that the writer knows it
# ("From the context, I know that …", "According to the passage, …", "Based on the information
# given, …", "We know that …", "It is stated that …"): they state nothing about the question's
# entities, so the sentence is read without them (docs/records.md).
_SOURCE = (r"(?:the |this |that |these |our )?(?:given |provided |above |available )?"
           r"(?:context|contexts|passages?|information|text|texts|documents?|evidence|facts?"
           r"|sources?|paragraphs?|articles?|excerpts?|data|above)"
           r"(?: (?:given|provided|above|available|we have|i have))?")
_KNOWING = (r"(?:i|we) (?:can |now |also )?(?:know|knows|see|learn|learned|infer|find|found|tell"
            r"|conclude|gather|recall|remember|understand|are told|am told|have learned)")
FRAME = re.compile(
    r"(?:(?:from|based on|according to|given|going by|judging by|as (?:stated|mentioned|said|given"
    r"|shown|described|noted) (?:in|by)|(?:it is|it's) (?:stated|mentioned|said|given) in"
    r"|in) " + _SOURCE + r"(?:,\s*" + _KNOWING + r"(?: that)?\b,?|\s*,)"
    r"|" + _KNOWING + r"(?: from " + _SOURCE + r")? that\b,?"
    r"|(?:it is|it's) (?:known|stated|mentioned|given|said|clear) (?:(?:in|from) " + _SOURCE
    + r" )?that\b,?"
    r")\s*",
    re.I,
)
