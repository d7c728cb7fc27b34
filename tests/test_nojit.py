"""The kernels as plain Python (issue 12, item 3): ``NUMBA_DISABLE_JIT=1`` must work.

With the JIT off numba compiles nothing and every kernel runs as Python, so a researcher can step
through one in a debugger and a coverage run sees its lines. Here a subprocess with the JIT off
(this interpreter, this package) runs the tests marked ``nojit`` across the suite: the engine
against the naive references, ``Hand`` and scoring, Easy and Normal self-play, the parts of Hard
(equal-card classes, utility, rollouts, decision streams), a Hard and a Crazy decision with a few
worlds, and the sampler. Then a few results computed both ways must be equal: self-play
records, matches, random playouts, sampled worlds, Crazy's world weights and decision, and whole
hands with Hard at two seats.

The same selection runs directly: ``NUMBA_DISABLE_JIT=1 python -m pytest -m nojit``.
"""

from __future__ import annotations

import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

import spades_ai
from spades_ai import Hand, make_agent
from spades_ai.simulate import deal_masks

#: On PYTHONPATH of the subprocess, so that it imports this very package.
PACKAGE_PARENT = Path(spades_ai.__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
#: For the two tests that compare with a JIT-off subprocess, when this run has the JIT on.
needs_jit = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="this run has the JIT off already")


def run_without_jit(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """``python *args`` in a subprocess with the JIT off; ``cwd`` should be an empty folder, so
    that nothing but ``PACKAGE_PARENT`` can supply ``spades_ai``."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PACKAGE_PARENT), env.get("PYTHONPATH")) if p)
    cmd = [sys.executable, *args]
    return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)


@needs_jit
def test_marked_tests_pass_with_the_jit_off(tmp_path):
    # -W error: numpy warns at every uint64 overflow of a kernel run as Python; the kernels that
    # wrap around on purpose (engine/jit.wrapping) turn that off, and any other must fail here.
    # -n 0: in the child's own process (this run already has a worker a core)
    args = ["-m", "pytest", str(TESTS), "-m", "nojit", "-q", "-n", "0", "-p", "no:cacheprovider", "-W", "error::RuntimeWarning"]
    out = run_without_jit(args, tmp_path)
    report = out.stdout[-4000:] + out.stderr[-2000:]
    assert out.returncode == 0, report
    passed = re.search(r"(\d+) passed", out.stdout)
    assert passed and int(passed.group(1)) >= 150, report


@pytest.mark.nojit
def test_hard_and_crazy_decide_with_few_worlds():
    """Hard's and Crazy's kernels in the JIT-off selection: legal, reproducible bids and cards
    with a few worlds, and Crazy's weights tempered after absurd bids."""
    hand = Hand(deal_masks(8, 0, 1)[0].tolist(), dealer=3)
    bid = make_agent("hard", worlds=4, seed=1).bid(hand.observation())
    assert bid in hand.legal_bids() and bid == make_agent("hard", worlds=4, seed=1).bid(hand.observation())
    for b in (3, 13, 13, 13):
        hand.bid(b)
    obs = hand.observation()
    card = make_agent("hard", worlds=4, seed=1).play(obs)
    assert card in hand.legal_cards() and card == make_agent("hard", worlds=4, seed=1).play(obs)
    crazy = make_agent("crazy", worlds=16)
    assert crazy.play(obs) in hand.legal_cards()
    assert crazy.stats == {"decisions": 1, "uniform_fallbacks": 1}


# -- the same results compiled and as Python ----------------------------------------------------
def workload() -> dict:
    """Results of a few small runs through every kind of kernel (quick with the JIT off too)."""
    from spades_ai import Rules, kernel_agent, play_hands, play_matches, random_playouts
    from spades_ai import kernels as K
    from spades_ai.montecarlo.sampling import sample_worlds_kernel
    from spades_ai.montecarlo.weights import world_weights_kernel
    from spades_ai.engine import bits

    out = {
        "jit_off": numba.config.DISABLE_JIT,
        "kernel_type": type(bits.popcount).__name__,
        "package": spades_ai.__file__,
        "deals": deal_masks(2**64 - 1, 2**40, 20),
        "playouts": random_playouts(100, seed=3, rules=Rules(spade_lead="after_three_tricks", first_lead="low_club")),
    }

    def records(key, rec):
        for name in rec.__dataclass_fields__:
            out[f"{key}.{name}"] = getattr(rec, name)

    records("normal_easy", play_hands(["normal", "easy"], 20, seed=1))
    records("suicide", play_hands([make_agent("random", seed=2), "easy"], 20, seed=2, rules=Rules.preset("suicide")))
    records("matches", play_matches(["normal", "easy"], 1, seed=3))
    records("hard", play_hands([make_agent("hard", worlds=8, seed=1), "normal"], 2, seed=4))

    @numba.njit
    def lowest_bid(pub, seat, hand, legal, rules):
        return K.nearest_legal_bid(legal, 2)

    @numba.njit
    def lowest_card(pub, seat, hand, legal, rules):
        return K.lowest_card(legal)

    records("kernel_agent", play_hands([kernel_agent("low", lowest_bid, lowest_card), "normal"], 10, seed=5))

    # A Crazy decision and its bid-aware weights, after Normal's bids and a few cards.
    normal, crazy = make_agent("normal"), make_agent("crazy", worlds=32, seed=5)
    hand = Hand(deal_masks(6, 0, 1)[0].tolist(), dealer=3)
    while len(hand.plays) < 6:
        obs = hand.observation()
        hand.bid(normal.bid(obs)) if hand.phase == "bidding" else hand.play(normal.play(obs))
    obs = hand.observation()
    out["crazy_card"] = str(crazy.play(obs))
    pub, seat, own = np.array(obs.public), obs.seat, np.uint64(int(obs.cards))
    state, worlds = sample_worlds_kernel(np.uint64(7), pub, seat, own, obs.rules_array, 64)
    out["world_state"] = int(state)
    out["worlds"] = worlds
    out["weights"], out["tempered"] = world_weights_kernel(pub, seat, worlds, 64, obs.rules_array)
    out["tempered"] = bool(out["tempered"])
    return out


def dump_workload(path: str) -> None:
    """Entry point of the subprocess."""
    with open(path, "wb") as f:
        pickle.dump(workload(), f)


@needs_jit
def test_results_equal_with_and_without_the_jit(tmp_path):
    path = tmp_path / "nojit.pkl"
    code = f"import sys; sys.path.insert(0, {str(TESTS)!r}); import test_nojit; test_nojit.dump_workload({str(path)!r})"
    out = run_without_jit(["-W", "error::RuntimeWarning", "-c", code], tmp_path)
    assert out.returncode == 0, out.stderr[-4000:]
    with open(path, "rb") as f:
        plain = pickle.load(f)
    compiled = workload()

    assert plain.pop("jit_off") and plain.pop("kernel_type") == "function"  # really run as Python
    assert not compiled.pop("jit_off") and compiled.pop("kernel_type") != "function"
    assert plain.pop("package") == compiled.pop("package")
    assert plain.keys() == compiled.keys()
    # numpy's exp may differ from the libm exp of compiled code in the last bit on some CPUs
    np.testing.assert_allclose(plain.pop("weights"), compiled.pop("weights"), rtol=1e-12, atol=0)
    for key, want in compiled.items():
        got = plain[key]
        if isinstance(want, np.ndarray) or want is None:
            assert (got is None) == (want is None), key
            if want is not None:
                assert got.dtype == want.dtype and np.array_equal(got, want), key
        else:
            assert got == want, key
