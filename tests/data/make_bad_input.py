"""Build the full bad-input corpus: `bad_input.jsonl` plus the lines that cannot sensibly be
committed as text (a UTF-8 BOM, CRLF endings, invalid UTF-8, raw control bytes, a 5 MB
line, deep nesting, a final line without a newline).

    python tests/data/make_bad_input.py OUT.jsonl

tests/test_reliability.py builds it into a temporary directory and checks, line by line,
the status and error type each line must get (the table there follows the order here).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BOM = b"\xef\xbb\xbf"
BIG = 5 * 1024 * 1024


def _rec(id_: str, long_answer: str = "Alma Reyes was born in Tovar.", **extra: object) -> bytes:
    obj = {"id": id_, "question": "Where was Alma Reyes born?", "answer": "Tovar",
           "long_answer": long_answer, **extra}
    return json.dumps(obj, ensure_ascii=False).encode("utf-8")


def generated() -> list[tuple[str, bytes]]:
    """(name, raw line without its newline) for the lines built here, in order."""
    return [
        ("crlf", _rec("crlf") + b"\r"),                     # written with "\r\n"
        ("bom-mid-file", BOM + _rec("bom-mid-file")),        # files joined with `cat a b`
        ("invalid-utf8", _rec("invalid-utf8").replace(b"Tovar.", b"Tov\xff\xfear.")),
        ("latin1", _rec("latin1", "Alma Reyes was born in Tov\u00e1r.").replace(b"\xc3\xa1", b"\xe1")),
        ("raw-nul-in-string", _rec("raw-nul-in-string").replace(b"born", b"bo\x00rn")),
        ("escaped-controls", _rec("escaped-controls", "Alma\u0000 Reyes\u0007 was born\u001b[31m in Tovar.")),
        ("lone-surrogate", _rec("lone-surrogate").replace(b"Tovar.", b"Tovar \\ud800.")),
        ("paired-surrogates", _rec("paired-surrogates").replace(b"Tovar.", b"Tovar \\ud83d\\ude00.")),
        ("huge-integer", b'{"id": "huge-integer", "hops": 1' + b"0" * 5000 + b"}"),
        ("deep-nesting", b"[" * 100_000 + b"]" * 100_000),
        ("deep-meta", _rec("deep-meta")[:-1] + b', "meta": ' + b'{"a": ' * 500 + b"1" + b"}" * 500 + b"}"),
        ("deep-meta-90", _rec("deep-meta-90")[:-1] + b', "meta": ' + b'{"a": ' * 90 + b"1" + b"}" * 90 + b"}"),
        ("5mb-long-answer", _rec("5mb-long-answer", "Alma Reyes was born in Tovar. " + "x" * BIG)),
        ("5mb-garbage", b"{" + b"\x01" * BIG),
        ("5mb-meta", _rec("5mb-meta", meta={"blob": "y" * BIG})),
        ("no-final-newline", _rec("no-final-newline")),
    ]


def build(dest: Path) -> list[str]:
    """Write the corpus to `dest`; return one case name per physical line."""
    committed = (HERE / "bad_input.jsonl").read_bytes().split(b"\n")[:-1]
    names = [f"committed:{i}" for i in range(1, len(committed) + 1)]
    with dest.open("wb") as fh:
        fh.write(BOM)  # the file starts with a UTF-8 BOM (Windows editors write one)
        for raw in committed:
            fh.write(raw + b"\n")
        extra = generated()
        for i, (name, raw) in enumerate(extra):
            last = i == len(extra) - 1
            fh.write(raw + (b"" if last else b"\n"))
            names.append(name)
    return names


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bad_input.full.jsonl")
    print(f"{len(build(out))} lines written to {out}")
