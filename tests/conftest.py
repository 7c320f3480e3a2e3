import pytest


@pytest.fixture(scope="session")
def auditor():
    """The default rules-path auditor, built once (loading spaCy is the slow part)."""
    from logicscore import Auditor

    return Auditor(timing=False)
