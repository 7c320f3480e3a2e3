"""The named rules that read a short answer from the conclusion a response states
(`formats.conclusion`): each rule reads its own rows in three or more phrasings, and no
other rule reads them once it is left out; rows that state no answer give none."""

from __future__ import annotations

import pytest

from logicscore.formats.conclusion import RULES, sentences, stated_answer

Q = "Who directed the 2007 film starring Maggie Q?"
YES_NO_Q = "Are Delmer Daves and Jean-Pierre Jeunet both film directors?"

# rule name → (question, response, answer) rows, each an invented response.
ROWS = {
    "the_answer_is": [
        (Q, "Maggie Q starred in Live Free or Die Hard. So the answer is Len Wiseman.", "Len Wiseman"),
        (Q, "The film is Live Free or Die Hard. Therefore, the final answer is: Len Wiseman", "Len Wiseman"),
        (Q, "Live Free or Die Hard was directed by Len Wiseman. The correct answer would be Len Wiseman!",
         "Len Wiseman"),
        (YES_NO_Q, "Both directed films. Thus the answer is yes.", "yes"),
        (Q, "The answer to the question is \"Len Wiseman\". He directed the film.", "Len Wiseman"),
    ],
    "is_the_answer": [
        (Q, "The film was directed by Len Wiseman. So Len Wiseman is the answer.", "Len Wiseman"),
        (Q, "Therefore, Len Wiseman would be the answer.", "Len Wiseman"),
        (Q, "Len Wiseman is the final answer. He made the film in 2007.", "Len Wiseman"),
    ],
    "leading_yes_no": [
        (YES_NO_Q, "Yes, both of them are film directors.", "Yes"),
        (YES_NO_Q, "No. Delmer Daves was a screenwriter first.", "No"),
        (YES_NO_Q, "yes: Daves directed Dark Passage and Jeunet directed Amélie.", "Yes"),
    ],
    "concluding_copula": [
        (Q, "Maggie Q starred in Live Free or Die Hard. So the director of the film is Len Wiseman.",
         "Len Wiseman"),
        (Q, "The film is Live Free or Die Hard. Therefore, its director was Len Wiseman.", "Len Wiseman"),
        ("Which band did he join?",
         "He played bass. In conclusion, the bands he joined were The Wipers and Black Flag.",
         "The Wipers and Black Flag"),
        (Q, "Thus the man who directed it is M. P. Shiel.", "M. P. Shiel"),
    ],
}
# Responses that state no short answer: every rule must pass them by.
NO_ANSWER = [
    (Q, "Maggie Q starred in Live Free or Die Hard, directed by Len Wiseman."),
    (YES_NO_Q, "So Delmer Daves and Jean-Pierre Jeunet are both film directors."),  # a yes/no question
    (Q, "So the director of the film is not known."),
    (Q, "So the director is unclear from what I know."),
    (Q, "So the film is located in Los Angeles."),       # a passive, not a value
    (Q, "Therefore the director was born in 1972."),
    (Q, "So the director is Len Wiseman. The film came out in 2007."),  # the copula rule reads the last only
    (Q, "The question asks who directed it; nobody is named. Answer the question yourself."),
    (Q, ""),
]


def test_every_rule_has_rows_and_an_example():
    assert [r.name for r in RULES] == list(ROWS)
    for rule in RULES:
        assert len(ROWS[rule.name]) >= 3 and rule.example
        assert rule.find(rule.example, Q if rule.name != "leading_yes_no" else YES_NO_Q) is not None


@pytest.mark.parametrize(("name", "question", "response", "answer"),
                         [(n, *row) for n, rows in ROWS.items() for row in rows])
def test_rule_reads_its_rows(name, question, response, answer):
    assert stated_answer(response, question) == (answer, name)


@pytest.mark.parametrize(("name", "question", "response", "answer"),
                         [(n, *row) for n, rows in ROWS.items() for row in rows])
def test_without_its_rule_a_row_is_not_read_as_that_answer(name, question, response, answer):
    others = tuple(r for r in RULES if r.name != name)
    assert stated_answer(response, question, others) != (answer, name)
    found = stated_answer(response, question, others)
    assert found is None or found[1] != name


@pytest.mark.parametrize(("question", "response"), NO_ANSWER)
def test_a_response_that_states_no_answer_gives_none(question, response):
    assert stated_answer(response, question) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("Ana is here. So Bo is there.", ["Ana is here.", "So Bo is there."]),
    ("M. P. Shiel wrote it. He lived in Washington, D.C. until 1920.", ["M. P. Shiel wrote it.",
                                                                       "He lived in Washington, D.C. until 1920."]),
    ("Line one\nAnswer: X", ["Line one", "Answer: X"]),
    ('He said "Go." Then he left.', ['He said "Go."', "Then he left."]),
])
def test_sentences(text, expected):
    assert sentences(text) == expected


@pytest.mark.parametrize(("answer", "kept"), [
    ("Tiffany & Co.", "Tiffany & Co."), ("Washington, D.C.", "Washington, D.C."), ("John F.", "John F."),
    ("Medford.", "Medford"), ("C.", "C"), ("Ossel", "Ossel"), ("Len Wiseman...", "Len Wiseman"),
])
def test_an_answer_keeps_the_stop_of_an_abbreviation_or_initial(answer, kept):
    from logicscore.formats.reply import trim_stop

    assert trim_stop(answer) == kept
