"""Chunks of a run played in joblib workers that end with the run.

A run (a tournament, a dataset) holds its folder's lock (``folders.FolderLock``) and is the only
process that writes there: ``finished_order`` hands it each chunk's result as it finishes, and
the run writes it (so a remote dask worker needs no shared disk either). A worker process that
the run started ends as soon as the run is gone: killed with SIGKILL, a run has no time to stop
its workers, and a loky worker would otherwise play on (and wait) for minutes, its memory
held. Each such worker checks, before it takes a task and every ``WATCH_SECONDS`` while
it lives (a daemon thread), that the run is still its parent process (``end_with_run``).

>>> list(finished_order(pow, [(2, 3)], n_jobs=1))
[8]
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence

import joblib

#: How often a worker checks that the run that started it is alive.
WATCH_SECONDS = 0.2
#: A worker whose run is gone exits with this status (nobody is left to read it).
ORPHAN_EXIT = 70

_watching: set[int] = set()


def finished_order(function: Callable, tasks: Sequence[tuple], n_jobs: int | None) -> Iterator:
    """``function(*task)`` for each of ``tasks``, run by joblib with ``n_jobs`` on the caller's
    ``parallel_config`` backend, yielded in the order they finish; each worker process ends
    with this one (``end_with_run``). Closing the iterator early cancels the tasks not started.
    A backend that cannot stream results (multiprocessing) runs them in waves of two per worker."""
    run = os.getpid()
    calls = [joblib.delayed(_in_worker)(run, function, *task) for task in tasks]
    try:
        parallel = joblib.Parallel(
            n_jobs=n_jobs, return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs"
        )
    except ValueError as exc:
        if "return_as" not in str(exc):
            raise
        parallel = None
    if parallel is not None:
        yield from parallel(calls)
        return
    with joblib.Parallel(n_jobs=n_jobs, batch_size=1) as parallel:
        wave = 2 * max(1, joblib.effective_n_jobs(n_jobs))
        for k in range(0, len(calls), wave):
            yield from parallel(calls[k : k + wave])


def _in_worker(run: int, function: Callable, *args):
    end_with_run(run)
    return function(*args)


def end_with_run(run: int) -> None:
    """Make this process end with the process ``run`` if ``run`` started it (a loky or
    multiprocessing worker): exit at once if ``run`` is gone already, else watch it from a daemon
    thread (one per process) and exit within ``WATCH_SECONDS`` of its end. Nothing happens in
    ``run`` itself (a sequential or threaded run) or in a process that something else started (a
    dask worker: its nanny ends it). A process whose parent dies is adopted by another, so its
    parent's pid changes: that is the sign read (POSIX; Windows keeps the dead parent's pid)."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.pid != run or run in _watching:
        return
    if os.getppid() != run:
        os._exit(ORPHAN_EXIT)
    _watching.add(run)
    threading.Thread(target=_watch, args=(run,), name="spades-ai: end with the run", daemon=True).start()


def _watch(run: int) -> None:
    while os.getppid() == run:
        time.sleep(WATCH_SECONDS)
    os._exit(ORPHAN_EXIT)  # no cleanup: the run that would read or write anything is gone
