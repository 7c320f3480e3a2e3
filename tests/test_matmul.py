"""`matmul.numpy_products`: the pipeline multiplies through numpy, and parses as with blis."""

import json
from pathlib import Path

import numpy
from thinc.api import NumpyOps, get_current_ops, use_ops

from logicscore.parsing import loader as pipeline
from logicscore.parsing.matmul import numpy_products

CORPORA = Path(__file__).resolve().parent.parent / "corpora"
ATTRS = ["TAG", "POS", "MORPH", "DEP", "HEAD", "SENT_START", "ENT_IOB", "ENT_TYPE"]


def _blis_flags(nlp) -> set:
    return {getattr(node.ops, "use_blis", None)
            for _, proc in nlp.pipeline if hasattr(getattr(proc, "model", None), "walk")
            for node in proc.model.walk()}


def _texts(limit: int = 400) -> list[str]:
    out: list[str] = []
    for name in ("fictional-v1.jsonl", "prose-holdout-v1.jsonl", "examples.jsonl"):
        for line in (CORPORA / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            out += [record[k] for k in ("question", "long_answer") if record.get(k)]
    return out[:limit]


def test_inside_the_block_models_are_built_without_blis_and_after_it_with():
    with numpy_products():
        ops = get_current_ops()
        assert isinstance(ops, NumpyOps) and not ops.use_blis
    assert get_current_ops().use_blis


def test_a_backend_the_caller_chose_is_kept():
    with use_ops("numpy", use_blis=False):
        chosen = get_current_ops()
        with numpy_products():
            assert get_current_ops() is chosen


def test_the_pipeline_parses_as_the_blis_one_does():
    loaded = pipeline.load(None)
    assert False in _blis_flags(loaded)  # its layers multiply through numpy
    # The same package (the first default installed, as `load` takes) built with thinc's
    # default products, blis's.
    package = next(m for m in map(pipeline.installed_package, pipeline.DEFAULT_MODELS) if m)
    blis_nlp = package.load()
    assert _blis_flags(blis_nlp) == {True}
    texts = _texts()
    assert len(texts) >= 300
    skip = [n for n in pipeline.SKIPPED if n in loaded.pipe_names]
    ours = list(loaded.pipe(texts, disable=skip))
    theirs = list(blis_nlp.pipe(texts, disable=[n for n in skip if n in blis_nlp.pipe_names]))
    for a, b in zip(ours, theirs, strict=True):
        assert numpy.array_equal(a.to_array(ATTRS), b.to_array(ATTRS)), a.text
