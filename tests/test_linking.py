"""Callee twins finished by linking only (``engine.linking``): no machine code of their own, the
same results, and a cache that a later process loads and links into new callers."""

import json
import os
import subprocess
import sys
import textwrap

from spades_ai.engine import linking

KERNELS = '''
import numpy as np
from spades_ai.engine.jit import kernel


@kernel
def leaf(x):
    if x < 0:
        raise ValueError("negative", x)
    a = np.empty(x + 1)
    a[:] = 1.5
    return a.sum()


@kernel
def middle(x):
    return leaf(x) * 2


@kernel
def top(x):
    return middle(x) + 1


@kernel
def other_top(x):
    return leaf(x) - middle(x)
'''

RUN = '''
import json, sys
import linked_kernels as k
from spades_ai.engine import linking
name = sys.argv[1]
f = getattr(k, name)
out = {"installed": linking.installed(), "value": f(3)}
try:
    f(-2)
except ValueError as e:
    out["raised"] = list(e.args)
twins = list(k.middle.callee.overloads.values())  # none where the caller came from the cache
out["twins"] = len(twins)
out["twin_link_only"] = all(c.library.link_only for c in twins)
out["twin_emitted"] = any(c.library.codegen._engine.is_symbol_defined(c.fndesc.mangled_name) for c in twins)
out["twin_hits"] = sum(k.middle.callee.stats.cache_hits.values())
out["hits"] = sum(f.stats.cache_hits.values())
print(json.dumps(out))
'''


def _run(tmp_path, name):
    env = {**os.environ, "SPADES_AI_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    proc = subprocess.run([sys.executable, "-c", RUN, name], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def test_this_numba_finishes_callee_twins_by_linking_only():
    assert linking.installed()


def test_twins_emit_nothing_and_callers_load_them_from_the_cache(tmp_path):
    (tmp_path / "linked_kernels.py").write_text(textwrap.dedent(KERNELS))
    first, again, other = (_run(tmp_path, name) for name in ("top", "top", "other_top"))
    for got in (first, again, other):
        assert got["installed"] and got["twin_link_only"] and not got["twin_emitted"]
        assert got["raised"] == ["negative", -2]
    assert first["value"] == again["value"] == 13.0 and other["value"] == -6.0
    # compiled, then the caller from the cache, then a new caller linking the cached twins
    assert (first["twins"], first["twin_hits"], first["hits"]) == (1, 0, 0)
    assert (again["twins"], again["hits"]) == (0, 1)
    assert (other["twins"], other["twin_hits"], other["hits"]) == (1, 1, 0)
