"""Loading a spaCy pipeline without building its tokenizer twice.

spaCy makes a pipeline's tokenizer from the language defaults (for English 2,694 special
cases and the affix regexes), then `from_disk` resets every one of its fields and loads the
serialized ones: the first build is thrown away (about a tenth of the model load). A pipeline
whose tokenizer is spaCy's own and is serialized is loaded with an empty one instead, which
`from_disk` fills. `Tokenizer.from_bytes` resets the same fields whatever the tokenizer held
before, so the loaded tokenizer is the same (tests/test_tokenizer.py compares their bytes).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import spacy

EMPTY_TOKENIZER = "logicscore.EmptyTokenizer.v1"
DEFAULT_TOKENIZER = {"@tokenizers": "spacy.Tokenizer.v1"}


def load_pipeline(load: Callable[..., spacy.Language], path: Path | None) -> spacy.Language:
    """`load()` (a pipeline package's `load`, or `spacy.load` of a name), with an empty
    tokenizer for `from_disk` to fill when the pipeline folder `path` serializes spaCy's own."""
    if not serializes_default_tokenizer(path):
        return load()
    from spacy import registry

    registry.tokenizers.register(EMPTY_TOKENIZER, func=empty_tokenizer)
    nlp = load(config={"nlp": {"tokenizer": {"@tokenizers": EMPTY_TOKENIZER}}})
    # The loaded tokenizer is spaCy's: the config says so, as it would have (a pipeline
    # saved from it loads without logicscore).
    config = nlp.config
    config["nlp"]["tokenizer"] = dict(DEFAULT_TOKENIZER)
    nlp.config = config
    return nlp


def serializes_default_tokenizer(path: Path | None) -> bool:
    """Whether the pipeline folder `path` has spaCy's own tokenizer in its config and that
    tokenizer's serialized fields, which `from_disk` loads."""
    from spacy.util import load_config

    if path is None or not (path / "tokenizer").is_file() or not (path / "config.cfg").is_file():
        return False
    return bool(load_config(path / "config.cfg")["nlp"].get("tokenizer") == DEFAULT_TOKENIZER)


def empty_tokenizer() -> Callable[[spacy.Language], Any]:
    """spaCy's tokenizer with no special cases, affixes or matches."""
    from spacy.tokenizer import Tokenizer

    return lambda nlp: Tokenizer(nlp.vocab)


def package_dir(module: Any) -> Path | None:
    """The pipeline folder of an installed pipeline package, where spaCy's
    `load_model_from_init_py` looks: `{lang}_{name}-{version}` beside its `meta.json`."""
    root = Path(module.__file__).parent
    try:
        meta = json.loads((root / "meta.json").read_text(encoding="utf-8"))
        return root / f"{meta['lang']}_{meta['name']}-{meta['version']}"
    except (OSError, ValueError, KeyError, TypeError):
        return None
