"""The second process that compiles the built-in agents' kernels on a cold first run
(``spades_ai.selfplay.compile_ahead``): what it is given, how its cache is taken in, and that
nothing depends on it."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import numpy as np
import pytest

import spades_ai as sa
from spades_ai import Rules
from spades_ai.selfplay import compile_ahead as ca
from spades_ai.policies.kernel_agent import KernelAgent, kernel_agent
from spades_ai.selfplay.play import Seating, resolve_lineup

ROOT = Path(__file__).resolve().parent.parent


@numba.njit
def _user_bid(pub, seat, hand, legal, rules):
    return 1


@numba.njit
def _user_play(pub, seat, hand, legal, rules):
    return 0


def _kernel_slots(lineup):
    return [a for a in Seating(resolve_lineup(lineup)).by_slot if isinstance(a, KernelAgent)]


def test_the_child_takes_the_kernels_the_loop_reaches_last_first():
    # a lineup of rule-based built-ins is bound to all three (``play._shared``): Random, Easy, Normal
    jobs = ca.plan(_kernel_slots(["normal", "easy"]), Rules())
    assert jobs == [
        ("spades_ai.policies.normal", "normal_agent_play", "play", False),
        ("spades_ai.policies.easy", "easy_agent_play", "play", True),
        ("spades_ai.policies.easy", "random_agent_play", "play", True),
        ("spades_ai.selfplay.loop_kernels", "record_hand", "record", False),
        ("spades_ai.policies.normal", "normal_agent_bid", "bid", False),
        ("spades_ai.policies.easy", "easy_agent_bid", "bid", True),
        ("spades_ai.policies.easy", "random_agent_bid", "bid", True),
    ]
    passing = ca.plan(_kernel_slots(["normal", "normal"]), Rules(pass_cards=2))
    assert [j[2] for j in passing] == ["play", "record", "bid", "pass"]


def test_a_users_kernels_stay_in_this_process():
    """Their cache is the user's: the child never compiles (and caches) them."""
    user = kernel_agent("mine", _user_bid, _user_play)
    jobs = ca.plan(_kernel_slots([user, "easy"]), Rules())
    assert {j[0] for j in jobs} == {"spades_ai.policies.easy", "spades_ai.selfplay.loop_kernels"}
    assert ca.plan(_kernel_slots([user, user]), Rules()) == []


def test_waiting_watches_the_agents_own_kernels_not_shared_helpers():
    from spades_ai.policies import easy, normal

    # as kernels calling them compile them: their ``callee`` twins (``engine.jit``)
    assert ca._dispatchers_of(normal.normal_agent_play) == [normal.normal_agent_play.callee]  # a hot kernel, compiled on its own
    assert {d.py_func.__name__ for d in ca._dispatchers_of(normal.normal_agent_bid)} == {
        "normal_bid",
        "normal_blind_nil",
    }
    assert ca._dispatchers_of(easy.easy_agent_play) == [easy.easy_agent_play.callee]


def test_the_signature_is_the_types_of_what_the_loop_is_given():
    """Each argument type is that of the value the self-play loop passes (a row of the tables'
    arrays, the rules array, a row of the params): a job compiled for another type would be
    useless (a slow test below checks the whole loop)."""
    seating = Seating(resolve_lineup(["easy", "easy"]))
    pubs, hands, *_ = seating.tables(1)
    rules = Rules(pass_cards=1).as_array()
    typeof = numba.typeof
    play = ca.loop_signature("play", True)
    assert play == (
        typeof(pubs[0]),
        typeof(np.int64(0)),
        typeof(hands[0][0]),
        typeof(hands[0][0]),
        typeof(rules),
        typeof(seating.params[0]),
    )
    assert ca.loop_signature("bid", False) == play[:3] + (typeof(np.int64(0)), play[4])
    assert ca.loop_signature("pass", False)[3] == numba.types.int64
    from spades_ai.selfplay.loop_kernels import record_arrays

    records = record_arrays(3, sa.Rules().as_array())
    assert ca.loop_signature("record", False) == (
        typeof(pubs[0]),
        typeof(rules),
        typeof(np.int64(0)),
        *map(typeof, records),
    )


def test_the_child_starts_only_when_a_core_is_idle_unless_told(monkeypatch):
    monkeypatch.delenv(ca.SWITCH_ENV, raising=False)
    monkeypatch.setattr(ca.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(ca.os, "getloadavg", lambda: (0.6, 0.5, 0.5))
    assert ca.wanted()
    monkeypatch.setattr(ca.os, "getloadavg", lambda: (1.7, 0.5, 0.5))
    assert not ca.wanted()
    monkeypatch.setenv(ca.SWITCH_ENV, "1")
    assert ca.wanted()
    monkeypatch.setenv(ca.SWITCH_ENV, "0")
    monkeypatch.setattr(ca.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert not ca.wanted()
    monkeypatch.delenv(ca.SWITCH_ENV)
    monkeypatch.setattr(ca.os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert not ca.wanted()


def test_merge_copies_missing_entries_whole_and_keeps_existing_ones(tmp_path):
    src, dst = tmp_path / "child", tmp_path / "cache"
    for root, name, body in ((src, "a-1.py311", b"child"), (src, "b-2.py311", b"child"), (dst, "b-2.py311", b"mine")):
        folder = root / "agents_0123"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.nbi").write_bytes(body)
        (folder / f"{name}.1.nbc").write_bytes(body)
    (src / "agents_0123" / "a-1.py311.2.nbc").write_bytes(b"child2")
    assert ca.merge_cache(src, dst) == 1
    got = {p.name: p.read_bytes() for p in (dst / "agents_0123").iterdir()}
    assert got == {"a-1.py311.nbi": b"child", "a-1.py311.1.nbc": b"child", "a-1.py311.2.nbc": b"child2",
                   "b-2.py311.nbi": b"mine", "b-2.py311.1.nbc": b"mine"}  # fmt: skip
    assert ca.merge_cache(src, dst) == 0


def _run(script: str, cache: Path) -> dict:
    env = {**os.environ, "SPADES_AI_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT), ca.SWITCH_ENV: "1"}
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


# A small kernel with the agent signature, compiled on an empty cache in a fresh process.
_ONE_JOB = """
    import json, time
    from spades_ai.selfplay import compile_ahead as ca
    from spades_ai.policies.easy import random_agent_play
    fn = random_agent_play.callee  # as the loop compiles it
    jobs = [("spades_ai.policies.easy", "random_agent_play", "play", True)]
    sig = ca.loop_signature("play", True)
    child = ca._Child(jobs, {{fn: 0}})
    {before}
    fn.compile(sig)
    hits, misses = fn.stats.cache_hits.get(sig, 0), fn.stats.cache_misses.get(sig, 0)
    child.close()
    print(json.dumps({{"hits": hits, "misses": misses, "hooked": "compile" in vars(fn), "left": child.root.exists()}}))
"""


def test_a_kernel_the_child_compiled_is_loaded_not_compiled(tmp_path):
    wait = "with child.cond: child.cond.wait_for(lambda: 0 in child.done or child.ended, timeout=300)"
    got = _run(_ONE_JOB.format(before=wait), tmp_path / "cache")
    assert got == {"hits": 1, "misses": 0, "hooked": False, "left": False}


def test_this_process_waits_for_a_kernel_the_child_is_compiling(tmp_path):
    started = "with child.cond: child.cond.wait_for(lambda: 0 in child.started or child.ended, timeout=300)"
    got = _run(_ONE_JOB.format(before=started), tmp_path / "cache")
    assert got["hits"] == 1 and got["misses"] == 0


@pytest.mark.parametrize(
    "breakage",
    [
        "sys.executable = '/nonexistent/python'",  # the child cannot start
        "sys.executable = '/bin/false'",  # it dies at once
        "ca._BOOT = 'import sys; print(\"start 0\", flush=True); sys.exit(3)'",  # it dies mid-job
        'ca._BOOT = \'import sys, time; print("start 0"); print("garbage", flush=True); time.sleep(600)\'',  # it hangs
        "plan = ca.plan; ca.plan = lambda a, r: [(m, n, 'pass', False) for m, n, _, _ in plan(a, r)]",  # its compiles fail
    ],
)
def test_any_failure_of_the_child_falls_back_to_compiling_here(tmp_path, breakage):
    """The kernel is compiled here, once, and works; the child is gone and its folder too."""
    script = f"""
        import json, sys, tempfile
        import numpy as np
        from spades_ai.selfplay import compile_ahead as ca
        ca.WAIT_LIMIT = 2.0
        {breakage}
        roots = []
        mkdtemp = tempfile.mkdtemp
        ca.tempfile.mkdtemp = lambda **kw: roots.append(mkdtemp(**kw)) or roots[-1]
        import spades_ai as sa
        from spades_ai.engine.state import N_PUBLIC
        from spades_ai.policies.easy import random_agent_play
        fn = random_agent_play.callee  # as the loop compiles it
        sig = ca.loop_signature("play", True)
        with ca.compile_ahead(["random", "random"]):
            fn.compile(sig)
        pub, rules, params = np.zeros(N_PUBLIC, np.int64), sa.Rules().as_array(), np.zeros(1, np.int64)
        card = int(random_agent_play(pub, 2, np.uint64(2**52 - 1), np.uint64(1 << 17), rules, params))  # one legal card: 17
        print(json.dumps({{"compiled_here": fn.stats.cache_misses.get(sig, 0), "hooked": "compile" in vars(fn),
                          "card": card, "left": [r for r in roots if ca.Path(r).exists()]}}))
    """
    got = _run(script, tmp_path / "cache")
    assert got == {"compiled_here": 1, "hooked": False, "card": 17, "left": []}


@pytest.mark.slow
def test_the_default_run_loads_every_kernel_the_child_compiled(tmp_path):
    """A cold ``spades-ai`` warm-up: the agents' kernels the child finished are loaded here,
    never compiled twice, and the records are those of a run without the child."""
    script = """
        import json
        from numba.core import event
        compiled = []
        class Listen(event.Listener):
            def on_start(self, e):
                compiled.append(e.data["dispatcher"].py_func.__qualname__)
            def on_end(self, e):
                pass
        event.register("numba:compile", Listen())
        from spades_ai.selfplay import compile_ahead as ca
        done = []
        close = ca._Child.close
        def keep(self):
            done.extend(self.jobs[i][:2] for i in sorted(self.done))
            close(self)
        ca._Child.close = keep
        import spades_ai as sa
        with ca.compile_ahead(["normal", "easy"]):
            rec = sa.play_hands(["normal", "easy"], 200, seed=5)
        print(json.dumps({"done": done, "compiled": compiled, "points": rec.points.tolist()}))
    """
    got = _run(script, tmp_path / "cache")
    assert ["spades_ai.policies.normal", "normal_agent_play"] in got["done"]
    for module, name in got["done"]:
        for d in ca._dispatchers_of(getattr(importlib.import_module(module), name)):
            assert d.py_func.__qualname__ not in got["compiled"], f"{d.py_func.__qualname__} compiled again"
    assert got["points"] == sa.play_hands(["normal", "easy"], 200, seed=5).points.tolist()
