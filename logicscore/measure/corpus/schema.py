"""The fictional world's schema: entity types and relation families with their surface forms.

Every template yields exactly one proposition (one clause), so the number of propositions a
long answer contains is the number of links rendered: that is what makes the gold
conciseness exact. `{S}`/`{O}` are the relation's subject and object, `{NS}` the subject's
type noun.
"""

from __future__ import annotations

from dataclasses import dataclass

TYPES = ("person", "city", "country", "film", "novel", "company", "club", "band")
# Descriptor noun per type ("the film X"); persons are never described this way.
NOUN = {"city": "city", "country": "country", "film": "film", "novel": "novel",
        "company": "company", "club": "club", "band": "band"}

Forms = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Rel:
    name: str
    s: tuple[str, ...]        # subject types
    o: tuple[str, ...]        # object types
    key: str                  # functional side: "s" one object per subject, "o" one subject
                              # per object, "so" both, "" none
    family: str               # relations of one family never fork off each other
    canon: str                # canonical proposition text (gold chain)
    pred_s: Forms             # predicates with S as grammatical subject: "directed {O}"
    pred_o: Forms             # predicates with O as grammatical subject: "was directed by {S}"
    whole: Forms              # full sentences led by a description: "The director of {O} is {S}"
    np_s: Forms               # appositive / participial NPs about S: "the director of {O}"
    np_o: Forms               # ... about O: "a film directed by {S}"
    hedge: tuple[str, ...]    # hedged full sentences
    neg: str                  # negated full sentence
    q_s: str                  # question description of S given O: "the director of {O}"
    q_o: str                  # ... of O given S: "the film directed by {S}"
    wh_s: str                 # question asking for S
    wh_o: str                 # question asking for O
    role: str = "person"      # what a person subject of this relation is called


RELATIONS: tuple[Rel, ...] = (
    Rel("born_in", ("person",), ("city",), "s", "born", "{S} was born in {O}",
        (("prep", "was born in {O}"), ("copula", "is a native of {O}")),
        (("copula", "is the birthplace of {S}"),),
        (("copula_rev", "The birthplace of {S} is {O}"), ("possessive", "{S}'s birthplace is {O}")),
        (("participial", "born in {O}"), ("appos", "a native of {O}")),
        (("appos", "the birthplace of {S}"),),
        ("{S} was reportedly born in {O}", "{S} may have been born in {O}"),
        "{S} was not born in {O}", "the {NS} born in {O}", "the city where {S} was born",
        "Who was born in {O}?", "Where was {S} born?"),
    Rel("directed", ("person",), ("film",), "o", "direct", "{S} directed {O}",
        (("active", "directed {O}"), ("copula", "is the director of {O}")),
        (("passive", "was directed by {S}"),),
        (("copula_rev", "The director of {O} is {S}"), ("possessive", "{O}'s director is {S}")),
        (("appos", "the director of {O}"),),
        (("participial", "a film directed by {S}"),),
        ("{S} reportedly directed {O}", "{S} may have directed {O}"),
        "{S} did not direct {O}", "the director of {O}", "the film directed by {S}",
        "Who directed {O}?", "Which film did {S} direct?", "director"),
    Rel("starred_in", ("person",), ("film",), "", "star", "{S} starred in {O}",
        (("prep", "starred in {O}"), ("prep", "appeared in {O}")),
        (("active", "starred {S}"), ("active", "featured {S}")),
        (("possessive", "{O}'s star is {S}"),),
        (("appos", "the star of {O}"),),
        (("participial", "a film starring {S}"),),
        ("{S} reportedly starred in {O}", "{S} may have starred in {O}"),
        "{S} did not star in {O}", "the actor who starred in {O}", "the film that starred {S}",
        "Who starred in {O}?", "Which film starred {S}?", "actor"),
    Rel("wrote", ("person",), ("novel",), "o", "write", "{S} wrote {O}",
        (("active", "wrote {O}"), ("copula", "is the author of {O}")),
        (("passive", "was written by {S}"),),
        (("copula_rev", "The author of {O} is {S}"), ("possessive", "{O}'s author is {S}")),
        (("appos", "the author of {O}"),),
        (("participial", "a novel written by {S}"),),
        ("{S} reportedly wrote {O}", "{S} may have written {O}"),
        "{S} did not write {O}", "the author of {O}", "the novel written by {S}",
        "Who wrote {O}?", "Which novel did {S} write?", "author"),
    Rel("married_to", ("person",), ("person",), "so", "marry", "{S} is married to {O}",
        (("copula", "is married to {O}"), ("active", "married {O}")),
        (("copula", "is the spouse of {S}"),),
        (("copula_rev", "The spouse of {S} is {O}"), ("possessive", "{S}'s spouse is {O}")),
        (("appos", "the spouse of {O}"),),
        (("appos", "the spouse of {S}"),),
        ("{S} is reportedly married to {O}", "{S} may have married {O}"),
        "{S} is not married to {O}", "the person married to {O}", "the spouse of {S}",
        "Who is married to {O}?", "Who is the spouse of {S}?"),
    Rel("founded", ("person",), ("company",), "", "found", "{S} founded {O}",
        (("active", "founded {O}"), ("copula", "is the founder of {O}")),
        (("passive", "was founded by {S}"),),
        (("copula_rev", "The founder of {O} is {S}"), ("possessive", "{O}'s founder is {S}")),
        (("appos", "the founder of {O}"),),
        (("participial", "a company founded by {S}"),),
        ("{S} reportedly founded {O}", "{S} may have founded {O}"),
        "{S} did not found {O}", "the founder of {O}", "the company founded by {S}",
        "Who founded {O}?", "Which company did {S} found?", "founder"),
    Rel("located_in", ("city",), ("country",), "s", "geo", "{S} is located in {O}",
        (("prep", "is located in {O}"), ("prep", "lies in {O}")),
        (("active", "contains {S}"),),
        (),
        (("participial", "located in {O}"), ("appos", "a city in {O}")),
        (),
        ("{S} is reportedly located in {O}",),
        "{S} is not located in {O}", "the city located in {O}",
        "the country where {S} is located",
        "Which city is located in {O}?", "In which country is {S} located?"),
    Rel("capital_of", ("city",), ("country",), "so", "geo", "{S} is the capital of {O}",
        (("copula", "is the capital of {O}"),),
        (),
        (("copula_rev", "The capital of {O} is {S}"), ("possessive", "{O}'s capital is {S}")),
        (("appos", "the capital of {O}"),),
        (),
        ("{S} is reportedly the capital of {O}",),
        "{S} is not the capital of {O}", "the capital of {O}",
        "the country whose capital is {S}",
        "What is the capital of {O}?", "Which country has {S} as its capital?"),
    Rel("member_of", ("person",), ("band",), "", "member", "{S} is a member of {O}",
        (("copula", "is a member of {O}"), ("active", "joined {O}")),
        (("active", "includes {S}"),),
        (),
        (("appos", "a member of {O}"),),
        (),
        ("{S} is reportedly a member of {O}", "{S} may have joined {O}"),
        "{S} is not a member of {O}", "the musician who joined {O}", "the band that {S} joined",
        "Who joined {O}?", "Which band did {S} join?", "musician"),
    Rel("plays_for", ("person",), ("club",), "s", "play", "{S} plays for {O}",
        (("prep", "plays for {O}"), ("copula", "is a striker for {O}")),
        (),
        (("possessive", "{S}'s club is {O}"),),
        (("appos", "a striker for {O}"),),
        (),
        ("{S} reportedly plays for {O}",),
        "{S} does not play for {O}", "the player who plays for {O}",
        "the club that {S} plays for",
        "Who plays for {O}?", "Which club does {S} play for?", "player"),
    Rel("employed_by", ("person",), ("company",), "", "employ", "{S} works for {O}",
        (("prep", "works for {O}"), ("passive", "is employed by {O}")),
        (("active", "employs {S}"),),
        (("possessive", "{S}'s employer is {O}"),),
        (("appos", "an employee of {O}"),),
        (("appos", "the employer of {S}"),),
        ("{S} reportedly works for {O}",),
        "{S} does not work for {O}", "the person who works for {O}",
        "the company that employs {S}",
        "Who works for {O}?", "Which company employs {S}?", "employee"),
    Rel("based_in", ("company", "club", "band"), ("city",), "s", "base", "{S} is based in {O}",
        (("prep", "is based in {O}"), ("passive", "is headquartered in {O}")),
        (("copula", "is the home of {S}"),),
        (),
        (("participial", "based in {O}"),),
        (("appos", "the home of {S}"),),
        ("{S} is reportedly based in {O}",),
        "{S} is not based in {O}", "the {NS} based in {O}", "the city where {S} is based",
        "Which {NS} is based in {O}?", "Where is {S} based?"),
    Rel("adapted_from", ("film",), ("novel",), "s", "adapt", "{S} was adapted from {O}",
        (("passive", "was adapted from {O}"), ("copula", "is an adaptation of {O}")),
        (("passive", "was adapted into {S}"),),
        (),
        (("appos", "an adaptation of {O}"), ("participial", "adapted from {O}")),
        (),
        ("{S} was reportedly adapted from {O}",),
        "{S} was not adapted from {O}", "the film adapted from {O}",
        "the novel that {S} was adapted from",
        "Which film was adapted from {O}?", "Which novel was {S} adapted from?"),
)

BY_NAME = {r.name: r for r in RELATIONS}


def incident(etype: str) -> list[tuple[Rel, str]]:
    """Relations an entity of `etype` can take part in, with its side ("s" or "o")."""
    out = []
    for rel in RELATIONS:
        if etype in rel.s:
            out.append((rel, "s"))
        if etype in rel.o:
            out.append((rel, "o"))
    return out


def other_types(rel: Rel, side: str) -> tuple[str, ...]:
    """Types the other end of `rel` may have when one end is on `side`."""
    return rel.o if side == "s" else rel.s
