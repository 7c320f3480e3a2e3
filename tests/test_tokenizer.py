"""Loading a pipeline with an empty tokenizer for `from_disk` to fill gives spaCy's tokenizer."""

import json
from pathlib import Path

import pytest
import spacy
from spacy.tokenizer import Tokenizer

from logicscore.parsing import loader as pipeline
from logicscore.parsing import tokenizer

CORPORA = Path(__file__).resolve().parent.parent / "corpora"


def _package():
    for name in pipeline.DEFAULT_MODELS:
        module = pipeline.installed_package(name)
        if module is not None:
            return module
    pytest.skip("no default pipeline installed")


def _texts():
    for name in ("examples.jsonl", "fictional-v1.jsonl", "prose-holdout-v1.jsonl"):
        for line in (CORPORA / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            yield from (record.get(k) or "" for k in ("question", "answer", "long_answer"))


def test_the_loaded_tokenizer_is_the_one_spacy_loads():
    module = _package()
    path = tokenizer.package_dir(module)
    assert tokenizer.serializes_default_tokenizer(path)
    plain = module.load()
    # Loaded afresh, not `pipeline.load`'s cached one: the bytes hold the vocab, which
    # grows with every text parsed.
    ours = tokenizer.load_pipeline(module.load, path)
    assert ours.tokenizer.to_bytes() == plain.tokenizer.to_bytes()
    # The config names spaCy's tokenizer, as the plain load's does.
    assert ours.config["nlp"]["tokenizer"] == plain.config["nlp"]["tokenizer"]
    texts = list(_texts())
    assert len(texts) > 2000
    for text in texts:
        assert [t.text for t in ours.make_doc(text)] == [t.text for t in plain.make_doc(text)]


@pytest.mark.parametrize("left_out", ["exceptions", "prefix_search", "url_match", "faster_heuristics"])
def test_serialized_fields_replace_whatever_the_tokenizer_held(left_out):
    """`from_bytes` resets every field first: a field the bytes lack ends the same either way."""
    nlp = spacy.blank("en")
    data = nlp.tokenizer.to_bytes(exclude=[left_out])
    filled = spacy.blank("en").tokenizer.from_bytes(data)
    empty = Tokenizer(nlp.vocab).from_bytes(data)
    assert empty.to_bytes() == filled.to_bytes()


def test_a_folder_without_spacys_serialized_tokenizer_loads_the_usual_way(tmp_path):
    assert not tokenizer.serializes_default_tokenizer(None)
    assert not tokenizer.serializes_default_tokenizer(tmp_path)
    nlp = spacy.blank("en")
    nlp.to_disk(tmp_path / "plain")
    assert tokenizer.serializes_default_tokenizer(tmp_path / "plain")
    (tmp_path / "plain" / "tokenizer").unlink()
    assert not tokenizer.serializes_default_tokenizer(tmp_path / "plain")
    spacy.blank("zh").to_disk(tmp_path / "zh")
    assert not tokenizer.serializes_default_tokenizer(tmp_path / "zh")


def test_a_pipeline_folder_loads_with_the_same_tokenizer(tmp_path):
    source = spacy.blank("en")
    source.tokenizer.add_special_case("Korv.", [{"ORTH": "Korv."}])
    source.to_disk(tmp_path)
    loaded = pipeline.load(str(tmp_path))
    assert loaded.tokenizer.to_bytes() == source.tokenizer.to_bytes()
    assert loaded.config["nlp"]["tokenizer"] == tokenizer.DEFAULT_TOKENIZER
