"""Issue 45: an agent's median decision at each table against four in pairs', in CPU time (the
machine is shared): every decision point (bids and cards) of POSITIONS hands of Normal self-play
(deals of seed 5) put to the agent through its Python face, the tables timed in turn hand after
hand so that a change of load hits all of them. benchmarks/bench_agents.py --hard-players does
the same in wall time for solo tables; this one adds the must-win preset and the tables in
pairs, up to 12 players.

    python experiments/crazy_table_times.py [AGENT] [POSITIONS]     # crazy 1 by default
"""
import sys, time
import numpy as np
from spades_ai import Hand, Rules, deal, make_agent
TABLES = {"4 pairs": Rules(), "3 solo": Rules(players=3), "4 solo must win": Rules(players=4, teams="solo", must_win=True),
          "4 solo": Rules(players=4, teams="solo"), "5 solo": Rules(players=5), "6 pairs": Rules(players=6, teams="pairs"),
          "6 solo": Rules(players=6, teams="solo"), "8 solo": Rules(players=8, teams="solo"),
          "12 pairs": Rules(players=12, teams="pairs"), "12 solo": Rules(players=12, teams="solo")}
agent = make_agent(sys.argv[1] if len(sys.argv) > 1 else "crazy")
positions = int(sys.argv[2]) if len(sys.argv) > 2 else 1
normal = make_agent("normal")
times = {t: [] for t in TABLES}
def points(rules, i):
    hand = Hand(deal(5, i, rules), dealer=i % rules.players, rules=rules)
    while hand.phase != "over":
        obs = hand.observation()
        yield obs
        hand.bid(normal.bid(obs)) if hand.phase == "bidding" else hand.play(normal.play(obs))
for name, rules in TABLES.items():  # warm up (compile)
    agent.bid(Hand(deal(5, 0, rules), rules=rules).observation())
for i in range(positions):
    for name, rules in TABLES.items():
        for obs in points(rules, i):
            c0 = time.process_time()
            agent.bid(obs) if obs.phase == "bidding" else agent.play(obs)
            times[name].append(time.process_time() - c0)
four = np.median(times["4 pairs"])
print(f"| table | {agent.label}'s median decision, CPU | p90 | decisions | median / 4 pairs' |")
print("|---|---|---|---|---|")
for name, t in times.items():
    print(f"| {name} | {np.median(t) * 1e3:.1f} ms | {np.percentile(t, 90) * 1e3:.1f} ms | {len(t)} | {np.median(t) / four:.2f} |")
