"""A strong defender to measure our bids against: OpenSpiel's MCTS in sampled worlds (issue 45).

``DeterminizedMCTS`` is an agent (``name``, ``bid``, ``play``, ``blind_nil``) independent of our
searches: at each card it samples ``worlds`` deals that fit its observation
(``spades_ai.interop.openspiel.state_from_observation``: the hidden cards drawn uniformly among
the deals that fit the cards played, the voids shown and the spade counts bids reveal), runs
OpenSpiel's ``MCTSBot`` (``open_spiel.python.algorithms.mcts``, UCT, ``simulations`` a world) on
the toolkit's OpenSpiel game in each, sums the root's visit counts over the worlds and plays the
most visited card (ties: the higher summed return, then the lower action id). Every draw comes
from ``seed`` and the observation, so a decision repeats exactly.

What the search maximises (``utility``): ``"difference"`` (the default) is the seat's side's
points for the hand less the mean of the other sides' points, the quantity duplicate scoring
counts, so setting the opponents is worth as much to it as its own contract; ``"own"`` is the
game's own return (its side's points alone: a defender that does not care about setting). The
rewards are points, so ``uct_c`` is in points too (default 40: about a made bid of 4).
Leaves are evaluated by ``rollout``: ``"random"`` (OpenSpiel's ``RandomRolloutEvaluator``, one
uniform random playout) or ``"normal"`` (every seat plays our Normal to the end, through
``SpadesBot``). It bids (and decides a blind nil) as the agent ``bidder`` (default ``"normal"``;
random rollouts make a searched bid meaningless); ``bidder="search"`` searches the bid too.

In a tournament file in this folder: ``agents = ["hard", "defender:DeterminizedMCTS:worlds=4"]``.
Needs the ``openspiel`` extra. Decision time: ``python experiments/defender.py --time``.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

import numpy as np
from open_spiel.python.algorithms import mcts

from spades_ai.agents.registry import make_agent
from spades_ai.cards import Card
from spades_ai.interop.encoding import BID_OFFSET, observation_layout
from spades_ai.interop.openspiel import SpadesBot, state_from_observation
from spades_ai.kernels import decision_stream
from spades_ai.observation import Observation
from spades_ai.seats import seats, side_of, side_seats, sides

UTILITIES = ("difference", "own")
ROLLOUTS = ("random", "normal")


def difference_weights(rules) -> np.ndarray:
    """``W`` (seats x seats) with ``W @ returns`` each seat's side's points less the mean of the
    other sides' points (``returns``: each seat's side's points, as the game gives them)."""
    n_sides = len(sides(rules))
    w = np.zeros((len(seats(rules)), len(seats(rules))))
    for seat in seats(rules):
        own = side_of(seat, rules)
        for side in sides(rules):
            first = side_seats(side, rules)[0]  # every seat of a side gets the side's points
            w[seat, first] = 1.0 if side == own else -1.0 / (n_sides - 1)
    return w


class _Utility:
    """A ``"spades_ai"`` state whose ``returns()`` are mapped by ``weights`` (MCTSBot and its
    evaluators read a state only through the methods below)."""

    __slots__ = ("state", "weights")

    def __init__(self, state, weights):
        self.state = state
        self.weights = weights

    def clone(self):
        return _Utility(self.state.clone(), self.weights)

    def is_terminal(self):
        return self.state.is_terminal()

    def is_chance_node(self):
        return self.state.is_chance_node()

    def current_player(self):
        return self.state.current_player()

    def legal_actions(self, player=None):
        return self.state.legal_actions() if player is None else self.state.legal_actions(player)

    def chance_outcomes(self):
        return self.state.chance_outcomes()

    def apply_action(self, action):
        self.state.apply_action(action)

    def returns(self):
        r = np.asarray(self.state.returns(), dtype=float)
        return r if self.weights is None else self.weights @ r


class NormalRollout(mcts.Evaluator):
    """A leaf's value: every seat plays our Normal to the end of the hand; uniform priors."""

    def __init__(self):
        self.bot = SpadesBot("normal")

    def evaluate(self, state):
        working = state.clone()
        while not working.is_terminal():
            working.apply_action(self.bot.step(working.state))
        return working.returns()

    def prior(self, state):
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def _check(name, value, kind, low=None):
    ok = isinstance(value, kind) and not isinstance(value, bool) and (low is None or value >= low)
    if not ok:
        raise ValueError(f"DeterminizedMCTS option {name} must be {kind.__name__} >= {low}, not {value!r}")


class DeterminizedMCTS:
    """OpenSpiel's MCTS in ``worlds`` sampled deals, root visits summed (module docstring)."""

    def __init__(self, *, worlds: int = 4, simulations: int = 25, uct_c: float = 40.0, rollout: str = "random",
                 utility: str = "difference", bidder: str = "normal", seed: int = 0, name: str | None = None):  # fmt: skip
        _check("worlds", worlds, int, 1)
        _check("simulations", simulations, int, 1)
        _check("uct_c", float(uct_c) if isinstance(uct_c, int) and not isinstance(uct_c, bool) else uct_c, float, 0.0)
        _check("seed", seed, int, 0)
        if rollout not in ROLLOUTS:
            raise ValueError(f"DeterminizedMCTS option rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        if utility not in UTILITIES:
            raise ValueError(f"DeterminizedMCTS option utility must be one of {', '.join(UTILITIES)}, not {utility!r}")
        self.worlds, self.simulations, self.uct_c = worlds, simulations, float(uct_c)
        self.rollout, self.utility, self.seed = rollout, utility, seed
        self.bidder = None if bidder == "search" else make_agent(bidder)
        self.name = name or f"mcts(worlds={worlds},simulations={simulations},rollout={rollout},utility={utility})"

    def _evaluator(self, rng):
        return mcts.RandomRolloutEvaluator(1, rng) if self.rollout == "random" else NormalRollout()

    def visits(self, obs: Observation) -> dict[int, tuple[int, float]]:
        """``action -> (root visits, summed return)`` over the worlds, for the seat's decision."""
        weights = difference_weights(obs.rules) if self.utility == "difference" else None
        key = int(decision_stream(np.uint64(self.seed), obs.public, obs.seat, np.uint64(obs.engine_cards)))
        totals = defaultdict(lambda: [0, 0.0])
        for k in range(self.worlds):
            state = state_from_observation(obs, (self.seed + 0x9E3779B97F4A7C15 * (k + 1)) % 2**63)
            rng = np.random.RandomState([key & 0xFFFFFFFF, key >> 32, k])
            bot = mcts.MCTSBot(state.get_game(), self.uct_c, self.simulations, self._evaluator(rng), random_state=rng)
            root = bot.mcts_search(_Utility(state, weights))
            for child in root.children:
                totals[child.action][0] += child.explore_count
                totals[child.action][1] += child.total_reward
        return {a: (n, r) for a, (n, r) in totals.items()}

    def _action(self, obs: Observation) -> int:
        counts = self.visits(obs)
        return max(counts, key=lambda a: (counts[a][0], counts[a][1], -a))

    def bid(self, obs: Observation) -> int:
        return self.bidder.bid(obs) if self.bidder is not None else self._action(obs) - BID_OFFSET

    def blind_nil(self, obs: Observation) -> bool:
        if self.bidder is not None:
            wants = getattr(self.bidder, "blind_nil", None)
            return bool(wants is not None and wants(obs))
        return self._action(obs) == observation_layout(obs.rules).blind_nil

    def play(self, obs: Observation) -> Card:
        return Card(self._action(obs))

    def __repr__(self) -> str:
        return f"DeterminizedMCTS({self.name!r}, seed={self.seed})"


def _time_decisions(agent, deals: int) -> list[float]:
    """Seconds per card decision of ``agent`` at seat 1, Normal at the other seats."""
    import spades_ai as sa

    normal, spent = make_agent("normal"), []
    for d in range(deals):
        hand = sa.Hand(sa.deal(seed=1000 + d))
        while hand.phase != "over":
            obs = hand.observation()
            if hand.phase == "bidding":
                hand.bid(normal.bid(obs))
            elif hand.to_act == 1:
                t = time.perf_counter()
                card = agent.play(obs)
                spent.append(time.perf_counter() - t)
                hand.play(card)
            else:
                hand.play(normal.play(obs))
    return spent


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--time", action="store_true", help="time its card decisions")
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--worlds", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=25)
    parser.add_argument("--rollout", default="random", choices=ROLLOUTS)
    args = parser.parse_args(argv)
    agent = DeterminizedMCTS(worlds=args.worlds, simulations=args.simulations, rollout=args.rollout)
    _time_decisions(agent, 1)  # compile and warm
    spent = np.array(_time_decisions(agent, args.deals))
    print(f"{agent.name}: {len(spent)} card decisions, median {np.median(spent) * 1e3:.0f} ms, "
          f"mean {spent.mean() * 1e3:.0f} ms, max {spent.max() * 1e3:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
