"""The one decorator policy of the engine and the agents, and a cache that never goes stale.

``kernel``: every kernel is cached beside the code (``cache=True``), releases the GIL so that
callers may run kernels from threads, and uses ``error_model="numpy"``, which drops Python's
zero-division checks from integer code (no kernel divides by a runtime value that can be zero).

numba stamps a cached kernel with the source of its own file only, yet the compiled code
includes every kernel it calls. Edit ``normal.py`` and the cached self-play loop in
``selfplay.py`` would go on running the old Normal. The locators below stamp every cached
kernel of this package with one hash of all the package's source files instead, so any edit
recompiles whatever depends on it. Where numba's internals differ (another numba version), the
package falls back to numba's own locators.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from numba import njit

kernel = njit(cache=True, nogil=True, error_model="numpy")
#: The same, inlined into each caller at numba's IR level: for the few state transitions that
#: the self-play and rollout loops call for every card. Passing arrays to a separately compiled
#: function costs reference counting on every call; inlined, the loop ran 20% faster.
inline_kernel = njit(cache=True, nogil=True, error_model="numpy", inline="always")

PACKAGE_DIR = Path(__file__).resolve().parent.parent


KERNEL_SOURCES = ("engine/*.py", "agents/*.py", "rules.py")


@functools.lru_cache(maxsize=None)
def package_stamp() -> bytes:
    """A hash of the source files that kernels are built from (computed once per process)."""
    h = hashlib.sha256()
    for path in sorted(p for pattern in KERNEL_SOURCES for p in PACKAGE_DIR.glob(pattern)):
        h.update(str(path.relative_to(PACKAGE_DIR)).encode())
        h.update(path.read_bytes())
    return h.digest()


def _install_package_locators() -> bool:
    try:
        from numba.core import caching
    except ImportError:  # pragma: no cover
        return False
    bases = [getattr(caching, n, None) for n in ("UserProvidedCacheLocator", "InTreeCacheLocator")]
    impl = getattr(caching, "CacheImpl", None)
    if None in bases or impl is None or not isinstance(getattr(impl, "_locator_classes", None), list):
        return False  # pragma: no cover

    class _PackageStamp:
        def get_source_stamp(self):
            return package_stamp()

        @classmethod
        def from_function(cls, py_func, py_file):
            try:
                inside = Path(py_file).resolve().is_relative_to(PACKAGE_DIR)
            except OSError:  # pragma: no cover
                inside = False
            return super().from_function(py_func, py_file) if inside else None

    locators = [type(f"Package{b.__name__}", (_PackageStamp, b), {}) for b in bases]
    impl._locator_classes[:0] = [c for c in locators if c.__name__ not in {k.__name__ for k in impl._locator_classes}]
    return True


PACKAGE_LOCATORS = _install_package_locators()
