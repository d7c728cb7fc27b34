"""Each agent's value as a partner: the partner study of mixed partnerships (issue 23).

Spades is judged by partners ("how good is Hard as Normal's partner?"). Given agents, the study
seats every partnership of two of them (``easy+easy``, ``easy+normal``, ... ``hard+hard``:
``partnerships``), plays every pairing of partnerships on the same duplicate deals (a
round-robin in hands mode), and fits an additive model of the duplicate difference::

    d(P vs Q, deal i) = v[P_a] + v[P_b] - v[Q_a] - v[Q_b] + noise

where ``d`` is partnership P's points minus Q's over the deal's two tables, halved (the
summary's ``diff``), and ``v[x]`` is what agent ``x`` adds to its side in points per deal, whoever
its partner. Values are fitted by least squares with ``sum(v) = 0`` (or ``v[reference] = 0``),
so ``v[hard] - v[normal]`` is "Hard is worth that much more than Normal as a partner". Every
pairing plays the same deals, so the deals' luck is shared between pairings: the intervals come
from a covariance clustered by deal (the sandwich estimator over deals), not from treating the
pairings as independent.

>>> partnerships(["easy", "normal"])
['easy+easy', 'easy+normal', 'normal+normal']
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from spades_ai.analysis.metrics import results_rules
from spades_ai.analysis.summary import Z95
from spades_ai.capabilities import require_table


def partnerships(agents: Sequence[str]) -> list[str]:
    """Every partnership of two of ``agents`` (agent specs), an agent with itself included, in
    order: ``a+a``, ``a+b``, ... (the partners' order within a pair is not the model's concern)."""
    agents = list(agents)
    if len(agents) < 2:
        raise ValueError(f"a partner study needs at least 2 agents, got {agents!r}")
    if any("+" in a for a in agents):
        raise ValueError(f"the agents of a partner study are single agents, not partnerships: {agents!r}")
    return [f"{a}+{b}" for a, b in itertools.combinations_with_replacement(agents, 2)]


def _deal_rows(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """(the design, one row per pairing and deal: +1 per seat of the pairing's first
    partnership held by each agent, -1 per seat of the second's; the duplicate differences;
    each row's deal; the agents in column order)."""
    missing = [c for c in ("pairing", "deal_no", "rotation", "side", "agent", "agent_a", "agent_b", "points") if c not in df.columns]
    if missing:
        raise ValueError(f"partner values need hands-mode tournament results (load_results); missing {', '.join(missing)}")
    rules = results_rules(df)
    if rules is not None:
        require_table(rules, "partners")
    if len(df) and int(df["side"].max()) != 1:
        raise ValueError(f"partner values need rows of sides 0 and 1, and these rows hold {int(df['side'].max()) + 1} sides")
    config = df.attrs.get("config", {})
    if config.get("duplicate") is False:
        raise ValueError("partner values need duplicate deals: this run played other cards at its second table")
    agents = sorted(set(df["agent_a"].astype(str)) | set(df["agent_b"].astype(str)))
    col = {a: k for k, a in enumerate(agents)}
    # the pairing's first partnership: side 0 at rotation 0
    head = df[(df["rotation"] == 0) & (df["side"] == 0)]
    first_of = head.groupby("pairing", observed=True)["agent"].first().astype(str).to_dict()
    seats = df[df["rotation"] == 0].drop_duplicates(["pairing", "side"]).set_index(["pairing", "side"])
    design_of = {}
    for p in first_of:
        x = np.zeros(len(agents))
        for side, sign in ((0, 1.0), (1, -1.0)):
            row = seats.loc[(p, side)]
            x[col[str(row["agent_a"])]] += sign
            x[col[str(row["agent_b"])]] += sign
        design_of[p] = x
    pairing = df["pairing"].to_numpy()
    first = np.array([first_of[p] for p in pairing])
    sign = np.where(df["agent"].astype(str).to_numpy() == first, 1.0, -1.0)
    per = (pd.DataFrame({"pairing": pairing, "deal_no": df["deal_no"].to_numpy(), "s": sign * df["points"].to_numpy(float)})
           .groupby(["pairing", "deal_no"], sort=True)["s"].sum() / 2)  # fmt: skip
    keys = per.index.to_frame(index=False)
    design = np.stack([design_of[p] for p in keys["pairing"]])
    return design, per.to_numpy(), keys["deal_no"].to_numpy(), agents


def partner_values(df: pd.DataFrame, *, reference: str | None = None, z: float = Z95) -> pd.DataFrame:
    """Each agent's value as a partner from a hands-mode duplicate run of partnerships (the
    additive model of the module docstring), best first.

    Columns: ``agent``, ``value`` (points per deal it adds to its side, summing to zero over the
    agents, or relative to ``reference``), ``lo``, ``hi`` (the interval at ``z``, 95% by
    default), ``se``, ``seats`` (player-hands it sat) and ``deals`` (distinct deals). The fit's
    covariance is ``attrs["cov"]`` (agents in ``attrs["agents"]``), for differences between
    agents: ``partner_difference``.
    """
    design, y, deal, agents = _deal_rows(df)
    k = len(agents)
    if reference is not None and reference not in agents:
        raise ValueError(f"reference {reference!r} is not one of the agents {agents}")
    # v = C theta: k - 1 free values, the constraint (sum zero, or the reference at zero) built in
    if reference is None:
        basis = np.vstack([np.eye(k - 1), -np.ones((1, k - 1))])
    else:
        basis = np.delete(np.eye(k), agents.index(reference), axis=1)
    x = design @ basis
    xtx = x.T @ x
    if np.linalg.matrix_rank(xtx) < k - 1:
        raise ValueError(
            f"these pairings do not tell the agents {agents} apart as partners (every pairing must set "
            "different pairs against each other: play every partnership, spades_ai.analysis.partners.partnerships)"
        )
    bread = np.linalg.inv(xtx)
    theta = bread @ x.T @ y
    resid = y - x @ theta
    # clustered by deal: every pairing plays the same deals, whose luck the pairings share
    order = np.argsort(deal, kind="stable")
    _, starts = np.unique(deal[order], return_index=True)
    scores = np.add.reduceat(x[order] * resid[order, None], starts, axis=0)
    g = len(starts)
    cov_theta = bread @ (scores.T @ scores) @ bread * (g / max(1, g - 1))
    values, cov = basis @ theta, basis @ cov_theta @ basis.T
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    held = pd.concat([df["agent_a"].astype(str), df["agent_b"].astype(str)]).value_counts()
    out = pd.DataFrame({"agent": agents, "value": values, "lo": values - z * se, "hi": values + z * se, "se": se,
                        "seats": [int(held[a]) for a in agents], "deals": g})  # fmt: skip
    out = out.sort_values("value", ascending=False, ignore_index=True)
    out.attrs["cov"], out.attrs["agents"], out.attrs["z"] = cov, agents, z
    return out


def partner_difference(values: pd.DataFrame, a: str, b: str) -> tuple[float, float, float]:
    """(``v[a] - v[b]``, its interval) from ``partner_values``: "as a partner, ``a`` is worth
    that much more than ``b``", with the fit's covariance (both were fitted on the same deals)."""
    agents = values.attrs["agents"]
    for name in (a, b):
        if name not in agents:
            raise ValueError(f"{name!r} is not one of the agents {agents}")
    i, j = agents.index(a), agents.index(b)
    cov, z = values.attrs["cov"], values.attrs["z"]
    v = values.set_index("agent")["value"]
    d = float(v[a] - v[b])
    half = z * float(np.sqrt(max(0.0, cov[i, i] + cov[j, j] - 2 * cov[i, j])))
    return d, d - half, d + half


def partner_study(agents: Sequence[str], deals: int = 2000, seed: int = 0, **run_options) -> pd.DataFrame:
    """Play every pairing of ``partnerships(agents)`` on ``deals`` duplicate deals of ``seed``
    (``run_tournament`` with ``run_options``: ``out``, ``n_jobs``, ``rules`` ...) and return
    ``partner_values`` of the results."""
    from spades_ai.tournament import load_results, run_tournament

    run = run_tournament(partnerships(agents), deals=deals, seed=seed, mode="hands", **run_options)
    return partner_values(load_results(run))
