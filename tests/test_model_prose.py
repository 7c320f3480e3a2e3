"""Model prose on the rules path (docs/metrics.md): the shapes models write, in invented text.

Each row is one mechanism: (question, short answer, long answer, propositions that must be
read, whether the answer is complete).
"""

from __future__ import annotations

import pytest

from logicscore.models import QARecord

ROWS = [
    # A name the other side of "be" describes with a person noun is a person: "His" after
    # it is that person, not the thing the description names.
    pytest.param("Who was the father of the king who built Tarn Hall?", "Osk Brel",
                 "The king who built Tarn Hall was Ilo Vask. His father was Osk Brel.",
                 [("Osk Brel", "father of", "Ilo Vask")], 1, id="described-person-his"),
    pytest.param("Who was the mother of the woman who founded Brask Mills?", "Ada Tull",
                 "The woman who founded Brask Mills was Mira Osk. Her mother was Ada Tull.",
                 [("Ada Tull", "mother of", "Mira Osk")], 1, id="described-person-her"),
    pytest.param("Who was the father of the emperor who built Tarn Hall?", "Germanicus",
                 "The emperor who built Tarn Hall was Velorius. His biological father was "
                 "Germanicus.", [("Germanicus", "father of", "Velorius")], 1,
                 id="described-person-adjective"),
    # The question drops an abbreviation's last stop; the answer writes it: one place.
    pytest.param("Which memorial in Tarvel, D.C connects to an island?", "Osk Memorial",
                 "The memorial in Tarvel, D.C. that connects to an island is the Osk Memorial.",
                 [("Osk Memorial", "memorial in", "Tarvel, D.C.")], 1, id="abbreviation-stop"),
    # A subject that describes a thing without naming it joins nothing through itself: the
    # stadium named after him is in Tarvel, not he; which stadium is never said.
    pytest.param("Where is the stadium named after Ilo Vask?", "Tarvel",
                 "Ilo Vask is a former player. The stadium named after him is located in Tarvel.",
                 [], 0, id="unnamed-description-subject"),
    # ... but a name the description is written around is the thing ("The 1990 Brask Owls
    # football team"), and a description restated, then named, links.
    pytest.param("Where did the 1990 Brask Owls play?", "Tarvel",
                 "The 1990 Brask Owls football team represented Osk College in Tarvel.",
                 [], 1, id="named-description-subject"),
    # A relative clause describes a thing it never names: what it says is of that thing, not
    # of the names around it (the child was born in Velmar, not the hymns; the colony is in
    # Tarvel, not the society) ...
    pytest.param("Which section of the Tarn Hymns covers the birth of a child who was born in "
                 "Velmar?", "Dawn", 'The section of the Tarn Hymns that covers the birth of a '
                 'child who was born in Velmar is the "Dawn" section.', [], 0,
                 id="unnamed-relative-clause-head"),
    pytest.param("Where was the colony in which the Osk Society meets located?", "Tarvel",
                 "The colony in which the Osk Society meets is located in Tarvel.", [], 0,
                 id="unnamed-relative-clause-subject"),
    pytest.param("Who directed the film that starred Tarn Osk?", "Ilo Vask",
                 "Ilo Vask directed a film that starred Tarn Osk.", [], 0,
                 id="unnamed-relative-clause-object"),
    # A relative "be" clause with a subject of its own says what that subject is; it names
    # not the thing it describes (the people, the band, the town are never named).
    pytest.param("How were the people from whom the new coins were a break by the Velmar "
                 "Empire driven out of Tarvel?", "by force",
                 "People from whom new coins were a break by the Velmar Empire were driven out of "
                 "Tarvel by force.", [], 0, id="unnamed-be-relative-own-subject"),
    pytest.param("Where did the settlers to whom the land was a gift from the Velmar Crown move?",
                 "Tarvel", "Settlers to whom the land was a gift from the Velmar Crown moved to Tarvel.",
                 [], 0, id="unnamed-be-relative-to-whom"),
    pytest.param("Where were the soldiers for whom the medal was a reward by King Osk Brel sent?",
                 "Tarvel", "Soldiers for whom the medal was a reward by King Osk Brel were sent to "
                 "Tarvel.", [], 0, id="unnamed-be-relative-for-whom"),
    pytest.param("Where was the band whose singer was Ilo Vask formed?", "Tarvel",
                 "The band whose singer was Ilo Vask was formed in Tarvel.", [], 0,
                 id="unnamed-be-relative-whose"),
    # ... unless a name stands beside it, the clause names it, or an earlier sentence says
    # which thing the definite description is.
    pytest.param("In what 1990 film directed by Ilo Vask does Tarn Osk appear?", "Moonfall",
                 'Ilo Vask directed the film "Moonfall" in 1990, which Tarn Osk appeared in.',
                 [], 1, id="relative-clause-of-named"),
    pytest.param("Which division did Tarn Osk compete in?", "lightweight",
                 "So Tarn Osk competed in the same weight division, which is lightweight.", [], 1,
                 id="relative-clause-names"),
    pytest.param("How many machines does the bank that bought Tarn Trust have?", "900",
                 "Tarn Trust was bought by Osk Bank. Osk Bank: It has a retail footprint that "
                 "serves 40 million clients at 900 machines.", [], 1,
                 id="relative-clause-of-what-is-had"),
    pytest.param("Ilo Vask was given an award in 1990 that was first presented in what year?",
                 "1950", "Ilo Vask won the Tarn Medal in 1990. The Tarn Medal was first presented "
                 "in 1950. Therefore, the award that Ilo Vask received in 1990 was first presented "
                 "in 1950.", [], 1, id="relative-clause-said-before"),
    pytest.param("Which city is located in Brasklund?", "Tarvel",
                 "The city of Tarvel is located in Brasklund. Ilo Vask is a native of Tarvel.",
                 [], 1, id="description-of-name"),
    pytest.param("Which character did Tarn Osk play in Moonfall?", "Bo Lane",
                 'Tarn Osk starred in "Moonfall." The character he played in "Moonfall" is Bo Lane.',
                 [("Tarn Osk", "be", "Bo Lane")], 1, id="restated-then-named"),
    # A concluding sentence that restates the question with the answer filled in, joining
    # the answer straight to a question name the body had already taken to a bridge of its
    # own, skips the hop asked about (who wrote that song): it bridges nothing ...
    pytest.param("Tarn Hymn is a parody sung to a tune written by Ilo Vask and what other "
                 "singer?", "Ada Brel", 'Ilo Vask is known for his song "Blue Reed." "Tarn Hymn" '
                 'is a parody of that song. So the other singer associated with "Tarn Hymn" is '
                 "Ada Brel.", [], 0, id="conclusion-skips-bridge"),
    pytest.param("Which script was the script derived from that the name of the club Osk B.C. "
                 "starts with?", "Velmaric", "Osk B.C. is a rowing club in Tarvia. The Tarvic "
                 "script is derived from the Velmaric script. So the script that the name of the "
                 "club Osk B.C. starts with is derived from the Velmaric script.", [], 0,
                 id="conclusion-skips-bridge-of-place"),
    # ... while the body's own chain still counts, and a question name the body never takes
    # anywhere is the conclusion's to reach (a conclusion speaking of the bridge: test_chain).
    pytest.param("Tarn Hymn is a parody sung to a tune written by Ilo Vask and what other "
                 "singer?", "Ada Brel", '"Tarn Hymn" is a parody of "Blue Reed." "Blue Reed" was '
                 "written by Ilo Vask and Ada Brel. So the other singer associated with "
                 '"Tarn Hymn" is Ada Brel.', [], 1, id="conclusion-after-body-chain"),
    pytest.param("Route Tarvel 9 ends in which largest city of Osk County?", "Velmar",
                 "The largest city in Osk County is Velmar. So Route Tarvel 9 ends in Velmar.",
                 [("Route Tarvel 9", "end in", "Velmar")], 1, id="conclusion-reaches-new-name"),
    # A role after a group's name is one of its people, whom the text does not name: what
    # that person did joins the group to nothing; a name given to the person does.
    pytest.param("A Velvet Harbor member teamed up with what singer to record the album "
                 '"Low Tide"?', "Ana Ruiz", "A Velvet Harbor member and guitarist teamed up with "
                 'singer Ana Ruiz to record the album "Low Tide."', [], 0,
                 id="member-role-unnamed"),
    pytest.param("A Velvet Harbor member teamed up with what singer to record the album "
                 '"Low Tide"?', "Ana Ruiz", "Tom Brask is a Velvet Harbor member and guitarist. "
                 'Tom Brask teamed up with singer Ana Ruiz to record the album "Low Tide."',
                 [("Tom Brask", "team up with", "Ana Ruiz")], 1, id="member-role-named"),
    pytest.param("Which singer did Velvet Harbor guitarist Tom Brask team up with?", "Ana Ruiz",
                 "Velvet Harbor guitarist Tom Brask teamed up with singer Ana Ruiz.",
                 [("Tom Brask", "team up with", "Ana Ruiz")], 1, id="member-role-beside-name"),
    # A band whose name holds a wh-word is a question name: never written, never reached.
    pytest.param("Tarn Road is an album by The Who that can be found on what store founded in "
                 "1995?", "Osk Mart", "The store that was founded in 1995 is Osk Mart. So Tarn "
                 "Road can be found on Osk Mart.", [], 0, id="wh-word-band-unreached"),
    # A question name that spells out an abbreviation inside it is also the name written
    # with the abbreviation alone.
    pytest.param("Tarn House was co-founded by an actress who received the Velmar Arts Board "
                 "VAB Gold Medal in what year?", "1990", "Tarn House was co-founded by Ada Brel, "
                 "who received the VAB Gold Medal in 1990. So the answer is 1990.", [], 1,
                 id="question-name-spells-abbreviation"),
    # A lowercase noun of a question that names nothing else is its entity when the answer
    # writes it as a name.
    pytest.param("Where was the discoverer of polonium born?", "Tarvel",
                 "Polonium was discovered by Ada Brask. Ada Brask was born in Tarvel.", [], 1,
                 id="lowercase-question-entity"),
    # A description points back to the last thing of its kind: "this film", "the band"
    # (the band, not the song before it), "the theme park" (a kind word before the noun says
    # what kind; a venue NER often calls an organisation).
    pytest.param("Who directed the film that starred Tarn Osk?", "Ilo Vask",
                 "Tarn Osk starred in Moonfall. This film was directed by Ilo Vask.",
                 [("Moonfall", "direct by", "Ilo Vask")], 1, id="this-film"),
    pytest.param("Who founded the band that recorded the song Blue Reed?", "Ilo Vask",
                 "The song Blue Reed was recorded by the Velmar Group. The band was founded by "
                 "Ilo Vask.", [("Velmar Group", "found by", "Ilo Vask")], 1, id="the-band"),
    pytest.param("Who designed the theme park that opened in Tarvel?", "Ilo Vask",
                 "Brask Land opened in Tarvel. The theme park was designed by Ilo Vask.",
                 [("Brask Land", "design by", "Ilo Vask")], 1, id="the-theme-park"),
    # A count answered in digits and written in words is the same value.
    pytest.param("How many books are in the text written by Ilo Vask?", "5",
                 "The text written by Ilo Vask is the Tarn Sutras. It consists of five books. "
                 "So the answer is 5.", [("Tarn Sutras", "consist of book", "five")], 1,
                 id="count-in-words"),
    pytest.param("How many books are in the text written by Ilo Vask?", "5",
                 "The text written by Ilo Vask is the Tarn Sutras. It consists of six books.",
                 [], 0, id="count-in-words-differs"),
    # "which" is never a person nor the maker of a thing: "the series created by X, which
    # is Y" names the series, not X.
    pytest.param("What role did Tarn Osk play in the series created by Ilo Vask?", "Bo Lane",
                 "Tarn Osk played Bo Lane in the series created by Ilo Vask, which is Moonfall.",
                 [("Tarn Osk", "play in", "Moonfall"), ("Moonfall", "create by", "Ilo Vask")], 1,
                 id="which-names-the-made-thing"),
    # A title made of stop words is still a name the question gives.
    pytest.param("What studio produced the movie that features When Can I Go?", "Osk Studios",
                 "When Can I Go is a song from the movie Moonfall. The studio that produced "
                 "Moonfall is Osk Studios.", [("When Can I Go", "song from", "Moonfall")], 1,
                 id="stop-word-title"),
    # A question that drops a small word of a name names what the answer writes in full.
    pytest.param("What was the population of the city on the Bay Tarvel which had an office of "
                 "Osk Bank?", "5,000", "The city on the Bay of Tarvel that had an office of Osk "
                 "Bank is Velmar. The population of Velmar was 5,000.", [], 1,
                 id="question-drops-of"),
    # An award held as a role ("MVP") says what someone is, not who: no anchor of its own.
    pytest.param("The 1978 Tarvel Cup Series had as MVP which Hall of Fame member?", "Ilo Vask",
                 "The 1978 Tarvel Cup Series MVP was Ilo Vask, who is a member of the Hall of "
                 "Fame.", [], 1, id="award-as-role"),
    # Markdown: a heading claims nothing (no "(Step) —…→ …"); list items are sentences.
    pytest.param("Who directed the film that starred Tarn Osk?", "Ilo Vask",
                 "## Step 1\n- **Tarn Osk** starred in *Moonfall*.\n## Step 2\n"
                 "1. Moonfall was directed by Ilo Vask.",
                 [("Tarn Osk", "star in", "Moonfall"), ("Moonfall", "direct by", "Ilo Vask")], 1,
                 id="markdown-headings"),
    pytest.param("Who directed the film that starred Tarn Osk?", "Ilo Vask",
                 "Steps:\n- Tarn Osk starred in Moonfall\n- Moonfall was directed by Ilo Vask",
                 [("Tarn Osk", "star in", "Moonfall"), ("Moonfall", "direct by", "Ilo Vask")], 1,
                 id="markdown-items-without-stops"),
    # A numbered step ("Step 2: …") is a list mark: "Step" is never read as a thing, and
    # "it" is the film of the step before.
    pytest.param("Who directed the film that starred Tarn Osk?", "Ilo Vask",
                 "Step 1: Tarn Osk starred in Moonfall.\nStep 2: Ilo Vask directed it.\n"
                 "Step 3: So the answer is Ilo Vask.",
                 [("Tarn Osk", "star in", "Moonfall"), ("Ilo Vask", "direct", "Moonfall")], 1,
                 id="numbered-steps"),
    # unnamed_relative: a person known only as someone's relative or founder is not that
    # someone; what the clause says of them links nothing to the name...
    pytest.param("Where was the sister of Tarn Osk born?", "Velmar",
                 "Tarn Osk's sister was born in Velmar.", [], 0, id="unnamed-relative-possessive"),
    pytest.param("In which town was the founder of Brask Mills born?", "Velmar",
                 "The founder of Brask Mills was born in Velmar.", [], 0, id="unnamed-relative-of"),
    # ... while a relative named, by "be" or beside the noun, is the bridge.
    pytest.param("Where was the sister of Tarn Osk born?", "Velmar",
                 "Tarn Osk's sister is Ada Osk. Ada Osk was born in Velmar.",
                 [("Ada Osk", "born in", "Velmar")], 1, id="named-relative-copula"),
    pytest.param("In which town was the founder of Brask Mills born?", "Velmar",
                 "The founder of Brask Mills, Ilo Vask, was born in Velmar.", [], 1,
                 id="named-relative-apposition"),
    # Lead-ins and meta sentences carry no propositions and hide none.
    pytest.param("Who directed the film that starred Tarn Osk?", "Ilo Vask",
                 "Let's think step by step. The question is asking about a film. Based on the "
                 "passage, Tarn Osk starred in Moonfall. From the context, I know that Moonfall "
                 "was directed by Ilo Vask.",
                 [("Tarn Osk", "star in", "Moonfall"), ("Moonfall", "direct by", "Ilo Vask")], 1,
                 id="meta-lead-ins"),
    # A name of two words or more written again is the same mention again.
    pytest.param('On what date was the Tarn Osk album with "Blue Reed" released?', "June 3, 1990",
                 '"Blue Reed" is a song from Tarn Osk\'s third album, Speak Now. Speak Now was '
                 'released on June 3, 1990.',
                 [("Speak Now", "release on", "June 3, 1990")], 1, id="name-written-again"),
]


@pytest.fixture(scope="module")
def auditor():
    from logicscore.auditor import Auditor

    return Auditor(extractor="rules", timing=False, hops="off")  # the chain's reading of prose


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "long_answer", "expected", "complete"), ROWS)
def test_model_prose(auditor, question, answer, long_answer, expected, complete):
    result = auditor.audit_record(QARecord(id="t", question=question, answer=answer,
                                           long_answer=long_answer))
    got = [(p.subject, p.relation, p.object) for p in result.propositions]
    assert all(e in got for e in expected), got
    assert not any(p.subject == "Step" for p in result.propositions), got
    assert result.scores.completeness == complete, result.diagnosis


# The sentence's full stop written inside the quotes is no part of the title; an
# abbreviation's own stop is. (long answer, names read, names never read)
STOPS = [
    pytest.param('Tarn Osk played Bo in the series created by Ilo Vask, which is "Moonfall."',
                 ["Moonfall"], ["Moonfall."], id="title-stop-inside-quotes"),
    pytest.param('Tarn Osk recorded the album "F.A.M.E."', ["F.A.M.E."], ["F.A.M.E"],
                 id="abbreviation-stop-kept"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("long_answer", "read", "unread"), STOPS)
def test_model_prose_title_stop(auditor, long_answer, read, unread):
    result = auditor.audit_record(QARecord(id="t", question="Who made it?", answer="zzz",
                                           long_answer=long_answer))
    names = {n for p in result.propositions for n in (p.subject, p.object)}
    assert set(read) <= names and not set(unread) & names, names


# Determinateness and signals on model prose: (question, answer, long answer, verdict,
# signals that must be raised, signals that must not).
VERDICTS = [
    # A place and the larger place containing it are one value, not two birthplaces.
    pytest.param("Where was the director of Moonfall born?", "Honolulu",
                 "Moonfall was directed by Ilo Vask. Ilo Vask was born in Honolulu, Hawaii.",
                 "entailed", [], ["contradiction"], id="place-in-larger-place"),
    pytest.param("Where was the director of Moonfall born?", "Tarvel",
                 "Moonfall was directed by Ilo Vask. Ilo Vask was born in Tarvel, Brasklund.",
                 "entailed", [], ["contradiction"], id="place-in-larger-place-unfamiliar"),
    # Two places written apart are two values.
    pytest.param("Where was the director of Moonfall born?", "Tarvel",
                 "Moonfall was directed by Ilo Vask. Ilo Vask was born in Tarvel. Ilo Vask was "
                 "born in Brasklund.", "contradicted", ["contradiction"], [], id="two-places"),
    # The body derives one value, the conclusion states another.
    pytest.param("Where was the director of Moonfall born?", "Chicago",
                 "Moonfall was directed by Ilo Vask. Ilo Vask was born in Honolulu. So the "
                 "answer is Chicago.", "contradicted", [], [], id="derives-another"),
    # ... while a skipped hop before the conclusion only asserts it.
    pytest.param("Where was the director of Moonfall born?", "Chicago",
                 "Moonfall was directed by Ilo Vask. So the answer is Chicago.", "entailed",
                 ["asserted_without_derivation"], [], id="asserted-not-derived"),
    # An anchor that only describes a side thing and is never written keeps the answer
    # incomplete, and says so apart from a missing hop.
    pytest.param("Who founded the company based in Fox Park that makes Velo bikes?", "Ilo Vask",
                 "Velo bikes are made by Brask Cycles. Brask Cycles was founded by Ilo Vask.",
                 "underdetermined", ["side_anchor_unreached"], [], id="side-anchor"),
    pytest.param("Who founded the company based in Fox Park that makes Velo bikes?", "Ilo Vask",
                 "Velo bikes are made by Brask Cycles. Ilo Vask lives in Tarvel.",
                 "underdetermined", [], ["side_anchor_unreached"], id="missing-hop-not-side"),
    # A model's own doubt is a hedge.
    pytest.param("Who directed Moonfall?", "Ilo Vask",
                 "I'm not entirely sure, but I believe Moonfall was directed by Ilo Vask.",
                 "entailed", ["hedged_on_chain"], [], id="hedged-belief"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "long_answer", "verdict", "raised", "not_raised"),
                         VERDICTS)
def test_model_prose_verdicts(auditor, question, answer, long_answer, verdict, raised, not_raised):
    result = auditor.audit_record(QARecord(id="t", question=question, answer=answer,
                                           long_answer=long_answer))
    kinds = [s.kind for s in result.diagnosis.signals]
    assert result.determinateness == verdict, (kinds, result.propositions)
    assert set(raised) <= set(kinds) and not set(not_raised) & set(kinds), kinds


@pytest.mark.slow
def test_model_prose_refusal_is_an_absent_answer(auditor):
    result = auditor.audit_record(QARecord(
        id="t", question="Who directed Moonfall?", answer="I don't know",
        long_answer="I don't know who directed Moonfall. The context does not say."))
    diag = result.diagnosis
    assert result.scores.completeness == 0 and diag.answer_absent and diag.gap is None
    assert "refusal" in [s.kind for s in diag.signals]
    assert result.determinateness == "underdetermined"


@pytest.mark.slow
def test_model_prose_other_language_is_counted_apart(auditor):
    from logicscore.report import summarize

    result = auditor.audit_record(QARecord(
        id="t", question="Who directed Moonfall?", answer="Ilo Vask",
        long_answer="Moonfall wurde von Ilo Vask gedreht. Der Film ist ein Drama und war auch "
                    "ein Erfolg in der Stadt."))
    assert ("unsupported_language", "hard") in [(s.kind, s.severity) for s in result.diagnosis.signals]
    assert summarize([result]).apart["unsupported_language"] == 1
