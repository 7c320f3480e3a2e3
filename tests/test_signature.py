import pytest

from logicscore.signature import Signature


def test_signature_format_parse_roundtrip():
    sig = Signature([("logicscore", "0.1.0"), ("extractor", "rules"), ("skip", None), ("flag", True)])
    text = sig.format()
    assert text == "logicscore:0.1.0|extractor:rules|flag:yes"
    assert Signature.parse(text) == sig


def test_signature_rejects_separator_in_key():
    with pytest.raises(ValueError):
        Signature([("a|b", 1)])


def test_signature_parse_rejects_malformed():
    with pytest.raises(ValueError):
        Signature.parse("logicscore")
