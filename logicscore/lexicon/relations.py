"""Relation families (docs/metrics.md): the phrases of each, which of its arguments take one
value, and the slots only a person fills."""

from __future__ import annotations

from typing import NamedTuple


class Family(NamedTuple):
    """One relation: which arguments take one value given the other, whether it is
    symmetric, the phrases that state it, and the words that still mark it in a phrase the
    list does not hold ("was the first director of"), compared by `text.crude_stem`."""

    functional: tuple[int, ...]
    symmetric: bool
    phrases: tuple[str, ...]
    words: tuple[str, ...] = ()
    # The slots that take one value when only `words` mark the relation, if not `functional`.
    words_functional: tuple[int, ...] | None = None


# A phrase prefixed with "~" has its grammatical subject in the *second* slot.
# Functional slots: 0 means "arg0 has one arg1" (a person has one birthplace); 1 means
# "arg1 has one arg0" (a film has one director). Multi-valued relations (starring,
# founding, membership, employment) list none: two values are no contradiction.
# A family without phrases is known by its words only.
FAMILIES: dict[str, Family] = {
    # born(person, place)
    "born": Family((0,), False, ("born in", "bear in", "born", "native of", "a native of",
                                 "~birthplace of", "~birth place of", "~hometown of"),
                   ("born",)),
    # died(person, place)
    "die": Family((0,), False, (), ("died",)),
    # nationality(person, country)
    "nationality": Family((0,), False, (), ("nationality",)),
    # location(thing, place): cities in countries, organisations based in cities
    "location": Family((0,), False, ("locate in", "lie in", "situate in", "city in", "town in",
                                     "base in", "headquarter in", "headquarters in", "~contain",
                                     "~home of", "~home to"),
                       ("located", "headquarters")),
    # capital(city, country)
    "capital": Family((0, 1), False, ("capital of", "~capital", "~have capital"), ("capital",)),
    # direct(person, film)
    "direct": Family((1,), False, ("direct", "director of", "~direct by", "~director"),
                     ("directed",)),
    # write(person, work)
    "write": Family((1,), False, ("write", "author of", "writer of", "pen", "~write by",
                                  "~author", "~writer", "~pen by"),
                    ("wrote", "authored")),
    # create(person, work), compose(person, work), …: one maker per work
    "create": Family((1,), False, (), ("created",)),
    "compose": Family((1,), False, (), ("composed",)),
    "produce": Family((1,), False, (), ("produced",)),
    "paint": Family((1,), False, (), ("painted",)),
    "design": Family((1,), False, (), ("designed",)),
    # married(person, person), symmetric
    "married": Family((0, 1), True, ("marry", "married to", "marry to", "wed", "spouse of",
                                     "wife of", "husband of", "~spouse", "~wife", "~husband"),
                      ("spouse",)),
    # found(person, organisation): co-founders are common, so not functional; the bare
    # founding words are still read as one founder per organisation
    "found": Family((), False, ("found", "co found", "establish", "founder of",
                                "co founder of", "~found by", "~establish by", "~founder"),
                    ("founded",), (1,)),
    # star(person, film)
    "star": Family((), False, ("star in", "appear in", "act in", "star of", "~star",
                               "~feature", "~starring", "~star by")),
    # member(person, group)
    "member": Family((), False, ("member of", "join", "belong to", "~include", "~member")),
    # play(person, club)
    "play": Family((0,), False, ("play for", "striker for", "player for", "~club of",
                                 "~club")),
    # employ(person, organisation)
    "employ": Family((), False, ("work for", "work at", "employ by", "employee of",
                                 "~employ", "~employer of", "~employer")),
    # adapt(film, source)
    "adapt": Family((0,), False, ("adapt from", "adaptation of", "base on", "~adapt into")),
}

# Slots only a person fills (selectional preference): "X was born in", "A directed",
# "the spouse of". Entity linking takes this as person evidence when NER mislabels an
# unfamiliar name (a lone surname may then join that person's full name).
PERSON_SLOTS: dict[str, tuple[int, ...]] = {
    "born": (0,), "direct": (0,), "write": (0,), "married": (0, 1), "found": (0,),
    "star": (0,), "member": (0,), "play": (0,), "employ": (0,),
}


# Relations the rules extractor writes when a sentence links two names without a verb that
# says how ("Title: … Rome …" gives "about", a path with no verb "related to"): no word of a
# document states them, so grounding asks only for the names.
PLACEHOLDER_RELATIONS = frozenset({"about", "related to"})

# Past forms of common irregular verbs → the base form a relation's lemma has, so a document
# that writes "won", "sung" or "known" states "win", "sing" or "know".
IRREGULAR_VERBS: dict[str, str] = {
    past: base for base, forms in {
        "win": "won", "sing": "sang sung", "know": "knew known", "make": "made",
        "become": "became", "begin": "began begun", "lead": "led", "hold": "held",
        "leave": "left", "take": "took taken", "give": "gave given", "build": "built",
        "sell": "sold", "teach": "taught", "fight": "fought", "bring": "brought", "meet": "met",
        "run": "ran", "speak": "spoke spoken", "draw": "drew drawn", "grow": "grew grown",
        "fly": "flew flown", "fall": "fell fallen", "rise": "rose risen", "stand": "stood",
        "tell": "told", "buy": "bought", "keep": "kept", "lose": "lost", "pay": "paid",
        "send": "sent", "choose": "chose chosen", "sit": "sat", "shoot": "shot", "drive": "drove driven",
        "ride": "rode ridden", "throw": "threw thrown", "seek": "sought", "think": "thought",
        "go": "went gone", "see": "saw seen", "come": "came", "get": "got gotten", "find": "found",
        "hear": "heard", "say": "said", "bear": "bore borne", "slay": "slew slain", "flee": "fled",
        "lie": "lay lain", "strike": "struck", "swim": "swam swum", "undertake": "undertook undertaken",
        "overthrow": "overthrew overthrown", "forsake": "forsook forsaken", "split": "split",
    }.items() for past in forms.split()
}

# The relations a question asks of one hop, and the phrases of a claim that state them
# (docs/questions-and-answers.md, "Asked hops"). Compared as stems, so "founded", "founder"
# and "co-founded" are one family; a claim whose relation no family lists says nothing either
# way. Kin hops are read apart, as steps (`kin`).
HOP_FAMILIES: dict[str, tuple[str, ...]] = {
    "birth": ("born", "bear in", "birthplace", "birth place", "place of birth", "native of", "hometown"),
    "death": ("died", "die", "death", "place of death", "buried", "burial"),
    "spouse": ("married", "marry", "spouse", "wife", "husband", "wed"),
    "direct": ("directed", "director"),
    "found": ("founded", "founder", "co founded", "co founder", "established", "founding"),
    "acquire": ("acquired", "acquisition", "bought", "buy", "purchased", "took over", "take over",
                "takeover"),
    "merge": ("merged", "merge", "merger", "amalgamated", "amalgamation"),
    "part": ("part of", "subsidiary of", "division of", "parent company", "owned by", "owner of",
             "owns", "own", "owned", "member of"),
    "employ": ("employer", "employed", "works for", "worked for", "works at", "worked at",
               "employee"),
    "study": ("studied", "study", "educated", "attended", "alma mater", "graduated", "alumnus", "alumni"),
    "locate": ("located", "headquartered", "headquarters", "based in", "situated", "lies in"),
    "write": ("wrote", "written", "author", "writer", "penned"),
    "compose": ("composed", "composer"),
    "produce": ("produced", "producer"),
    "perform": ("performed", "performer", "sang", "sing", "singer", "recorded"),
    "publish": ("published", "publisher"),
}
# Role nouns: in a question they ask a hop only as "the N of X" or "X's N"; elsewhere they
# describe the thing asked for ("Which bass singer married …?").
ROLE_NOUNS: tuple[str, ...] = ("singer", "performer", "director", "founder", "co founder", "author",
                               "writer", "composer", "producer", "publisher", "owner",
                               "employee", "employer", "spouse", "wife", "husband")
# Families stated as often by apposition ("Osk, Velmora") as by a verb: never missing.
IMPLIED_FAMILIES = frozenset({"locate"})

# Verbs of being given a thing ("earned an award", "won a prize"): the thing goes to the subject.
GIVE_VERBS = frozenset({"earn", "win", "give", "award", "bring", "grant", "gain"})
# Verbs of making a work, whose subject the work's maker is.
MAKE_VERBS = frozenset({"direct", "produce", "co-direct"})
# Verbs that give a name ("named X", "called X"), read as a copula.
NAMING_VERBS = frozenset({"name", "call", "title", "dub", "christen", "rename"})
# Relations (lemmatized, as the rules extractor writes them) that assert another name.
ALIAS_RELATIONS = frozenset({
    "know as", "also know as", "better know as", "well know as", "commonly know as",
    "professionally know as", "nickname", "also call",
})
