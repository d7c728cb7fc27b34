"""Validation of the plain values that many entry points take: seeds, counts, seats.

One range for every seed in the package: an int in ``0 .. 2**64 - 1`` (deal streams and agent
decision streams are keyed by a uint64).
"""

from __future__ import annotations

import numpy as np

from spades_ai.errors import FieldError

MAX_SEED = 2**64


def is_int(v) -> bool:
    """Whether ``v`` is an int: a Python or numpy integer, not a bool."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def check_seed(seed, name: str = "seed") -> int:
    """A seed is an int in ``0 .. 2**64 - 1``; anything else raises ``ValueError``."""
    if not is_int(seed) or not 0 <= int(seed) < MAX_SEED:
        raise ValueError(f"{name} must be an int in 0..2**64-1, not {seed!r}")
    return int(seed)


def check_count(n, name: str = "n") -> int:
    """A count is an int >= 0; anything else raises ``FieldError`` naming ``name``."""
    if not is_int(n) or int(n) < 0:
        raise FieldError(name, f"{name} must be an int >= 0, not {n!r}")
    return int(n)


def check_seat(seat, name: str = "seat", players: int = 4) -> int:
    """A seat is an int 0..players-1 (a bool, a float or a string is not)."""
    if not is_int(seat) or not 0 <= int(seat) < players:
        raise ValueError(f"{name} must be a seat 0..{players - 1}, not {seat!r}")
    return int(seat)


def check_dealer(dealer, rules=None) -> int:
    """A dealer is a seat of the table (0..3 by default)."""
    return check_seat(dealer, "dealer", 4 if rules is None else rules.players)


def check_noise(v) -> float:
    """A play model's noise (``play_noise``): a probability strictly between 0 and 1."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 < v < 1.0:
        raise ValueError(f"must be a probability strictly between 0 and 1, not {v!r}")
    return float(v)
