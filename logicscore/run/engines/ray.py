"""`--engine ray`: the records of one local run, audited by actors of a Ray cluster.

The driver walks the input files once (as `io.iter_raw` reads them) and cuts them into
windows of `stages.PREPARE_WINDOW` lines: a byte range and the number of its first line.
Ray Data hands the windows to a pool of actors (`map_batches` with a callable class); each
actor builds one `Auditor` from the run's `AuditorConfig`, loading its model once from its
own install, reads its byte range and parses it with `io.read_lines`, the local path's
reader, so broken lines become the same typed error records. Results come back per window
and are yielded in input order. Several files are numbered as one input, the files in
order: the records equal a local run over the files concatenated.

What is shipped to a worker: the `AuditorConfig` (the options), the `--map` mapping and
the windows (path, byte range, first line number, lines to skip). The input files are read
by path on the worker, so on a cluster they sit on storage every node mounts at that path.
"""

from __future__ import annotations

import importlib
import logging
import os
import pickle
import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

from ... import io
from ...pipeline import registry as stages
from ...formats import read_lines
from ...config import AuditorConfig
from ...errors import ConfigError, LogicscoreError
from ...files import input_files
from ...models import AuditResult
from ..parallel import Signatures

INSTALL_HINT = "--engine ray needs Ray: pip install 'logicscore[ray]'"
# Ray's anonymous usage report would call out to the network; nothing here may.
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
_CLUSTER_SWITCH = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


@dataclass(frozen=True)
class Window:
    """Lines `first`… of `path`, bytes [`start`, `end`); `skip`: line numbers already done."""

    path: str
    start: int
    end: int
    first: int
    skip: tuple[int, ...] = ()


def windows(paths: Iterable[Path], skip: set[int] | None = None,
            size: int | None = None) -> Iterator[Window]:
    """The windows of `size` lines the files are cut into, numbered as one input.

    A window whose lines are all in `skip` is left out; the others carry their skipped lines.
    """
    skip, size = skip or set(), size or stages.PREPARE_WINDOW
    last = 0  # the last line number of the files before
    for path in paths:
        with path.open("rb") as fh:
            start, first = 0, last + 1
            for number, _raw in io.iter_raw(fh, last + 1):
                last = number
                if number - first + 1 == size:
                    yield from _window(path, start, fh.tell(), first, number, skip)
                    start, first = fh.tell(), number + 1
            if last >= first:
                yield from _window(path, start, fh.tell(), first, last, skip)


def _window(path: Path, start: int, end: int, first: int, last: int, skip: set[int]) -> Iterator[Window]:
    done = tuple(n for n in range(first, last + 1) if n in skip) if skip else ()
    if len(done) < last - first + 1:
        yield Window(str(path.resolve()), start, end, first, done)


def check(config: AuditorConfig, workers: int) -> None:
    """Raise `ConfigError` when `config` cannot run on Ray with `workers` actors."""
    if workers < 1:
        raise ConfigError(f"--workers must be at least 1, not {workers}")
    if "llm" in (config.extractor, config.judge, config.grounder):
        raise ConfigError("--engine ray runs the spaCy path only; the llm stages keep their own "
                          "calls in flight and one call budget per run: use --engine local")


def audit_files(config: AuditorConfig, paths: str | Path | Sequence[str | Path], *, fmt: str = "auto",
                mapping: dict[str, str] | None = None, skip: set[int] | None = None, workers: int = 1,
                window: int | None = None, address: str | None = None) -> Iterator[AuditResult]:
    """Audit the JSONL files `paths` names on Ray: one result per input line, in input order.

    Connects to the running Ray of this process if there is one, else to `address` (or
    `RAY_ADDRESS`), else starts a local Ray on this machine and shuts it down at the end.

    Args:
        config: the Auditor each actor builds.
        paths: a file, folder (its `*.jsonl`) or glob, or a list of them; numbered as one input.
        fmt: the input's `--format` (`formats.FORMATS`; "auto": per line).
        mapping: the `--map` field mapping.
        skip: input line numbers not to audit (`--resume`).
        workers: actors, one CPU and one model each.
        window: lines per task (default `stages.PREPARE_WINDOW`, one batched parse).
        address: the cluster to connect to (`ray.init(address=...)`).

    Raises:
        ConfigError: Ray is not installed, an llm stage was asked for, an input is missing,
            or a worker could not build its Auditor or read its input.
    """
    check(config, workers)
    files = input_files(paths)
    ray = require()
    started = _connect(ray, address, workers)
    try:
        tasks = [{"task": pickle.dumps(w)} for w in windows(files, skip, window)]
        if not tasks:
            return
        data = ray.data.from_items(tasks, override_num_blocks=len(tasks))
        # This dataset's settings (the datasets made from it share them), not the process's.
        # The run's own progress bar speaks for it; Ray Data's would repeat it.
        data.context.execution_options.preserve_order = True
        data.context.enable_progress_bars = False
        # No restarts: an actor that dies fails the run (--resume redoes the rest) rather
        # than auditing a window twice.
        with warnings.catch_warnings():
            # Ray's own way to turn restarts off, though it warns that such arguments will move.
            warnings.simplefilter("ignore", DeprecationWarning)
            scored = data.map_batches(Scorer, batch_size=1, num_cpus=1, max_restarts=0,
                                      compute=_pool(ray, workers),
                                      fn_constructor_args=(config, fmt, mapping or {}))
        signatures = Signatures()
        try:
            for row in scored.iter_rows():
                payload = pickle.loads(row["payload"])
                if isinstance(payload, BaseException):
                    raise payload
                for result in payload:
                    yield signatures.fix(result)
        except ray.exceptions.RayError as exc:  # an actor died (out of memory, a node lost)
            raise ConfigError(f"the Ray run failed ({type(exc).__name__}: {str(exc).splitlines()[0]}); "
                              "rerun with --resume") from None
    finally:
        if started:
            ray.shutdown()


class RayAuditor:
    """`audit_files` with its options bound, for the CLI (`score --engine ray`)."""

    def __init__(self, config: AuditorConfig, workers: int, address: str | None = None):
        check(config, workers)
        require()
        self.config, self.workers, self.address = config, workers, address

    def audit_files(self, paths: Sequence[Path], reading: tuple[str, dict[str, str]],
                    skip: set[int]) -> Iterator[AuditResult]:
        """`reading`: the input's format and `--map` mapping, as `score` reads them."""
        return audit_files(self.config, paths, fmt=reading[0], mapping=reading[1], skip=skip,
                           workers=self.workers, address=self.address)


class Scorer:
    """A Ray actor: one Auditor, its model loaded once, auditing one window per call."""

    def __init__(self, config: AuditorConfig, fmt: str, mapping: dict[str, str]):
        from ...auditor import Auditor
        from ...limits import model_loading

        self.fmt, self.mapping = fmt, mapping
        self.failed: LogicscoreError | None = None
        try:
            self.auditor = Auditor(config=config)
            with model_loading():
                self.auditor.signature  # noqa: B018 - loads the model a stage always parses with, as the CLI does
        except LogicscoreError as exc:  # sent back with the first window: the run stops there
            self.failed = exc

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[bytes]]:
        return {"payload": [pickle.dumps(self._audit(pickle.loads(task))) for task in batch["task"]]}

    def _audit(self, window: Window) -> list[AuditResult] | BaseException:
        if self.failed is not None:
            return self.failed
        try:
            with open(window.path, "rb") as fh:
                fh.seek(window.start)
                data = fh.read(window.end - window.start)
        except OSError as exc:
            return ConfigError(f"a Ray worker cannot read {window.path}: {exc.strerror or exc}; "
                               "on a cluster the input must be at the same path on every node")
        lines = read_lines(BytesIO(data), self.fmt, self.mapping, set(window.skip), window.first)
        try:
            return list(self.auditor.audit_many(lines))
        except LogicscoreError as exc:  # a ConfigError: it stops the run, on the driver
            return exc


def _pool(ray: Any, workers: int) -> Any:
    """`workers` actors, each running one call at a time on its main thread: Ray Data's
    default moves calls to a thread of their own, where `--timeout` (a SIGALRM) cannot fire."""
    return ray.data.ActorPoolStrategy(size=workers, max_concurrent_calls_per_actor=1,
                                      enable_true_multi_threading=True)


def require() -> Any:
    """The `ray` module, or `ConfigError` saying how to install it."""
    try:
        ray = importlib.import_module("ray")
        for part in ("ray.data", "ray.exceptions"):  # attributes of `ray` once imported
            importlib.import_module(part)
    except ImportError:
        raise ConfigError(INSTALL_HINT) from None
    return ray


def start(num_cpus: int) -> None:
    """Start a Ray on this machine alone: loopback only, no dashboard, no usage report, and
    workers that import the very logicscore this process runs (not another install)."""
    ray = require()
    here = str(Path(__file__).resolve().parents[2])
    path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
    # Ray turns 127.0.0.1 into the address the machine is reached at from outside, unless
    # it is told this is no cluster (its switch for machines that cannot be one): read from
    # the environment by the processes it starts, from its constants by this one.
    constants: Any = importlib.import_module("ray._private.ray_constants")
    was, before = constants.ENABLE_RAY_CLUSTER, os.environ.get(_CLUSTER_SWITCH)
    constants.ENABLE_RAY_CLUSTER, os.environ[_CLUSTER_SWITCH] = False, "0"
    try:
        ray.init(num_cpus=num_cpus, _node_ip_address="127.0.0.1", include_dashboard=False,
                 log_to_driver=False, logging_level=logging.ERROR,
                 runtime_env={"env_vars": {"PYTHONPATH": path}})
    finally:
        constants.ENABLE_RAY_CLUSTER = was
        if before is None:
            del os.environ[_CLUSTER_SWITCH]
        else:
            os.environ[_CLUSTER_SWITCH] = before
    _quiet(ray)


def _connect(ray: Any, address: str | None, workers: int) -> bool:
    """Join the Ray this process has, or connect or start one; True when started here."""
    if ray.is_initialized():
        return False
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address is None:
        start(max(workers, os.cpu_count() or 1))  # a CPU for every actor
        return True
    ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    _quiet(ray)
    return True


def _quiet(ray: Any) -> None:
    # Ray Data logs each execution's start and end, and the error that stops one with Ray's
    # traceback; the run's summary says the first, the run's own one-line error the second.
    logging.getLogger("ray.data").setLevel(logging.CRITICAL)
    # The driver prints the raylet's word of a dead worker (an actor killed) on stdout, even
    # with log_to_driver off: there it would land among the records of `-o -`.
    worker: Any = importlib.import_module("ray._private.worker")
    worker._worker_logs_enabled = False
