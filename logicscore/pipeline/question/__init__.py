"""Question reading (docs/metrics.md), in layers; each imports only those above it in this list:

- `forms`: written forms of a name in a parsed text (proper-noun runs, roles, overlaps);
  other stages may use these too.
- `written`: the long answer as a lookup of the names it writes.
- `rules`: the rules that read the question on its own.
- `context`: the rules that read the question against the long answer.
- `apart`: the rules that send a window the answer writes as one name back to the
  question's own names ("A and B", "A in B").
- `detect`: runs the rules over the question and the long answer.
- `reader`: the `rules` question reader stage.
"""

from __future__ import annotations

from ...lexicon.generic import is_generic
from .detect import detect_question_entities
from ..text.question_forms import longest_first, proper_runs, role_name
from .reader import RulesQuestionReader

__all__ = ["RulesQuestionReader", "detect_question_entities", "is_generic", "longest_first",
           "proper_runs", "role_name"]
