"""logicscore: audit the logic of multi-hop long-form answers.

    from logicscore import Auditor
    result = Auditor().audit(question=..., answer=..., long_answer=...)
"""

from __future__ import annotations

__version__ = "0.1.0"

from .auditor import Auditor
from .pipeline.chain import Chain
from .config import AuditorConfig
from .errors import (
    ConfigError, InputError, LLMError, LogicscoreError, ParseError, Timeout,
)
from .models import (
    AuditResult, Diagnosis, Entity, Gap, Proposition, QARecord, QuestionEntity,
    Scores, Signal,
)
from .signature import Signature

__all__ = [
    "Auditor", "AuditorConfig", "AuditResult", "Chain", "ConfigError", "Diagnosis", "Entity", "Gap",
    "InputError", "LLMError", "LogicscoreError", "ParseError", "Proposition", "QARecord",
    "QuestionEntity", "Scores", "Signal", "Signature", "Timeout", "__version__",
]
