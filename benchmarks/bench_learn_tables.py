"""``VectorEnv`` steps/s at every table, against four players in pairs in the same run.

    NUMBA_NUM_THREADS=1 python benchmarks/bench_learn_tables.py     # a markdown table for RESULTS.md

Two measures a table: *learner* steps/s (seat 0 controlled, Normal at every other seat, inside
the same numba loop: a step at 12 players plays eleven other seats' decisions) and *self-play*
steps/s (every seat controlled: a step is one decision and the vector of the table). Actions are
random legal ones, one float32 uniform per table picking the k-th legal action (the choosing is
timed too: a learner's loop pays it). The tables are timed round by round, interleaved (each
round times every table once, in order), on the process's CPU time, so a change in the machine's
load falls on all of them; each figure is the median over ``--rounds`` of ``num_envs * --steps /
CPU seconds``, after a warm-up
(compile or cache load), and the ratio is that median over the median at 4 in pairs.

``--against COMMIT`` times instead four in pairs in this tree and in the commit's package
(``bench_ab.export``: imported as ``spades_ai_ab``, its own kernel cache), interleaved, on the
process's CPU time: whether the table-derived layout slowed the 4-player environment.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np

from spades_ai import Rules
from spades_ai.learn import VectorEnv
from spades_ai.seats import table_name

TABLES = {
    "4 pairs": Rules(),
    "3": Rules(players=3),
    "4 solo": Rules(players=4, teams="solo"),
    "5": Rules(players=5),
    "6 pairs": Rules(players=6, teams="pairs"),
    "8": Rules(players=8),
    "12": Rules(players=12),
}


class CountedActions:
    """A uniformly random legal action per row from one float32 uniform per row: ``k`` =
    floor(u x the number of legal actions), the action the k-th legal one."""

    def __init__(self, num_envs: int, n_actions: int, seed: int = 0):
        self.rng = np.random.default_rng(seed)
        self.u = np.empty(num_envs, dtype=np.float32)
        self.counts = np.empty((num_envs, n_actions), dtype=np.int16)

    def __call__(self, mask: np.ndarray) -> np.ndarray:
        self.rng.random(out=self.u, dtype=np.float32)
        np.cumsum(mask, axis=1, dtype=np.int16, out=self.counts)
        k = (self.u * self.counts[:, -1]).astype(np.int16)
        return (self.counts > k[:, None]).argmax(axis=1)


class Timed:
    """One environment of a table and its chooser, warmed up, timed ``steps`` steps a call."""

    def __init__(self, rules: Rules, num_envs: int, self_play: bool):
        seats = tuple(range(rules.players)) if self_play else (0,)
        self.env = VectorEnv(num_envs, seats=seats, rules=rules)
        self.choose = CountedActions(num_envs, self.env.layout.n_actions)
        _, self.info = self.env.reset(seed=1)
        self.run(20)  # warm-up: compile or cache load

    def run(self, steps: int) -> float:
        """Steps/s of ``steps`` steps, on the process's CPU time (a shared machine's load moves)."""
        c0 = time.process_time()
        info = self.info
        for _ in range(steps):
            _, _, _, _, info = self.env.step(self.choose(info["action_mask"]))
        self.info = info
        return self.env.num_envs * steps / (time.process_time() - c0)


def measure(names, num_envs: int, steps: int, rounds: int, self_play: bool) -> dict[str, float]:
    """The median steps/s of each table, its rounds interleaved with the other tables'."""
    timed = {name: Timed(TABLES[name], num_envs, self_play) for name in names}
    rates: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(rounds):
        for name, t in timed.items():
            rates[name].append(t.run(steps))
    return {name: statistics.median(r) for name, r in rates.items()}


def against(commit: str, num_envs: int, steps: int, rounds: int) -> None:
    """Four in pairs here and at ``commit``, learner and self-play, rounds interleaved (CPU time)."""
    import importlib
    import sys
    import tempfile
    from pathlib import Path

    here = Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    from bench_ab import export

    with tempfile.TemporaryDirectory() as tmp:
        export(commit, Path(tmp))
        sys.path.insert(0, tmp)
        old = importlib.import_module("spades_ai_ab.learn")
        print(f"| 4 players in pairs | {commit} (median steps/s) | this tree | per-round ratio: median |")
        print("|---|---|---|---|")
        for label, seats in (("learner", (0,)), ("self-play", (0, 1, 2, 3))):
            envs = {}
            for tag, module in (("old", old), ("new", sys.modules["spades_ai.learn"])):
                env = module.VectorEnv(num_envs, seats=seats)
                _, info = env.reset(seed=1)
                envs[tag] = [env, CountedActions(num_envs, 68), info]
            rates: dict[str, list[float]] = {"old": [], "new": []}
            for r in range(rounds + 1):
                for tag in ("old", "new") if r % 2 == 0 else ("new", "old"):
                    env, choose, info = envs[tag]
                    c0 = time.process_time()
                    for _ in range(steps):
                        _, _, _, _, info = env.step(choose(info["action_mask"]))
                    envs[tag][2] = info
                    if r:  # round 0 warms up
                        rates[tag].append(num_envs * steps / (time.process_time() - c0))
            ratio = [b / a for a, b in zip(rates["old"], rates["new"])]
            print(f"| {label} | {statistics.median(rates['old']):,.0f} | {statistics.median(rates['new']):,.0f} "
                  f"| {statistics.median(ratio):.3f} |")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--num-envs", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=50, help="steps per timed run")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--tables", default=",".join(TABLES), help=f"comma-separated, of: {', '.join(TABLES)} (4 pairs always)")
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    ap.add_argument("--against", metavar="COMMIT", help="time four in pairs against this commit instead")
    args = ap.parse_args()
    if args.smoke:
        args.num_envs, args.steps, args.rounds, args.tables = 8, 3, 1, "4 pairs,3"
    if args.against:
        against(args.against, args.num_envs, args.steps, args.rounds)
        return
    names = ["4 pairs", *(n for n in args.tables.split(",") if n != "4 pairs")]
    unknown = [n for n in names if n not in TABLES]
    if unknown:
        raise SystemExit(f"unknown tables {unknown}: tables are {', '.join(TABLES)}")
    print(f"{platform.processor() or platform.machine()}, {args.num_envs} tables, {args.steps} steps a run, "
          f"median of {args.rounds} interleaved rounds\n")  # fmt: skip
    print("| table | learner steps/s | ratio to 4 in pairs | self-play steps/s | ratio |")
    print("|---|---|---|---|---|")
    learner = measure(names, args.num_envs, args.steps, args.rounds, self_play=False)
    selfplay = measure(names, args.num_envs, args.steps, args.rounds, self_play=True)
    for name in names:
        print(f"| {table_name(TABLES[name])} | {learner[name]:,.0f} | {learner[name] / learner['4 pairs']:.2f} "
              f"| {selfplay[name]:,.0f} | {selfplay[name] / selfplay['4 pairs']:.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()
