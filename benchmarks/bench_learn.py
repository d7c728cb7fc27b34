"""The batched environment's speed: learner steps/s with one controlled seat (Normal at the other
three), self-play steps/s (all four seats controlled), and the PettingZoo adapter, in one run.

    NUMBA_NUM_THREADS=1 python benchmarks/bench_learn.py     # prints markdown tables for RESULTS.md

Also dataset rows/s without labels: the rows of recorded hands alone, and ``write_dataset`` end
to end (play, rows, Parquet), one job; and rows with Hard's labels against Hard playing the
same hands (``play_hands``, no rows written), in CPU time, round by round in the same run
(``--label-deals``). ``--what`` picks the measures (``env``, ``rows``, ``labels``).

A learner step is one decision of a controlled seat (one ``step`` call moves every table by one).
Actions are uniformly random legal ones, chosen in numpy from ``info["action_mask"]`` (the
choosing is timed too: it is what a learner's loop pays), by two choosers measured side by side:
``RandomActions`` (a float32 uniform per action, times the mask, argmax) and ``CountedActions``
(one float32 uniform per table picks the k-th legal action: 68x fewer random numbers). Each
figure is the median of ``--repeats`` timed runs of ``--steps`` steps after a warm-up (compile or
cache load); the step kernel's own share (``env.step`` alone) is timed within the same runs.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np

from spades_ai.learn import VectorEnv


class RandomActions:
    """A uniformly random legal action per row: the argmax of independent uniforms on the legal
    actions (zeros elsewhere), in a reused float32 buffer."""

    def __init__(self, num_envs: int, seed: int = 0):
        self.rng = np.random.default_rng(seed)
        self.buf = np.empty((num_envs, 68), dtype=np.float32)

    def __call__(self, mask: np.ndarray) -> np.ndarray:
        self.rng.random(out=self.buf, dtype=np.float32)
        np.multiply(self.buf, mask, out=self.buf)
        return self.buf.argmax(axis=1)


class CountedActions:
    """A uniformly random legal action per row from one float32 uniform per row: ``k`` =
    floor(u x the number of legal actions), and the action is the k-th legal one (the first
    column where the running count of legal actions passes ``k``)."""

    def __init__(self, num_envs: int, seed: int = 0):
        self.rng = np.random.default_rng(seed)
        self.u = np.empty(num_envs, dtype=np.float32)
        self.counts = np.empty((num_envs, 68), dtype=np.int8)

    def __call__(self, mask: np.ndarray) -> np.ndarray:
        self.rng.random(out=self.u, dtype=np.float32)
        np.cumsum(mask, axis=1, dtype=np.int8, out=self.counts)
        k = (self.u * self.counts[:, -1]).astype(np.int8)
        return (self.counts > k[:, None]).argmax(axis=1)


def vector_rate(num_envs: int, steps: int, repeats: int, seats, copy: bool,
                chooser=RandomActions) -> tuple[float, float]:  # fmt: skip
    """Steps/s (median of the timed runs) and the median time of one ``env.step`` call alone."""
    env = VectorEnv(num_envs, seats=seats, copy=copy)
    random_actions = chooser(num_envs)
    _, info = env.reset(seed=1)
    for _ in range(20):  # warm-up
        _, _, _, _, info = env.step(random_actions(info["action_mask"]))
    times, step_times = [], []
    for _ in range(repeats):
        in_step = 0.0
        t0 = time.perf_counter()
        for _ in range(steps):
            actions = random_actions(info["action_mask"])
            t1 = time.perf_counter()
            _, _, _, _, info = env.step(actions)
            in_step += time.perf_counter() - t1
        times.append(time.perf_counter() - t0)
        step_times.append(in_step / steps)
    return num_envs * steps / statistics.median(times), statistics.median(step_times)


def chooser_costs(num_envs: int, rounds: int = 21) -> dict[str, float]:
    """Median ms of one call of each chooser on the masks of 50 learner steps (the same masks
    for both), the two timed in alternation round by round."""
    env = VectorEnv(num_envs, seats=(0,))
    random_actions = RandomActions(num_envs)
    _, info = env.reset(seed=3)
    masks = []
    for _ in range(50):
        masks.append(info["action_mask"])
        _, _, _, _, info = env.step(random_actions(info["action_mask"]))
    choosers = {c.__name__: c(num_envs) for c in (RandomActions, CountedActions)}
    times = {name: [] for name in choosers}
    for _ in range(rounds):
        for name, choose in choosers.items():
            t0 = time.perf_counter()
            for m in masks:
                choose(m)
            times[name].append((time.perf_counter() - t0) / len(masks) * 1e3)
    return {name: statistics.median(t) for name, t in times.items()}


def pettingzoo_rate(steps: int, repeats: int) -> float:
    from spades_ai.interop.pettingzoo import env as pz_env

    e = pz_env()
    rng = np.random.default_rng(0)
    e.reset(seed=1)

    def run(n):
        done = 0
        while done < n:
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                if not e.agents:
                    e.reset()
                continue
            mask = obs["action_mask"]
            e.step(int(rng.choice(np.flatnonzero(mask))))
            done += 1

    run(200)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        run(steps)
        times.append(time.perf_counter() - t0)
    return steps / statistics.median(times)


def rows_rates(deals: int, repeats: int) -> tuple[float, float]:
    """Dataset rows/s: the rows of recorded hands (the numba replay: vectors, masks, columns),
    and end to end (Normal self-play, the rows, Parquet chunks on disk)."""
    import tempfile

    import spades_ai as sa
    from spades_ai.learn import rows_from_records, write_dataset

    records = sa.play_hands(["normal", "normal"], deals, seed=1, keep_plays=True)
    rows_from_records(records, 1, sa.Rules())  # warm-up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        n = len(rows_from_records(records, 1, sa.Rules())["action"])
        times.append(time.perf_counter() - t0)
    replay = n / statistics.median(times)
    with tempfile.TemporaryDirectory() as d:
        write_dataset(f"{d}/warm", ["normal", "normal"], deals=100, seed=1)
        t0 = time.perf_counter()
        write_dataset(f"{d}/run", ["normal", "normal"], deals=deals, seed=1, chunk_size=deals // 4)
        end_to_end = n / (time.perf_counter() - t0)
    return replay, end_to_end


def label_rates(deals: int, rounds: int, lineup) -> tuple[float, float, list[float]]:
    """Rows per CPU second of ``write_dataset(..., labels="hard")`` and decisions per CPU second
    of Hard playing the same hands with ``play_hands`` (no rows written), alternating round by
    round; with the per-round ratios of CPU time (labelled / own). CPU time (this process, all
    threads): on a machine loaded by others a wall clock mostly times the waits for a core."""
    import tempfile

    import spades_ai as sa
    from spades_ai.learn import load_dataset, write_dataset

    with tempfile.TemporaryDirectory() as d:
        write_dataset(f"{d}/warm", lineup, deals=1, seed=2, labels="hard")  # compile or cache load
        sa.play_hands(lineup, 1, seed=2)
        labelled, own, ratios, rows = [], [], [], 0
        for r in range(rounds):
            seed = 100 + r  # each round its own hands, the same for both
            t0 = time.process_time()
            out = write_dataset(f"{d}/r{r}", lineup, deals=deals, seed=seed, labels="hard")
            labelled.append(time.process_time() - t0)
            t0 = time.process_time()
            sa.play_hands(lineup, deals, seed=seed)
            own.append(time.process_time() - t0)
            ratios.append(labelled[-1] / own[-1])
            rows += len(load_dataset(out, columns=["action"])["action"])  # one row per decision of the hands
    return rows / sum(labelled), rows / sum(own), ratios


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--num-envs", type=int, default=4096)
    ap.add_argument("--steps", type=int, default=100, help="steps per timed run")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--deals", type=int, default=20_000, help="deals of the dataset-rows measure")
    ap.add_argument("--pz-steps", type=int, default=3000, help="PettingZoo actions per timed run")
    ap.add_argument("--label-deals", type=int, default=20, help="deals per round of the Hard-labels measure (0: skip)")
    ap.add_argument("--label-rounds", type=int, default=3)
    ap.add_argument("--what", default="env,rows,labels", help="comma-separated: env (and PettingZoo), rows, labels")
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:
        args.num_envs, args.steps, args.repeats, args.deals, args.pz_steps, args.label_deals, args.label_rounds = 64, 5, 1, 20, 50, 1, 1
    what = set(args.what.split(","))
    n = args.num_envs
    print(f"{platform.processor() or platform.machine()}, num_envs={n}, {args.steps} steps x {args.repeats} repeats\n")
    print("| measure | per second (median) | target |")
    print("|---|---|---|")
    if "env" in what:
        env_rows = []
        measures = (("VectorEnv, seat 0, Normal at 1-3", (0,)), ("VectorEnv self-play, all four seats", (0, 1, 2, 3)))
        for name, seats in measures:
            for copy in (True, False):
                for chooser in (RandomActions, CountedActions):
                    rate, step = vector_rate(n, args.steps, args.repeats, seats, copy, chooser)
                    env_rows.append((name, copy, chooser.__name__, rate, step))
        costs = chooser_costs(n)
        pz = pettingzoo_rate(args.pz_steps, args.repeats)
        print(f"| PettingZoo adapter (AEC, one action per call, random legal actions) | {pz:,.0f} | |")
        ratio = env_rows[0][3] / pz
        print(f"| ratio VectorEnv learner (copy=True, RandomActions) / PettingZoo | {ratio:,.0f}x | >= 100x |")
    if "rows" in what:
        replay, end_to_end = rows_rates(args.deals, args.repeats)
        print(f"| dataset rows/s from recorded hands, no labels (the numba replay) | {replay:,.0f} | >= 1,000,000 |")
        print(f"| dataset rows/s end to end (Normal self-play + rows + Parquet chunks) | {end_to_end:,.0f} | |")
    if "labels" in what and args.label_deals:
        # at smoke size one lineup: each is a loop of its own to compile, and the code is the same
        for lineup in (["hard", "normal"],) if args.smoke else (["hard", "hard"], ["hard", "normal"]):
            lab, own, ratios = label_rates(args.label_deals, args.label_rounds, lineup)
            shown = ", ".join(f"{x:.3f}" for x in ratios)
            # at Normal's seats the labels are a search of their own: no by-product there
            target = "within 10%" if lineup == ["hard", "hard"] else ""
            print(f"| {'/'.join(lineup)}: rows per CPU s with Hard labels / decisions per CPU s of play_hands alone | "
                  f"{lab:,.1f} / {own:,.1f} (CPU time ratio per round {shown}; "
                  f"median {statistics.median(ratios):.3f}) | {target} |")
    if "env" in what:
        print("\n| measure | copy | chooser | steps/s (median) | ms a step: env.step alone, the rest (choice, loop) |")
        print("|---|---|---|---|---|")
        for name, copy, chooser, rate, step in env_rows:
            print(f"| {name} | {copy} | {chooser} | {rate:,.0f} | {step * 1e3:.2f}, {(n / rate - step) * 1e3:.2f} |")
        shown = ", ".join(f"{name} {ms:.3f} ms" for name, ms in costs.items())
        print(f"\nThe choice alone, one call on 4096 masks of learner steps (median of 21 alternating rounds): "
              f"{shown}; "
              f"ratio {costs['CountedActions'] / costs['RandomActions']:.2f}")


if __name__ == "__main__":
    main()
