"""Files written whole, and folders that one run writes at a time: the atomic write and the
folder lock shared by the tournament's results folders, ``learn``'s dataset folders and the
other files the package saves, and how a run resumed in such a folder treats a damaged chunk.

A file is written to a hidden temporary name beside it (``temporary_path``), then renamed over
it, so a reader (or a run resumed after a kill) sees it whole or not at all; a temporary file
left by a killed writer is recognised by its name (``is_temporary``) and may be deleted. A chunk
file damaged all the same (a disk that filled up, a copy cut short: ``parquet_problem`` says
what is wrong) is renamed ``*.bad`` with a warning (``set_aside``), kept for a look, never
deleted, and the resumed run makes the chunk again.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> with FolderLock(folder, RuntimeError):
...     write_atomic(folder / "a.txt", b"whole")
>>> sorted(p.name for p in folder.iterdir()), (folder / "a.txt").read_text()
(['a.txt'], 'whole')
"""

from __future__ import annotations

import json
import os
import re
import socket
import warnings
from collections.abc import Iterable
from pathlib import Path

#: The lock file a writing run holds in its folder.
LOCK_FILE = ".lock"


def temporary_path(path: Path) -> Path:
    """The hidden name beside ``path`` that this process writes before renaming it ``path``."""
    path = Path(path)
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def is_temporary(path: Path) -> bool:
    """Whether ``path`` is named as ``temporary_path`` names files: left behind if it still
    exists when no run holds the folder."""
    name = Path(path).name
    return name.startswith(".") and name.endswith(".tmp")


def is_left_behind(path: Path) -> bool:
    """Whether ``path`` is named as ``temporary_path`` names files and the process named in it
    no longer runs on this host: a killed writer's file, which nothing will rename."""
    named = re.fullmatch(r"\..+\.([0-9]{1,9})\.tmp", Path(path).name)
    return named is not None and not _alive(int(named.group(1)))


def write_atomic(path: Path, data, *, sync: bool = False) -> None:
    """Write ``data`` (bytes, or any buffer such as a pyarrow ``Buffer``) to ``temporary_path``,
    then rename it: ``path`` is whole or absent. ``sync`` also flushes it to disk first (for a
    file that a crash must not leave cut short, such as a run's configuration)."""
    path = Path(path)
    tmp = temporary_path(path)
    with open(tmp, "wb") as f:
        f.write(data)
        if sync:
            f.flush()
            os.fsync(f.fileno())
    os.replace(tmp, path)


def parquet_problem(path: Path, names: Iterable[str], rows: int | None = None) -> str | None:
    """None if ``path`` is a readable Parquet file with the columns ``names`` (and ``rows`` rows,
    unless None), else what is wrong with it. Only the file's footer is read: a file cut short
    has none."""
    import pyarrow.parquet as pq  # here: the kernels' modules import this one, and need no pyarrow

    try:
        meta = pq.read_metadata(path)
    except Exception as exc:  # noqa: BLE001 -- pyarrow raises several types for a damaged file
        return f"not a readable Parquet file ({exc})"
    if rows is not None and meta.num_rows != rows:
        return f"holds {meta.num_rows} rows, not {rows}"
    missing = [c for c in names if c not in set(meta.schema.names)]
    if missing:
        return f"lacks column(s) {', '.join(missing)}"
    return None


def damaged_advice(command: str, remedy: str) -> str:
    """What to do about a chunk file that cannot be read, for the error that names it:
    ``command`` is what the user runs again ("tournament"), ``remedy`` what that run does with
    the file's units ("its deals are played again"). A run finds a damaged file by its footer
    (``parquet_problem``), so a file damaged inside must be set aside by hand."""
    return (f"; the other files are intact. Run the same {command} again with this folder: a file cut short or "
            f"lacking columns is set aside as *.parquet.bad and {remedy}; a file damaged inside (its footer intact) "
            "is not found that way: rename it to *.parquet.bad first")


def set_aside(path: Path, problem: str, remedy: str) -> Path:
    """Rename the damaged chunk file ``path`` to ``*.bad`` (kept, never deleted) and warn,
    naming it, ``problem`` and what the run does instead (``remedy``: "its deals are played
    again"). Returns the new path; the warning points at the caller's caller (the run)."""
    path = Path(path)
    bad = path.with_name(path.name + ".bad")
    os.replace(path, bad)
    warnings.warn(f"{path}: {problem}; kept as {bad.name}, and {remedy}", stacklevel=3)
    return bad


class FolderLock:
    """``out/.lock`` while a run writes, so two runs never fill one folder at once; ``error``
    (the caller's folder error type) is raised when another live run holds it.

    A lock whose process is gone (killed, or written on another host) is taken over.
    """

    def __init__(self, out: Path, error: type[Exception]):
        self.path = Path(out) / LOCK_FILE
        self.error = error
        self.held = False

    def __enter__(self):
        me = {"pid": os.getpid(), "host": socket.gethostname()}
        for _ in range(2):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                try:
                    other = json.loads(self.path.read_text())
                except (OSError, ValueError):
                    other = {}
                if other.get("host") == me["host"] and _alive(other.get("pid")):
                    raise self.error(
                        f"another run (pid {other['pid']}) is writing to {self.path.parent}; wait for it or stop it"
                    ) from None
                self.path.unlink(missing_ok=True)  # left by a run that died: take it over
                continue
            with os.fdopen(fd, "w") as f:
                json.dump(me, f)
            self.held = True
            return self
        raise self.error(f"cannot take the lock {self.path}")

    def __exit__(self, *exc):
        if self.held:
            self.path.unlink(missing_ok=True)
            self.held = False


def _alive(pid) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
