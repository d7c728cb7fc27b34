"""Stopping a tournament when it is decided (issue 13, item 3): the SPRT's statistics on
simulated data."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from spades_ai.tournament.stopping import SPRT, SPRTError, SPRTResult, sprt_decide, sprt_llr, sprt_test

LN19 = math.log(19)


# -- the statistics ---------------------------------------------------------------------------
def naive_sprt(sprt: SPRT, x) -> tuple[str | None, int, float]:
    """The test written out deal by deal: (decision, deals used, LLR), no arrays, no carry."""
    llr = math.nan
    for n in range(1, len(x) + 1):
        mean = sum(x[:n]) / n
        var = sum((v - mean) ** 2 for v in x[:n]) / n
        excess = sum(x[:n]) - n * (sprt.d0 + sprt.d1) / 2
        if var > 1e-12:
            llr = (sprt.d1 - sprt.d0) * excess / var
        else:
            llr = 0.0 if excess == 0 else math.copysign(math.inf, excess)
        if n >= sprt.min_deals and (llr >= sprt.upper or llr <= sprt.lower):
            return ("H1" if llr >= sprt.upper else "H0"), n, llr
    return None, len(x), llr


def test_bounds_are_walds():
    assert SPRT(0, 5).lower == pytest.approx(-LN19) and SPRT(0, 5).upper == pytest.approx(LN19)
    t = SPRT(-1, 2.5, alpha=0.1, beta=0.01)
    assert t.lower == pytest.approx(math.log(0.01 / 0.9)) and t.upper == pytest.approx(math.log(0.99 / 0.1))


def test_llr_is_the_normal_log_likelihood_ratio_with_the_fitted_variance():
    x = np.random.default_rng(3).normal(4, 30, size=500).round()
    t = SPRT(0, 5)
    var = x.var()  # maximum likelihood, as the test uses
    direct = np.sum(-((x - t.d1) ** 2) + (x - t.d0) ** 2) / (2 * var)
    assert sprt_llr(t, len(x), x.sum(), (x * x).sum()) == pytest.approx(direct, rel=1e-12)
    assert math.isnan(sprt_llr(t, 0, 0.0, 0.0))


def test_decisions_at_the_bounds():
    # d1 - d0 = 1, 100 deals of variance 1: LLR = total - 50
    t = SPRT(0, 1)

    def at(llr_wanted):
        total = 50 + llr_wanted
        return sprt_decide(t, 100, total, 100 * (1 + (total / 100) ** 2))

    assert at(LN19 + 1e-6).decision == "H1"
    assert at(LN19 - 1e-6).decision is None
    assert at(-LN19 - 1e-6).decision == "H0"
    assert at(-LN19 + 1e-6).decision is None
    assert at(0.0).llr == pytest.approx(0.0, abs=1e-9)
    r = at(LN19 + 1e-6)
    assert r.llr == pytest.approx(LN19, abs=1e-5) and (r.lower, r.upper) == (t.lower, t.upper)
    # below min_deals, no bound decides
    for n, decision in ((t.min_deals - 1, None), (t.min_deals, "H1")):
        r = sprt_decide(t, n, 10.0 * n, 101.0 * n)  # mean 10, variance 1
        assert r.llr == pytest.approx(9.5 * n) and r.decision == decision


@pytest.mark.parametrize("seed", range(6))
def test_the_sequential_test_stops_at_the_first_crossing(seed):
    rng = np.random.default_rng(seed)
    t = SPRT(0, 5, alpha=[0.05, 0.1, 0.2][seed % 3], beta=[0.05, 0.02][seed % 2], min_deals=[30, 2][seed % 2])
    x = rng.normal(rng.uniform(-8, 12), rng.uniform(5, 60), size=400).round()
    r = sprt_test(t, x)
    decision, n, llr = naive_sprt(t, list(x))
    assert (r.decision, r.deals) == (decision, n)
    assert r.llr == pytest.approx(llr, rel=1e-9)
    assert r.total == x[:n].sum() and r.total_sq == (x[:n] ** 2).sum()


def test_pieces_give_exactly_the_result_of_the_whole():
    rng = np.random.default_rng(7)
    t = SPRT(0, 5)
    for _ in range(20):
        x = rng.integers(-300, 300, size=rng.integers(50, 2000)) / 2  # halves, as the runner's differences
        whole = sprt_test(t, x)
        cuts = np.sort(rng.integers(0, len(x), size=rng.integers(1, 30)))
        r = None
        for piece in np.split(x, cuts):
            r = sprt_test(t, piece, previous=r)
        assert r == whole  # bit for bit: sums of halves are exact
    assert sprt_test(t, [], previous=whole) is whole
    assert sprt_test(t, []).deals == 0
    decided = sprt_test(t, np.full(100, 50.0))
    assert decided.decided and sprt_test(t, [-1e6] * 10, previous=decided) is decided


def test_identical_differences_decide_at_min_deals():
    t = SPRT(0, 5, min_deals=40)
    r = sprt_test(t, np.zeros(100))  # identical agents: every duplicate difference 0
    assert (r.decision, r.deals, r.llr, r.sd) == ("H0", 40, -math.inf, 0.0)
    assert sprt_test(t, np.full(100, 7.0)).decision == "H1"
    on_the_midpoint = sprt_test(t, np.full(100, 2.5))
    assert (on_the_midpoint.decision, on_the_midpoint.llr) == (None, 0.0)


def error_rates(sprt: SPRT, mean: float, sd: float, runs: int, seed: int) -> dict[str | None, float]:
    rng = np.random.default_rng(seed)
    counts = {"H0": 0, "H1": 0}
    for _ in range(runs):
        r = None
        while r is None or not r.decided:
            r = sprt_test(sprt, rng.normal(mean, sd, size=2000), previous=r)
        counts[r.decision] += 1
    return {k: v / runs for k, v in counts.items()}


def test_error_rates_on_normal_data_are_near_alpha_and_beta():
    """2,000 simulated runs at each hypothesis. With the variance estimated from the data the
    rates come out close to alpha and beta (overshooting a bound lowers them, the noise of the
    variance raises them); the band reaches four standard errors above, and a test that
    decides too early (min_deals=2: the variance of a few deals is often far too small)
    falls outside it."""
    runs = 2000

    def near(rate, target):
        return 0.45 * target <= rate <= target + 4 * math.sqrt(target * (1 - target) / runs)

    t = SPRT(0, 5)
    at_d0 = error_rates(t, 0, 45, runs, seed=1)["H1"]
    at_d1 = error_rates(t, 5, 45, runs, seed=2)["H0"]
    assert near(at_d0, 0.05) and near(at_d1, 0.05), (at_d0, at_d1)

    lopsided = SPRT(0, 5, alpha=0.1, beta=0.02)
    at_d0 = error_rates(lopsided, 0, 45, runs, seed=3)["H1"]
    at_d1 = error_rates(lopsided, 5, 45, runs, seed=4)["H0"]
    assert near(at_d0, 0.1) and near(at_d1, 0.02), (at_d0, at_d1)

    # far from both hypotheses the test is almost never wrong
    assert error_rates(t, 15, 30, 300, seed=5)["H1"] == 1.0

    eager = SPRT(0, 5, min_deals=2)
    at_d0 = error_rates(eager, 0, 8, runs, seed=6)["H1"]
    assert not near(at_d0, 0.05), at_d0


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: SPRT(5, 0), ["D1 must be greater than D0"]),
        (lambda: SPRT(3, 3), ["D1 must be greater than D0"]),
        (lambda: SPRT(0, 5, alpha=0.5), ["alpha", "(0, 0.5)"]),
        (lambda: SPRT(0, 5, alpha=0), ["alpha", "(0, 0.5)"]),
        (lambda: SPRT(0, 5, beta=-0.1), ["beta", "(0, 0.5)"]),
        (lambda: SPRT(0, 5, beta=math.nan), ["beta", "finite"]),
        (lambda: SPRT(0, math.inf), ["D1", "finite"]),
        (lambda: SPRT("0", 5), ["D0", "number"]),
        (lambda: SPRT(0, 5, min_deals=1), ["min_deals"]),
        (lambda: SPRT(0, 5, min_deals=True), ["min_deals"]),
        (lambda: SPRT.parse("5"), ["two numbers", "'5'"]),
        (lambda: SPRT.parse("0,5,7"), ["two numbers"]),
        (lambda: SPRT.parse("a,b"), ["two numbers"]),
        (lambda: SPRT.parse([0]), ["two numbers"]),
        (lambda: sprt_test(SPRT(0, 5), [1.0, math.nan]), ["finite"]),
        (lambda: sprt_test(SPRT(0, 5), [1.0], previous=sprt_test(SPRT(0, 6), [1.0])), ["another test"]),
        (lambda: sprt_decide(SPRT(0, 5), -1, 0.0, 0.0), ["n must be"]),
    ],
)
def test_bad_settings_are_refused_in_one_line(make, words):
    with pytest.raises(SPRTError) as err:
        make()
    assert "\n" not in str(err.value)
    for w in words:
        assert w in str(err.value)


def test_settings_and_results_round_trip_through_json():
    t = SPRT.parse("-2.5, 5", alpha=0.1, beta=0.2, min_deals=50)
    assert t == SPRT(-2.5, 5, 0.1, 0.2, 50) == SPRT.from_dict(json.loads(json.dumps(t.to_dict())))
    assert SPRT.parse([0, 5]) == SPRT(0.0, 5.0)
    for r in (sprt_test(t, np.zeros(80)), sprt_test(t, [3.0, -1.0] * 20), sprt_test(t, [])):
        back = SPRTResult.from_dict(json.loads(json.dumps(r.to_dict(), allow_nan=False)))  # strict JSON
        assert back.decision == r.decision and back.deals == r.deals
        assert back.llr == r.llr or (math.isnan(back.llr) and math.isnan(r.llr))
    assert "H0 accepted (mean <= -2.5) after 50 deals: LLR -inf" in str(sprt_test(t, np.zeros(80)))
