"""The one decorator policy of the engine and the agents, and a compiled-kernel cache that
never goes stale and never lands inside the installed package.

``kernel``: every kernel is cached on disk (``cache=True``), releases the GIL so that callers
may run kernels from threads, and uses ``error_model="numpy"``, which drops Python's
zero-division checks from integer code (no kernel divides by a runtime value that can be zero).
Called from another kernel, it is compiled once per argument types, not once per constant it
is called with (``_by_types``), and as its ``callee`` twin, without numba's CPython wrapper,
which only a call from Python uses (``_Kernel``). A twin is finished by linking alone: the kernel
that Python calls optimises and emits it, once (``linking``).
``inline_kernel`` is the same, inlined into each caller at numba's IR level (for small
functions); ``hot_kernel`` is compiled once and inlined into each caller by LLVM, without
reference counting (for a large function the loops call for every card). ``wrapping``
marks the few kernels whose uint64 arithmetic wraps around on purpose; it changes nothing
compiled and matters only when the JIT is off (``NUMBA_DISABLE_JIT=1``), where every kernel
runs as plain Python.

Where the cache lives, and why: numba stamps a cached kernel with the source of its own file
only, yet the compiled code includes every kernel it calls, so an edit to ``normal.py`` would
leave the cached self-play loop running the old Normal. And numba's default
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
import types as pytypes
from pathlib import Path

import numba
import numpy as np
from numba import njit, types
from numba.core.registry import CPUDispatcher

from spades_ai.engine import linking
from spades_ai.version import __version__

PACKAGE_DIR = Path(__file__).resolve().parent.parent

#: The files kernels are compiled from, relative to the package. A kernel module elsewhere in
#: the package must be added here, or an edit to it would not start a fresh cache.
KERNEL_SOURCES = ("engine/*.py", "policies/*.py", "models/*.py", "montecarlo/*.py", "selfplay/*.py", "learn/*.py", "rules.py", "kernels.py",
                  "encoding.py")

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


def cache_is_empty() -> bool:
    """Whether nothing is compiled in this version's cache yet (a first run after an install)."""
    return not any(cache_dir().rglob("*.nbi"))


@contextlib.contextmanager
def _package_cache():
    """numba picks a kernel's cache folder when the kernel is decorated: set it for that."""
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(cache_dir())
    try:
        yield
    finally:
        numba.config.CACHE_DIR = saved


#: What every kernel is compiled with. ``no_cfunc_wrapper``: numba otherwise also builds each
#: kernel a C-callable entry point (for ``.ctypes`` / ``cfunc`` use, which nothing here makes),
#: a sixth of the cost of compiling a small kernel. ``forceinline`` is set (off) so that a kernel
#: first compiled from inside a ``hot_kernel`` does not inherit it (numba passes an unset flag on
#: to the callees it compiles).
_OPTIONS = {"nogil": True, "error_model": "numpy", "no_cfunc_wrapper": True, "forceinline": False}


def _by_types(dispatcher):
    """``dispatcher``, compiled once per argument *types* when called from another kernel,
    never per literal value.

    numba types a constant argument as its value (``f(x, 0)``: ``Literal[int](0)``; ``True``:
    ``Literal[bool](True)``) and compiles the callee for it, apart from the same callee called
    with a variable; and a variable that holds a constant for a moment while numba infers the
    caller's types (``anchor = 0``, later ``anchor = j``) compiles a copy for that moment too.
    Each copy re-optimises and emits its whole closure of callees: in a cold first Hard run,
    copies of the search's ``evaluate`` and ``rollout_values`` and of everything they first
    compiled were a sixth of the compile time. The constants still reach LLVM, which inlines
    and folds them where it inlines the callee. With the JIT off (``NUMBA_DISABLE_JIT=1``) a
    kernel is its plain Python function, returned as it is."""
    if numba.config.DISABLE_JIT:
        return dispatcher
    resolve = dispatcher.get_call_template

    def get_call_template(args, kws):
        return resolve(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


class _Kernel(CPUDispatcher):
    """A kernel's dispatcher: called from Python it compiles as any numba function; called from
    another kernel, its ``callee`` compiles instead, a twin without numba's CPython wrapper
    (or takes the version compiled for Python, where there is one: ``_twin``).

    numba gives every compiled function an entry point for Python (unboxing each argument,
    boxing the result), optimised and emitted with it, though a kernel compiled as another's
    callee is never called from Python: on a cold first Hard run, all but two of its 220
    kernels, and 9% of its compile time. Twins are built on first use and cached apart
    (``__callee`` in their names); a kernel's ``signatures`` are those compiled for Python,
    its ``callee.signatures`` those compiled for other kernels. A twin is finished by linking
    only: the kernel Python calls optimises and emits it (``linking``)."""

    @property
    def _numba_type_(self):
        return types.Dispatcher(self.callee)

    @property
    def callee(self):
        twin = self.__dict__.get("_callee")
        if twin is None:
            twin = self.__dict__["_callee"] = _twin(self)
        return twin


def _twin(dispatcher):
    """``dispatcher``'s function as a kernel without a CPython wrapper, under another name (so
    that the two never share numba cache entries). Asked for argument types that ``dispatcher``
    has compiled already (called from Python first), it takes that version rather than
    compiling its own."""
    fn = dispatcher.py_func
    copy = pytypes.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__, copy.__module__ = fn.__kwdefaults__, fn.__module__
    copy.__qualname__ = f"{fn.__qualname__}{linking.CALLEE_SUFFIX}"
    options = {k: v for k, v in dispatcher.targetoptions.items() if k != "nopython"}
    jit = njit(**options, no_cpython_wrapper=True, cache=_has_file(fn))
    with _package_cache():
        twin = jit(copy)
    resolve = twin.get_call_template

    def get_call_template(args, kws):
        compiled = dispatcher.overloads.get(tuple(args))
        if compiled is not None and not kws and tuple(args) not in twin.overloads:
            twin.add_overload(compiled)
        return resolve(args, kws)

    twin.get_call_template = get_call_template
    return _by_types(twin)


def _has_file(fn) -> bool:
    """Whether numba could cache ``fn`` against a source file: not a function compiled from
    text (a bound copy built in memory, ``spades_ai.templates``), which compiles each run."""
    return not getattr(getattr(fn, "__code__", None), "co_filename", "").startswith("<")


def _policy(**options):
    jit = njit(**{"cache": True, **_OPTIONS, **options})
    uncached = njit(**{**_OPTIONS, **options})

    def decorate(fn):
        if numba.config.DISABLE_JIT:
            return jit(fn)
        if not _has_file(fn):
            dispatcher = uncached(fn)
        else:
            with _package_cache():
                dispatcher = jit(fn)
        dispatcher.__class__ = _Kernel
        return dispatcher

    return decorate


linking.install()
kernel = _policy()
#: The same, inlined into each caller at numba's IR level: for the small state transitions and
#: agent wrappers that the self-play and rollout loops call for every card. Passing arrays to a
#: separately compiled function costs reference counting on every call; inlined, the loop ran
#: 20% faster. numba copies the callee's IR at every level it is inlined through, at a cost that
#: grows with the square of its size: Normal's play, inlined this way through three levels, took
#: a fifth of a cold first run's compile time. A large function is a ``hot_kernel`` instead.
inline_kernel = _policy(inline="always")
#: Compiled once, like ``kernel``, and inlined by LLVM into every caller (``forceinline``), with
#: no reference counting (``_nrt=False``, as numba compiles its own array helpers), so that the
#: arrays it is passed cost nothing: as fast as ``inline_kernel`` in the loops, for the price of
#: one compilation. It must not create or return an array (numba refuses to compile one that does).
hot_kernel = _policy(forceinline=True, _nrt=False)
#: ``kernel`` with reference counting asked for: numba passes an unset ``_nrt`` on from the caller
#: to the callees it compiles, so a kernel that allocates, called from a ``hot_kernel`` loop (the
#: learning environment's ``settle``), is reached through one of these (``selfplay.codegen``: the
#: seat function of an agent that allocates), whose callees then count references as they must.
counted_kernel = _policy(_nrt=True)



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
