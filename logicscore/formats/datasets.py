"""Public multi-hop QA records (2WikiMultihopQA, HotpotQA, MuSiQue) parsed
into `Item`s: the gold hops in question → answer order, each hop its supporting sentences
as an answer would write them (docs/measurements.md). One parser per dataset; each reads the record's
own fields only and raises KeyError/TypeError/IndexError on a record of another shape.
"""

from __future__ import annotations

import re
from typing import Any

from rapidfuzz import fuzz

from .items import Hop, Item, Line
from .text import (
    as_answer_line, capitalized_phrases, carries, closeness, contains, content_words, display_title,
    finish, names_entity, norm, split_sentences,
)


def _lines(paragraph: list[str] | tuple[str, ...], title: str, hop: int | None, role: str,
           indices: list[int] | None = None) -> list[Line]:
    out = []
    for i in indices if indices is not None else range(len(paragraph)):
        text, prefixed = as_answer_line(paragraph[i], title)
        out.append(Line(text=text, title=title, hop=hop, role=role, prefixed=prefixed))
    return out


def _paragraphs(context: list[list[Any]]) -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    for title, sentences in context:
        table.setdefault(title, sentences)  # the first paragraph of a repeated title
    return table


def _supporting(obj: dict) -> dict[str, list[int]]:
    """Supporting sentence indices per title, titles in supporting-fact order."""
    by_title: dict[str, list[int]] = {}
    for title, index in obj["supporting_facts"]:
        if index not in by_title.setdefault(title, []):
            by_title[title].append(index)
    return {t: sorted(ix) for t, ix in by_title.items()}


def _pool(title: str, sentences: list[str]) -> list[Line]:
    # Kept raw: only the few picked get the "Title: " prefix (`cases.add_distractors`).
    return [Line(text=finish(s), title=title, role="distractor") for s in sentences if s.strip()]


def _distractor_pool(context: dict[str, list[str]], gold_titles: set[str]) -> tuple[Line, ...]:
    return tuple(line for title, sents in context.items() if title not in gold_titles
                 for line in _pool(title, sents))


def _hops(context: dict[str, list[str]], ordered: list[str], support: dict[str, list[int]]
          ) -> tuple[Hop, ...]:
    hops = []
    for i, title in enumerate(ordered):
        valid = [ix for ix in support[title] if ix < len(context.get(title, []))]
        hops.append(Hop(title=title, lines=tuple(_lines(context[title], title, i, "gold", valid))))
    return tuple(h for h in hops if h.lines)


def _source(context: dict[str, list[str]], support: dict[str, list[int]]) -> str:
    return " ".join(s.strip() for title in support for s in context.get(title, []))


def parse_2wiki(obj: dict) -> Item:
    """2WikiMultihopQA: hops ordered by the gold `evidences` chain; compositional is scored."""
    context = _paragraphs(obj["context"])
    support = _supporting(obj)
    evidences = tuple(tuple(e) for e in obj.get("evidences") or [])
    subjects = [norm(display_title(e[0])) for e in evidences]

    def rank(title: str) -> int:
        if not subjects:
            return 0
        scores = [fuzz.token_set_ratio(norm(display_title(title)), s) for s in subjects]
        return max(range(len(scores)), key=lambda i: (scores[i], -i))

    ordered = sorted(support, key=rank)  # stable: supporting-fact order breaks ties
    return Item(
        dataset="2wikimultihopqa", id=obj["_id"], qtype=obj["type"],
        scored=obj["type"] == "compositional", question=obj["question"], answer=obj["answer"],
        hops=_hops(context, ordered, support),
        distractors=_distractor_pool(context, set(support)), evidences=evidences,
        source=_source(context, support),
    )


def _hotpot_order(obj: dict, context: dict[str, list[str]], support: dict[str, list[int]]
                  ) -> tuple[list[str], str]:
    """Bridge paragraph first, the paragraph containing the answer last (and why)."""
    titles = list(support)
    if len(titles) < 2:
        return titles, "single paragraph"
    text = {t: " ".join(context[t][i] for i in support[t] if i < len(context[t])) for t in titles}
    has_answer = {t: contains(text[t], obj["answer"]) for t in titles}
    if sum(has_answer.values()) == 1:
        return sorted(titles, key=lambda t: has_answer[t]), "answer paragraph last"
    # The bridge entity is the answer paragraph's title, named in the other paragraph.
    named = {t: any(contains(text[o], display_title(t)) for o in titles if o != t) for t in titles}
    if sum(named.values()) == 1:
        return sorted(titles, key=lambda t: named[t]), "bridge title named by the other"
    in_question = {t: contains(obj["question"], display_title(t)) for t in titles}
    if sum(in_question.values()) == 1:
        return sorted(titles, key=lambda t: not in_question[t]), "question's paragraph first"
    return titles, "supporting-fact order"


def parse_hotpot(obj: dict) -> Item:
    """HotpotQA: the answer's paragraph last; bridge questions scored, comparison/yes-no not."""
    context = _paragraphs(obj["context"])
    support = _supporting(obj)
    ordered, why = _hotpot_order(obj, context, support)
    yes_no = obj["answer"].strip().lower() in ("yes", "no")
    qtype = "yes/no" if yes_no else obj["type"]
    return Item(
        dataset="hotpotqa", id=obj["_id"], qtype=qtype, scored=qtype == "bridge",
        question=obj["question"], answer=obj["answer"], hops=_hops(context, ordered, support),
        distractors=_distractor_pool(context, set(support)), notes=(f"order: {why}",),
        source=_source(context, support),
    )


_REF = re.compile(r"#(\d+)")


def _step_input(step: dict, answers: list[str], question: str
                ) -> tuple[list[str], list[str], set[str]]:
    """Where a decomposition step starts: its names (the "X >> relation" subject, or the
    earlier answers a free-text step refers to as "#k"), and for a free-text step the record
    question's names it mentions (the step is often lower case: "who played truman capote")
    and its other content words."""
    def answer(match: re.Match) -> str:
        k = int(match.group(1)) - 1
        return answers[k] if 0 <= k < len(answers) else ""

    text = step["question"]
    if ">>" in text:
        subject = _REF.sub(answer, text.split(">>", 1)[0]).strip()
        return ([subject] if subject else []), [], set()
    names = [n for n in (answer(m) for m in _REF.finditer(text)) if n]
    # Words of the sub-answer name the hop's end, not its start ("Mach" in "Mach's principle").
    words = content_words(_REF.sub(" ", text)) - content_words(step["answer"])
    phrases = [p for p in capitalized_phrases(question) if content_words(p) & words]
    return names, phrases, words


def _musique_step(sentences: list[str], title: str, step: dict, answers: list[str],
                  question: str) -> tuple[list[int], list[str]]:
    """The step's sentences: those carrying its sub-answer, plus, when none of them names
    where the hop starts, the one sentence that best does (a hop that states its answer
    but not its link leaves the gold answer incomplete)."""
    notes = []
    chosen = [i for i, s in enumerate(sentences) if carries(s, step["answer"])]
    verbatim = bool(chosen)
    if not chosen and sentences:
        chosen = [max(range(len(sentences)),
                      key=lambda i: (closeness(sentences[i], step["answer"]), -i))]
        notes.append(f"sub-answer {step['answer']!r} not verbatim; closest sentence used")
    names, phrases, words = _step_input(step, answers, question)
    # Judged as written, "Title: " prefix included: a prefix naming the subject links the hop.
    have = " ".join(as_answer_line(sentences[i], title)[0] for i in chosen)
    missing_names = [n for n in names + phrases if not names_entity(have, n)]
    missing_words = words - content_words(have)
    # One shared word ("born", "played") is the relation, not the subject, once the chosen
    # sentences name the step's "#k" or share a word with it; with neither, one word may be
    # all the subject there is ("Mach's principle" → "principle").
    enough = 1 if not names and missing_words == words else 2
    if not missing_names and len(missing_words) < enough:
        return chosen, notes

    def score(i: int) -> tuple:
        # The sentence itself must do the naming: a "Title: " prefix would let any sentence.
        named = sum(names_entity(sentences[i], n) for n in missing_names)
        found = len(content_words(sentences[i]) & missing_words)
        return (named, found, carries(sentences[i], step["answer"]),
                0 if verbatim else closeness(sentences[i], step["answer"]), -i)

    others = [i for i in range(len(sentences)) if i not in chosen]
    if others:
        best = max(others, key=score)
        named, found = score(best)[:2]
        if named or found >= enough:
            chosen = sorted(chosen + [best])
            notes.append(f"sentence {best + 1} added for the step's input")
    return chosen, notes


def parse_musique(obj: dict) -> Item:
    """MuSiQue: per decomposition step, the supporting paragraph's sentences with its sub-answer
    and, where those do not name it, one sentence naming the step's input."""
    paragraphs = obj["paragraphs"]
    answers = [step["answer"] for step in obj["question_decomposition"]]
    seen: set[str] = set()
    hops: list[Hop] = []
    notes: list[str] = []
    for step_no, step in enumerate(obj["question_decomposition"]):
        para = paragraphs[step["paragraph_support_idx"]]
        sentences = split_sentences(para["paragraph_text"])
        chosen, step_notes = _musique_step(sentences, para["title"], step, answers, obj["question"])
        notes.extend(f"step {step_no + 1}: {n}" for n in step_notes)
        lines = [ln for ln in _lines(sentences, para["title"], step_no, "gold", chosen)
                 if ln.text not in seen]
        seen.update(ln.text for ln in lines)
        hops.append(Hop(title=para["title"], lines=tuple(lines)))
    distractors = tuple(
        line for p in paragraphs if not p["is_supporting"]
        for line in _pool(p["title"], split_sentences(p["paragraph_text"])))
    return Item(
        dataset="musique", id=obj["id"], qtype=obj["id"].split("__")[0], scored=True,
        question=obj["question"], answer=obj["answer"], hops=tuple(h for h in hops if h.lines),
        distractors=distractors, notes=tuple(notes),
        source=" ".join(p["paragraph_text"] for p in paragraphs if p["is_supporting"]),
    )
