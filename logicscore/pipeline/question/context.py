"""Question candidates read against the long answer (docs/metrics.md): a title the answer writes
out in full beats the pieces the question's capitalisation suggests. What the answer never
names is left as the question has it: an anchor the answer lacks must stay an anchor."""

from __future__ import annotations

import re
from typing import Any

from ...lexicon.dates import CALENDAR_WORDS
from ...lexicon.function_words import CONTEXT_PREPOSITIONS, TITLE_CONNECTORS, TITLE_SMALL_WORDS
from ...lexicon.generic import is_generic
from ...lexicon.kinds import DESCRIPTOR_NOUNS, DESCRIPTORS
from ...lexicon.names import ARTICLES, QUESTION_HONORIFICS
from ...lexicon.questions import WH_DETERMINERS
from ...lexicon.text import fold_char
from ...parsing.loader import doc_text, range_starting, range_within, token_bounds, unknown_word
from ..text.question_forms import JOINING_WORDS, Candidate, longest_first, token_end
from .rules import disambiguator_spans, epithet_spans
from .written import Written, opens_sentence

_WINDOW_STOP = JOINING_WORDS | frozenset({"'s", "’s"})
_INNER_PUNCT = frozenset({"-", "&", "'", "’", ",", ":", "–", "—", "/", "!", "."})
_MAX_WINDOW = 12
_TITLE_AFTER = re.compile(r"[\"”’']?\s*(?:\(|:|(?:is|was|were|are)\b)")
_ARTICLE = re.compile(r"(?:the|a|an)\s+", re.I)


def _digits(tok: Any) -> bool:
    return _has_digit(tok.text)


def _has_digit(word: str) -> bool:
    """`word` holds a digit (a word of letters alone, the most, holds none: asked first)."""
    return not word.isalpha() and any(map(str.isdigit, word))


def widen(doc: Any, spans: list[Candidate], written: Written) -> list[Candidate]:
    """Replace candidates by the longest window around them that the context writes out."""
    toks = list(doc)
    bounds = token_bounds(doc)
    starts = {a: i for i, a in enumerate(bounds[0])}
    ends = {b: i for i, b in enumerate(bounds[1])}
    text = doc_text(doc)
    # What the windows ask of each token, read once for all of them: capitalised or a
    # number; a mark no name runs across; a title word (capitalised, or the small words
    # of titles).
    # (A token's text is sliced from the Doc's, and lowercased as spaCy's `lower_` is:
    # both cheaper than reading the Token.)
    capital, stops, title, lowers = [], [], [], []
    for t, lo, hi in zip(toks, *bounds):
        word, titled = text[lo:hi], t.is_title
        low = word.lower()
        lowers.append(low)
        capital.append(titled or _has_digit(word))
        stops.append(word in ("?", ",", ";", "(", ")", ":"))
        title.append(titled or t.like_num or t.is_upper or low in TITLE_CONNECTORS
                     or word in ("'s", "’s", "&", "-"))
    wide: list[Candidate] = []
    for span in spans:
        start, end = span.start, span.end
        a, b = starts.get(start), ends.get(end)
        if a is None or b is None or span.quoted:
            continue
        best = None
        for i in range(max(0, a - 3), a + 1):
            if i < a and not capital[i]:
                continue
            # The question's first word is capitalised by its place: a preposition there
            # ("In The Long Hall, who …") opens no name, though the answer writes "in …".
            if i < a and i == 0 and lowers[i] in CONTEXT_PREPOSITIONS:
                continue
            for j in range(b, min(len(toks), b + 5)):
                # Only capitalised words or numbers end a wider window: lowercase words at
                # its end describe the name.
                if j > b and (lowers[j] in JOINING_WORDS or not capital[j]):
                    continue
                if any(stops[i:j + 1]):
                    break
                # Title words only, never a description between two names.
                if not all(title[i:j + 1]):
                    continue
                # Only a wider window than the best yet is worth the tests below.
                if (i, j) == (a, b) or (best is not None and j - i <= best[1] - best[0]):
                    continue
                # A window never cuts another candidate in two.
                lo, hi = bounds[0][i], bounds[1][j]
                if any(s.start < hi and lo < s.end and not s.within(lo, hi) for s in spans):
                    continue
                if text[lo:hi] in written:
                    best = (i, j)
        # A generic span (a nationality, a year) is never widened: asked only of a span the
        # answer would widen.
        if best is not None and not is_generic(text[start:end]):
            wide.append(Candidate(bounds[0][best[0]], bounds[1][best[1]], "CONTEXT"))
    return longest_first(wide + spans)


def named_windows(doc: Any, spans: list[Candidate], written: Written) -> list[Candidate]:
    """Question windows the long answer writes as a whole name, read case- and
    punctuation-blind, even a title that opens with a question word or holds a comma. A
    single word counts only when lowercase in the question and no dictionary word."""
    toks, text = list(doc), doc_text(doc)
    found: list[Candidate] = []
    bars = _Bars(doc, spans, written)
    starts, ends = token_bounds(doc)
    words, lowers, puncts, lowercase = _marks(toks, text, starts, ends)
    for i, first in enumerate(toks):
        if not words[i][:1].isalnum() or lowers[i] in ARTICLES:
            continue
        # Mid-question, a capitalised question word opens a title.
        if lowers[i] in _WINDOW_STOP and not (i > 0 and first.is_title):
            continue
        lowered = False  # the window holds a lowercase word
        for j in range(i, min(len(toks), i + _MAX_WINDOW)):
            if puncts[j] and words[j] not in _INNER_PUNCT:
                break
            lowered = lowered or lowercase[j]
            if not (words[j][:1].isalnum() or lowers[j] in ("n't", "n’t")) or (
                    lowers[j] in _WINDOW_STOP):
                continue
            lo, hi = starts[i], ends[j]
            if text[lo:hi] not in written:
                # The cheapest test. Past a word boundary, every longer window folds to this
                # one and more words: the answer writes none of them either.
                if _parted(text, hi) and written.folded(text[lo:hi]) != "  ":
                    break
                continue
            if j == i and (not lowered or not unknown_word(_Capitalised(first))):
                continue  # single capitalised words are the other detectors' job
            # The wh-phrase's noun is what is asked, not a name.
            if i > 0 and lowers[i - 1] in WH_DETERMINERS and first.is_lower:
                continue
            # Only a window the answer writes as a name can be one: asked before the dearer
            # tests below.
            if not written.names(text[lo:hi]) or bars.dated_or_barred(i, j, lo, hi):
                continue
            if bars.second_place(i, j, words) or bars.cuts_name(lo, hi):
                continue
            if any(_cuts(doc, toks, (lo, hi), s, written) for s in spans):
                continue
            if _window_named(doc, toks, (i, j), (lo, hi), spans, written):
                found.append(Candidate(lo, hi, "CASED"))
    return found


class _Bars:
    """What keeps a question's window from being one title, read once per question (most
    questions hold no epithet, bracket, date or place: each test waits for one)."""

    def __init__(self, doc: Any, spans: list[Candidate], written: Written):
        text = doc_text(doc)
        # Epithets and dates belong to no title; a parenthesis after a name says which one
        # is meant, it names nothing asked.
        self.barred = [*epithet_spans(text), *disambiguator_spans(text)]
        ents = doc.ents  # (a tuple of Spans made at each read)
        self.dates = {i: e.start for e in ents if e.label_ in ("DATE", "TIME")
                      for i in range(e.start, e.end)}
        self.datey = {i for i in self.dates if doc[i].is_digit or doc[i].lower_ in CALENDAR_WORDS}
        self.places = {e.start for e in ents if e.label_ in ("GPE", "LOC")}
        self._doc, self._spans, self._written = doc, spans, written
        self._named: list[tuple[int, int]] | None = None

    def dated_or_barred(self, i: int, j: int, lo: int, hi: int) -> bool:
        """Tokens `i..j` (characters [lo, hi)) overlap an epithet or a bracket, or span two dates."""
        if self.barred and any(a < hi and lo < b for a, b in self.barred):
            return True
        return bool(self.datey) and any(k in self.datey for k in range(i, j + 1)) and len(
            {self.dates.get(k, -1) for k in range(i, j + 1)}) > 1

    def second_place(self, i: int, j: int, words: list[str]) -> bool:
        """A place after a comma in tokens `i..j` is a second name (a town, then its state)."""
        return bool(self.places) and any(
            words[k] == "," and k + 1 in self.places for k in range(i, j + 1))

    def cuts_name(self, lo: int, hi: int) -> bool:
        """The window cuts a name the answer writes among the candidates (those read once,
        when a window first gets this far)."""
        if self._named is None:
            text = doc_text(self._doc)
            self._named = [(a, b) for a, b in _bare(self._doc, self._spans)
                           if self._written.names(text[a:b])]
        return any(a < lo < b < hi or lo < a < hi < b for a, b in self._named)


def _marks(toks: list[Any], text: str, starts: list[int], ends: list[int]
           ) -> tuple[list[str], list[str], list[bool], list[bool]]:
    """Each token's text, lowercase form, whether a mark, whether a lowercase word: read
    once, the window loops ask them of every window. The text is sliced from the Doc's
    `text` at the token's `starts` and `ends`, and lowercased as spaCy's `lower_` is:
    cheaper than reading either from the Token."""
    words = [text[a:b] for a, b in zip(starts, ends)]
    return (words, [w.lower() for w in words], [t.is_punct for t in toks],
            [t.is_lower and t.is_alpha for t in toks])


def _parted(text: str, at: int) -> bool:
    """The fold (`key`) of `text` parts words at `at`: a text ending there folds to the
    same words as any longer one, the longer one's words after them."""
    before, after = fold_char(text[at - 1]) if at else "", fold_char(text[at:at + 1])
    return before[-1:] == " " or after[:1] == " "


def _bare(doc: Any, spans: list[Candidate]) -> list[tuple[int, int]]:
    """Spans without a leading article (an article alone with a word is no name a longer
    title would cut)."""
    out, text = [], doc_text(doc)
    for s in spans:
        a, b = s.start, s.end
        m = _ARTICLE.match(text[a:b])
        out.append((a + m.end() if m else a, b))
    return out


def _cuts(doc: Any, toks: list[Any], window: tuple[int, int], span: Candidate,
          written: Written) -> bool:
    """Inside a run the question writes as one name, a piece must end where a joining word
    does, or leave a rest the answer writes too; it never cuts off a part the answer never
    names (a company's "LLC")."""
    lo, hi = window
    if not (span.start <= lo and hi <= span.end) or (span.start, span.end) == (lo, hi):
        return False
    for rest in _rest(doc, span, [Candidate(lo, hi, "")], toks):
        between = toks[range_starting(doc, min(rest.end, hi), max(rest.start, lo))]  # no Token made again
        if not any(t.is_lower or t.is_punct for t in between) and (
                not written.names(doc_text(doc)[rest.start:rest.end])):
            return True
    return False


def _window_named(doc: Any, toks: list[Any], tokens: tuple[int, int], chars: tuple[int, int],
                  spans: list[Candidate], written: Written) -> bool:
    """Whether the answer writes question tokens `toks[i..j]` (characters [lo, hi)) as one
    name; `named_windows` has already found that the answer writes the window, and as a
    name (`toks`: the Doc's tokens, made once for every window)."""
    (i, j), (lo, hi) = tokens, chars
    window = toks[i:j + 1]
    text = doc_text(doc)[lo:hi]
    if any(t.is_lower and t.is_alpha for t in window) and written.lowercase(text):
        return False
    # A lowercase word the answer capitalises only to open a sentence is no part of the
    # name, nor a lowercase verb the answer writes only after a sentence end.
    first, raw = window[0], written.raw
    if first.is_lower and first.is_stop and all(
            opens_sentence(raw, s) for s, _ in written.names(text)):
        return False
    verbs = [t.text for t in window if t.is_lower and t.pos_ in ("VERB", "AUX")]
    if verbs and all(re.search(r"[.:!?]\s+(?:%s)\b" % "|".join(map(re.escape, verbs)),
                               raw[s:e], re.I) for s, e in written.names(text)):
        return False
    # A comma-joined run is a list where the answer runs it on mid-sentence; a title with a
    # comma stands where a title does (opening a sentence, before "is" or a bracket).
    if any(t.text == "," for t in window) and not any(
            opens_sentence(raw, s) or _TITLE_AFTER.match(raw, e) or raw[s - 1:s] in ("\"", "“", "'")
            for s, e in written.names(text)):
        return False
    if j == i:
        return True
    # Names the question itself writes apart, joined by a lowercase word, stay apart
    # (a team in its league); a window that adds a word no detector took or reads a
    # lowercase question is a title.
    inside = [s for s in spans if s.within(lo, hi)]
    covered = all(any(s.start <= t.idx < s.end for s in inside) for t in window
                  if t.is_title or t.is_upper or _digits(t))
    joins = {t.lower_ for t in window if t.is_lower}
    if len(inside) > 1 and covered and joins & CONTEXT_PREPOSITIONS and joins <= TITLE_SMALL_WORDS and not any(
            t.is_punct for t in window):
        return False
    return not _several(doc, toks, i, j, written)


def _several(doc: Any, toks: list[Any], i: int, j: int, written: Written) -> bool:
    """The window is several names the answer also writes apart (two people joined by
    "and", a town and its state), not one title."""
    text = doc_text(doc)
    starts, ends = token_bounds(doc)
    whole = written.names(text[starts[i]:ends[j]])
    pieces, k = 0, i
    while k <= j:
        tok = toks[k]
        if not (tok.is_title or tok.is_upper or _digits(tok)) or tok.lower_ in JOINING_WORDS:
            k += 1
            continue
        for m in range(j, k - 1, -1):
            if _outside(written.names(text[starts[k]:ends[m]]), whole):
                break
        else:
            return False
        pieces, k = pieces + 1, m + 1
    return pieces >= 2


def _outside(spans: list[tuple[int, int]], whole: list[tuple[int, int]]) -> bool:
    """Some span of `spans` lies inside none of `whole` (plain loops: asked of every piece
    of a window, where generators cost more than the few spans they read)."""
    for s, e in spans:
        for a, b in whole:
            if a <= s and e <= b:
                break
        else:
            return True
    return False


class _Capitalised:
    """A token seen as if capitalised, for the dictionary test of `unknown_word`."""

    def __init__(self, tok: Any):
        self.text = tok.text[:1].upper() + tok.text[1:]
        self.vocab, self.is_alpha, self.is_stop = tok.vocab, tok.is_alpha, tok.is_stop


def prefer_written(doc: Any, spans: list[Candidate], written: Written) -> list[Candidate]:
    """Resolve overlaps: quotes first, then what the answer writes (longest first), then the
    rest. A span the answer never writes that loses to one it does keeps its other names
    (a character's name before "on <Show>")."""
    kept, text = [s for s in spans if s.quoted], doc_text(doc)
    absent = {s for s in spans if text[s.start:s.end] not in written}
    for s in sorted(spans, key=lambda s: (s in absent, -s.width, s.start)):
        if s.quoted:
            continue
        if not any(s.overlaps(k) for k in kept):
            kept.append(s)
        elif s in absent:
            kept.extend(r for r in _rest(doc, s, kept) if not any(
                r.overlaps(k) for k in kept))
    return sorted(kept)


def _rest(doc: Any, span: Candidate, kept: list[Candidate],
          tokens: list[Any] | None = None) -> list[Candidate]:
    """The proper-name pieces of `span` outside the `kept` spans (`tokens`: the Doc's,
    when already listed)."""
    toks = (list(doc) if tokens is None else tokens)[range_within(doc, span.start, span.end)]
    # What follows a bracket says which one is meant; it names nothing asked.
    toks = toks[:next((k for k, t in enumerate(toks) if t.text == "("), len(toks))]
    free = [t for t in toks if not any(k.start < token_end(t) and t.idx < k.end for k in kept)]
    runs: list[list[Any]] = []
    for t in free:
        if runs and runs[-1][-1].i == t.i - 1:
            runs[-1].append(t)
        else:
            runs.append([t])
    out: list[Candidate] = []
    text = doc_text(doc)
    for run in runs:
        while run and not _name_word(run[0]):
            run = run[1:]
        while run and not _name_word(run[-1]):
            run = run[:-1]
        # A title before a name ("Senator"), or a dictionary word capitalised to open the
        # question, is no name.
        if run and not is_generic(text[run[0].idx:token_end(run[-1])]) and not all(
                t.lower_ in QUESTION_HONORIFICS for t in run) and not (
                len(run) == 1 and run[0].i == 0 and not unknown_word(run[0])):
            out.append(Candidate(run[0].idx, token_end(run[-1]), "REST"))
    return out


def _name_word(tok: Any) -> bool:
    return (tok.is_title or tok.is_upper or _digits(tok)) and tok.lower_ not in JOINING_WORDS


def written_nouns(doc: Any, written: Written) -> list[Candidate]:
    """Lowercase nouns of a question that names nothing else, which the long answer writes
    as a name: "the discoverer of polonium" when the answer writes "Polonium was …". A kind
    or role word ("film", "director"), the asked-for noun, and a word the answer also writes
    in lowercase are no such name."""
    from .rules import ROLE_WORDS, wh_phrases

    asked = wh_phrases(doc)
    found: list[Candidate] = []
    for tok in doc:
        if tok.pos_ != "NOUN" or not tok.is_lower or tok.dep_ == "compound" or tok.is_stop:
            continue
        first = min([tok, *(c for c in tok.children if c.dep_ == "compound" and c.is_lower)],
                    key=lambda t: t.i)
        lo, hi = first.idx, token_end(tok)
        phrase = doc.text[lo:hi]
        if (any(w in DESCRIPTORS or w in DESCRIPTOR_NOUNS or w in ROLE_WORDS for w in phrase.split())
                or any(a <= lo < b for a, b in asked) or is_generic(phrase)
                or written.lowercase(phrase)):
            continue
        if any(written.names(phrase) or opens_sentence(written.raw, s)
               for s, _ in written.spans(phrase)):
            found.append(Candidate(lo, hi, "WRITTEN"))
    return found
