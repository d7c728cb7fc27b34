"""Stopping a tournament when it is decided: a sequential probability ratio test (SPRT).

The test watches the duplicate difference ``x`` of each deal (the first agent's points minus
the second's over both tables, per hand, as the summary computes it; at a table of more sides,
its points minus the mean of the other sides' over the rotations) and weighs

    H0: mean(x) <= d0      against      H1: mean(x) >= d1      (d0 < d1)

with the generalized SPRT of computer-chess testing (fishtest, cutechess): a normal model whose
variance is estimated from the data, so after ``n`` deals with sum ``S`` and sum of squares
``Q`` the log-likelihood ratio is

    var = Q / n - (S / n) ** 2
    LLR = (d1 - d0) / var * (S - n * (d0 + d1) / 2)

It stops at the first deal where ``LLR <= ln(beta / (1 - alpha))`` (H0 accepted) or
``LLR >= ln((1 - beta) / alpha)`` (H1 accepted). ``alpha`` is the chance of accepting H1 when
the mean is ``d0``, ``beta`` that of accepting H0 when it is ``d1``.

The test is checked deal by deal, not chunk by chunk, so the deal it stops at does not depend
on how the deals were cut into chunks; and points are integers, whose sums are exact in
floating point, so the statistics do not either.

>>> test = SPRT(0, 5)
>>> round(test.lower, 3), round(test.upper, 3)
(-2.944, 2.944)
>>> differences = np.random.default_rng(1).normal(20, 60, size=1000).round()
>>> r = sprt_test(test, differences)
>>> r.decision, r.deals, round(r.llr, 2)
('H1', 106, 3.0)
>>> print(r)
SPRT H1 accepted (mean >= 5) after 106 deals: LLR 3.002 >= 2.944 (bounds -2.944, 2.944); mean +17.16, sd 50.87
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from spades_ai.errors import TournamentError

DECISIONS = ("H0", "H1")


class SPRTError(TournamentError):
    """SPRT settings that make no test: d1 <= d0, alpha or beta outside (0, 0.5), ..."""


def _number(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise SPRTError(f"{what} must be a number, not {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise SPRTError(f"{what} must be a finite number, not {value!r}")
    return value


@dataclass(frozen=True)
class SPRT:
    """The settings of a sequential test on the mean duplicate difference per deal.

    >>> SPRT.parse("0,5", alpha=0.1)
    SPRT(d0=0.0, d1=5.0, alpha=0.1, beta=0.05, min_deals=30)
    >>> SPRT(5, 0)
    Traceback (most recent call last):
    ...
    spades_ai.tournament.stopping.SPRTError: sprt: D1 must be greater than D0 (got D0 5, D1 0)
    """

    d0: float
    """H0: the mean difference per deal is at most ``d0`` points."""
    d1: float
    """H1: it is at least ``d1`` points (``d1 > d0``)."""
    alpha: float = 0.05
    """Chance of accepting H1 when the mean is ``d0``, in (0, 0.5)."""
    beta: float = 0.05
    """Chance of accepting H0 when the mean is ``d1``, in (0, 0.5)."""
    min_deals: int = 30
    """No decision before this many deals: the variance comes from the data, and from a
    handful of deals it can be far too small (or zero, when every difference is the same)."""

    def __post_init__(self):
        d0, d1 = _number(self.d0, "sprt D0"), _number(self.d1, "sprt D1")
        if not d1 > d0:
            raise SPRTError(f"sprt: D1 must be greater than D0 (got D0 {self.d0:g}, D1 {self.d1:g})")
        for name in ("alpha", "beta"):
            value = _number(getattr(self, name), f"sprt {name}")
            if not 0 < value < 0.5:
                raise SPRTError(f"sprt {name} must be in (0, 0.5), not {value:g}")
            object.__setattr__(self, name, value)
        m = self.min_deals
        if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 2:
            raise SPRTError(f"sprt min_deals must be an int >= 2, not {m!r}")
        object.__setattr__(self, "d0", d0)
        object.__setattr__(self, "d1", d1)
        object.__setattr__(self, "min_deals", int(m))

    @classmethod
    def parse(cls, text: str | Sequence, **options) -> SPRT:
        """``SPRT`` from ``"D0,D1"`` (or a pair of numbers) and the other fields."""
        if isinstance(text, str):
            parts = [p.strip() for p in text.split(",")]
            try:
                values = [float(p) for p in parts]
            except ValueError:
                values = []
        else:
            values = list(text) if isinstance(text, (list, tuple)) else []
        if len(values) != 2:
            raise SPRTError(f"sprt takes two numbers D0,D1 such as 0,5, not {text!r}")
        return cls(values[0], values[1], **options)

    @property
    def lower(self) -> float:
        """``ln(beta / (1 - alpha))``: at or below it, H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """``ln((1 - beta) / alpha)``: at or above it, H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def to_dict(self) -> dict:
        return {"d0": self.d0, "d1": self.d1, "alpha": self.alpha, "beta": self.beta, "min_deals": self.min_deals}

    @classmethod
    def from_dict(cls, d: dict) -> SPRT:
        return cls(**d)

    def __str__(self) -> str:
        return f"H0: mean <= {self.d0:g}, H1: mean >= {self.d1:g} (alpha {self.alpha:g}, beta {self.beta:g})"


@dataclass(frozen=True)
class SPRTResult:
    """Where a test stands after ``deals`` deals: the statistics, the LLR and the decision.

    ``total`` and ``total_sq`` (the sum of the differences and of their squares) are all a
    test needs to go on: ``sprt_test(settings, more, previous=result)``.
    """

    sprt: SPRT
    """The test's settings."""
    deals: int
    """Deals used: where the test stopped, or all the deals it was given."""
    total: float
    """Sum of the differences over those deals."""
    total_sq: float
    """Sum of their squares."""
    llr: float
    """Log-likelihood ratio of H1 to H0 (infinite when every difference is the same)."""
    decision: str | None
    """``"H0"``, ``"H1"``, or None while undecided."""

    @property
    def decided(self) -> bool:
        return self.decision is not None

    @property
    def lower(self) -> float:
        return self.sprt.lower

    @property
    def upper(self) -> float:
        return self.sprt.upper

    @property
    def mean(self) -> float:
        return self.total / self.deals if self.deals else math.nan

    @property
    def sd(self) -> float:
        """Standard deviation of the differences (the estimate the LLR uses)."""
        return math.sqrt(_variance(self.deals, self.total, self.total_sq)) if self.deals else math.nan

    def to_dict(self) -> dict:
        """JSON-able (an infinite LLR is written as the string ``"inf"`` or ``"-inf"``)."""
        return {
            "sprt": self.sprt.to_dict(),
            "decision": self.decision,
            "deals": self.deals,
            "llr": self.llr if math.isfinite(self.llr) else str(self.llr),
            "lower": self.lower,
            "upper": self.upper,
            "mean": self.mean if self.deals else None,
            "sd": self.sd if self.deals else None,
            "total": self.total,
            "total_sq": self.total_sq,
        }

    @classmethod
    def from_dict(cls, d: dict) -> SPRTResult:
        return cls(
            sprt=SPRT.from_dict(d["sprt"]),
            deals=int(d["deals"]),
            total=float(d["total"]),
            total_sq=float(d["total_sq"]),
            llr=float(d["llr"]),
            decision=d["decision"],
        )

    def __str__(self) -> str:
        bounds = f"bounds {self.lower:.3f}, {self.upper:.3f}"
        if self.decision == "H1":
            head = f"H1 accepted (mean >= {self.sprt.d1:g}) after {self.deals:,} deals: LLR {self.llr:.3f} >= {self.upper:.3f}"
        elif self.decision == "H0":
            head = f"H0 accepted (mean <= {self.sprt.d0:g}) after {self.deals:,} deals: LLR {self.llr:.3f} <= {self.lower:.3f}"
        else:
            head = f"undecided after {self.deals:,} deals: LLR {self.llr:.3f}"
        stats = f"mean {self.mean:+.2f}, sd {self.sd:.2f}" if self.deals else "no deals yet"
        return f"SPRT {head} ({bounds}); {stats}"


# -- the statistics ---------------------------------------------------------------------------
def _variance(n, total, total_sq):
    """The maximum-likelihood variance, never negative (rounding can push it below zero)."""
    mean = total / n
    return np.maximum(total_sq / n - mean * mean, 0.0)


def _llr(sprt: SPRT, n, total, total_sq):
    """The LLR for arrays (or scalars) of n, sum and sum of squares.

    A zero variance (every difference the same) is the limit: an infinite LLR on the side of
    the midpoint ``(d0 + d1) / 2`` the differences fall on, or 0 exactly on it.
    """
    n = np.asarray(n, dtype=float)
    var = _variance(n, np.asarray(total, float), np.asarray(total_sq, float))
    excess = np.asarray(total, float) - n * (sprt.d0 + sprt.d1) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (sprt.d1 - sprt.d0) * excess / var
    limit = np.where(excess > 0, np.inf, np.where(excess < 0, -np.inf, 0.0))
    return np.where(var > 0, out, limit)


def _decide(sprt: SPRT, n: int, llr: float) -> str | None:
    if n < sprt.min_deals:
        return None
    if llr >= sprt.upper:
        return "H1"
    if llr <= sprt.lower:
        return "H0"
    return None


def sprt_llr(sprt: SPRT, n: int, total: float, total_sq: float) -> float:
    """The log-likelihood ratio after ``n`` deals with sum ``total`` and sum of squares
    ``total_sq`` (nan for ``n == 0``).

    >>> round(sprt_llr(SPRT(0, 5), n=100, total=1000.0, total_sq=1_000_000.0), 3)
    0.379
    """
    if n <= 0:
        return math.nan
    return float(_llr(sprt, n, total, total_sq))


def sprt_decide(sprt: SPRT, n: int, total: float, total_sq: float) -> SPRTResult:
    """The test at one point, from the sufficient statistics alone: decided if the LLR after
    ``n`` deals is at or beyond a bound (and ``n >= min_deals``). It does not know whether a
    bound was crossed earlier; ``sprt_test`` does.

    >>> sprt_decide(SPRT(0, 5), n=100, total=-1000.0, total_sq=20_000.0).decision
    'H0'
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise SPRTError(f"n must be an int >= 0, not {n!r}")
    llr = sprt_llr(sprt, int(n), total, total_sq)
    return SPRTResult(sprt, int(n), float(total), float(total_sq), llr, _decide(sprt, n, llr) if n else None)


def sprt_test(sprt: SPRT, differences, previous: SPRTResult | None = None) -> SPRTResult:
    """Run the test deal by deal over ``differences`` (after the deals of ``previous``, if
    given) and stop at the first deal where the LLR reaches a bound.

    Returns the result at that deal, or after the last difference if no bound was reached;
    a decided ``previous`` is returned as it is. Feeding the differences in pieces gives the
    same result as feeding them at once (exactly so for integers, such as points).

    >>> r = sprt_test(SPRT(0, 5), [20.0, -20.0] * 20)
    >>> r.decision, r.deals, r.llr
    (None, 40, -1.25)
    >>> r = sprt_test(SPRT(0, 5), [20.0, -20.0] * 200, previous=r)
    >>> r.decision, r.deals, r.llr
    ('H0', 96, -3.0)
    """
    if previous is not None:
        if previous.sprt != sprt:
            raise SPRTError(f"previous result is of another test ({previous.sprt} vs {sprt})")
        if previous.decided:
            return previous
        n0, s0, q0 = previous.deals, previous.total, previous.total_sq
    else:
        n0, s0, q0 = 0, 0.0, 0.0
    x = np.asarray(differences, dtype=float).reshape(-1)
    if len(x) == 0:
        return previous if previous is not None else SPRTResult(sprt, 0, 0.0, 0.0, math.nan, None)
    if not np.isfinite(x).all():
        raise SPRTError("the differences must be finite numbers")
    n = n0 + np.arange(1, len(x) + 1)
    total = s0 + np.cumsum(x)
    total_sq = q0 + np.cumsum(x * x)
    llr = _llr(sprt, n, total, total_sq)
    crossed = ((llr >= sprt.upper) | (llr <= sprt.lower)) & (n >= sprt.min_deals)
    i = int(np.argmax(crossed)) if crossed.any() else len(x) - 1
    return SPRTResult(
        sprt, int(n[i]), float(total[i]), float(total_sq[i]), float(llr[i]), _decide(sprt, int(n[i]), float(llr[i]))
    )
