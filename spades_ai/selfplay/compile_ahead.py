"""A cold first run on two cores: the built-in agents' kernels compile in a second process.

On an empty kernel cache (the first run after an install) the first call of a lineup's
self-play loop compiles the loop, the engine's kernels and each agent's kernels one after the
other, on one core: numba compiles in the calling thread, under a global lock. Around that
call, ``compile_ahead(lineup, rules)`` starts a child process that compiles the built-in
agents' kernels meanwhile, with the argument types the loop calls them with, into a private
cache folder, in the reverse of the order the loop reaches them. When this process is about to
compile one of them (numba asks the dispatcher's ``compile`` for a signature, which looks in
the disk cache first), it waits if the child is compiling that kernel, copies the child's
finished cache entries into the package's cache folder, and numba loads the kernel from there.
A kernel the child has not started is compiled here as it would have been (and the child told
to skip it): the two processes meet in the middle, whatever their speeds.

The child starts only when a core is idle (``wanted``; ``$SPADES_AI_COMPILE_AHEAD=0`` turns it
off, ``1`` on whatever the load). Nothing depends on it. If it cannot start, fails, dies or is
slow, each kernel is compiled here as before, and it is stopped when the block ends. Only the built-in
agents' kernels are sent (cached in ``engine.jit.cache_dir()``; a user's own kernels keep their
own cache, which this never writes to). The child writes only into its private folder, and a
copied entry never replaces one that exists: every index file of the cache is written by one
process, so numba's race between two processes adding signatures to the same index (numbered
data files that collide) cannot happen here.

The child runs ``child(jobs)``, each job ``(module, name, kind, takes_params)``, and writes its
cache under its own ``$SPADES_AI_CACHE_DIR``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import numba
from numba.core import sigutils

from spades_ai.engine.jit import CACHE_ENV, PACKAGE_DIR, cache_dir, cache_is_empty
from spades_ai.policies.kernel_agent import KernelAgent
from spades_ai.rules import Rules
from spades_ai.selfplay.loop_kernels import record_arrays
from spades_ai.templates import importable

#: ``1``: always compile ahead on an empty cache; ``0``: never; unset: when a core is idle.
SWITCH_ENV = "SPADES_AI_COMPILE_AHEAD"

#: The longest this process waits for the child to finish a kernel it has started, in seconds
#: (the largest built-in kernel compiles in about 10 s on an idle core).
WAIT_LIMIT = 120.0


# -- what the child compiles ---------------------------------------------------------------------
#: The loop's own kernel the child compiles too: recording and scoring a finished hand, which
#: the loop reaches last.
RECORD_JOB = ("spades_ai.selfplay.loop_kernels", "record_hand", "record", False)


def loop_signature(kind: str, takes_params: bool) -> tuple:
    """The numba argument types the self-play loop (``selfplay.loop``) calls a kernel agent's
    ``kind`` kernel with (``"bid"``, ``"play"`` or ``"pass"``): a row of the tables' public
    arrays (or of the views), the seat, the hand, the legal bids (int64), legal cards (uint64)
    or number of cards to pass (int64), the read-only rules array (``Rules.as_array``) and a
    row of the params array. ``"record"``: ``record_hand``'s, a row of the public arrays, the
    rules, the row number and the record arrays (``record_arrays``)."""
    from numba import typeof, types

    row = types.Array(types.int64, 1, "C")
    rules = types.Array(types.int64, 1, "C", readonly=True)
    if kind == "record":
        return (row, rules, types.int64) + tuple(typeof(a) for a in record_arrays.py_func(1, Rules().as_array()))
    last = {"bid": types.int64, "play": types.uint64, "pass": types.int64}[kind]
    return (row, types.int64, types.uint64, last, rules) + ((row,) if takes_params else ())


def _builtin(fn) -> tuple[str, str] | None:
    """``(module, name)`` of a kernel of the package that the child can import, else None."""
    where = importable(fn)
    return where if where is not None and where[0].startswith("spades_ai.") else None


def plan(kernel_agents, rules) -> list[tuple]:
    """The child's jobs for kernel agents in slot order: ``(module, name, kind, takes_params)``,
    the kernels the loop reaches last first: the built-in agents' plays (last slot first), then
    ``record_hand`` (reached after every play, but smaller than a play), then the bids and,
    under rules that pass cards, the passes."""
    order = [(a.play_kernel, "play", a.takes_params) for a in reversed(kernel_agents)]
    order += [(a.bid_kernel, "bid", a.takes_params) for a in reversed(kernel_agents)]
    if rules.pass_cards or rules.blind_pass:
        order += [(a.pass_kernel, "pass", a.pass_takes_params) for a in reversed(kernel_agents)]
    jobs, seen = [], set()
    for fn, kind, takes in order:
        where = _builtin(fn)
        if where is not None and (where, kind) not in seen:
            seen.add((where, kind))
            jobs.append((*where, kind, takes))
    if not jobs:
        return []
    plays = sum(1 for j in jobs if j[2] == "play")
    return jobs[:plays] + [RECORD_JOB] + jobs[plays:]


def _dispatchers_of(fn) -> list:
    """The dispatchers of ``fn``'s module that the loop compiles when it calls ``fn``: ``fn``
    itself, or, for a kernel inlined at numba's IR level (``inline_kernel``, which is never
    compiled on its own), the kernels it calls, found through the global names of its code.
    (Helpers of other modules are left out: waiting for the child to finish a whole agent
    kernel would cost more than compiling a small helper here.)"""
    seen, out, todo = set(), [], [fn]
    while todo:
        d = todo.pop()
        if id(d) in seen or getattr(getattr(d, "py_func", None), "__module__", None) != fn.py_func.__module__:
            continue
        seen.add(id(d))
        if d.targetoptions.get("inline", "never") == "never":
            out.append(getattr(d, "callee", d))  # what a kernel calling it compiles (``engine.jit``)
            continue
        names = d.py_func.__code__.co_names
        todo += [d.py_func.__globals__[n] for n in names if n in d.py_func.__globals__]
    return out


#: The child's start: this package from the parent's folder (where the parent found it, or else
#: first on the path), or nothing at all.
_BOOT = """import sys
from pathlib import Path
package = Path(sys.argv[1])
if str(package.parent) not in sys.path:
    sys.path.insert(0, str(package.parent))
from spades_ai.selfplay import compile_ahead
if compile_ahead.PACKAGE_DIR != package:
    sys.exit(2)
sys.exit(compile_ahead.child(compile_ahead.json.loads(sys.argv[2])))
"""


def child(jobs: list) -> int:
    """The child process: compile each job's kernel for the loop's signature (numba saves it
    in the cache), but those the parent says (``skip i`` on standard input) it compiles itself.
    Prints ``start i`` and ``done i`` (or ``failed i``) for each job it takes."""
    skip = set()

    def read_skips():
        for line in sys.stdin:
            skip.add(int(line.split()[1]))

    threading.Thread(target=read_skips, daemon=True).start()
    failed = 0
    for i, (module, name, kind, takes) in enumerate(jobs):
        if i in skip:
            continue
        print(f"start {i}", flush=True)
        try:
            fn = getattr(importlib.import_module(module), name)
            getattr(fn, "callee", fn).compile(loop_signature(kind, takes))  # as the loop compiles it
        except Exception:  # noqa: BLE001 -- whatever it is, the parent compiles the kernel itself
            failed += 1
            print(f"failed {i}", flush=True)
            continue
        print(f"done {i}", flush=True)
    return 1 if failed else 0


# -- the parent's side ---------------------------------------------------------------------------
def wanted() -> bool:
    """Whether to start the child: ``$SPADES_AI_COMPILE_AHEAD`` if set (``1`` or ``0``), else
    whether it would have a core to itself (two usable cores or more, and a one-minute load
    average that leaves one idle). On a busy machine the two processes would only share the
    same cores, and the child's start and the kernels both compile would cost time."""
    switch = os.environ.get(SWITCH_ENV, "").strip()
    if switch in ("0", "1"):
        return switch == "1"
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # Windows
        load = 0.0
    return cores >= 2 and load <= cores - 1


def merge_cache(src: Path, dst: Path) -> int:
    """Copy into ``dst`` every numba cache entry of ``src`` (an index file and its data files,
    at the same relative path) that ``dst`` lacks; data files first, each by an atomic rename.
    Returns how many entries were copied."""
    copied = 0
    for index in sorted(src.rglob("*.nbi")):
        target = dst / index.relative_to(src)
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        stem = index.name[: -len(".nbi")]
        for data in sorted(index.parent.glob(f"{stem}.*.nbc")):
            _copy(data, target.parent / data.name)
        _copy(index, target)
        copied += 1
    return copied


def _copy(src: Path, dst: Path) -> None:
    tmp = dst.with_name(f".{dst.name}.{os.getpid()}.tmp")
    shutil.copyfile(src, tmp)
    os.replace(tmp, dst)


class _Child:
    """The child process, what it has started and finished, and the hooks on this process's
    dispatchers."""

    def __init__(self, jobs: list, watched: dict):
        self.jobs = jobs
        self.root = Path(tempfile.mkdtemp(prefix="spades_ai-ahead-"))
        self.cond = threading.Condition()
        self.started: set[int] = set()
        self.done: set[int] = set()
        self.failed: set[int] = set()
        self.merged: set[int] = set()
        self.skipped: set[int] = set()
        self.given_up: set[int] = set()
        self.ended = False
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", _BOOT, str(PACKAGE_DIR), json.dumps(jobs)],
                env={**os.environ, CACHE_ENV: str(self.root)}, cwd=self.root,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            )  # fmt: skip
        except OSError:
            shutil.rmtree(self.root, ignore_errors=True)
            raise
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.hooked = []
        for d, i in watched.items():
            d.compile = self._hook(d, d.compile, i)
            self.hooked.append(d)

    def _read(self) -> None:
        try:
            for line in self.proc.stdout:
                what, _, i = line.partition(" ")
                state = {"start": self.started, "done": self.done, "failed": self.failed}.get(what)
                if state is not None and i.strip().isdigit():
                    with self.cond:
                        state.add(int(i))
                        self.cond.notify_all()
        except (ValueError, OSError):
            pass
        finally:
            with self.cond:
                self.ended = True
                self.cond.notify_all()

    def _hook(self, d, compile_here, i: int):
        def compile(sig):
            if tuple(sigutils.normalize_signature(sig)[0]) not in d.overloads:  # (numba asks again and again)
                self.wait(i)
            return compile_here(sig)

        return compile

    def wait(self, i: int) -> None:
        """Wait until the child has finished job ``i`` if it is compiling it (else tell it to
        skip the job: this process compiles it), then take what it has finished into the cache."""
        with self.cond:
            if i not in self.started and i not in self.skipped and not self.ended:
                self.skipped.add(i)
                with contextlib.suppress(OSError, ValueError):
                    self.proc.stdin.write(f"skip {i}\n")
                    self.proc.stdin.flush()
            finished = lambda: i in self.done or i in self.failed or i not in self.started or self.ended
            if i not in self.given_up and not self.cond.wait_for(finished, timeout=WAIT_LIMIT):
                self.given_up.add(i)  # too slow: compiled here, and not waited for again
            fresh = self.done - self.merged
            self.merged |= fresh
        if fresh:
            try:
                merge_cache(self.root / cache_dir().name, cache_dir())
            except OSError:
                pass  # compiled here instead

    def close(self) -> None:
        for d in self.hooked:
            del d.compile
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        self.reader.join(timeout=5)
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def compile_ahead(lineup, rules=None):
    """Around the first call of ``lineup``'s self-play loop on an empty cache (see the module
    docstring), let a second process compile the built-in agents' kernels. Does nothing when
    the cache holds anything already, when no built-in kernel is in the lineup, or when no
    core is idle (``wanted``)."""
    from spades_ai.selfplay.play import Seating, check_rules, resolve_lineup

    ahead = None
    if not numba.config.DISABLE_JIT and cache_is_empty() and wanted():
        rules = check_rules(rules)
        jobs = plan([a for a in Seating(resolve_lineup(lineup)).by_slot if isinstance(a, KernelAgent)], rules)
        watched = {}
        for i, (module, name, _, _) in enumerate(jobs):
            for d in _dispatchers_of(getattr(importlib.import_module(module), name)):
                watched.setdefault(d, i)
        if jobs:
            with contextlib.suppress(OSError):
                ahead = _Child(jobs, watched)
    try:
        yield
    finally:
        if ahead is not None:
            ahead.close()
