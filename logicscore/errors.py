"""The exception tree. Each class carries the fixed `type` string written into error records.

    LogicscoreError
    ├── InputError          bad JSON, missing or wrong fields (with a line number)
    ├── ParseError          extractor output not valid after repair
    ├── Timeout             a stage ran past its budget
    ├── LLMError            the LLM endpoint failed after bounded retries
    └── ConfigError         bad options: unknown extractor, missing model (stops the run; never
                            a record error: `Auditor.audit_many` raises it)
"""

from __future__ import annotations


class LogicscoreError(Exception):
    type = "RuntimeError"

    def __init__(self, message: str, *, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.line = line


class InputError(LogicscoreError):
    """A record that cannot be read: invalid JSON, missing or wrongly typed fields."""

    type = "InputError"


class ParseError(LogicscoreError):
    """Extractor output that does not validate, even after one repair attempt."""

    type = "ParseError"


class Timeout(LogicscoreError):
    """A record took longer than its time budget."""

    type = "Timeout"


class LLMError(LogicscoreError):
    """The LLM endpoint failed after bounded retries; `status` is the HTTP code when it answered."""

    type = "LLMError"

    def __init__(self, message: str, *, status: int | None = None, line: int | None = None):
        super().__init__(message, line=line)
        self.status = status


class ConfigError(LogicscoreError):
    """Options that cannot work (unknown extractor, missing spaCy model); stops the run."""

    type = "ConfigError"
