"""Stopping a tournament when it is decided (issue 13, item 3): the SPRT's statistics on
simulated data, and runs that stop, resume, extend and give the same decision whatever the
chunking or the number of jobs."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest

from spades_ai import Rules, load_results, run_tournament, summarize
from spades_ai.tournament import (
    SPRT,
    ResultsError,
    SPRTError,
    SPRTResult,
    TournamentError,
    read_sprt,
    sprt_decide,
    sprt_llr,
    sprt_rows,
    sprt_test,
)
from spades_ai.tournament.results import DATA_DIR, SPRT_FILE, chunk_files

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


# -- runs -------------------------------------------------------------------------------------
TEST = SPRT(0, 5)


def run(out, agents="normal,easy", sprt=TEST, **kw):
    kw.setdefault("n_jobs", 1)
    kw.setdefault("progress", False)
    kw.setdefault("chunk_size", 50)
    kw.setdefault("deals", 2000)
    return run_tournament(agents, out=out, sprt=sprt, **kw)


EVEN = "easy,easy:seed=2"  # equal strength, different luck: H0 after a few hundred deals


@pytest.fixture(scope="module")
def even(tmp_path_factory):
    """Easy against another Easy, the reference run: one process, chunks of 50."""
    r = run(tmp_path_factory.mktemp("even"), EVEN)
    assert r.sprt.decision == "H0"
    return r


def test_normal_beats_easy_within_a_few_hundred_deals(tmp_path):
    r = run(tmp_path)
    assert r.sprt.decision == "H1" and r.sprt.deals < 300
    assert r.units_played == -(-r.sprt.deals // 50) * 50 < 2000  # stopped at the next chunk's end
    assert r.sprt.llr >= r.sprt.upper
    record = read_sprt(tmp_path)
    assert SPRTResult.from_dict(record) == r.sprt
    assert record["max_deals"] == 2000 and record["agents"] == ["normal", "easy"]
    assert record["lower"] == pytest.approx(-LN19) and record["upper"] == pytest.approx(LN19)
    # the test's mean is the summary's duplicate difference over the deals it used
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a decided run is complete: no "unfinished" warning
        df = load_results(tmp_path)
    assert df.attrs["complete"] and df.attrs["sprt"] == record
    used = sprt_rows(df)
    assert used["deal_no"].nunique() == r.sprt.deals < df["deal_no"].nunique()
    row = summarize(used).iloc[0]
    assert row["agent"] == "normal" and row["diff"] == pytest.approx(r.sprt.mean)


def test_equal_agents_accept_h0(tmp_path, even):
    r = run(tmp_path, "normal,normal:seed=2")
    # Normal's seed changes none of its decisions: every difference is 0, and the test
    # accepts H0 as soon as it may
    assert (r.sprt.decision, r.sprt.deals, r.sprt.llr) == ("H0", SPRT(0, 5).min_deals, -math.inf)
    assert even.sprt.decision == "H0" and 100 < even.sprt.deals < 1000 and even.sprt.sd > 10
    assert json.loads((even.path / SPRT_FILE).read_text())["decision"] == "H0"


def test_the_decision_does_not_depend_on_chunks_or_jobs(tmp_path, even):
    for i, kw in enumerate(({"chunk_size": 7}, {"chunk_size": 1000}, {"chunk_size": 40, "n_jobs": 2})):
        r = run(tmp_path / str(i), EVEN, **kw)
        assert r.sprt == even.sprt, kw


def test_chunks_finishing_out_of_order_are_tested_in_deal_order(tmp_path, even, monkeypatch):
    """Workers finish chunks in any order: feed them last first."""
    from spades_ai.tournament import runner

    real = runner._execute

    def backwards(tasks, *args):
        yield from reversed(list(real(tasks, *args)))

    monkeypatch.setattr(runner, "_execute", backwards)
    r = run(tmp_path, EVEN, deals=600)
    assert r.sprt == even.sprt and r.units_played == 600


def test_an_undecided_run_is_extended_by_more_deals(tmp_path, even):
    short = run(tmp_path, EVEN, deals=100)
    assert short.sprt.decision is None and short.sprt.deals == 100 and short.units_played == 100
    assert read_sprt(tmp_path)["decision"] is None and read_sprt(tmp_path)["max_deals"] == 100
    assert load_results(tmp_path).attrs["complete"]
    longer = run(tmp_path, EVEN, deals=3000, chunk_size=30)
    assert longer.sprt == even.sprt and longer.chunks_skipped == 2
    assert json.loads((tmp_path / "config.json").read_text())["deals"] == 3000
    again = run(tmp_path, EVEN, deals=3000)  # decided: nothing left to play
    assert again.units_played == 0 and again.sprt == even.sprt
    bigger = run(tmp_path, EVEN, deals=5000)
    assert bigger.units_played == 0 and bigger.sprt == even.sprt


def test_an_interrupted_run_resumes_to_the_same_decision(tmp_path, even, monkeypatch):
    from spades_ai.tournament import runner

    real = runner.play_chunk
    calls = []

    def interrupted(*args):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(runner, "play_chunk", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run(tmp_path, EVEN)
    assert read_sprt(tmp_path)["deals"] == 100  # where it stood when interrupted
    monkeypatch.setattr(runner, "play_chunk", real)
    r = run(tmp_path, EVEN, chunk_size=64)
    assert r.chunks_skipped == 2 and r.sprt == even.sprt


def test_a_lost_chunk_inside_the_deals_used_is_played_again(tmp_path, even):
    run(tmp_path, EVEN, deals=400)
    lost = next(p for c, p in chunk_files(tmp_path) if c.start == 100)
    lost.unlink()
    with pytest.warns(UserWarning, match="unfinished"):
        assert not load_results(tmp_path).attrs["complete"]
    r = run(tmp_path, EVEN, deals=400)
    assert r.units_played == 50 and r.sprt == even.sprt


def test_a_folder_of_another_run_is_still_refused(tmp_path):
    run(tmp_path, EVEN, deals=100)
    before = sorted(p.name for p in (tmp_path / DATA_DIR).iterdir())
    for kw, words in (
        ({"deals": 60}, ["deals 100 vs 60", "grow its deals, not shrink"]),
        ({"sprt": SPRT(0, 10)}, ["sprt 0,5", "vs 0,10"]),
        ({"sprt": SPRT(0, 5, alpha=0.1)}, ["alpha 0.05", "alpha 0.1"]),
        ({"sprt": None}, ["vs none"]),
        ({"deals": 500, "seed": 1}, ["seed 0 vs 1"]),
        ({"deals": 500, "agents": "easy,easy:seed=3"}, ["agents"]),
        ({"deals": 500, "rules": Rules(nil_bonus=50)}, ["nil_bonus"]),
    ):
        args = {"agents": EVEN, "deals": 100, **kw}
        with pytest.raises(ResultsError) as err:
            run(tmp_path, **args)
        for w in words:
            assert w in str(err.value), str(err.value)
    assert sorted(p.name for p in (tmp_path / DATA_DIR).iterdir()) == before
    assert json.loads((tmp_path / "config.json").read_text())["deals"] == 100
    plain = tmp_path / "plain"
    run(plain, EVEN, deals=100, sprt=None)
    with pytest.raises(ResultsError, match="sprt none vs 0,5"):
        run(plain, EVEN, deals=100)
    with pytest.raises(ResultsError, match="deals 100 vs 200"):  # only a run with a test may grow
        run(plain, EVEN, deals=200, sprt=None)


@pytest.mark.parametrize(
    "kw, words",
    [
        ({"agents": "normal,easy,random"}, ["two agents", "3 agents"]),
        ({"duplicate": False}, ["duplicate"]),
        ({"mode": "matches"}, ["hands mode", "matches mode"]),
        ({"sprt": (0, 5)}, ["must be an SPRT"]),
    ],
)
def test_a_run_without_one_duplicate_difference_per_deal_is_refused(tmp_path, kw, words):
    with pytest.raises(TournamentError) as err:
        run(tmp_path / "x", **{"deals": 10, **kw})
    for w in words:
        assert w in str(err.value)
    assert not (tmp_path / "x").exists()
