"""Perturbed copies of an answer, each with the label it claims and whether that label is sound.

    from logicscore.measure.perturb import build
    copies = build.perturb(record, result, donors, seed=0)   # one per kind, built or not

Every builder reads the long answer as fixed text (`perturb.text`), never through the
stages under test: a copy's claimed label must not move when the rules do. A copy whose
claim is not sure to hold is kept with `discard` naming why, so it is counted, not used:
the dropped fact is restated elsewhere, every question name is still written beside the
answer, a donor sentence names something this answer names, and so on (docs/measurements.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...lexicon.function_words import QUESTION_OPENERS
from ...lexicon.names import ARTICLES
from ...lexicon.pronouns import DEMONSTRATIVES, PRONOUNS, STANDING_PRONOUNS
from ...lexicon.questions import CONCLUDING_WORDS
from ...models import AuditResult, QARecord
from .text import (capitalized_phrases, contains, contains_any, norm, question_names,
                   removal_noise, split_sentences)

__all__ = ["KINDS", "Perturbation", "perturb", "drop_body", "add_cycle", "swap_answer_side",
           "add_distractors", "drop_side"]

KINDS = ("body_dropped", "cycle", "answer_swapped", "distractor", "side_dropped")
# Words that open a sentence capitalised without naming anything ("So", "The", "He").
_NOT_NAMES = QUESTION_OPENERS | ARTICLES | PRONOUNS | CONCLUDING_WORDS
_DONOR_TRIES = 50
# Words by which a sentence refers to the one before it.
_REFERRING = STANDING_PRONOUNS | DEMONSTRATIVES


@dataclass(frozen=True)
class Perturbation:
    """One perturbed copy and its claim: expected completeness and failure type.

    `record` is None when the copy could not be built; `discard` says why the copy is not
    used ("" when its claim is sound and it is audited). An incomplete claim with `failure`
    None claims no failure type (it counts for completeness only).
    """

    kind: str
    source: str
    record: QARecord | None
    complete: bool
    failure: str | None
    discard: str = ""

    @property
    def sound(self) -> bool:
        return self.record is not None and not self.discard


@dataclass(frozen=True)
class Answer:
    """A record's long answer as sentences, and what the claims are checked against."""

    record: QARecord
    sentences: tuple[str, ...]
    asked: tuple[str, ...]  # the question's names the long answer writes

    @classmethod
    def of(cls, record: QARecord) -> Answer:
        asked = [n for n in question_names(record.question) if contains(record.long_answer, n)]
        return cls(record, tuple(split_sentences(record.long_answer)), tuple(asked))

    def writes_answer(self, i: int) -> bool:
        return contains(self.sentences[i], self.record.answer)

    def answer_lines(self) -> list[int]:
        return [i for i in range(len(self.sentences)) if self.writes_answer(i)]

    def answer_line(self) -> int:
        """The sentence that states the answer: the first that writes it and is no bare
        conclusion ("So the answer is X"), else the last that writes it (callers check that
        one does)."""
        lines = self.answer_lines()
        stated = [i for i in lines if norm(self.sentences[i]) and not _concludes(self.sentences[i])]
        return stated[0] if stated else lines[-1]

    def names(self, i: int) -> list[str]:
        return [n for n in self.asked if contains(self.sentences[i], n)]

    def copy(self, kind: str, lines: Sequence[str], answer: str | None = None) -> QARecord:
        source = self.record
        return source.model_copy(update={
            "id": f"{source.id}#{kind}", "long_answer": " ".join(lines),
            # A new short answer has no gold of its own; the hop count is the original's.
            "answer": source.answer if answer is None else answer,
            "gold_answer": source.gold_answer if answer is None else None, "hops": None,
            "meta": {**source.meta, "perturbation": kind, "source": source.id}})


def _unbuilt(answer: Answer, kind: str, why: str, complete: bool = False,
             failure: str | None = "broken") -> Perturbation:
    return Perturbation(kind, str(answer.record.id), None, complete, failure, why)


def written_names(text: str) -> list[str]:
    """The names a text writes, for telling whether a foreign sentence could join it: each
    sentence's capitalised runs, a lone capitalised first word left out (it is capitalised
    by its position), words that name nothing ("The", "So", "He") dropped."""
    out = []
    for sentence in split_sentences(text):
        for phrase in capitalized_phrases(sentence):
            words = [w for w in phrase.split() if w.lower() not in _NOT_NAMES]
            if not words or not any(c.isalpha() for c in " ".join(words)):
                continue
            if len(phrase.split()) == 1 and sentence.startswith(phrase):
                continue
            out.append(" ".join(words))
    return out


def _concludes(sentence: str) -> bool:
    return norm(sentence).split()[:1] in ([w] for w in CONCLUDING_WORDS)


def _failure_left(answer: Answer, remaining: Sequence[str]) -> str | None:
    """broken while a question name is still written (an anchor without its hop); deviated
    when none is and the rest still states two links (two sentences that are no conclusion,
    naming two things beside the answer), so the answer's side goes two propositions deep
    elsewhere (docs/metrics.md). Otherwise None: incomplete for sure, but whether the rest goes
    two propositions deep is not something fixed text can tell, so no failure type is claimed."""
    text = " ".join(remaining)
    if any(contains(text, n) for n in answer.asked):
        return "broken"
    stating = [x for x in remaining if not _concludes(x)]
    others = {norm(n) for n in written_names(" ".join(stating))
              if not contains(n, answer.record.answer) and not contains(answer.record.answer, n)}
    return "deviated" if len(stating) >= 2 and len(others) >= 2 else None


def drop_body(answer: Answer) -> Perturbation:
    """A body sentence removed (the first that writes a question name and not the answer),
    then, if the label is not yet sound, with the sentences that restate its names: claims
    incomplete. The answer's own sentences always stay, so the copy still states it."""
    kind, s = "body_dropped", answer.sentences
    if len(s) < 2:
        return _unbuilt(answer, kind, "one sentence: no body sentence beside the answer's")
    keep = set(answer.answer_lines())
    if not keep:
        return _unbuilt(answer, kind, "the short answer is not written")
    body = [i for i in range(len(s)) if i not in keep]
    if not body:
        return _unbuilt(answer, kind, "every sentence writes the answer")
    if not answer.asked:
        return _unbuilt(answer, kind, "the long answer writes no name of the question: nothing "
                        "shows a removal cuts a hop")
    first = next((i for i in body if answer.names(i)), body[0])
    restating = {i for i in body if i != first and set(answer.names(i)) & set(answer.names(first))}
    noise = ""
    for dropped in ({first}, {first} | restating):
        remaining = [x for i, x in enumerate(s) if i not in dropped]
        noise = removal_noise(answer.record.question, answer.record.answer,
                              answer.record.long_answer, " ".join(remaining))
        if not noise:
            break
        if not restating:
            break
    return Perturbation(kind, str(answer.record.id), answer.copy(kind, remaining), False,
                        _failure_left(answer, remaining), noise)


def _because(sentence: str) -> str:
    body = sentence.rstrip(" .!?")
    first = body.split(maxsplit=1)[0] if body.split() else ""
    if first.lower() in _NOT_NAMES:  # "because the director …", never "because pavel Dunn …"
        return f"{body} because {body[:1].lower()}{body[1:]}."
    return f"{body} because {body}."


def add_cycle(answer: Answer) -> Perturbation:
    """Every sentence naming the question dropped, and the answer's sentence restated as
    its own support ("A because A"): the reasoning loops and reaches no question entity.
    Claims incomplete, circular."""
    kind, s = "cycle", answer.sentences
    lines = answer.answer_lines()
    if not lines:
        return _unbuilt(answer, kind, "the short answer is not written", failure="circular")
    if not answer.asked:
        return _unbuilt(answer, kind, "the long answer writes no name of the question",
                        failure="circular")
    at = answer.answer_line()
    dropped = {i for i in range(len(s)) if i != at and answer.names(i)}
    remaining = [(_because(x) if i == at else x) for i, x in enumerate(s) if i not in dropped]
    why = ""
    if answer.names(at):
        why = "the answer's sentence names the question: the loop would reach it"
    elif _refers_back(s[at]):
        why = "the answer's sentence leans on a dropped one: no named link to loop on"
    elif not dropped:
        why = "no sentence names the question: nothing to cut"
    return Perturbation(kind, str(answer.record.id), answer.copy(kind, remaining), False,
                        "circular", why)


def _foreign(answer: Answer, text: str) -> bool:
    """Whether a sentence from another record names nothing this answer or its question names."""
    mine = [*question_names(answer.record.question), *written_names(answer.record.long_answer),
            answer.record.answer]
    theirs = written_names(text)
    return not contains_any(text, mine) and not any(contains(answer.record.long_answer, n)
                                                    for n in theirs)


def swap_answer_side(answer: Answer, donors: Sequence[Answer], rng: random.Random) -> Perturbation:
    """The sentence that states the answer replaced by another record's (one naming nothing
    of this answer and leaning on no sentence before it), whose answer becomes the short
    answer: the question side is this record's, the answer side another's, and no bridge
    joins them. Claims incomplete, broken."""
    kind, s = "answer_swapped", answer.sentences
    lines = answer.answer_lines()
    if not lines or len(s) < 2:
        return _unbuilt(answer, kind, "needs two sentences, one stating the answer")
    rest = [x for i, x in enumerate(s) if i not in lines]
    if not any(contains(" ".join(rest), n) for n in answer.asked):
        return _unbuilt(answer, kind, "no question name written outside the answer's sentences")
    pool = [d for d in donors if d.record.id != answer.record.id and d.answer_lines()]
    rng.shuffle(pool)
    at = answer.answer_line()
    for donor in pool[:_DONOR_TRIES]:
        line = donor.sentences[donor.answer_line()]
        if contains(answer.record.question, donor.record.answer) or not _foreign(answer, line):
            continue
        if _refers_back(line):
            continue  # "It was directed by X" would lean on this answer's sentence before it
        if contains(" ".join(rest), donor.record.answer):
            continue  # the new answer stated another way: it may be reached
        copied = [line if i == at else x for i, x in enumerate(s) if i == at or i not in lines]
        return Perturbation(kind, str(answer.record.id),
                            answer.copy(kind, copied, donor.record.answer), False, "broken")
    return _unbuilt(answer, kind, "no other record's answer sentence shares no name with this "
                    "one and stands alone")


def _refers_back(sentence: str) -> bool:
    """Whether a sentence leans on the one before it ("She …", "this film …")."""
    return bool(set(norm(sentence).split()) & _REFERRING)


def add_distractors(answer: Answer, donors: Sequence[Answer], rng: random.Random) -> Perturbation:
    """One or two body sentences of other records, naming nothing this answer names, leaning
    on nothing before them and concluding nothing, put in before the answer or after it,
    where no pronoun or description ("the film") can be captured: claims complete (padding
    never cuts a chain)."""
    kind = "distractor"
    pool = [x for d in donors if d.record.id != answer.record.id
            for i, x in enumerate(d.sentences) if not d.writes_answer(i)
            and 4 <= len(x.split()) <= 60 and not _refers_back(x) and not _concludes(x)]
    rng.shuffle(pool)
    picked = [x for x in pool[:_DONOR_TRIES] if _foreign(answer, x)][:rng.choice((1, 2))]
    if not picked:
        return _unbuilt(answer, kind, "no other record's sentence shares no name with this one",
                        complete=True, failure=None)
    head: list[str] = []
    tail: list[str] = []
    for line in picked:
        (head if rng.random() < 0.5 else tail).append(line)
    lines = [*head, *answer.sentences, *tail]
    return Perturbation(kind, str(answer.record.id), answer.copy(kind, lines), True, None)


def drop_side(answer: Answer, result: AuditResult | None) -> Perturbation:
    """Comparison and yes/no questions: the sentences naming one compared side (the first
    the short answer does not name) and no other side dropped, so that side's value is never
    stated while the conclusion stays. Claims incomplete, broken."""
    kind, s = "side_dropped", answer.sentences
    sides = [x.name for x in (result.sides if result is not None else [])]
    if result is None or result.question_type not in ("comparison", "yesno") or len(sides) < 2:
        return _unbuilt(answer, kind, "not a comparison or yes/no question with two sides")
    side = next((x for x in sides if not contains(answer.record.answer, x)
                 and not contains(x, answer.record.answer)), sides[-1])
    others = [x for x in sides if x != side]
    dropped = {i for i, x in enumerate(s) if contains(x, side)
               and not any(contains(x, o) for o in others)}
    remaining = [x for i, x in enumerate(s) if i not in dropped]
    why = ""
    if not dropped or not remaining:
        why = "no sentence names that side alone"
    elif contains(" ".join(remaining), side):
        why = "the dropped side is still named elsewhere"
    return Perturbation(kind, str(answer.record.id), answer.copy(kind, remaining), False,
                        "broken", why)


def rng_for(seed: int, record_id: str, kind: str) -> random.Random:
    # String seeds hash with SHA-512: stable across runs and processes.
    return random.Random(f"{seed}|{record_id}|{kind}")


def perturb(answer: Answer, result: AuditResult | None, donors: Sequence[Answer],
            seed: int = 0) -> list[Perturbation]:
    """One perturbation of each kind (`KINDS` order), built or not, for one answer; `result`
    is the auditor's reading of it, whose question type and compared sides pick the kinds."""
    rid = str(answer.record.id)
    compared = result is not None and result.question_type in ("comparison", "yesno")
    why = "a comparison or yes/no question: a compared side is dropped instead"
    builders: dict[str, Callable[[], Perturbation]] = {
        "body_dropped": lambda: drop_body(answer),
        # Loops and swapped answer sides are failures of a chain to one answer (docs/metrics.md).
        "cycle": lambda: (_unbuilt(answer, "cycle", why, failure="circular") if compared
                          else add_cycle(answer)),
        "answer_swapped": lambda: (_unbuilt(answer, "answer_swapped", why) if compared
                                   else swap_answer_side(answer, donors, rng_for(seed, rid, "swap"))),
        "distractor": lambda: add_distractors(answer, donors, rng_for(seed, rid, "distract")),
        "side_dropped": lambda: drop_side(answer, result),
    }
    return [builders[kind]() for kind in KINDS]
