"""The checks of the built-in agents' options (``make_agent`` names the option in the error)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from spades_ai.agents.hard import BIDDERS
from spades_ai.checks import check_noise, is_int  # noqa: F401 -- check_noise: the play_noise check, shared with montecarlo
from spades_ai.models.model import load_model, shipped_models
from spades_ai.montecarlo.utility import TREE_UTILITIES, UTILITIES


def check_probability(v) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= v <= 1.0:
        raise ValueError(f"must be a probability in [0, 1], not {v!r}")
    return float(v)


def check_worlds(v) -> int:
    if not is_int(v) or not 1 <= int(v) <= 100_000:
        raise ValueError(f"must be an int in 1..100000, not {v!r}")
    return int(v)


def check_rollouts(v) -> int:
    if not is_int(v) or not 0 <= int(v) <= 10_000_000:
        raise ValueError(f"must be an int in 0..10000000 (0: no cap), not {v!r}")
    return int(v)


def check_iterations(v) -> int:
    if not is_int(v) or not 1 <= int(v) <= 1_000_000:
        raise ValueError(f"must be an int in 1..1000000, not {v!r}")
    return int(v)


def check_bid_worlds(v) -> int:
    if not is_int(v) or not 0 <= int(v) <= 100_000:
        raise ValueError(f"must be an int in 0..100000 (0: bid as Normal), not {v!r}")
    return int(v)


def check_exploration(v) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)) or not 0.0 <= float(v) <= 1e6:
        raise ValueError(f"must be a number of points in 0..1000000, not {v!r}")
    return float(v)


def check_solver_tricks(v) -> int:
    if not is_int(v) or not 0 <= int(v) <= 13:
        raise ValueError(f"must be an int in 0..13 (tricks solved exactly at the end of each rollout; 0: none), not {v!r}")
    return int(v)


def check_utility(v) -> str:
    """How Hard and Crazy weigh a hand against the other sides: ``own``, ``paranoid`` or
    ``mean`` (``montecarlo.utility``)."""
    if v not in UTILITIES:
        raise ValueError(f"must be one of {', '.join(map(repr, UTILITIES))}, not {v!r}")
    return v


def check_tree_utility(v) -> str:
    """What ISMCTS's tree keeps: ``vector`` (one value per side) or one of Hard's readings
    (``check_utility``), the searching side's value that every other side minimizes."""
    if v not in TREE_UTILITIES:
        raise ValueError(f"must be one of {', '.join(map(repr, TREE_UTILITIES))}, not {v!r}")
    return v


def check_bidder(v) -> str:
    """How Hard and Crazy bid: ``"search"`` (their Monte Carlo) or ``"learned"`` (the learned
    agent's bidder for the sighted bids at four in pairs, ``agents.hard.BIDDERS``)."""
    if v not in BIDDERS:
        raise ValueError(f"must be one of {', '.join(map(repr, BIDDERS))}, not {v!r}")
    return v


def check_flag(v) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"must be True or False, not {v!r}")
    return v


def check_bid_aware(v) -> bool | str:
    """``bid_aware``: weigh the worlds by the bids at every table (True), at none (False), or at
    a table of one deck only (``"one_deck"``, Crazy's default)."""
    if v not in (True, False, "one_deck") or not isinstance(v, (bool, str)):
        raise ValueError(f'must be True, False or "one_deck" (the bids weighed with one deck only), not {v!r}')
    return v


def check_model(v) -> str:
    """A learned model: a shipped name (``"default"``) or the path of an ``.npz`` file
    (``spades_ai.models.load_model`` reads it here, so a bad one fails when the agent is made)."""
    if not isinstance(v, (str, Path)):
        raise ValueError(f"must be a shipped model's name ({', '.join(shipped_models())}) or an .npz path, not {v!r}")
    load_model(v)
    return str(v)


def check_play_model(v) -> str | None:
    """The play model of the reading of the play: None (Normal's play with noise) or a learned
    model (``check_model``) whose card network says how likely each card is."""
    return None if v is None else check_model(v)
