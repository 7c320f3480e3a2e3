"""Rows written by RAG evaluation tools, as logicscore records.

- RAGAS (`user_input`, `response`, `retrieved_contexts`, `reference`; before 0.2: `question`,
  `answer` — the generated long answer —, `contexts`, `ground_truth` or `ground_truths`);
- DeepEval test cases (`input`, `actual_output`, `expected_output`, `retrieval_context`,
  else `context`);
- promptfoo results, one per line as `promptfoo eval -o out.jsonl` writes them (`vars`,
  `response.output`, `testIdx`, `promptIdx`, `provider`, `success`, `score`).

None of them has a short answer of its own, and the reference answer is never taken for one
(it is kept as `gold_answer`). The short answer comes from the response itself: its last
"Answer: X" line (`formats.reply`; the text before that line is then the long answer), else
the conclusion it states ("So the answer is X", by the named rules of `formats.conclusion`).
A row with neither is an `InputError` naming the `--map answer=FIELD` to use. Every record
says where its answer came from: `answer_source` ("answer_line", "conclusion", or
"answer_field" when `--map answer=` gave it) and, for a conclusion, `answer_rule`.
Contexts become `documents`: a list is numbered "1", "2", … so `[1]`, `[2]` cite them.
"""

from __future__ import annotations

import json
from typing import Any

from .conclusion import stated_answer
from .reply import final_answer


class Unreadable(ValueError):
    """A row of a known format that cannot become a record; the message names the field."""


class NoAnswer(Unreadable):
    """A row whose response states no short answer; `record` is the rest of it, for a
    `--map answer=FIELD` to complete."""

    def __init__(self, message: str, record: dict[str, Any]):
        super().__init__(message)
        self.record = record


def text_field(obj: dict[str, Any], *names: str) -> tuple[str | None, str | None]:
    """(name, value) of the first of `names` present and not null; its value must be a string."""
    for name in names:
        value = obj.get(name)
        if value is None:
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return name, str(value)
        if not isinstance(value, str):
            raise Unreadable(f"{name} must be a string, got {type(value).__name__}")
        return name, value
    return None, None


def documents(value: Any, name: str) -> dict[str, str] | None:
    """Retrieved contexts as `documents`: a list numbered from "1", a dict as it is, one
    string as document "1"."""
    if value is None or value == [] or value == {}:
        return None
    if isinstance(value, str):
        value = [value]
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = [(str(i), v) for i, v in enumerate(value, start=1)]
    else:
        raise Unreadable(f"{name} must be a list of strings, got {type(value).__name__}")
    bad = next((k for k, v in items if not isinstance(v, str)), None)
    if bad is not None:
        raise Unreadable(f"{name}[{bad}] must be a string")
    return {str(k): v for k, v in items}


def answers(response: str, question: str) -> dict[str, Any]:
    """answer, long_answer, answer_source and answer_rule, by the module's short-answer rule."""
    found = final_answer(response)
    if found is not None:
        return {"answer": found[0], "long_answer": found[1], "answer_source": "answer_line"}
    stated = stated_answer(response, question)
    if stated is not None:
        return {"answer": stated[0], "long_answer": response, "answer_source": "conclusion",
                "answer_rule": stated[1]}
    raise Unreadable("no short answer in the response: no \"Answer: X\" line and no stated conclusion "
                     "(\"So the answer is X\"); pass --map answer=FIELD naming the field that holds it, "
                     "or end the response with a line \"Answer: X\"")


def _record(question: str, response: str, reference: tuple[str | None, str | None], docs: dict | None,
            fmt: str, extra: dict[str, Any]) -> dict[str, Any]:
    _, value = reference
    record: dict[str, Any] = {"question": question, "long_answer": response, "meta": {"format": fmt, **extra}}
    if value is not None:
        record["gold_answer"] = value
    if docs is not None:
        record["documents"] = docs
    try:
        record.update(answers(response, question))
    except Unreadable as exc:
        raise NoAnswer(str(exc), record) from None
    return record


def _required(obj: dict[str, Any], *names: str) -> str:
    _, value = text_field(obj, *names)
    if value is None:
        raise Unreadable(f"missing {' or '.join(names)}")
    return value


def _metadata(obj: dict[str, Any], *names: str) -> dict[str, Any]:
    value = next((obj[n] for n in names if isinstance(obj.get(n), dict)), None)
    return {"metadata": value} if value else {}


# The fields each adapter reads; a row's other fields are kept in `meta.record`.
RAGAS_FIELDS = frozenset({"user_input", "question", "response", "answer", "reference", "ground_truth",
                          "ground_truths", "retrieved_contexts", "contexts", "metadata", "meta"})
DEEPEVAL_FIELDS = frozenset({"input", "actual_output", "expected_output", "retrieval_context", "context",
                             "additional_metadata", "metadata", "name"})


def is_ragas(obj: dict[str, Any]) -> bool:
    modern = "user_input" in obj and ("response" in obj or "retrieved_contexts" in obj)
    return modern or ("question" in obj and "answer" in obj and "contexts" in obj)


def from_ragas(obj: dict[str, Any]) -> dict[str, Any]:
    question = _required(obj, "user_input", "question")
    # Before ragas 0.2 the generated long answer was `answer`.
    response = _required(obj, "response", "answer")
    truths = obj.get("ground_truths")
    reference = text_field(obj, "reference", "ground_truth")
    if reference[1] is None and isinstance(truths, list) and truths:
        reference = text_field({"ground_truths": truths[0]}, "ground_truths")
    contexts = "retrieved_contexts" if "retrieved_contexts" in obj else "contexts"
    return _record(question, response, reference, documents(obj.get(contexts), contexts), "ragas",
                   _metadata(obj, "metadata", "meta"))


def is_deepeval(obj: dict[str, Any]) -> bool:
    return "input" in obj and "actual_output" in obj


def from_deepeval(obj: dict[str, Any]) -> dict[str, Any]:
    contexts = "retrieval_context" if obj.get("retrieval_context") else "context"
    extra = _metadata(obj, "additional_metadata", "metadata")
    if isinstance(obj.get("name"), str):
        extra["name"] = obj["name"]
    return _record(_required(obj, "input"), _required(obj, "actual_output"),
                   text_field(obj, "expected_output"), documents(obj.get(contexts), contexts), "deepeval", extra)


# The promptfoo variables read as the question, the reference answer and the contexts.
QUESTION_VARS = ("question", "query", "input", "user_input")
REFERENCE_VARS = ("reference", "expected", "expected_output", "ground_truth", "gold_answer", "answer")
CONTEXT_VARS = ("context", "contexts", "retrieved_contexts", "documents")


def is_promptfoo(obj: dict[str, Any]) -> bool:
    return isinstance(obj.get("response"), dict) and ("vars" in obj or "testCase" in obj)


def from_promptfoo(obj: dict[str, Any]) -> dict[str, Any]:
    variables = obj.get("vars") or (obj.get("testCase") or {}).get("vars") or {}
    if not isinstance(variables, dict):
        raise Unreadable(f"vars must be an object, got {type(variables).__name__}")
    output = obj["response"].get("output")
    if output is None:
        raise Unreadable(f"response has no output (promptfoo error: {str(obj.get('error'))[:200]})")
    if not isinstance(output, str):  # a JSON-mode reply: its text is the JSON
        output = json.dumps(output, ensure_ascii=False, sort_keys=True)
    question = text_field(variables, *QUESTION_VARS)[1]
    if question is None:
        raise Unreadable(f"no question among vars ({', '.join(QUESTION_VARS)}); pass --map question=vars.NAME")
    name = next((n for n in CONTEXT_VARS if variables.get(n) is not None), None)
    provider = obj.get("provider")
    run: dict[str, Any] = {k: obj[k] for k in ("testIdx", "promptIdx", "success", "score") if k in obj}
    if isinstance(provider, dict) and isinstance(provider.get("label") or provider.get("id"), str):
        run["provider"] = provider.get("label") or provider.get("id")
    extra = {"promptfoo": run}
    reference = text_field(variables, *REFERENCE_VARS)
    reference = (reference[0] and f"vars.{reference[0]}", reference[1])
    docs = documents(variables.get(name), f"vars.{name}") if name else None
    return _record(question, output, reference, docs, "promptfoo", extra)
