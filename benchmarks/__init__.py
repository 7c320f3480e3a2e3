"""This repository's measurements of logicscore, kept out of the wheel: they read sample files
that users do not have, and they use logicscore only through its public API, as a user would."""
