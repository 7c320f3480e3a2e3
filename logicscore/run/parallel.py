"""`audit_many` across worker processes (docs/usage.md): the same records, in input order.

Each worker builds one `Auditor` from the run's `AuditorConfig` and loads its model once;
windows of `stages.PREPARE_WINDOW` items go out, at most a few per worker in flight, so
memory stays flat in input size. Results come back per window and are yielded in the
order the items came in.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from ..pipeline import registry as stages
from ..config import AuditorConfig
from ..errors import ConfigError, LogicscoreError
from ..models import AuditResult
from ..signature import Signature

# Windows queued per worker beyond the one it runs: enough that a worker never waits for
# the reader, few enough that a Ctrl-C throws away little work.
AHEAD = 2
# Half-seconds without a result, once a worker has died, before the run stops.
DEATH_GRACE = 4
# Seconds between a worker's checks that its parent is still there.
PARENT_POLL = 0.5
# Stages that call an endpoint keep their own concurrency and one call budget per run.
_ENDPOINT_STAGES = ("llm",)


def audit_parallel(config: AuditorConfig, items: Iterable[Any], workers: int,
                   window: int | None = None) -> Iterator[AuditResult]:
    """Audit `items` (as `Auditor.audit_many` takes them) in `workers` processes, in order.

    Every item yields one result, as in `audit_many`; a `ConfigError` in a worker stops
    the stream here. Closing the generator (or an exception in the caller, such as Ctrl-C)
    ends the workers at once.

    Args:
        config: the Auditor each worker builds.
        items: `QARecord`s or `io.InputLine`s.
        workers: processes (the model is loaded once in each).
        window: items per task (default `stages.PREPARE_WINDOW`, one batched parse).

    Raises:
        ConfigError: an LLM stage was asked for (it has `concurrency` instead), or a worker
            process died (out of memory, killed).
    """
    check(config, workers)
    window = window or stages.PREPARE_WINDOW
    # fork shares the loaded model's pages and needs no importable __main__; elsewhere spawn.
    methods = multiprocessing.get_all_start_methods()
    context: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    tasks, done = context.Queue(), context.Queue()
    for q in (tasks, done):
        # At exit nothing queued is still wanted: never wait on a pipe no worker reads.
        q.cancel_join_thread()
    procs = [context.Process(target=_serve, args=(config, tasks, done, os.getpid()), daemon=True)
             for _ in range(workers)]
    for proc in procs:
        proc.start()
    source, signatures = iter(items), Signatures()
    sent = taken = 0
    ready: dict[int, Any] = {}
    finished = False
    try:
        while True:
            while sent - taken < workers * (1 + AHEAD):
                chunk = list(islice(source, window))
                if not chunk:
                    break
                tasks.put((sent, chunk))
                sent += 1
            if taken == sent:
                break
            while taken not in ready:
                seq, payload = _receive(done, procs)
                ready[seq] = payload
            payload = ready.pop(taken)
            taken += 1
            if isinstance(payload, BaseException):
                raise payload
            for result in payload:
                yield signatures.fix(result)
        finished = True
    finally:
        _stop(procs, tasks, finished)


def _receive(done: Any, procs: list[Any]) -> tuple[int, Any]:
    """The next finished window; a worker gone mid-run is a `ConfigError`, not a hang.

    After a death the live workers get a grace period, so the windows before the lost one
    still come back and `--resume` has less to redo.
    """
    quiet = 0
    while True:
        try:
            return done.get(timeout=0.5)
        except queue.Empty:
            quiet += any(p.exitcode is not None for p in procs)
            if quiet > DEATH_GRACE:
                raise ConfigError("a worker process died (out of memory or killed); rerun with "
                                  "--resume, with fewer --workers or a lower --max-chars") from None


def _stop(procs: list[Any], tasks: Any, finished: bool) -> None:
    """Let the workers finish when all is done; else end them now (their work is unwanted)."""
    for proc in procs:
        if finished:
            tasks.put(None)
        elif proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join()


def _serve(config: AuditorConfig, tasks: Any, done: Any, parent: int | None = None) -> None:
    """A worker: one Auditor, its model loaded once, auditing windows until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if parent is not None:
        _die_with(parent)
    from ..auditor import Auditor
    from ..limits import model_loading

    failed: BaseException | None = None
    try:
        auditor = Auditor(config=config)
        with model_loading():
            auditor.signature  # noqa: B018 - loads the model a stage always parses with, as the CLI does
    except LogicscoreError as exc:
        failed = exc
    while (task := tasks.get()) is not None:
        seq, chunk = task
        try:
            if failed is not None:
                raise failed
            payload: Any = list(auditor.audit_many(chunk))
        except LogicscoreError as exc:  # a ConfigError: it stops the run, in the parent
            payload = exc
        except Exception as exc:  # noqa: BLE001 - sent back whole: it may not pickle
            payload = RuntimeError(f"{type(exc).__name__}: {exc}")
        done.put((seq, payload))


def _die_with(parent: int) -> None:
    """End this worker soon after `parent` ends, however it ends (`kill -9` runs no cleanup,
    and a worker blocked on the task queue would otherwise wait forever, holding its model's
    memory and the output's lock): a daemon thread watches the parent pid."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)

    threading.Thread(target=watch, name="logicscore-parent-watch", daemon=True).start()


def check(config: AuditorConfig, workers: int) -> None:
    """Raise `ConfigError` when `config` cannot run in `workers` processes."""
    if workers < 1:
        raise ConfigError(f"--workers must be at least 1, not {workers}")
    if workers > 1 and (config.extractor in _ENDPOINT_STAGES or config.judge in _ENDPOINT_STAGES):
        raise ConfigError("--workers runs the spaCy path only; the llm stages keep their own "
                          "calls in flight: use --concurrency instead")


class ParallelAuditor:
    """`audit_many` over `workers` processes, for code that takes an Auditor (`bench.run`)."""

    def __init__(self, config: AuditorConfig, workers: int):
        check(config, workers)
        self.config, self.workers = config, workers

    def audit_many(self, items: Iterable[Any]) -> Iterator[AuditResult]:
        return audit_parallel(self.config, items, self.workers)


class Signatures:
    """One process loads spaCy when a record first needs it and names it in every signature
    from then on; across workers, the first record whose signature names it makes every
    later record name it too, so the records equal one process's. Grounded records carry the
    run's signature too (the grounder's keys are their `meta.grounder`), so one fix serves all."""

    def __init__(self) -> None:
        self.loaded: str | None = None
        self._names_spacy: dict[str, bool] = {}

    def fix(self, result: AuditResult) -> AuditResult:
        text = result.meta.signature
        if text not in self._names_spacy:
            self._names_spacy[text] = "spacy" in Signature.parse(text).as_dict()
        if self._names_spacy[text]:
            self.loaded = text
        elif self.loaded is not None:
            meta = result.meta.model_copy(update={"signature": self.loaded})
            return result.model_copy(update={"meta": meta})
        return result
