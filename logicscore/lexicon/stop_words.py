"""Stop words: the lists of words that carry no content for one comparison each.

Each list is the one its reader needs (what a relation phrase may drop is not what a phrase
key drops), so they are kept apart and named for that use.
"""

from __future__ import annotations

from ._sets import words

# Words a phrase's content leaves out, for chaining and determinateness ("the answer is").
PHRASE_STOP_WORDS = words("""
a an the of in on at to for by from with as and or is was were are be been being has have had
do does did who whom whose what which when where why how that this these those it its also then
later not never no one
""")
# Words a relation phrase drops before it is compared ("was reportedly born in").
RELATION_STOP_WORDS = words("""
a an the be is was were are been being am has have had do does did also then later
not never no n't reportedly allegedly reputedly may might could possibly probably once
""")
# Words a step question shares with any sentence, so they say nothing about which entity
# the hop starts from.
STEP_STOP_WORDS = words("""
    a an the and or but nor not no yes of in on at by for to from with as into onto about
    after before during since until than over under between among within without per via
    who whom whose what which when where why how many much is are was were be been being am
    do does did done has have had having will would can could shall should may might must
    he she it they them his her hers its their theirs him we us our you your i me my this
    that these those there here then also both either one ones
    name names named call called known person people thing place year years time
    """)
# Words that are ordinary words when written in capitals, not abbreviations ("IT" the novel).
CAPITALISED_WORDS = words("""
it is in on at to of or an as by be do go he me my no so up we am if and the for not but all
who you she her his its our was are has had how why what when yes
""")
# Words a capitalised run drops to leave the name in it, for the baselines ("So Paris").
NAME_RUN_STOP_WORDS = words("the he she it they so thus therefore indeed in as his her a an")
