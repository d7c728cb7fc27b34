"""Workers end with the run that started them (issue 33): a run killed with SIGKILL leaves no
worker process behind, and nothing is written into its folder after it died. Each test starts
a real run in a subprocess, kills it once a chunk is there, and watches its child processes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from spades_ai.workers import WATCH_SECONDS

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
#: How long a killed run's workers may take to end: a check every WATCH_SECONDS, on a busy machine.
GONE_WITHIN = 10.0
#: How long to wait for a run's first chunk (process start-up and numba's cache on a busy machine).
FIRST_CHUNK_WITHIN = 180.0


def living(procs: list[psutil.Process]) -> list[psutil.Process]:
    """The processes of ``procs`` still running (a zombie has ended: nobody may reap an orphan)."""
    out = []
    for p in procs:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out


def kill_once_a_chunk_exists(cmd: list[str], chunks, log: Path) -> tuple[list[psutil.Process], set[Path]]:
    """Start ``cmd``, SIGKILL it as soon as ``chunks()`` lists a file, and return its child
    processes of that moment and the chunk files there once it is dead. Output goes to ``log``,
    not a pipe, which a surviving worker would hold open."""
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, env=ENV, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + FIRST_CHUNK_WITHIN
        while not chunks():
            if proc.poll() is not None:
                pytest.fail(f"the run ended before it could be killed:\n{log.read_text()}")
            if time.monotonic() > deadline:
                pytest.fail(f"no chunk within {FIRST_CHUNK_WITHIN:.0f} s:\n{log.read_text()}")
            time.sleep(0.01)
        children = psutil.Process(proc.pid).children(recursive=True)
    finally:
        proc.kill()  # SIGKILL: the run has no time to stop its workers
        proc.wait()
    return children, set(chunks())


def assert_they_end_and_write_nothing(children: list[psutil.Process], chunks, at_kill: set[Path]) -> None:
    """Every child of the killed run ends within ``GONE_WITHIN`` seconds, and the chunk files
    stay those there when it died; a child still running at the end is killed here."""
    assert any("LokyProcess" in " ".join(p.cmdline()) for p in children), "the run had started no worker"
    deadline = time.monotonic() + GONE_WITHIN
    try:
        while living(children) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [f"{p.pid} {' '.join(p.cmdline())[-60:]}" for p in living(children)]
        assert not left, f"workers alive {GONE_WITHIN:.0f} s after their run was killed: {left}"
        time.sleep(10 * WATCH_SECONDS)
        assert set(chunks()) == at_kill, "a chunk was written after the run died"
    finally:
        for p in living(children):
            p.kill()


def test_the_workers_of_a_killed_run_end_before_their_tasks_do(tmp_path):
    """The mechanism alone, quickly: tasks that each write a file when done (as dataset workers
    did), the first quick, the others five seconds long. Killed once the first is done, the run
    leaves its workers in the middle of long tasks: they end at once, and write nothing."""
    script = tmp_path / "run.py"
    script.write_text(
        textwrap.dedent("""
        import sys, time
        from pathlib import Path
        from spades_ai.workers import finished_order

        out = Path(sys.argv[1])

        def task(i):
            time.sleep(0.1 if i == 0 else 5)
            (out / f"task-{i}.done").write_text("written by a worker")
            return i

        for _ in finished_order(task, [(i,) for i in range(6)], n_jobs=2):
            pass
    """)
    )
    out = tmp_path / "out"
    out.mkdir()

    def chunks():
        return set(out.glob("task-*.done"))

    children, at_kill = kill_once_a_chunk_exists([sys.executable, str(script), str(out)], chunks, tmp_path / "log")
    assert_they_end_and_write_nothing(children, chunks, at_kill)
    assert at_kill == {out / "task-0.done"}


@pytest.mark.parametrize(
    "command, pattern",
    [
        (
            ["tournament", "--agents", "normal,easy", "--deals", "200000", "--chunk-size", "20000", "-q"],
            "data/*.parquet",
        ),
        (["dataset", "--agents", "normal,easy", "--deals", "200000", "--chunk-size", "4000"], "chunk-*.parquet"),
    ],
    ids=["tournament", "dataset"],
)
def test_a_killed_run_leaves_no_worker_and_no_chunk_after_it(tmp_path, command, pattern):
    """``spades-ai tournament`` / ``dataset`` with two workers, killed with SIGKILL once its first
    chunk is written: its chunks take seconds, so both workers are in the middle of one (before
    issue 33 they played on for minutes, and a dataset's wrote its chunks into the folder)."""
    out = tmp_path / "run"

    def chunks():
        return set(out.glob(pattern))

    cmd = [sys.executable, "-m", "spades_ai", *command, "--jobs", "2", "--out", str(out)]
    children, at_kill = kill_once_a_chunk_exists(cmd, chunks, tmp_path / "log")
    assert_they_end_and_write_nothing(children, chunks, at_kill)
