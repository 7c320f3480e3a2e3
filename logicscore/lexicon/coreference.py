"""Words the coreference sieve reads (docs/coreference.md): which determiners make a
description point back, which verbs take a person as their agent, and which entity kinds a
description's noun may name."""

from __future__ import annotations

from ._sets import subset, words
from .pronouns import RELATIVE_PRONOUNS

# Verbs whose agent is a person: "X wrote …", "… directed by X" make X a person whatever NER
# tagged it.
PERSON_VERBS = words(
    "write direct star marry compose paint sing die bear graduate act portray narrate "
    "co-write screenwrite")
# Determiners before a description: "the film", "a 2004 film", "which film", "whose film".
DESCRIBING = words("the a an this that which what whose")
# The determiners of a description that points back to something already named ("the film",
# "this organization", "that player"), not one that introduces something ("a film").
POINTING = subset(DESCRIBING, "the this that")
# The plural references that stand for a pair written before them ("Ana Ruiz and Kim Lett …
# both of them …"), besides the plural pronouns.
PAIR_REFERENCES = words("both") | frozenset({"both of them", "the two", "the two of them",
                                            "each of them", "the pair"})

# The relative pronouns of a clause that names the noun before it ("the series created by X,
# which is Y"): never a person's "who".
NAMING_RELATIVES = subset(RELATIVE_PRONOUNS, "which that")
# The forms of "be" that make a relation an identity statement ("the film is Red Lake").
COPULA_FORMS = words("is was are were be been being")
# "the film in question": a description that points back, for all its prepositional phrase.
IN_QUESTION = ("in", "question")

# Which entity kinds a description of each kind may point to; "other" is what NER leaves
# unlabelled, and None is a description of no known kind.
COMPATIBLE_KINDS: dict[str | None, frozenset[str]] = {
    "work": frozenset({"work", "other", "org"}),
    "org": frozenset({"org", "other", "work"}),
    "place": frozenset({"place", "other"}),
    None: frozenset({"work", "org", "place", "other"}),
}
