"""Hard with its bid shaded by its own measured set risk: a remedy tried against a strong defence
(issue 45, item 3; ``experiments/RESULTS.md``, "Against a strong defence").

Hard's search rolls its worlds out with Normal at every seat, so a bid's value counts on
defenders who defend like Normal and overrates the tricks a stronger defence lets it take.
``ShadedHard(margin=m)`` asks Hard's search for the value of every bid
(``montecarlo.decision_values``: mean points to the team over the worlds, the numbers Hard bids
from) and bids the lowest bid, from Hard's own down to 1, whose value is within ``m`` points of
the best: a lower bid costs about 9 points where both are safe, much less where the higher one
is often set, so a small ``m`` shades exactly the bids whose set risk the search itself sees. A
nil, and every bid at ``m = 0``, is Hard's. It plays as Hard. A separate agent here, not an
option of Hard: Hard's records stay what they are.

In a tournament file in this folder: ``agents = ["shaded:ShadedHard:margin=5", ...]``.
"""

from __future__ import annotations

from spades_ai.agents.registry import make_agent
from spades_ai.cards import Card
from spades_ai.montecarlo import decision_values
from spades_ai.observation import Observation


def shaded_bid(bid: int, values: dict[int, float], margin: float) -> int:
    """The lowest bid from ``bid`` down to 1 whose value is within ``margin`` of ``values[bid]``
    (``bid`` itself for a nil, or when no lower bid has a value)."""
    if bid == 0:
        return bid
    best = values[bid]
    for k in range(1, bid):
        v = values.get(k, float("nan"))
        if v == v and v >= best - margin:
            return k
    return bid


class ShadedHard:
    """Hard bidding the lowest bid within ``margin`` points of its best (module docstring)."""

    def __init__(self, *, margin: float = 5.0, seed: int = 0, **options):
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not margin >= 0:
            raise ValueError(f"ShadedHard option margin must be a number >= 0, not {margin!r}")
        self.hard = make_agent("hard", seed=seed, **options)
        self.margin = float(margin)
        self.name = f"hard(margin={margin:g})"

    def bid(self, obs: Observation) -> int:
        b, values = decision_values(self.hard, obs)
        return shaded_bid(int(b), values, self.margin)

    def play(self, obs: Observation) -> Card:
        return self.hard.play(obs)

    def blind_nil(self, obs: Observation) -> bool:
        wants = getattr(self.hard, "blind_nil", None)
        return bool(wants is not None and wants(obs))
