"""Type nouns: the words that say what kind of thing a name names ("the film X", "X Island")."""

from __future__ import annotations

from ._sets import words

# Head nouns of a description by the kind of entity it points to ("the film", "the city").
WORK_NOUNS = frozenset({
    "film", "movie", "song", "album", "book", "novel", "series", "show", "play", "opera",
    "single", "poem", "game", "painting", "documentary", "sitcom", "musical", "track",
    "episode", "screenplay", "story", "magazine", "newspaper",
})
ORG_NOUNS = frozenset({
    "club", "band", "company", "team", "group", "organization", "organisation",
    "university", "school", "college", "party", "label", "firm", "studio", "network",
    "corporation", "agency", "orchestra", "church",
})
PLACE_NOUNS = frozenset({
    "city", "town", "village", "country", "state", "province", "region", "river", "island",
    "county", "capital", "district", "municipality", "nation", "kingdom", "lake", "mountain",
    "commune", "parish", "area", "stadium", "building",
})
# Places run as businesses ("the theme park", "the resort"): a place, and often tagged an
# organisation, so a description of one may point to either.
VENUE_NOUNS = frozenset({
    "park", "resort", "mall", "museum", "hotel", "casino", "airport", "castle", "palace", "zoo",
    "arena",
})
PLACE_NOUNS |= VENUE_NOUNS
PERSON_NOUNS = frozenset({
    "director", "actor", "actress", "singer", "author", "writer", "composer", "player",
    "artist", "poet", "politician", "footballer", "producer", "musician", "king", "queen",
    "president", "man", "woman", "novelist", "painter", "screenwriter", "songwriter",
    "rapper", "filmmaker", "scientist", "founder", "father", "mother", "son", "daughter",
    "wife", "husband", "brother", "sister", "prince", "princess", "emperor", "lyricist",
    # An award held as a role: "the Series MVP was X".
    "mvp",
})
# A place one holds in a group: after the group's name ("a Monster Folk member", "the Yankees
# pitcher") it is one of the group's people, not the group.
MEMBER_ROLES = frozenset({
    "member", "guitarist", "drummer", "bassist", "vocalist", "keyboardist", "frontman",
    "frontwoman", "singer", "pitcher", "player", "founder", "co-founder", "cofounder",
})
DESCRIPTOR_NOUNS = WORK_NOUNS | ORG_NOUNS | PLACE_NOUNS | PERSON_NOUNS
# Type and role nouns that wrap a proper name: "the film Inception", "the city of Springfield".
DESCRIPTORS = frozenset("""
film movie documentary song single album ep band group novel book series show sitcom play
musical opera poem game magazine newspaper journal character city town village country state
province county region district municipality commune suburb borough neighborhood neighbourhood
river lake mountain island company corporation firm club team university college school station
airport church cathedral ship label network channel studio franchise manga anime website brand
museum stadium hotel castle palace party organization organisation capital actor actress singer
director filmmaker writer author novelist poet player footballer politician painter composer
musician rapper producer artist scientist physicist chemist architect journalist businessman
businesswoman entrepreneur comedian dancer philosopher historian economist designer photographer
screenwriter playwright guitarist drummer lyricist
""".split())
# Only these are stripped when they trail a name ("the Inception film"); role nouns are not,
# since "Inception director" names a person, not the film.
TRAILING = frozenset("""
film movie song single album band novel book series show sitcom play musical opera poem game
magazine newspaper city town village river lake island company club franchise
""".split())
# Work and organisation type words that question writers capitalise or drop at will ("the
# Lego Batman movie" for "The Lego Batman Movie", "True North Trilogy" for "True North").
WORK_TYPES = frozenset("""
film movie song single album band novel book series trilogy saga show sitcom play musical opera
poem game magazine newspaper franchise company club
""".split())
# Landforms named with or without their type word: "Bansaan Island" is "Bansaan" (a city
# is not: "Mexico City" is not "Mexico").
LANDFORMS = frozenset("island river lake".split())
# A polity named by its adjective: "an Ottoman princess" is of the Ottoman Empire.
POLITIES = frozenset("empire union dynasty caliphate sultanate khanate".split())
# Legal-form suffixes: "Arsenal F.C." is "Arsenal", "Bank of America Corporation" the bank.
ORG_SUFFIXES = frozenset("fc afc cf inc ltd llc plc gmbh corp corporation".split())
# "East Los Angeles" is not "Los Angeles": such a first word makes another place.
PLACE_MODIFIERS = words("""
north south east west northern southern eastern western central upper lower greater new old
""")

# Type nouns that leak into a relation from a descriptor ("headquartered in the city of X").
RELATION_TYPE_NOUNS = words("""
city town village country state nation film movie novel book company firm club team band
group orchestra ensemble
""")
# What may trail the named thing in a longer name ("MLB MVP": "… Most Valuable Player Award").
AWARD_NOUNS = words("award awards prize trophy medal")
