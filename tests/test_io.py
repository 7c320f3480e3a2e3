import io as pyio
import json

import pytest

from logicscore import io
from logicscore.files import count_lines
from logicscore.errors import InputError

GOOD = {"id": "a", "question": "Q?", "answer": "A", "long_answer": "L."}


def lines_of(*raws: bytes):
    return list(io.read_lines(pyio.BytesIO(b"".join(raws))))


@pytest.mark.parametrize(
    "obj, field, expected",
    [
        ({"id": 1, "query": "Q?", "short_answer": "A", "response": "L."}, "long_answer", "L."),
        ({"id": 1, "question": "Q?", "final_answer": "A", "output": "L."}, "answer", "A"),
        ({"id": 1, "question": "Q?", "answer": "A", "prediction": "L."}, "long_answer", "L."),
        ({"id": 1, "question": "Q?", "answer": "A", "generated_answer": "L."}, "long_answer", "L."),
        ({"_id": "x", "question": "Q?", "answer": "A", "long_answer": "L."}, "id", "x"),
        ({"id": 7, "question": "Q?", "answer": "A", "long_answer": "L."}, "id", "7"),
    ],
)
def test_io_aliases(obj, field, expected):
    record = io.to_record(obj, 1)
    assert getattr(record, field) == expected


def test_io_map_dotted_path():
    obj = {"id": "m", "q": "Q?", "a": "A", "out": {"text": "Long."}}
    mapping = io.parse_map(["question=q", "answer=a", "long_answer=out.text"])
    assert io.to_record(obj, 3, mapping).long_answer == "Long."


@pytest.mark.parametrize("pair", ["long_answer", "=x", "nonsense=x"])
def test_io_map_rejects_bad_pairs(pair):
    with pytest.raises(ValueError):
        io.parse_map([pair])


def test_io_missing_id_defaults_to_line_number():
    obj = {k: v for k, v in GOOD.items() if k != "id"}
    assert io.to_record(obj, 12).id == "12"


@pytest.mark.parametrize(
    "raw, needle",
    [
        (b"{not json}\n", "invalid JSON"),
        (b"\n", "blank line"),
        (b"[1, 2]\n", "expected a JSON object"),
        (b'{"id": "x", "question": "Q?"}\n', "missing answer, long_answer"),
        (b'{"id": "x", "question": 5, "answer": "A", "long_answer": "L"}\n', "question"),
        (b'{"id": "x", "question": "Q", "answer": ["A"], "long_answer": "L"}\n', "answer"),
        (b'{"id": "x", "question": "Q", "answer": "A", "long_answer": "L", "hops": "two"}\n', "hops"),
        (b'{"id": "x", "question": "\xff\xfe", "answer": "A", "long_answer": "L"}\n', "UTF-8"),
    ],
)
def test_io_bad_line_becomes_input_error(raw, needle):
    (line,) = lines_of(raw)
    assert line.record is None
    assert isinstance(line.error, InputError)
    assert line.error.line == 1
    assert needle in line.error.message


def test_io_bom_and_crlf_are_tolerated():
    raw = b"\xef\xbb\xbf" + json.dumps(GOOD).encode() + b"\r\n" + json.dumps(GOOD | {"id": "b"}).encode()
    got = lines_of(raw)
    assert [ln.record.id for ln in got] == ["a", "b"]
    assert [ln.number for ln in got] == [1, 2]


def test_io_one_item_per_line_in_order():
    raws = [json.dumps(GOOD).encode() + b"\n", b"oops\n", b"\n", json.dumps(GOOD | {"id": "z"}).encode() + b"\n"]
    got = lines_of(*raws)
    assert [ln.number for ln in got] == [1, 2, 3, 4]
    assert [ln.record is not None for ln in got] == [True, False, False, True]


def test_io_bad_record_keeps_its_id():
    (line,) = lines_of(b'{"id": "keep-me", "question": "Q"}\n')
    assert line.id == "keep-me" and line.error is not None


def test_io_done_lines_truncates_torn_tail(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text('{"meta": {"line": 1}}\n{"meta": {"line": 2}}\n{"meta": {"li')
    assert io.done_lines(out) == {1, 2}
    assert out.read_text().endswith("}\n")


def test_io_count_lines(tmp_path):
    f = tmp_path / "in.jsonl"
    f.write_bytes(b"a\nb\nc")
    assert count_lines(f) == 3
    f.write_bytes(b"a\nb\n")
    assert count_lines(f) == 2
