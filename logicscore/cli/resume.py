"""`--resume` and the output's lock: an existing output read back, checked against the
input, refused or repaired; one writer at a time (docs/reliability.md)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .common import fail, reason, say
from .paths import locked, make_folder


def _signature_mismatch(written: dict[str, int], current: str, also: tuple[str, ...] = ()) -> list[str]:
    """'key: old there, new now' for every signature key where records already written differ."""
    from ..signature import Signature

    now = Signature.parse(current).as_dict()
    found: dict[str, list[str]] = {}
    for text in written:
        if text == current or text in also:
            continue
        try:
            old = Signature.parse(text).as_dict()
        except ValueError:
            found.setdefault("signature", []).append(f"unreadable {text[:60]!r}")
            continue
        for key in [*old, *(k for k in now if k not in old)]:
            if old.get(key) != now.get(key):
                was = old.get(key, "(none)")
                if was not in found.setdefault(key, []):
                    found[key].append(was)
    return [f"{key}: {' / '.join(was)} there, {now.get(key, '(none)')} now" for key, was in found.items()]


def lock_output(output: Path):
    """The output's lock, held until the run ends; a second writer is refused (exit 2).
    An output that is not a regular file (/dev/null, a pipe) has nothing to protect: no lock."""
    from .lock import OutputLock, OutputLocked

    make_folder(output)
    if output.exists() and not output.is_file():
        return None
    lock = OutputLock(output)
    try:
        lock.acquire()
    except OutputLocked as exc:
        locked(output, exc.pid)
    except OSError as exc:
        fail(f"cannot lock {output}: {reason(exc)}", 2)
    return lock



def input_ids(input: Path, format_: str, mapping: dict[str, str], files: list[Path] | None):
    """The input's lines in order, read again from its files (None for stdin, which cannot
    be read twice), each as its id, question and short answer (None for an unreadable
    line): what the records of a resumed output must match."""
    from ..formats import read_lines
    from ..files import count_lines

    if files is None and (str(input) == "-" or not stat.S_ISREG(input.stat().st_mode)):
        return None

    def ids():
        first = 1
        for path in files or [input]:
            with path.open("rb") as source:
                for line in read_lines(source, format_, mapping, None, first):
                    record = line.record
                    yield line.id, record.question if record else None, record.answer if record else None
            first += count_lines(path)

    return ids


def resume_state(io, output: Path, signature: str, allow_change: bool,
                 also: tuple[str, ...] = (), input_ids=None, repair: bool = False) -> set[int]:
    """Lines already in `output`, once it is known to be sound: every line a record, input
    lines 1, 2, 3, … in order, ids as in the input (`input_ids`, when it can be read again).
    A damaged output is refused naming its first bad line, or with `repair` cut back to the
    records before it (the rest kept in OUTPUT.damaged). Exit 2 when the records were scored
    with other options (`also`: the other signatures the same options give)."""
    try:
        state = io.scan_for_resume(output)
        damage = state.damage
        if damage is None and input_ids is not None:
            damage = _id_mismatch(io, state, input_ids())
    except OSError as exc:
        fail(f"cannot read {output} to resume: {reason(exc)}", 2)
    if damage is not None:
        if not repair:
            fail(f"--resume: {output} line {damage.line} {damage.reason}; nothing was changed. Add "
                 f"--repair to keep the {damage.line - 1} records before it, move "
                 f"the rest to a new file {output}.damaged and score it again", 2)
        _repair(output, damage)
        state = io.scan_for_resume(output)
    differ = _signature_mismatch(state.signatures, signature, also)
    if differ and not allow_change:
        fail(f"--resume: {output} holds records scored with other options ({'; '.join(differ)}); "
             "rerun with the options it was written with, or add --allow-signature-change "
             "to append anyway", 2)
    if state.torn:
        try:
            io.cut_torn_tail(output)  # the half-written last record is redone
        except OSError as exc:
            fail(f"cannot write {output}: {reason(exc)}", 2)
    return state.done


def _id_mismatch(io, state, ids):
    """The first record whose id, question or short answer is not its input line's (the
    output of another input, or of this one before lines were added, removed or edited:
    the ids of an id-less input are line numbers, so only the text tells)."""
    count = 0
    for count, (have, (want, question, answer)) in enumerate(zip(state.ids, ids), start=1):
        if have != want:
            return io.Damage(count, state.offsets[count - 1],
                             f"has id {have!r} but input line {count} has id {want!r} "
                             "(an output of another input, or records out of order)")
        written = state.texts[count - 1]
        if question is not None and written[0] is not None and written != (question, answer):
            return io.Damage(count, state.offsets[count - 1],
                             f"holds another question or answer than input line {count} (id {want!r}): "
                             "the input was edited, or lines were added or removed, since it was scored")
    if count < len(state.ids):
        return io.Damage(count + 1, state.offsets[count],
                         f"holds input line {count + 1} but the input has {count} lines "
                         "(an output of another input)")
    return None


def _repair(output: Path, damage) -> None:
    """Keep the records before `damage`; the bytes after them go to a new file beside the
    output (`OUTPUT.damaged`, else `.damaged.2`, …): an existing file of that name, an earlier
    repair's or an input's, is never replaced."""
    try:
        with output.open("r+b") as fh:
            fh.seek(damage.offset)
            tail = fh.read()
            aside = _new_file(output.with_name(output.name + ".damaged"), tail)
            fh.truncate(damage.offset)
    except OSError as exc:
        fail(f"--repair: cannot cut {output} at line {damage.line}: {reason(exc)}", 2)
    say(f"--repair: kept the records before line {damage.line} of {output}; moved the rest "
        f"({len(tail)} bytes) to {aside}; they are scored again", "yellow")


def _new_file(path: Path, data: bytes) -> Path:
    """`data` in a file created for it at `path`, or `path.2`, `path.3`, … when the name is
    taken; created exclusively and never through a link, so nothing that exists is written."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for n in range(1, 10_000):
        target = path if n == 1 else path.with_name(f"{path.name}.{n}")
        try:
            fd = os.open(target, flags, 0o666)
        except FileExistsError:
            continue
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError:
            target.unlink(missing_ok=True)
            raise
        return target
    raise FileExistsError(f"{path}.2 to {path}.9999 all exist; move the old ones away")
