"""The batched environment's speed: learner steps/s with one controlled seat (Normal at the other
three), self-play steps/s (all four seats controlled), and the PettingZoo adapter, in one run.

    NUMBA_NUM_THREADS=1 python benchmarks/bench_learn.py     # prints a markdown table for RESULTS.md

Also dataset rows/s without labels: the rows of recorded hands alone, and ``write_dataset`` end
to end (play, rows, Parquet), one job.

A learner step is one decision of a controlled seat (one ``step`` call moves every table by one).
Actions are uniformly random legal ones, chosen in numpy from ``info["action_mask"]`` (the
choosing is timed too: it is what a learner's loop pays). Each figure is the median of
``--repeats`` timed runs of ``--steps`` steps after a warm-up (compile or cache load).
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


def vector_rate(num_envs: int, steps: int, repeats: int, seats, copy: bool) -> tuple[float, list[float]]:
    env = VectorEnv(num_envs, seats=seats, copy=copy)
    random_actions = RandomActions(num_envs)
    _, info = env.reset(seed=1)
    for _ in range(20):  # warm-up
        _, _, _, _, info = env.step(random_actions(info["action_mask"]))
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(steps):
            _, _, _, _, info = env.step(random_actions(info["action_mask"]))
        times.append(time.perf_counter() - t0)
    return num_envs * steps / statistics.median(times), times


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--num-envs", type=int, default=4096)
    ap.add_argument("--steps", type=int, default=100, help="steps per timed run")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--deals", type=int, default=20_000, help="deals of the dataset-rows measure")
    ap.add_argument("--pz-steps", type=int, default=3000, help="PettingZoo actions per timed run")
    args = ap.parse_args()
    n = args.num_envs
    learner, _ = vector_rate(n, args.steps, args.repeats, (0,), copy=True)
    learner_nocopy, _ = vector_rate(n, args.steps, args.repeats, (0,), copy=False)
    selfplay, _ = vector_rate(n, args.steps, args.repeats, (0, 1, 2, 3), copy=True)
    selfplay_nocopy, _ = vector_rate(n, args.steps, args.repeats, (0, 1, 2, 3), copy=False)
    pz = pettingzoo_rate(args.pz_steps, args.repeats)
    replay, end_to_end = rows_rates(args.deals, args.repeats)
    print(f"{platform.processor() or platform.machine()}, num_envs={n}, {args.steps} steps x {args.repeats} repeats\n")
    print("| measure | steps/s (median) | target |")
    print("|---|---|---|")
    print(f"| VectorEnv, seat 0, Normal at 1-3, random legal actions in numpy (copy=True, the default) | {learner:,.0f} | >= 1,000,000 |")
    print(f"| the same, copy=False (the env's buffers returned) | {learner_nocopy:,.0f} | |")
    print(f"| VectorEnv self-play, all four seats (copy=True) | {selfplay:,.0f} | >= 2,000,000 |")
    print(f"| the same, copy=False | {selfplay_nocopy:,.0f} | |")
    print(f"| PettingZoo adapter (AEC, one action per call, random legal actions) | {pz:,.0f} | |")
    print(f"| ratio VectorEnv learner / PettingZoo | {learner / pz:,.0f}x | >= 100x |")
    print(f"| dataset rows/s from recorded hands, no labels (the numba replay) | {replay:,.0f} | >= 1,000,000 |")
    print(f"| dataset rows/s end to end (Normal self-play + rows + Parquet chunks) | {end_to_end:,.0f} | |")


if __name__ == "__main__":
    main()
