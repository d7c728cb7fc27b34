"""The one decorator policy of the engine and the agents, and a compiled-kernel cache that
never goes stale and never lands inside the installed package.

``kernel``: every kernel is cached on disk (``cache=True``), releases the GIL so that callers
may run kernels from threads, and uses ``error_model="numpy"``, which drops Python's
zero-division checks from integer code (no kernel divides by a runtime value that can be zero).
``inline_kernel`` is the same, inlined into each caller at numba's IR level. ``wrapping``
marks the few kernels whose uint64 arithmetic wraps around on purpose; it changes nothing
compiled and matters only when the JIT is off (``NUMBA_DISABLE_JIT=1``), where every kernel
runs as plain Python.

Where the cache lives, and why: numba stamps a cached kernel with the source of its own file
only, yet the compiled code includes every kernel it calls, so an edit to ``normal.py`` would
leave the cached self-play loop in ``selfplay.py`` running the old Normal. And numba's default
cache sits beside the code, so ``pip install .`` followed by a first run would write cache
files into ``site-packages/spades_ai/``, which a later uninstall leaves behind as an empty
namespace package that shadows the real one. So every kernel of this package is cached in a
per-user folder named after the package version and a hash of all kernel sources
(``cache_dir()``): any edit, or another version, gets a fresh folder, and nothing is written
next to the code. The folder is chosen through numba's public setting ``numba.config.CACHE_DIR``,
set only while this package's kernels are being decorated, so the caller's own numba functions
keep whatever cache location they had.

The root is ``$SPADES_AI_CACHE_DIR`` if set, else ``$NUMBA_CACHE_DIR/spades_ai`` if the user set
numba's own variable, else ``$XDG_CACHE_HOME/spades_ai`` (``~/.cache/spades_ai``); an unwritable
root falls back to the temporary directory. Delete the folder to start from scratch.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import tempfile
from pathlib import Path

import numba
import numpy as np
from numba import njit

from spades_ai.version import __version__

PACKAGE_DIR = Path(__file__).resolve().parent.parent

#: The files kernels are compiled from, relative to the package. A kernel module elsewhere in
#: the package must be added here, or an edit to it would not start a fresh cache.
KERNEL_SOURCES = ("engine/*.py", "agents/*.py", "rules.py", "kernels.py")

CACHE_ENV = "SPADES_AI_CACHE_DIR"


@functools.lru_cache(maxsize=None)
def source_hash() -> str:
    """A hash of the source files that kernels are built from (computed once per process)."""
    h = hashlib.sha256()
    for path in sorted(p for pattern in KERNEL_SOURCES for p in PACKAGE_DIR.glob(pattern)):
        h.update(str(path.relative_to(PACKAGE_DIR)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_root() -> Path:
    """The folder holding one cache folder per version and kernel-source hash."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]).expanduser() / "spades_ai"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base).expanduser() / "spades_ai"


@functools.lru_cache(maxsize=None)
def cache_dir() -> Path:
    """This version's and these sources' kernel cache (created on first use)."""
    name = f"{__version__}-{source_hash()}"
    for root in (cache_root(), Path(tempfile.gettempdir()) / f"spades_ai-cache-{os.getuid()}"):
        path = root / name
        try:
            path.mkdir(parents=True, exist_ok=True)
            if os.access(path, os.W_OK):
                return path
        except OSError:
            continue
    raise OSError(f"no writable folder for the numba cache: tried {cache_root() / name} and the temporary directory")


@contextlib.contextmanager
def _package_cache():
    """numba picks a kernel's cache folder when the kernel is decorated: set it for that."""
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(cache_dir())
    try:
        yield
    finally:
        numba.config.CACHE_DIR = saved


def _policy(**options):
    jit = njit(**{"cache": True, "nogil": True, "error_model": "numpy", **options})

    def decorate(fn):
        with _package_cache():
            return jit(fn)

    return decorate


kernel = _policy()
#: The same, inlined into each caller at numba's IR level: for the few state transitions that
#: the self-play and rollout loops call for every card. Passing arrays to a separately compiled
#: function costs reference counting on every call; inlined, the loop ran 20% faster.
inline_kernel = _policy(inline="always")


#: The same policy without the disk cache, for kernels compiled from generated source that has
#: no file (``spades_ai.agents.codegen`` uses them for functions defined in ``__main__`` or a
#: notebook, which a cached module could not import).
uncached_kernel = njit(nogil=True, error_model="numpy")
uncached_inline_kernel = njit(nogil=True, error_model="numpy", inline="always")


def wrapping(fn):
    """Marks a kernel whose uint64 arithmetic wraps around on purpose (a hash, a counter,
    ``~x + 1``); write it under ``@kernel``.

    Compiled, machine integers wrap silently and this returns ``fn`` itself: the compiled code
    is untouched. Run as plain Python (``NUMBA_DISABLE_JIT=1``, for a debugger or a coverage
    run), numpy scalars wrap the same way but warn at every overflow, which would flood the
    output or, under ``-W error``, fail; there the kernel runs with numpy's overflow warning
    off, and nothing else changes.
    """
    if not numba.config.DISABLE_JIT:
        return fn

    @functools.wraps(fn)
    def run_wrapping(*args, **kwargs):
        with np.errstate(over="ignore"):
            return fn(*args, **kwargs)

    return run_wrapping
