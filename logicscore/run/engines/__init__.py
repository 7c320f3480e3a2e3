"""Engines that run `Auditor.audit_many` somewhere other than this process (docs/usage.md).

`engines.ray` runs it on a Ray cluster (the optional extra `logicscore[ray]`): the same
records as one process, in input order. The local engines are `Auditor` itself and
`parallel.audit_parallel` (`--workers`).
"""
