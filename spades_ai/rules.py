"""House rules: one frozen dataclass, loadable from TOML, validated field by field.

The defaults are the game of ``RULES.md``: 500 to win, -200 loses, nil worth 100, no blind
nil, a nil bidder's tricks are bags, 10 bags cost 100, spades may be led once broken, the
dealer's left leads, bids from 1 to 13 or nil.

The engine's kernels read the rules as a small int64 array (``Rules.as_array()``); the
``R_*`` constants below name its slots and the codes of the text options.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from spades_ai.errors import RulesError

SPADE_LEADS = ("broken", "after_first_trick", "after_three_tricks", "after_three_tricks_or_broken", "anytime")
FIRST_LEADS = ("dealer_left", "low_club")
BIDDINGS = ("classic", "suicide", "mirror", "whiz")

# Slots of Rules.as_array().
(
    R_TARGET,
    R_LOSS,
    R_NIL,
    R_NIL_BONUS,
    R_BLIND_NIL,
    R_BLIND_BONUS,
    R_BLIND_DEFICIT,
    R_NIL_TRICKS_COUNT,
    R_BAG_LIMIT,
    R_BAG_PENALTY,
    R_SPADE_LEAD,
    R_FIRST_LEAD,
    R_MIN_BID,
    R_MIN_TEAM_BID,
    R_TEN_FOR_200,
    R_BIDDING,
    R_MAX_HANDS,
    R_HOOK,
    R_HALF_BLIND,
    R_CLOSED,
    R_PASS,
    R_BLIND_PASS,
) = range(22)
N_RULE_SLOTS = 22
#: Stand-ins in the array for "off": no score ever reaches them.
NO_TARGET = 1 << 60
NO_LOSS = -(1 << 60)

LEAD_BROKEN, LEAD_AFTER_FIRST, LEAD_AFTER_THREE, LEAD_AFTER_THREE_OR_BROKEN, LEAD_ANYTIME = range(5)
FIRST_DEALER_LEFT, FIRST_LOW_CLUB = range(2)
BID_CLASSIC, BID_SUICIDE, BID_MIRROR, BID_WHIZ = range(4)


@dataclass(frozen=True)
class Rules:
    """The house rules of a match. Every field is checked when the object is made.

    >>> Rules(target_score=250, nil_bonus=50).bag_limit
    10
    >>> Rules.preset("suicide").bidding
    'suicide'
    """

    target_score: int | None = 500
    """Score that ends the match (the higher score wins; a tie plays on). None: no target, only
    with ``max_hands``."""
    loss_threshold: int | None = -200
    """A team at or below this score loses at once (negative). None: off."""
    nil: bool = True
    """Whether a player may bid nil (0)."""
    nil_bonus: int = 100
    """Won by a nil bidder who takes no trick, lost otherwise."""
    blind_nil: bool = False
    """Whether a player may bid nil before seeing the cards (needs ``nil``)."""
    blind_nil_bonus: int = 200
    """Won or lost by a blind nil."""
    blind_nil_min_deficit: int = 0
    """Blind nil only when the team trails by at least this many points; 0: always."""
    nil_tricks_count: bool = False
    """Whether a nil bidder's tricks count toward the partner's contract (else they are bags)."""
    bag_limit: int = 10
    """Bags that cost ``bag_penalty`` and are then taken off the count."""
    bag_penalty: int = 100
    """Points lost each time the bag count reaches ``bag_limit``."""
    spade_lead: str = "broken"
    """When spades may be led: one of ``SPADE_LEADS``. An all-spade hand may always lead one."""
    first_lead: str = "dealer_left"
    """Who leads the first trick: the dealer's left, or (``low_club``) the holder of the lowest
    club, who must lead it."""
    min_bid: int = 1
    """Smallest non-nil bid of one player."""
    min_team_bid: int = 0
    """Smallest contract a team may bid: the second partner's bid must reach it (classic only)."""
    ten_for_200: bool = False
    """A made team contract of 10 or more scores 20 per trick bid (double)."""
    bidding: str = "classic"
    """Bidding preset: ``classic``; ``suicide`` (each team ends the bidding with at least one nil:
    the first partner bids nil or at least 4, the second must bid nil after a number and may bid
    nil or at least 4 after a nil);
    ``mirror`` (bid the number of spades held; none is nil); ``whiz`` (nil or that number)."""
    max_hands: int | None = None
    """Stop after this many hands (the higher score wins; a tie plays on). None: off."""
    hook: bool = False
    """The dealer, who bids last, may not make the four bids add up to exactly 13 (unless every
    bid it could make would: the hook never leaves it without a bid). Not with mirror bidding."""
    half_blind_penalty: bool = False
    """A failed blind nil costs half of ``blind_nil_bonus`` (rounded down); a made one still
    wins all of it. Needs ``blind_nil``."""
    closed_bidding: bool = False
    """Every player bids without seeing any other bid (the same bids, taken in the usual order);
    all four are shown when the play starts. Not with suicide bidding, ``min_team_bid`` or
    ``hook``, whose limits depend on the bids before."""
    pass_cards: int = 0
    """0..3 cards each player passes to its partner after the deal, before the bidding; both
    choose before seeing what the other passes, and only the two partners see what they
    exchanged. Not with ``blind_nil`` (a player who has passed has looked at its cards)."""
    blind_pass: int = 0
    """0..3 cards exchanged the same way after the bidding, only by a team with a blind nil
    bidder (the blind nil bidder and its partner). Needs ``blind_nil``."""

    def __post_init__(self) -> None:
        _validate(self)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        """Rules from a mapping; an unknown key raises ``RulesError`` naming it."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be a table of fields, not {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(
                f"unknown rules field(s) {', '.join(map(repr, unknown))}; valid fields: {', '.join(sorted(known))}"
            )
        return cls(**data)

    @classmethod
    def from_toml(cls, path: str | Path) -> Rules:
        """Rules from a TOML file, either at top level or under a ``[rules]`` table.

        ``"off"`` or ``"none"`` stands for None (TOML has no null), e.g. ``loss_threshold = "off"``.
        """
        from spades_ai.tomlfile import read_toml

        path = Path(path)
        data = read_toml(path, "rules file", RulesError)
        if "rules" in data and isinstance(data["rules"], dict):
            data = data["rules"]
        data = {k: (None if isinstance(v, str) and v.lower() in ("off", "none") else v) for k, v in data.items()}
        try:
            return cls.from_dict(data)
        except RulesError as exc:
            raise RulesError(f"{path}: {exc}") from None

    @classmethod
    def preset(cls, name: str, **overrides) -> Rules:
        """A named preset: ``classic``, ``blind``, ``suicide``, ``mirror``, ``whiz``."""
        presets = {
            "classic": {},
            "blind": {"blind_nil": True},
            "suicide": {"bidding": "suicide"},
            "mirror": {"bidding": "mirror"},
            "whiz": {"bidding": "whiz"},
        }
        if name not in presets:
            raise RulesError(f"unknown preset {name!r}; valid presets: {', '.join(presets)}")
        return cls(**{**presets[name], **overrides})

    def replace(self, **changes) -> Rules:
        """A copy with some fields changed (and validated)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    # -- the engine's view --------------------------------------------------------------
    def as_array(self) -> np.ndarray:
        """The int64 array the kernels read; slots are the ``R_*`` constants (read-only, made once)."""
        return self._array

    @functools.cached_property
    def _array(self) -> np.ndarray:
        a = np.zeros(N_RULE_SLOTS, dtype=np.int64)
        a[R_TARGET] = NO_TARGET if self.target_score is None else self.target_score
        a[R_LOSS] = NO_LOSS if self.loss_threshold is None else self.loss_threshold
        a[R_NIL] = self.nil
        a[R_NIL_BONUS] = self.nil_bonus
        a[R_BLIND_NIL] = self.blind_nil
        a[R_BLIND_BONUS] = self.blind_nil_bonus
        a[R_BLIND_DEFICIT] = self.blind_nil_min_deficit
        a[R_NIL_TRICKS_COUNT] = self.nil_tricks_count
        a[R_BAG_LIMIT] = self.bag_limit
        a[R_BAG_PENALTY] = self.bag_penalty
        a[R_SPADE_LEAD] = SPADE_LEADS.index(self.spade_lead)
        a[R_FIRST_LEAD] = FIRST_LEADS.index(self.first_lead)
        a[R_MIN_BID] = self.min_bid
        a[R_MIN_TEAM_BID] = self.min_team_bid
        a[R_TEN_FOR_200] = self.ten_for_200
        a[R_BIDDING] = BIDDINGS.index(self.bidding)
        a[R_MAX_HANDS] = 0 if self.max_hands is None else self.max_hands
        a[R_HOOK] = self.hook
        a[R_HALF_BLIND] = self.half_blind_penalty
        a[R_CLOSED] = self.closed_bidding
        a[R_PASS] = self.pass_cards
        a[R_BLIND_PASS] = self.blind_pass
        a.setflags(write=False)
        return a


def _fail(name: str, value, expected: str) -> None:
    raise RulesError(f"rules field {name!r} must be {expected}, not {value!r}")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _validate(r: Rules) -> None:
    for name in ("nil", "blind_nil", "nil_tricks_count", "ten_for_200", "hook", "half_blind_penalty", "closed_bidding"):
        if not isinstance(getattr(r, name), bool):
            _fail(name, getattr(r, name), "true or false")
    if r.target_score is not None and not (_is_int(r.target_score) and r.target_score > 0):
        _fail("target_score", r.target_score, "a positive int (or None with max_hands)")
    if r.loss_threshold is not None and not (_is_int(r.loss_threshold) and r.loss_threshold < 0):
        _fail("loss_threshold", r.loss_threshold, "a negative int or None (off)")
    if r.max_hands is not None and not (_is_int(r.max_hands) and r.max_hands > 0):
        _fail("max_hands", r.max_hands, "a positive int or None (off)")
    if r.target_score is None and r.max_hands is None:
        raise RulesError("rules field 'target_score' may be None only when 'max_hands' is set")
    for name in ("nil_bonus", "blind_nil_bonus", "bag_limit"):
        v = getattr(r, name)
        if not (_is_int(v) and v > 0):
            _fail(name, v, "a positive int")
    for name in ("bag_penalty", "blind_nil_min_deficit"):
        v = getattr(r, name)
        if not (_is_int(v) and v >= 0):
            _fail(name, v, "an int >= 0")
    for name, options in (("spade_lead", SPADE_LEADS), ("first_lead", FIRST_LEADS), ("bidding", BIDDINGS)):
        if getattr(r, name) not in options:
            _fail(name, getattr(r, name), "one of " + ", ".join(map(repr, options)))
    if not (_is_int(r.min_bid) and 1 <= r.min_bid <= 13):
        _fail("min_bid", r.min_bid, "an int in 1..13")
    if not (_is_int(r.min_team_bid) and 0 <= r.min_team_bid <= 13):
        _fail("min_team_bid", r.min_team_bid, "an int in 0..13")
    if r.blind_nil and not r.nil:
        raise RulesError("rules field 'blind_nil' needs 'nil' to be true")
    if r.bidding != "classic" and r.min_team_bid:
        raise RulesError(f"rules field 'min_team_bid' applies only to classic bidding, not {r.bidding!r}")
    if r.bidding in ("suicide", "mirror", "whiz") and not r.nil:
        raise RulesError(f"bidding {r.bidding!r} needs nil bids: rules field 'nil' must be true")
    if r.bidding == "mirror" and r.min_bid != 1:
        raise RulesError("rules field 'min_bid' does not apply to mirror bidding (the bid is the spade count)")
    if r.bidding in ("mirror", "whiz") and r.blind_nil:
        raise RulesError(f"rules field 'blind_nil' does not combine with {r.bidding!r} bidding")
    if r.hook and r.bidding == "mirror":
        raise RulesError("rules field 'hook' does not apply to mirror bidding (every bid is forced)")
    if r.half_blind_penalty and not r.blind_nil:
        raise RulesError("rules field 'half_blind_penalty' needs 'blind_nil' to be true")
    if r.closed_bidding:
        for name, clash in (("bidding", r.bidding == "suicide"), ("min_team_bid", r.min_team_bid), ("hook", r.hook)):
            if clash:
                raise RulesError(
                    f"rules field 'closed_bidding' does not combine with {name!r} = {getattr(r, name)!r}: "
                    "its limits depend on bids a closed bidder has not seen"
                )
    for name in ("pass_cards", "blind_pass"):
        if not (_is_int(getattr(r, name)) and 0 <= getattr(r, name) <= 3):
            _fail(name, getattr(r, name), "an int in 0..3")
    if r.blind_pass and not r.blind_nil:
        raise RulesError("rules field 'blind_pass' needs 'blind_nil' to be true")
    if r.pass_cards and r.blind_nil:
        raise RulesError(
            "rules field 'pass_cards' does not combine with 'blind_nil': a player who has passed cards "
            "has looked at them (use 'blind_pass' for a blind nil bidder's exchange)"
        )
