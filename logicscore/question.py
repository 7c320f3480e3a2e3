"""Question entities (SPEC §4.3): what the question names, and which of those are anchors."""

from __future__ import annotations

import re
from typing import Any

from .models import QuestionEntity
from .nlp import load, parse, unknown_word
from .lexicon.dates import CALENDAR_WORDS
from .lexicon.function_words import CONNECTORS, TITLE_CONNECTORS, WH_WORDS
from .lexicon.generic import is_generic
from .lexicon.kinds import WORK_NOUNS
from .lexicon.names import EPITHET, PARENTHESIS

_COMPARE = re.compile(r",\s*(?P<a>[^,]+?)\s+or\s+(?P<b>[^?]+?)[\s?.]*$")
_NAME_START = re.compile(r"^[\"“‘'(]?[A-Z0-9]")
_QUOTED = re.compile(r"\"([^\"]{2,120})\"|“([^”]{2,120})”|‘([^’]{2,120})’")
_SKIP_LABELS = frozenset({"ORDINAL"})
_GENERIC_LABELS = frozenset({"NORP", "LANGUAGE"})


_CACHE: dict[tuple[int, str, str], list[QuestionEntity]] = {}
_CACHE_SIZE = 4096


def detect_question_entities(question: str, nlp: Any = None,
                             context: str | None = None) -> list[QuestionEntity]:
    """Entities named in `question`, in order of appearance, generic ones with anchor=False.

    Args:
        question: the question text.
        nlp: a loaded spaCy pipeline; the default one is loaded when None.
        context: the long answer, when known: a title that it writes out ("The Fox and the
            Hound", "Avengers: Age of Ultron") is preferred to the pieces the question's
            case and punctuation suggest, and a name is given as the answer writes it. What
            the answer never names stays as the question has it.
    """
    if nlp is None:
        nlp = load()
    key = (id(nlp), question, context or "")
    if key not in _CACHE:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()  # audits of one question's variants come together; keep it simple
        _CACHE[key] = _detect(question, nlp, context)
    return [q.model_copy() for q in _CACHE[key]]


def _detect(question: str, nlp: Any, context: str | None) -> list[QuestionEntity]:
    doc = parse(nlp, question)
    spans = _candidates(doc)
    written = None
    if context:
        from .question_context import Written, named_windows, prefer_written, widen, written_form

        written = Written(context)
        spans = widen(doc, spans, written)
        spans = prefer_written(doc, spans + named_windows(doc, spans, written), written)
    out: list[QuestionEntity] = []
    seen: set[str] = set()
    asked = _wh_phrases(doc)
    for start, end, label in spans:
        name = _clean(question[start:end])
        # NER reads a band as a people ("The Joggers are …"); a real people is a known word.
        band = label in _GENERIC_LABELS and question[max(0, start - 4):start] == "The "
        generic = label in _GENERIC_LABELS and not band or is_generic(name)
        # "what National sports league", "which Hells Angel member": what is asked for
        # describes the answer; it is no chain end.
        generic = generic or any(a <= start and end <= b for a, b in asked)
        if written is not None and label != "QUOTE" and not generic:
            name = written_form(name, written, question)
        if not name or name.lower() in seen or name.lower() in WH_WORDS:
            continue
        seen.add(name.lower())
        out.append(QuestionEntity(name=name, anchor=not generic))
    return out


def _wh_phrases(doc: Any) -> list[tuple[int, int]]:
    """Character spans of "what/which … noun" phrases."""
    return [(t.idx, _end(t.head)) for t in doc
            if t.lower_ in ("what", "which") and t.dep_ == "det" and t.head.i > t.i]


def _candidates(doc: Any) -> list[tuple[int, int, str]]:
    """Character spans with a label, overlaps resolved longest-first, in text order."""
    text = doc.text
    found: list[tuple[int, int, str]] = []
    for m in _QUOTED.finditer(text):
        g = next(i for i in (1, 2, 3) if m.group(i))
        found.append((m.start(g), m.end(g), "QUOTE"))
    for ent in doc.ents:
        if ent.label_ in _SKIP_LABELS:
            continue
        label = ent.label_
        # Band names ending in a digit get tagged DATE/CARDINAL ("Maroon 5").
        if label in ("DATE", "CARDINAL") and ent[0].is_title and ent[0].lower_ not in CALENDAR_WORDS:
            label = "RELABELLED"
        found.extend(_split_or(ent, label))
    found.extend(proper_runs(doc))
    found.extend(_title_runs(doc))
    found.extend(_work_titles(doc))
    found = [s for s in (_trim(doc, s) for s in found) if s is not None]
    found = [_numbered(text, s) for s in found]
    # Lowercase words alone ("year", "god", "third season") name no specific thing.
    found = [s for s in found if s[2] == "QUOTE" or any(
        ch.isupper() or ch.isdigit() for ch in text[s[0]:s[1]])]
    # "Bill Patterson (Racing Driver)": the parenthesis says which one; it is not an entity.
    found = [s for s in found if not _disambiguator(text, s)]
    epithets = [m.span() for m in EPITHET.finditer(text)]
    found = [s for s in found if not any(s[0] < e and b < s[1] for b, e in epithets)]
    # "…, X or Y?" names two whole things, even when they contain lowercase or commas.
    compared = [s for s in (_trim(doc, s) for s in _comparison(text)) if s is not None]
    return longest_first(found, compared)


def longest_first(spans: list[tuple[int, int, str]],
                  kept: list[tuple[int, int, str]] | None = None) -> list[tuple[int, int, str]]:
    """`kept` and, longest (then leftmost) first, each span overlapping none taken before,
    in text order."""
    kept = list(kept or [])
    for s in sorted(spans, key=lambda s: (-(s[1] - s[0]), s[0])):
        if not any(s[0] < k[1] and k[0] < s[1] for k in kept):
            kept.append(s)
    return sorted(kept)


def _disambiguator(text: str, span: tuple[int, int, str]) -> bool:
    return any(m.start(1) <= span[0] and span[1] <= m.end(1) for m in PARENTHESIS.finditer(text))


# A model or series number continues the name before it ("BAe 146", "Super Bowl 50"); a
# year does not ("Wimbledon 2010" is the 2010 edition of Wimbledon).
_MODEL_NUMBER = re.compile(r" (?!1\d{3}\b|20\d{2}\b)\d{1,4}\b(?![.,:]?\d|%| ?-)")


def _numbered(text: str, span: tuple[int, int, str]) -> tuple[int, int, str]:
    start, end, label = span
    m = _MODEL_NUMBER.match(text, end)
    if label == "QUOTE" or not m or not text[start:end][-1:].isalpha():
        return span
    return (start, m.end(), label)


def _title_runs(doc: Any) -> list[tuple[int, int, str]]:
    """Two or more capitalised words mid-sentence, none of them a proper noun to the
    tagger, still name something: "the Oh Yeah performer", "sang Let It Be"."""
    def capital(tok: Any) -> bool:
        return tok.is_title and tok.i != tok.sent.start and tok.text != "I" \
            and tok.lower_ not in WH_WORDS

    out: list[tuple[int, int, str]] = []
    run: list[Any] = []
    for tok in [*doc, None]:
        if tok is not None and capital(tok):
            run.append(tok)
            continue
        if len(run) >= 2 and not any(_proper(t) for t in run):
            out.append((run[0].idx, _end(run[-1]), "PROPN"))
        run = []
    return out


def _work_titles(doc: Any) -> list[tuple[int, int, str]]:
    """ "film Everything I Like", "song In Heaven": after a work noun, a capitalised run is a
    title even when the tagger calls its words pronouns or prepositions."""
    out: list[tuple[int, int, str]] = []
    toks = list(doc)
    for i, tok in enumerate(toks[:-1]):
        if tok.lower_ not in WORK_NOUNS or not (toks[i + 1].is_title or toks[i + 1].like_num):
            continue
        j = i + 1
        while j < len(toks) and (toks[j].is_title or toks[j].like_num or toks[j].is_upper
                                 or toks[j].lower_ in TITLE_CONNECTORS or toks[j].text in ("'", "’", "'s", "’s")):
            j += 1
        while j > i + 1 and (toks[j - 1].lower_ in TITLE_CONNECTORS or toks[j - 1].is_punct):
            j -= 1
        if j > i + 1:
            out.append((toks[i + 1].idx, _end(toks[j - 1]), "TITLE"))
    return out


def _comparison(text: str) -> list[tuple[int, int, str]]:
    m = _COMPARE.search(text)
    if not m or not all(_NAME_START.match(m.group(g)) for g in ("a", "b")):
        return []
    return [(m.start("a"), m.end("a"), "COMPARE"), (m.start("b"), m.end("b"), "COMPARE")]


def _split_or(span: Any, label: str) -> list[tuple[int, int, str]]:
    """'X or Y' inside one span names two things (comparison questions)."""
    parts: list[tuple[int, int, str]] = []
    start = span.start
    for tok in span:
        if tok.lower_ == "or":
            if tok.i > start:
                parts.append((span.doc[start].idx, _end(span.doc[tok.i - 1]), label))
            start = tok.i + 1
    if start < span.end:
        parts.append((span.doc[start].idx, _end(span.doc[span.end - 1]), label))
    return parts


def proper_runs(doc: Any) -> list[tuple[int, int, str]]:
    """Runs of proper nouns (inner of/de/la/von allowed) as (start, end, "PROPN") char spans."""
    runs: list[tuple[int, int, str]] = []
    toks = list(doc)
    i = 0
    while i < len(toks):
        if not _proper(toks[i]):
            i += 1
            continue
        # After "film"/"song" a title may hold lowercase words: "film Sleepless in Seattle".
        before = toks[i - 2:i] if i > 1 else toks[:i]
        titled = any(t.lower_ in WORK_NOUNS for t in before) and (
            i == 0 or toks[i - 1].lower_ in WORK_NOUNS or toks[i - 1].pos_ == "DET")
        inner = TITLE_CONNECTORS if titled else CONNECTORS
        j = i + 1
        while j < len(toks):
            if _proper(toks[j]):
                j += 1
                continue
            # "of", "of the" between proper nouns: "Bank of the United States".
            k = j
            # A lowercase verb ends a title: "the film Kamamar is Mana Norling".
            while k < len(toks) and k - j < 2 and (toks[k].lower_ in inner or (
                    k > j and toks[k].lower_ == "the")) and not (
                    toks[k].is_lower and toks[k].pos_ in ("VERB", "AUX")):
                k += 1
            if k > j and k < len(toks) and _proper(toks[k]):
                j = k
            else:
                break
        runs.append((toks[i].idx, _end(toks[j - 1]), "PROPN"))
        i = j
    return runs


def _proper(tok: Any) -> bool:
    if tok.lower_ in WH_WORDS or tok.tag_ in ("WDT", "WP", "WP$", "WRB"):
        return False
    if tok.pos_ == "PROPN":
        return tok.i != tok.sent.start or tok.tag_ == "NNP"
    if unknown_word(tok):
        return True  # an invented or foreign name, whatever the tagger made of it
    if not tok.is_title or tok.pos_ not in ("NOUN", "ADJ", "X"):
        return False
    if tok.i != tok.sent.start:
        return True  # capitalised mid-sentence words the tagger called NOUN are mostly names
    # A sentence-initial singular subject without a determiner: "Inception was directed…".
    return (tok.tag_ == "NN" and tok.dep_ in ("nsubj", "nsubjpass")
            and not any(c.dep_ == "det" for c in tok.children))


def _trim(doc: Any, span: tuple[int, int, str]) -> tuple[int, int, str] | None:
    """Drop a leading wh-word or article and a trailing possessive from a span."""
    start, end, label = span
    text = doc.text[start:end]
    m = re.match(r"^(?:(?:which|what|whose|the|a|an)\s+)+", text, re.I)
    if m:
        start += m.end()
    m = re.search(r"(?:'s|’s|')$", doc.text[start:end])
    if m:
        end -= len(m.group(0))
    if label != "QUOTE" and re.search(r"[A-Z0-9]", doc.text[start:end]):
        # Lowercase words at either end describe the name: "song Cry", "Lego Batman movie",
        # "Beyonce's first".
        m = re.match(r"^(?:[a-z][\w-]*\s+)+", doc.text[start:end])
        if m:
            start += m.end()
        m = re.search(r"(?:(?:'s|’s)?\s+[a-z][\w-]*)+$", doc.text[start:end])
        if m and not doc.text[start:end].endswith(tuple(f" {w}" for w in CONNECTORS)):
            end -= len(m.group(0))
    return (start, end, label) if end > start else None


def _clean(name: str) -> str:
    if name.count("(") > name.count(")"):
        name = name[:name.rindex("(")]  # "Euphoria (Usher Song" cut by the tokenizer
    return name.strip().strip(",;:?!").strip()


def _end(tok: Any) -> int:
    return tok.idx + len(tok)


_ROLE_BEFORE = r"(?:play(?:s|ed|ing)?|voic(?:es|ed|ing)|portray(?:s|ed|ing)?|w[io]ns?|winning)"


def role_name(question: str, name: str) -> bool:
    """Whether the question uses `name` as a role or an award: "who played Scarlett in Gone
    with the Wind", "the actor of Ethan in A Dog's Purpose", "Nim's actress in …", "win a Tony"."""
    if not question or not name:
        return False
    n = re.escape(name)
    if re.search(rf"\b{_ROLE_BEFORE}\s+(?:an?\s+|the\s+)?{n}\b", question, re.I):
        return True
    # "X in <Work>" is a role only in a question about casting, not "born in Paris in France".
    return bool(_CASTING.search(question) and re.search(
        rf"\b{n}(?:['’]s\s+\w+)?\s+(?:in|on)\s+(?:the\s+)?[\"“]?[A-Z]", question))


_CASTING = re.compile(r"\b(?:play|voice|portray|actor|actress|character|role|cast)", re.I)
