"""The partner study (issue 23, item 1): each agent's value as a partner, from every pairing of
partnerships on the same duplicate deals."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from spades_ai.analysis.partners import partner_difference, partner_study, partner_values, partnerships


def synthetic(values: dict, deals: int, seed: int = 0, noise: float = 30.0) -> pd.DataFrame:
    """Rows as ``load_results`` gives them for every pairing of ``partnerships(values)``, with
    points drawn from the additive model: each deal's luck (shared by every pairing) cancels
    over its two tables; what is left is the model plus noise."""
    rng = np.random.default_rng(seed)
    pairs = [p.split("+") for p in partnerships(list(values))]
    rows = []
    for pairing, (p, q) in enumerate(itertools.combinations(pairs, 2)):
        for deal in range(deals):
            d = sum(values[a] for a in p) - sum(values[a] for a in q) + rng.normal(0, noise)
            luck = rng.normal(0, 100)
            for table in (0, 1):
                teams = (p, q) if table == 0 else (q, p)
                for team, (a, b) in enumerate(teams):  # the cards favour team 0's seats at both tables
                    mine = d / 2 if teams[team] is p else -d / 2
                    rows.append((pairing, deal, table, team, f"{a}+{b}", a, b, round(mine + luck * (1 - 2 * team))))
    return pd.DataFrame(rows, columns=["pairing", "deal_no", "rotation", "side", "agent", "agent_a", "agent_b", "points"])


def test_the_fit_recovers_the_values_of_the_model():
    truth = {"a": 12.0, "b": 0.0, "c": -12.0}
    fit = partner_values(synthetic(truth, 300))
    assert list(fit["agent"]) == ["a", "b", "c"]
    for row in fit.itertuples():
        assert row.lo < truth[row.agent] < row.hi and row.hi - row.lo < 4
    d, lo, hi = partner_difference(fit, "a", "b")
    assert lo < 12 < hi and lo > 0
    rel = partner_values(synthetic(truth, 300), reference="b").set_index("agent")
    assert rel.loc["b", "value"] == 0 and abs(rel.loc["a", "value"] - d) < 1e-9


def test_normal_is_the_better_partner_than_easy_on_real_deals(tmp_path):
    """Three partnerships of Easy and Normal, 150 duplicate deals (the loop of Easy and Normal
    that other tests compile): Normal adds more to its team, with intervals apart."""
    fit = partner_study(["easy", "normal"], deals=150, seed=2, out=tmp_path, n_jobs=1, progress=False)
    v = fit.set_index("agent")
    assert list(fit["agent"]) == ["normal", "easy"] and v.loc["normal", "lo"] > v.loc["easy", "hi"]
    assert abs(v["value"].sum()) < 1e-9 and (v["deals"] == 150).all()
    assert v.loc["normal", "seats"] == v.loc["easy", "seats"] == 150 * 3 * 2 * 2


@pytest.mark.parametrize(
    "agents, words", [(["hard"], "at least 2 agents"), (["hard+normal", "easy"], "single agents, not partnerships")]
)
def test_a_study_needs_single_agents(agents, words):
    with pytest.raises(ValueError, match=words):
        partnerships(agents)


def test_pairings_that_do_not_tell_agents_apart_are_refused():
    """``a+b`` against ``b+a`` sets the same two agents against each other: no value follows."""
    teams = {"a+b": ("a", "b"), "b+a": ("b", "a")}
    rows = [(0, deal, table, team, label, *teams[label], 10 * team)
            for deal in range(5) for table in (0, 1)
            for team, label in enumerate(("a+b", "b+a") if table == 0 else ("b+a", "a+b"))]  # fmt: skip
    mirror = pd.DataFrame(rows, columns=["pairing", "deal_no", "rotation", "side", "agent", "agent_a", "agent_b", "points"])
    with pytest.raises(ValueError, match="do not tell the agents"):
        partner_values(mirror)
    df = synthetic({"a": 1.0, "b": 0.0}, 5)
    with pytest.raises(ValueError, match="hands-mode tournament results"):
        partner_values(df.drop(columns=["agent_a"]))
    with pytest.raises(ValueError, match="reference 'z'"):
        partner_values(df, reference="z")
