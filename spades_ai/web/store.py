"""The server's matches: each behind its own unguessable id, saved after every action, bounded.

A match's id is 22 characters of ``secrets.token_urlsafe`` (128 random bits); its save file is
``FOLDER/<id>.jsonl`` in the format of ``spades-ai play --save`` (``TableMatch.save``), so
``spades-ai replay`` and ``review`` read it and a restarted server continues it. A client names
a match only by its id, which must match ``ID_PATTERN`` before it comes near a path: no client
input ever names a file.

Bounds: at most ``max_live`` matches are kept in memory (the least recently used is dropped:
it is saved, and read again from its file when asked for), and at most ``max_matches`` save
files are kept in the folder (a new match beyond that is refused with ``StoreFull``). Every use
of a match (read it, act, save) holds that match's own lock, so two requests on one match take
turns and a dropped copy is never acted on.

A save is written whole (``folders.write_atomic``: a temporary file renamed over the save), so
a server killed mid-save leaves its temporary file behind; the store deletes those of its own
saves when it opens the folder (the ones whose writer is gone), and nothing else.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from spades_ai.folders import is_left_behind
from spades_ai.rules import Rules
from spades_ai.table.game import SaveFileError
from spades_ai.web.view import BrowserMatch

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{22}")
#: The temporary name of a save being written (``folders.temporary_path`` of ``ID.jsonl``).
TEMPORARY_PATTERN = re.compile(rf"\.{ID_PATTERN.pattern}\.jsonl\.[0-9]+\.tmp")
T = TypeVar("T")


class UnknownMatch(LookupError):
    """No match has that id (or the id is not one the server makes)."""


class StoreFull(RuntimeError):
    """The folder already holds ``max_matches`` matches."""


class MatchStore:
    """The matches of one server, saved in ``folder``; see the module docstring.

    >>> import tempfile
    >>> store = MatchStore(tempfile.mkdtemp())
    >>> match_id = store.create("easy", Rules(target_score=250))
    >>> store.use(match_id, lambda m: m.level)
    'easy'
    """

    def __init__(self, folder: str | Path, max_live: int = 200, max_matches: int = 10_000,
                 seeds: Callable[[], int] | None = None, clock: Callable[[], float] = time.monotonic):
        if max_live < 1 or max_matches < 1:
            raise ValueError(f"max_live and max_matches are at least 1, not {max_live} and {max_matches}")
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.max_live = max_live
        self.max_matches = max_matches
        #: where a new match's seed comes from (default 64 random bits; a test may fix them)
        self.seeds = seeds or (lambda: secrets.randbits(64))
        #: where the matches' turn timers read the time, in seconds (a test may fake it)
        self.clock = clock
        self._live: OrderedDict[str, BrowserMatch] = OrderedDict()
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()  # guards _live, _locks and the count of files
        self._remove_left_behind()
        self._count = sum(1 for p in self.folder.glob("*.jsonl") if ID_PATTERN.fullmatch(p.stem))

    def _remove_left_behind(self) -> None:
        """Delete the temporary files of this store's saves whose writer is gone (a server
        killed mid-save). A file of any other name is never touched."""
        for p in self.folder.glob(".*.tmp"):
            if TEMPORARY_PATTERN.fullmatch(p.name) and is_left_behind(p) and p.is_file():
                p.unlink(missing_ok=True)

    def path(self, match_id: str) -> Path:
        """The save file of ``match_id`` (which must be an id the store makes)."""
        if not isinstance(match_id, str) or not ID_PATTERN.fullmatch(match_id):
            raise UnknownMatch("no such match")
        return self.folder / f"{match_id}.jsonl"

    def __len__(self) -> int:
        return self._count

    @property
    def live(self) -> int:
        """How many matches are in memory now."""
        return len(self._live)

    def create(self, level: str, rules: Rules, timer: int | None = None) -> str:
        """A new match (a random seed) at ``level`` under ``rules`` with your turn ``timer``
        (seconds, None: off), saved; its id."""
        match = BrowserMatch(self.seeds(), level, rules, timer)  # checks the level, the rules and the timer
        with self._guard:
            if self._count >= self.max_matches:
                raise StoreFull(f"the server holds {self._count} matches, its limit (--max-matches)")
            while True:
                match_id = secrets.token_urlsafe(16)
                if not self.path(match_id).exists():
                    break
            self._count += 1
            lock = self._locks[match_id] = threading.Lock()
        with lock:
            match.save(self.path(match_id))
            self._keep(match_id, match)
        return match_id

    def use(self, match_id: str, action: Callable[[BrowserMatch], T], save: bool = False) -> T:
        """``action(match)`` under the match's lock, then (``save``) the match saved; what it
        returns. ``UnknownMatch`` if there is no such match."""
        with self._locked(match_id):
            match = self._get(match_id)
            out = action(match)
            if save:
                try:
                    match.save(self.path(match_id))
                except BaseException:  # the file is the match: forget the copy that went ahead of it
                    with self._guard:
                        self._live.pop(match_id, None)
                    raise
            return out

    @contextmanager
    def _locked(self, match_id: str):
        path = self.path(match_id)
        with self._guard:
            lock = self._locks.get(match_id)
            if lock is None:
                if not path.exists():
                    raise UnknownMatch("no such match")
                lock = self._locks[match_id] = threading.Lock()
        with lock:
            yield

    def _get(self, match_id: str) -> BrowserMatch:
        with self._guard:
            match = self._live.get(match_id)
            if match is not None:
                self._live.move_to_end(match_id)
                return match
        try:
            match = BrowserMatch.load(self.path(match_id))
        except SaveFileError as exc:  # the message names a server path: kept for the log, not the client
            raise UnknownMatch("the match's save file does not load") from exc
        self._keep(match_id, match)
        return match

    def _keep(self, match_id: str, match: BrowserMatch) -> None:
        match.clock = self.clock
        with self._guard:
            self._live[match_id] = match
            self._live.move_to_end(match_id)
            while len(self._live) > self.max_live:
                self._live.popitem(last=False)  # saved already: read again when asked for
