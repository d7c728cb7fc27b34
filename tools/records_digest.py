"""A digest of the records every built-in agent makes on fixed deals: run before and after a change
that must not change any decision (a refactor, a move, a rename) and compare the lines.

    python tools/records_digest.py            # one line per case, then the digest of all
    python tools/records_digest.py --quick    # the cheap cases only (no Crazy, fewer deals)

Each case plays a lineup with ``play_hands`` or ``play_matches`` (the numba loop) and, for one
case, through the agents' Python ``bid``/``play`` (a Python seat in the lineup), under the default
rules and under house rules (closed bidding with card passing, jokers), and hashes every array
of the records (plays kept). Hard, Crazy and ISMCTS are included with their defaults and with
another rollout policy bound (``rollout="easy"``), which is compiled through codegen.
"""

from __future__ import annotations

import argparse
import hashlib
import sys

import numpy as np

import spades_ai as sa


class PythonSeat:
    """A built-in agent asked through its Python ``bid``/``play`` (the loop's Python path)."""

    def __init__(self, agent):
        self.agent, self.name = agent, f"py-{agent.name}"

    def bid(self, obs):
        return self.agent.bid(obs)

    def play(self, obs):
        return self.agent.play(obs)


def cases(quick: bool):
    house = sa.Rules(closed_bidding=True, pass_cards=2)
    jokers = sa.Rules(jokers=2, deuces_high=1)
    n = 4 if quick else 12
    yield "easy-normal", lambda: sa.play_hands(["easy", "normal"], 400, seed=3, keep_plays=True)
    yield "random-normal matches", lambda: sa.play_matches(["random", "normal"], 6, seed=4, keep_plays=True)
    yield "normal-easy house", lambda: sa.play_hands(["normal", "easy"], 200, seed=5, rules=house, keep_plays=True)
    yield "normal-easy jokers", lambda: sa.play_hands(["normal", "easy"], 200, seed=6, rules=jokers, keep_plays=True)
    yield "hard-normal", lambda: sa.play_hands([sa.make_agent("hard", worlds=64), "normal"], n, seed=7, keep_plays=True)
    yield "hard default-normal", lambda: sa.play_hands(["hard", "normal"], max(2, n // 3), seed=8, keep_plays=True)
    yield "hard(rollout=easy)-normal", lambda: sa.play_hands(
        [sa.make_agent("hard", worlds=64, rollout="easy"), "normal"], n, seed=9, keep_plays=True
    )
    yield "hard-normal house", lambda: sa.play_hands(
        [sa.make_agent("hard", worlds=48), "normal"], n, seed=10, rules=house, keep_plays=True
    )
    yield "hard(solver,read_play)-easy jokers", lambda: sa.play_hands(
        [sa.make_agent("hard", worlds=48, solver_tricks=3, read_play=True), "easy"], n, seed=11, rules=jokers, keep_plays=True
    )
    yield "ismcts-normal", lambda: sa.play_hands([sa.make_agent("ismcts", iterations=300), "normal"], n, seed=12, keep_plays=True)
    yield "ismcts(rollout=easy)-normal", lambda: sa.play_hands(
        [sa.make_agent("ismcts", iterations=300, rollout="easy", bid_worlds=32), "normal"], n, seed=13, keep_plays=True
    )
    yield "python hard-normal", lambda: sa.play_hands(
        [PythonSeat(sa.make_agent("hard", worlds=32)), "normal"], max(2, n // 3), seed=14, keep_plays=True
    )
    yield "hard blind nil matches", lambda: sa.play_matches(
        [sa.make_agent("hard", worlds=32), "normal"], 1, seed=15, rules=sa.Rules(blind_nil=True, target_score=200)
    )
    if not quick:
        yield "crazy-hard", lambda: sa.play_hands([sa.make_agent("crazy", worlds=512, rollouts=3072), "hard"], 3, seed=16, keep_plays=True)


def digest(records) -> str:
    h = hashlib.sha256()
    for name in records.__dataclass_fields__:
        a = getattr(records, name)
        h.update(name.encode())
        if a is not None:
            h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="cheap cases only")
    args = parser.parse_args(argv)
    total = hashlib.sha256()
    for name, run in cases(args.quick):
        d = digest(run())
        total.update(d.encode())
        print(f"{name:40s} {d}", flush=True)
    print(f"{'all':40s} {total.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
