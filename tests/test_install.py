"""The installed package is whole: no compiled-kernel cache inside it, and no stale folder that
shadows it.

``pip install . && spades-ai`` followed by ``pip install -e ".[test]"`` used to leave numba's
cache files in ``site-packages/spades_ai/``: the editable install removed the package's Python
files but not those, and an interpreter started outside the checkout imported the leftover
folder as an empty namespace package (``module 'spades_ai' has no attribute ...``).
"""

import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np

import spades_ai
from spades_ai.engine import jit

PACKAGE = Path(spades_ai.__file__).resolve().parent


def test_kernels_cache_outside_the_package():
    spades_ai.random_playouts(10, seed=3)  # compiles or loads at least one kernel
    assert not PACKAGE.resolve().is_relative_to(jit.cache_dir().resolve())
    stray = sorted(p.relative_to(PACKAGE) for p in PACKAGE.rglob("*.nb[ic]"))
    assert not stray, f"numba cache files inside the package (left by an older version? delete them: find {PACKAGE} -name '*.nb[ic]' -delete): {stray[:5]}"
    assert any(jit.cache_dir().rglob("*.nbi")), "the kernel cache folder holds no index"


def test_cache_folder_is_keyed_by_version_and_sources():
    assert jit.cache_dir().name == f"{spades_ai.__version__}-{jit.source_hash()}"
    assert len(jit.source_hash()) == 16


def test_callers_numba_cache_setting_is_left_alone():
    import numba

    before = numba.config.CACHE_DIR

    @jit.kernel
    def twice(x):
        return 2 * x

    assert twice(np.int64(4)) == 8
    assert numba.config.CACHE_DIR == before


def test_no_shadow_folder_in_site_packages():
    """A ``spades_ai`` folder without ``__init__.py`` on the path is a stale shadow."""
    roots = {Path(p) for p in (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]) if p}
    roots |= {Path(p) for p in sys.path if p and "site-packages" in p}
    for root in roots:
        folder = root / "spades_ai"
        if folder.is_dir() and folder.resolve() != PACKAGE:
            assert (folder / "__init__.py").exists(), (
                f"{folder} has no __init__.py: a stale folder (old numba cache files?) that shadows the "
                f"real package outside the checkout; delete it"
            )


def test_import_from_another_directory(tmp_path):
    """As a notebook kernel does: an interpreter whose working directory is not the checkout."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    code = "import spades_ai, sys; print(spades_ai.__file__); print(hasattr(spades_ai, 'run_tournament'))"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    file, has_runner = out.stdout.split()
    assert file != "None", "spades_ai imported as a namespace package: a stale folder shadows it"
    assert has_runner == "True"


def test_every_module_with_kernels_is_in_the_cache_key():
    """The kernel cache is keyed by a hash of ``KERNEL_SOURCES`` (engine/jit.py): a module that
    defines kernels outside them would be cached against a stale key, and an edit to it would
    leave callers compiled in other files running its old code."""
    package = jit.PACKAGE_DIR
    keyed = {p for pattern in jit.KERNEL_SOURCES for p in package.glob(pattern)}
    decorated = re.compile(r"^@(kernel|inline_kernel|hot_kernel)\b", re.M)
    with_kernels = {p for p in package.rglob("*.py") if decorated.search(p.read_text(encoding="utf-8"))}
    assert with_kernels, "no kernel found: the pattern is out of date"
    assert not with_kernels - keyed, sorted(str(p.relative_to(package)) for p in with_kernels - keyed)


def test_a_kernel_compiles_once_per_argument_types_not_per_constant():
    """Called from other kernels with the constant 3, with ``True`` and with variables, a kernel
    compiles once, for the types; numba alone compiles a version per constant (``Literal[int](3)``),
    each re-optimising all that it calls."""
    from numba import types

    @jit.kernel
    def inner(x, flag):
        return x + 1 if flag else x

    @jit.kernel
    def with_constants():
        return inner(3, True)

    @jit.kernel
    def with_variables(y, flag):
        return inner(y, flag)

    assert with_constants() == 4
    assert with_variables(np.int64(3), False) == 3
    assert inner.callee.signatures == [(types.int64, types.boolean)]  # compiled for kernels (``jit._Kernel``)
