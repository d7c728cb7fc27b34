"""Racing (issue 11, item 4): Hard's and Crazy's decision time with and without racing, in CPU
time, and how often racing changes the decision.

    python benchmarks/bench_racing.py [--positions 12] [--agents hard:racing=false hard:racing=true ...]

Every decision point (4 bids, 52 cards) of ``--positions`` hands of Normal self-play (deals
``0 ..`` of seed 5, as ``bench_agents.py`` and ``bench_solver_leaves.py``) is put to each agent
(specs as in a tournament file, plus ``z=...`` to race at another threshold than ``RACE_Z``)
through its kernels, the same positions for every agent, the agents taking turns decision by
decision; each decision is timed by the thread's CPU time; the process is pinned to one core. Reported per
agent: median, 90th percentile and mean per decision, the same over the decisions with at least
two candidates (where racing can work), and the share of decisions whose choice differs from
the first agent's (the same worlds are sampled: with racing a decision can only change where a
candidate was dropped).
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np
from bench_solver_leaves import decision_points

from spades_ai.agents.spec import parse_agent


def build(spec: str):
    """An agent and the racing threshold to use: a tournament spec, optionally with ``z=...``
    (racing at that threshold instead of ``RACE_Z``; 0: no racing)."""
    parts = spec.split(":", 1)
    opts = [o for o in (parts[1].split(",") if len(parts) > 1 else []) if o]
    z = None
    for o in list(opts):
        if o.startswith("z="):
            z = float(o[2:])
            opts.remove(o)
    agent = parse_agent(parts[0] + (":" + ",".join(opts) if opts else "")).build()
    return agent, z


def decide(agent, z, obs) -> int:
    """The agent's decision at ``obs`` (a bid, or a card's id) through its kernels, racing at
    ``z`` if given."""
    from spades_ai.engine.bids import BID_BITS, legal_bids
    from spades_ai.engine.state import legal_now

    pub, seat, hand, rules, settings, state = agent.search_args(obs)
    m = agent.module
    bidding = obs.phase == "bidding"
    legal = legal_bids(seat, hand, pub, rules) & BID_BITS if bidding else legal_now(pub, hand, rules)
    if z is None:  # the search's one entry, as the agent decides in play (and compiled by it)
        what = m.DECIDE_BID if bidding else m.DECIDE_CARD
        return int(m.mc_decide(pub, seat, hand, np.int64(legal), rules, agent.params, np.empty(0), what)[0])
    settings = settings._replace(race_z=float(z))
    if bidding:
        return int(m.mc_bid(pub, seat, hand, rules, np.int64(legal), settings, state, np.empty(0))[0])
    card_bit = int(m.mc_play(pub, seat, hand, rules, np.uint64(legal), settings, state, np.empty(0))[0])
    return card_bit.bit_length() - 1  # the card's id, as ``mc_decide`` gives it


def decisions(built, points) -> tuple[np.ndarray, np.ndarray]:
    """CPU seconds and choices ``[agent, decision]``, the agents interleaved decision by
    decision (so a change of the machine's load hits them alike), after a warm-up."""
    for agent, z in built:
        decide(agent, z, points[0])
        decide(agent, z, points[10])
    times = np.zeros((len(built), len(points)))
    choices = np.zeros((len(built), len(points)), dtype=np.int64)
    for d, obs in enumerate(points):
        for a, (agent, z) in enumerate(built):
            t0 = time.thread_time()
            choices[a, d] = decide(agent, z, obs)
            times[a, d] = time.thread_time() - t0
    return times, choices


def several(obs) -> bool:
    """The decision weighs two or more candidates."""
    from spades_ai.engine.state import legal_now
    from spades_ai.montecarlo.candidates import play_candidates

    if obs.phase == "bidding":
        return len(obs.legal_bids()) > 1
    hand = np.uint64(int(obs.cards))
    legal = np.uint64(legal_now(obs.public, hand, obs.rules_array))
    return int(play_candidates(obs.public, hand, legal)).bit_count() > 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=12, help="hands of decision points")
    ap.add_argument("--agents", nargs="+", default=["hard:racing=false", "hard:racing=true"],
                    help="agent specs (as in a tournament file); the first is the reference for changed choices")
    ap.add_argument("--cpu", type=int, default=0, help="core to pin to (-1: no pinning)")
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:
        args.positions, args.agents = 1, ["hard:racing=false,worlds=16", "hard:racing=true,worlds=16"]
    if args.cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    points = decision_points(args.positions)
    multi = np.array([several(o) for o in points])
    print(f"{len(points)} decisions ({multi.sum()} with 2+ candidates); {platform.machine()}, "
          f"Python {platform.python_version()}, CPU time per decision")
    print()
    print("| agent | median | p90 | mean | 2+ candidates: median | mean | choices changed |")
    print("|---|---|---|---|---|---|---|")
    times, choices = decisions([build(spec) for spec in args.agents], points)
    for spec, t, c in zip(args.agents, times * 1e3, choices):
        changed = int((c != choices[0]).sum())
        print(f"| {spec} | {np.median(t):.2f} ms | {np.percentile(t, 90):.2f} ms | {t.mean():.2f} ms "
              f"| {np.median(t[multi]):.2f} ms | {t[multi].mean():.2f} ms | {changed} ({changed / len(c):.1%}) |", flush=True)


if __name__ == "__main__":
    main()
