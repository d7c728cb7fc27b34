"""spades_ai: a Monte Carlo AI research toolkit for Spades, on a numba bitboard engine.

>>> import spades_ai as sa
>>> hand = sa.Hand(sa.deal(seed=0))
>>> hand.legal_bids()[:3]
[0, 1, 2]
"""

from spades_ai.version import __version__  # noqa: F401 -- the package version
from spades_ai.agents import Agent, KernelAgent, Mixed, kernel_agent, list_agents, make_agent
from spades_ai.montecarlo import count_worlds, decision_values, sample_worlds, world_weights
from spades_ai.selfplay import HandRecords, play_hands, play_matches, play_out
from spades_ai.cards import Card, CardSet, Suit, format_hand, parse_cards
from spades_ai.errors import FieldError, IllegalBidError, IllegalPassError, IllegalPlayError, RulesError, TableError
from spades_ai.game import Hand, parse_deal
from spades_ai.observation import Observation
from spades_ai.rules import Rules
from spades_ai.seats import Seat
from spades_ai.scoring import HandResult, match_winner, score_hand
from spades_ai.simulate import deal, random_playouts
from spades_ai.solver import double_dummy
from spades_ai import render  # noqa: F401 -- attaches hand.to_pbn and the notebook pictures (_repr_html_)


# The tournament and analysis layers load pandas and pyarrow: imported on first use only.
_LAZY = {
    "load_results": "spades_ai.tournament",
    "run_tournament": "spades_ai.tournament",
    "summarize": "spades_ai.analysis",
    "review": "spades_ai.analysis.review",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'spades_ai' has no attribute {name!r}")

__all__ = [
    "Agent",
    "HandRecords",
    "KernelAgent",
    "Mixed",
    "kernel_agent",
    "Observation",
    "list_agents",
    "make_agent",
    "play_hands",
    "play_matches",
    "Card",
    "CardSet",
    "FieldError",
    "Hand",
    "HandResult",
    "IllegalBidError",
    "IllegalPassError",
    "IllegalPlayError",
    "Rules",
    "RulesError",
    "TableError",
    "Seat",
    "Suit",
    "deal",
    "double_dummy",
    "format_hand",
    "match_winner",
    "parse_cards",
    "parse_deal",
    "random_playouts",
    "score_hand",
    "load_results",
    "run_tournament",
    "summarize",
    "review",
    "count_worlds",
    "decision_values",
    "sample_worlds",
    "world_weights",
    "play_out",
]
