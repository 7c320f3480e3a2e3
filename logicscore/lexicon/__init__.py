"""Language data of the rules path: every word table defined once, apart from the code that
reads it (as spaCy keeps `lang/en/stop_words.py` apart from its algorithms).

Stages import their tables from here and never from each other:

- `dates`: month and weekday names, and the written forms of a month in a date.
- `names`: articles, name particles, honorifics and titles, kinship, generations, epithets.
- `kinds`: type nouns that describe a name ("the film X", "X Island", "Arsenal F.C.").
- `pronouns`: pronoun sets by what they refer to.
- `coreference`: the determiners, verbs and kind agreements the coreference sieve reads.
- `numbers`: number and ordinal words.
- `generic`: nationalities and languages, and `is_generic` (names that constrain, not anchor).
- `function_words`: question words, prepositions, negations, auxiliaries and the small words
  inside names and titles.
- `stop_words`: the stop-word lists, one per comparison that drops them.
- `sentences`: abbreviations whose full stop ends no sentence.
- `relations`: relation families, person slots and the words of functional relations.
- `kin`: kin terms as paths of one-generation steps (the hops a kin question asks).
- `text`: the one text key for names (`key`, `fold`) and the stemmers.
- `signals`: the signal catalogue: each kind with its severities and meaning.
"""
