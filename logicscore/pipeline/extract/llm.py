"""The `llm` extractor: one decomposition call per answer through an OpenAI-compatible endpoint.

The call returns the propositions (coreference resolved, citations kept) and the question's
entities at once. Each proposition is located in the long answer: its sentence by exact or
fuzzy match, its arguments as mentions. A proposition naming an entity the long answer never
writes, or whose relation the sentence it quotes does not state (`stated`), is left out of
the chain and reported as an `unanchored_proposition` signal, so an invented fact cannot
complete a chain. A reply cut at the token limit keeps the propositions
the model finished, without verbatim repeats, and says so in a `cut_reply` signal
(docs/llm-servers.md).
"""

from __future__ import annotations

import re
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from ...llm.endpoint import Endpoint, Request
from ...llm.prompts import delimit
from ...llm.salvage import Salvageable
from ...llm.stage import PromptedStage
from ...lexicon.pronouns import PRONOUNS
from ...models import Proposition, QARecord, Signal
from ...lexicon.relations import IRREGULAR_VERBS, PLACEHOLDER_RELATIONS
from ...lexicon.text import stem
from ..text.phrases import content, crude_stem, words
from . import Extraction, Mention

# Similarity (0-100) at which a sentence or a name counts as written in the long answer
# although the model re-typed it (spacing, quotes, case).
ANCHOR_SIMILARITY = 90.0
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


class LLMProposition(BaseModel):
    model_config = ConfigDict(extra="forbid")

    subject: str
    relation: str = ""
    object: str
    text: str = ""
    citations: list[str] = Field(default_factory=list)
    negated: bool = False
    hedged: bool = False
    conclusion: bool = False


class Decomposition(Salvageable):
    """The reply of the decomposition call (the JSON schema the server is asked for)."""

    model_config = ConfigDict(extra="forbid")

    question_entities: list[str] = Field(default_factory=list)
    propositions: list[LLMProposition]


class LLMExtractor(PromptedStage):
    """Decomposes the long answer with one call; the Auditor batches the calls via `prepare`."""

    name: ClassVar[str] = "llm"
    requires: ClassVar[tuple[str, ...]] = ("llm",)
    # The same call names the question's entities (see `Extraction.question_entities`).
    reads_question: ClassVar[bool] = True

    class Config(BaseModel):
        model_config = ConfigDict(extra="forbid")
        prompt: str = Field("extract.v1.md", description="prompt file in prompts/")

    def __init__(self, config: LLMExtractor.Config | None = None, llm: Endpoint | None = None):
        super().__init__(config or self.Config(), llm)

    def request(self, record: QARecord) -> Request:
        user = delimit(question=record.question, short_answer=record.answer,
                       long_answer=record.long_answer)
        return Request(self.prompt, user, Decomposition, f"record {record.id}")

    def extract(self, record: QARecord, hints: list[str]) -> Extraction:
        return to_extraction(record.long_answer, self.reply(record, Decomposition))

    def signature(self) -> list[tuple[str, object]]:
        return [("extractor", "llm"), ("model", self.llm.model_id()), ("prompt", self.prompt.sha),
                ("structured", self.llm.structured_mode()), ("temp", 0),
                ("max_tokens", self.llm.config.max_tokens), ("cut", "finished-items")]


def to_extraction(long_answer: str, reply: Decomposition) -> Extraction:
    """Propositions located in `long_answer`; those naming unwritten entities, or not stated
    by the sentence they come from, become a signal."""
    props: list[Proposition] = []
    mentions: list[Mention] = []
    unwritten, unstated = [], []
    for given in reply.propositions:
        args = [a for a in (given.subject, given.object) if a.strip()]
        if given.conclusion:
            args = args[1:]  # "the answer" is the model's placeholder, not a name in the text
        located = [locate(long_answer, a) for a in args]
        spans = [s for s in located if s is not None]
        if len(spans) < len(located):
            unwritten.append(given)
            continue
        if not given.conclusion and not stated(long_answer, given):
            unstated.append(given)
            continue
        mentions += [Mention(long_answer[s:e], s, e) for s, e in spans]
        props.append(_proposition(long_answer, given, len(props) + 1))
    signals = []
    for left, why in ((unwritten, "naming entities the long answer never writes"),
                      (unstated, "no sentence of the long answer states (its relation and its "
                                 "entities, or words that refer to them, in the sentence it quotes)")):
        if left:
            quoted = "; ".join(f"'{p.subject} {p.relation} {p.object}'" for p in left)
            signals.append(Signal(kind="unanchored_proposition", severity="soft", message=(
                f"left out of the chain: {len(left)} proposition(s) {why}: {quoted}")))
    if reply.cut is not None:
        signals.append(_cut_signal(reply.cut.kept, reply.cut.repeats, reply.cut.limit))
    return Extraction(propositions=props, mentions=mentions,
                      question_entities=list(reply.question_entities) or None, signals=signals)


def stated(long_answer: str, given: LLMProposition) -> bool:
    """Whether the sentence `given` quotes (else any sentence, when it quotes none that is
    written) states it: a content word of its relation there, and its subject and object
    written there, one of them perhaps referred to instead ("She starred in Glass Harbor"
    states 'Marta Ellison starred in Glass Harbor'), both only by pronouns."""
    span = locate(long_answer, given.text) if given.text.strip() else None
    if span is not None:
        return _states(_sentence_at(long_answer, span), given)
    return any(_states(sentence, given) for sentence in _sentences(long_answer))


def _states(sentence: str, given: LLMProposition) -> bool:
    # A placeholder ("related to") claims no relation of its own: its names must be there.
    relation = [] if given.relation.strip().casefold() in PLACEHOLDER_RELATIONS else content(
        given.relation).split()
    said = words(sentence)
    if relation and not any(_same_word(r, w) for r in relation for w in said):
        return False
    missing = sum(not _named(sentence, said, a) for a in (given.subject, given.object) if a.strip())
    referring = sum(w in PRONOUNS for w in words(sentence))
    return missing <= 1 or missing <= referring


def _named(sentence: str, said: list[str], name: str) -> bool:
    """`name` written in the sentence, whole or by a word of it ("Ravorne" for "Peric Ravorne")."""
    return locate(sentence, name) is not None or any(
        len(w) > 3 and w in said for w in words(name))


def _same_word(a: str, b: str) -> bool:
    """"starred"/"star in", "borders"/"border", "directed"/"director", "won"/"win": one word's
    forms."""
    for x in {a, IRREGULAR_VERBS.get(a, a)}:
        for y in {b, IRREGULAR_VERBS.get(b, b)}:
            if crude_stem(x) == crude_stem(y):
                return True
            sx, sy = stem(x), stem(y)
            if sx == sy or (min(len(sx), len(sy)) >= 4 and (sx.startswith(sy) or sy.startswith(sx))):
                return True
    return False


def _sentences(text: str) -> list[str]:
    starts = [0, *(m.end() for m in _SENTENCE_END.finditer(text))]
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)]) if text[a:b].strip()]


def _sentence_at(text: str, span: tuple[int, int]) -> str:
    """The sentence(s) of `text` that hold `span`."""
    starts = [0, *(m.end() for m in _SENTENCE_END.finditer(text))]
    begin = max(s for s in starts if s <= span[0])
    end = min([s for s in starts if s >= span[1]] or [len(text)])
    return text[begin:end]


def _cut_signal(kept: int, repeats: int, limit: int | None) -> Signal:
    where = f"--llm-max-tokens {limit}" if limit is not None else "the server's"
    dropped = f", {repeats} verbatim repeat(s) dropped" if repeats else ""
    return Signal(kind="cut_reply", severity="soft", message=(
        f"the model's decomposition was cut at the token limit ({where}): kept the {kept} "
        f"proposition(s) it finished{dropped}; any after the cut are missing. Raise "
        "--llm-max-tokens, or use a larger model if it repeats itself"))


def _proposition(long_answer: str, given: LLMProposition, number: int) -> Proposition:
    span = locate(long_answer, given.text) if given.text.strip() else None
    text = long_answer[span[0]:span[1]] if span else " ".join(
        p for p in (given.subject, given.relation, given.object) if p)
    sentence = len(_SENTENCE_END.findall(long_answer, 0, span[0])) if span else number - 1
    return Proposition(
        id=f"P{number}", text=text, subject=given.subject, relation=given.relation,
        object=given.object, citations=list(given.citations), negated=given.negated,
        hedged=given.hedged, sentence=sentence, span=span or (0, 0), pattern="llm",
        conclusion=given.conclusion)


def locate(text: str, needle: str) -> tuple[int, int] | None:
    """The span of `needle` in `text`: exact (ignoring case), else a close fuzzy match."""
    needle = needle.strip()
    if not needle:
        return None
    at = text.lower().find(needle.lower())
    if at >= 0:
        return at, at + len(needle)
    from rapidfuzz import fuzz

    found = fuzz.partial_ratio_alignment(needle.lower(), text.lower(),
                                         score_cutoff=ANCHOR_SIMILARITY)
    if found is None:
        return None
    start, end = found.dest_start, found.dest_end
    while start < end and text[start].isspace():
        start += 1  # the alignment may take in the space before a word
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if end > start else None
