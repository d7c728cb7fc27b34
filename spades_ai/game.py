"""``Hand``: one hand of Spades, validated and printable, driven by the engine's kernels.

>>> from spades_ai import Hand, deal
>>> from spades_ai.seats import seats
>>> h = Hand(deal(seed=1))
>>> h.phase, h.to_act
('bidding', 1)
>>> for _ in seats(h.rules):
...     h.bid(3)
>>> h.phase, h.to_act
('playing', 1)
"""

from __future__ import annotations

import json
import operator
from typing import Sequence

import numpy as np

from spades_ai.cards import SUIT_NAMES, Card, CardSet, to_card
from spades_ai.engine import bids as _bids
from spades_ai.engine import state as _st
from spades_ai.errors import FieldError, IllegalBidError, IllegalPassError, IllegalPlayError
from spades_ai.observation import Observation, PublicFacts, bids_in_mask
from spades_ai.rules import R_HOOK, Rules
from spades_ai.scoring import HandResult
from spades_ai.seats import cards_dealt, partner, seat_order, table_rules
from spades_ai.checks import check_count, check_dealer
from spades_ai.engine.bits import SUIT_MASK
from spades_ai.engine.play import follow_mask

def parse_deal(hands, table: Rules | int | None = None) -> tuple[CardSet, ...]:
    """Every seat's cards of a deal at ``table`` (its ``Rules``, or its number of players; four
    in pairs by default), from one hand a seat (strings, card lists or bitboards) of the
    table's ``cards_each`` cards, copies allowed as its decks have them.

    A string with ``/`` between the hands (``"AS KS ... / ... / ... / ..."``) also works.
    Anything that is not a full, valid deal of the table raises ``ValueError`` saying what is
    wrong (the seat, the card, the table).

    >>> from spades_ai import deal
    >>> [len(cards) for cards in parse_deal(deal(1, rules=Rules(players=3)), 3)]
    [17, 17, 17]
    """
    rules = table_rules(table)
    return rules.parse_hands(hands, rules.cards_each)


class Hand(PublicFacts):
    """One hand: bidding from the dealer's left, then a trick per card each, then the score.

    ``hands`` are every seat's cards (see ``parse_deal``; at the table of ``rules``, such as
    three seats of 17 cards); ``scores`` and ``bag_count`` are the sides' match totals before
    this hand (they matter for blind nil and for the result; 0 when left out), and
    ``hands_played`` the number of hands of the match before it. Refused actions raise
    ``IllegalPassError`` / ``IllegalBidError`` / ``IllegalPlayError`` and change nothing.

    Vocabulary: a *hand* is one deal played out (bids, tricks, score); a seat's *cards* are
    ``hand.cards(seat)``; the *deal* is every seat's cards as dealt (``hand.deal``).

    ``hand.to_pbn()`` and ``Hand.from_pbn(text)`` (``spades_ai.pbn``) and the notebook picture
    (``spades_ai.render``) are attached by those modules, which ``import spades_ai`` loads.
    """

    def __init__(
        self,
        hands,
        dealer: int = 0,
        rules: Rules | None = None,
        scores: Sequence[int] | None = None,
        bag_count: Sequence[int] | None = None,
        hands_played: int = 0,
    ):
        self.rules = Rules() if rules is None else rules
        if not isinstance(self.rules, Rules):
            raise TypeError(f"rules must be a spades_ai.Rules, not {type(self.rules).__name__}")
        n, k = self.rules.players, self.rules.n_sides
        #: every seat's cards as dealt, as the rules name them (card ids: under jokers the
        #: big joker is id 26, the little one id 0; a card named in text must be in the deck)
        self.deal = self.rules.parse_hands(hands, self.rules.cards_each)
        dealer = check_dealer(dealer, self.rules)
        scores = _side_values((0,) * k if scores is None else scores, "scores", k)
        bag_count = _side_values((0,) * k if bag_count is None else bag_count, "bag_count", k)
        for side, b in enumerate(bag_count):
            if not 0 <= b < self.rules.bag_limit:
                raise FieldError("bag_count", f"bag_count[{side}] = {b} must be in 0..{self.rules.bag_limit - 1}")
        hands_played = check_count(hands_played, "hands_played")
        #: the rules as the int64 array the kernels read
        self.rules_array = self.rules.as_array()
        # the engine's layout: jokers and high deuces in the trump lane (rules.py, engine/bits.py)
        self._hands = self.rules.engine_hands(self.deal)
        self._pub = np.zeros(_st.N_PUBLIC, dtype=np.int64)
        _st.reset_public(self._pub, self._hands, dealer, np.array(scores, np.int64), np.array(bag_count, np.int64),
                         hands_played, self.rules_array)  # fmt: skip
        self.plays: list[tuple[int, Card]] = []
        self.trick_leaders: list[int] = []
        #: the cards each seat passed: ``passes[0]`` before the bidding, ``passes[1]`` in the
        #: blind pass (None: no pass from that seat)
        self.passes: list[list[CardSet | None]] = [[None] * n, [None] * n]
        self._pending = np.zeros(n, dtype=np.uint64)  # passes chosen, not yet exchanged
        self._result: HandResult | None = None

    # -- state (phase, bids, tricks_won, current_trick, bag_count ...: see PublicFacts) --
    @property
    def public(self) -> np.ndarray:
        """The engine's public array of this hand (read-only view; layout: ``engine.state``)."""
        view = self._pub.view()
        view.setflags(write=False)
        return view

    @property
    def _facts(self) -> np.ndarray:
        return self._pub  # read only by PublicFacts' properties, which never write

    def clone(self) -> Hand:
        """An independent copy: play on in it without touching this hand.

        >>> from spades_ai import deal
        >>> h = Hand(deal(seed=1)); c = h.clone(); c.bid(3)
        >>> h.bids, c.bids
        ([None, None, None, None], [None, 3, None, None])
        """
        twin = object.__new__(Hand)
        twin.__dict__.update(self.__dict__)
        twin._hands = self._hands.copy()
        twin._pub = self._pub.copy()
        twin.plays = list(self.plays)
        twin.trick_leaders = list(self.trick_leaders)
        twin.passes = [list(p) for p in self.passes]
        twin._pending = self._pending.copy()
        return twin

    __copy__ = clone

    def __deepcopy__(self, memo) -> Hand:
        return self.clone()

    @property
    def to_act(self) -> int | None:
        """The seat to pass, bid or play next (None when the hand is over). In a passing round
        every passer that has not chosen may pass (they choose at the same time); ``to_act`` is
        the first of them from the dealer's left."""
        seat = int(self._pub[_st.P_TO_ACT])
        return None if seat < 0 else seat

    @property
    def tricks(self) -> list[list[tuple[int, Card]]]:
        """Finished tricks, each as a (seat, card) pair a seat, in play order."""
        n = self.rules.players
        done = len(self.plays) // n * n
        return [self.plays[i : i + n] for i in range(0, done, n)]

    def cards(self, seat: int) -> CardSet:
        """The cards ``seat`` still holds (copies counted, with several decks)."""
        return self.rules.engine_cards(*self._levels(seat))

    def _levels(self, seat: int) -> list[int]:
        """The copy levels 1 .. decks of ``seat``'s cards in the engine's hands (level 1 alone
        with one deck)."""
        n = self.rules.players
        return [int(self._hands[(k - 1) * n + seat]) for k in range(1, self.rules.decks + 1)]

    # -- passing -------------------------------------------------------------------------
    @property
    def passers(self) -> list[int]:
        """The seats still to choose their pass in the round under way (empty outside one)."""
        if self.phase != "passing":
            return []
        m = int(_st.passers(self._pub, self.rules_array)) & ~int(self._pub[_st.P_PASS_DONE])
        return [s for s in seat_order(self.dealer + 1, self.rules) if m >> s & 1]

    def pass_cards(self, seat: int, cards) -> None:
        """``seat`` passes ``cards`` (a string such as ``"AS 7H 2C"`` or a list of cards, strings
        or ids) to its partner. The partners choose at the same time: the cards change hands
        once every passer of the round has chosen.

        >>> from spades_ai import Rules, deal
        >>> h = Hand(deal(seed=1), rules=Rules(pass_cards=1))
        >>> h.phase, h.passers
        ('passing', [1, 2, 3, 0])
        """
        if self.phase != "passing":
            why = f"the hand is {self.phase}"
            raise IllegalPassError(f"no pass is due: {why}", "not_due", why)
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.rules.players:
            why = f"a seat is an int in 0..{self.rules.players - 1}, not {seat!r}"
            raise IllegalPassError(why, "bad_pass", why)
        seat = int(seat)
        try:
            chosen = self.rules.named_cards(cards)
        except (ValueError, TypeError) as exc:
            raise IllegalPassError(f"seat {seat} passed a bad card: {exc}", "bad_pass", str(exc)) from None
        names = " ".join(map(str, chosen)) or "no card"
        n = int(_st.pass_count(self._pub, self.rules_array))
        if not (int(_st.passers(self._pub, self.rules_array)) >> seat) & 1:
            why = "only a team with a blind nil bidder exchanges cards after the bidding"
            raise IllegalPassError(f"seat {seat} may not pass {names}: {why}", "not_passer", why)
        if (int(self._pub[_st.P_PASS_DONE]) >> seat) & 1:
            why = "it has already chosen its pass"
            raise IllegalPassError(f"seat {seat} may not pass {names}: {why}", "already_chosen", why)
        if len(chosen) != n or len(set(chosen)) != n:
            why = f"it passes {n} different cards"
            raise IllegalPassError(f"seat {seat} may not pass {names}: {why}", "count", why)
        held = self.cards(seat)
        for c in chosen:
            if c not in held:
                why = f"it does not hold {c}"
                raise IllegalPassError(f"seat {seat} may not pass {names}: {why}", "not_held", why)
        mask = sum(1 << int(c) for c in chosen)
        self.passes[int(self._pub[_st.P_N_BIDS]) == self.rules.players][seat] = self.rules.cardset(mask)
        engine = np.uint64(self.rules.engine_mask(mask))
        _st.choose_pass(self._pub, self._hands, self._pending, seat, engine, self.rules_array)

    def gave(self, seat: int, blind: bool = False) -> CardSet:
        """The cards ``seat`` passed to its partner before the bidding (``blind``: in the blind
        pass); empty until the exchange."""
        return self.rules.engine_cards(int(self._pub[(_st.P_BLIND_GAVE if blind else _st.P_GAVE) + seat]))

    # -- bidding -------------------------------------------------------------------------
    def _bid_mask(self) -> int:
        seat = self.to_act
        return int(_bids.legal_bids(seat, self._hands[seat], self._pub, self.rules_array))

    def _bid_mask_unhooked(self) -> int:
        seat = self.to_act
        unhooked = self.rules_array.copy()
        unhooked[R_HOOK] = 0
        return int(_bids.legal_bids(seat, self._hands[seat], self._pub, unhooked))

    def legal_bids(self, blind: bool = False) -> list[int]:
        """The bids the seat to act may make (0 = nil); with ``blind=True``, ``[0]`` if a blind
        nil is allowed, else ``[]``."""
        if self.phase != "bidding":
            return []
        return bids_in_mask(self._bid_mask(), blind)

    def bid(self, n: int, blind: bool = False) -> None:
        """Bid ``n`` tricks (0 = nil) for the seat to act; ``blind=True`` declares a blind nil."""
        seat = self.to_act
        if self.phase != "bidding":
            raise IllegalBidError(f"no bid is due: the hand is {self.phase}", "not_due", f"the hand is {self.phase}")
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            why = f"a bid is an int, 0 (nil) to {self.rules.cards_each}"
            raise IllegalBidError(f"seat {seat} bid {n!r}: {why}", "bad_bid", why)
        n = int(n)
        if not isinstance(blind, (bool, np.bool_)):
            why = f"blind must be True or False, not {blind!r}"
            raise IllegalBidError(f"seat {seat}: {why}", "bad_bid", why)
        if n not in self.legal_bids(blind=bool(blind)):
            reason, why = self._bid_reason(seat, n, blind)
            raise IllegalBidError(f"seat {seat} may not bid {_bid_name(n, blind)}: {why}", reason, why)
        _st.apply_bid(self._pub, self._hands, n, bool(blind), self.rules_array)

    def _bid_reason(self, seat: int, n: int, blind: bool) -> tuple[str, str]:
        """(reason code, plain words) of a refused bid: the first rule it breaks."""
        r = self.rules
        mate = partner(seat, r)
        partner_bid = None if mate is None else self.bids[mate]
        if not 0 <= n <= r.cards_each:
            return "range", f"a bid is 0 (nil) to {r.cards_each}"
        if blind and n != 0:
            return "blind_number", "only a nil can be blind"
        if r.hook and n in bids_in_mask(self._bid_mask_unhooked(), blind):
            others = sum(b for s, b in enumerate(self.bids) if s != seat)
            return "hook", (f"the hook: the dealer may not make the {r.players} bids add up to {r.cards_each} "
                            f"(the others bid {others})")  # fmt: skip
        if n == 0 and not r.nil:
            return "nil_off", "nil is off in these rules"
        if blind and not r.blind_nil:
            return "blind_off", "blind nil is off in these rules"
        if blind and r.bidding in ("classic", "suicide"):
            who = "the team" if mate is not None else "the seat"
            best = "" if r.n_sides == 2 else " the best other side"
            return "blind_deficit", (f"blind nil needs {who} to trail by at least {r.blind_nil_min_deficit}{best} "
                                     f"(scores {self.scores})")  # fmt: skip
        n_spades = len(self.cards(seat).suit(3))
        if r.bidding == "mirror":
            return "mirror", f"mirror bidding: the bid is the number of spades held, {n_spades}"
        if r.bidding == "whiz":
            return "whiz", f"whiz bidding: the bid is nil or the number of spades held, {n_spades} (minimum bid {r.min_bid})"
        if r.bidding == "suicide":
            if partner_bid is not None and partner_bid > 0:
                return "suicide", "suicide bidding: the partner bid a number, so this seat must bid nil"
            return "suicide", f"suicide bidding: a number bid is at least {max(4, r.min_bid)}"
        if n < r.min_bid and n != 0:
            return "min_bid", f"the minimum bid is {r.min_bid}"
        return "min_team_bid", f"the team must bid at least {r.min_team_bid} (partner bid {partner_bid})"

    # -- play ----------------------------------------------------------------------------
    def _legal_mask(self) -> int:
        return int(_st.legal_now(self._pub, self._hands[self.to_act], self.rules_array))

    def legal_cards(self) -> list[Card]:
        """The cards the seat to act may play (empty outside the play)."""
        if self.phase != "playing":
            return []
        return list(self.rules.engine_cards(self._legal_mask()))

    def play(self, card: Card | str | int) -> None:
        """Play a card (a ``Card``, a string such as ``"AS"`` or an id) for the seat to act."""
        seat = self.to_act
        if self.phase != "playing":
            raise IllegalPlayError(f"no card is due: the hand is {self.phase}", "not_due", f"the hand is {self.phase}")
        try:
            to_card(card)
        except ValueError as exc:
            raise IllegalPlayError(f"seat {seat} played a bad card: {exc}", "bad_card", str(exc)) from None
        try:
            card = self.rules.named(card)
        except ValueError as exc:
            raise IllegalPlayError(f"seat {seat}: {exc}", "not_in_deck", str(exc)) from None
        engine_id = self.rules.engine_id(card)
        if not int(self._hands[seat]) >> engine_id & 1:
            raise IllegalPlayError(f"seat {seat} does not hold {card}", "not_held", f"does not hold {card}")
        legal = self._legal_mask()
        if not legal >> engine_id & 1:
            reason, why = self._play_reason(seat, card, legal)
            raise IllegalPlayError(f"seat {seat} may not play {card}: {why}", reason, why)
        leader = int(self._pub[_st.P_LEADER])
        self.plays.append((seat, card))
        if _st.apply_card(self._pub, self._hands, engine_id, self.rules_array) >= 0:
            self.trick_leaders.append(leader)

    def _play_reason(self, seat: int, card: Card, legal: int) -> tuple[str, str]:
        """(reason code, plain words) of a refused card the seat holds."""
        trick = self.current_trick
        held = " ".join(map(str, self.rules.engine_cards(legal)))
        if trick:
            following = int(follow_mask(self._hands[seat], SUIT_MASK[_st.led_suit(self._pub)]))
            if self.rules.must_win and following >> self.rules.engine_id(card) & 1:
                win = self.rules.engine_deck[int(self._pub[_st.P_WIN_CARD])]
                return "must_win", f"seat {seat} must win the trick (must_win): {win} is winning and it holds {held}"
            suit = SUIT_NAMES[trick[0][1].suit]
            return "follow_suit", f"seat {seat} must follow {suit}: holds {held}"
        if self.trick_no == 0 and self.rules.first_lead == "low_club":
            return "first_lead", f"the first trick is led with the lowest club, {held}"
        when = {
            "broken": "spades are not broken",
            "after_first_trick": "spades may not be led to the first trick",
            "after_three_tricks": "spades may not be led before the fourth trick",
            "after_three_tricks_or_broken": "spades are not broken and three tricks are not played",
        }[self.rules.spade_lead]
        return "spade_lead", f"may not lead spades: {when} and the hand holds other suits"

    # -- result --------------------------------------------------------------------------
    def result(self) -> HandResult:
        """The score sheet, once the hand is over."""
        if self.phase != "over":
            raise ValueError(f"the hand is not over: it is {self.phase} ({len(self.plays)} of {cards_dealt(self.rules)} cards played)")
        if self._result is None:
            self._result = HandResult.from_public(self._pub, self.rules_array)
        return self._result

    def observation(self, blind_decision: bool = False) -> Observation:
        """What the seat to act may know (``blind_decision``: asked about blind nil, no cards)."""
        if self.phase == "over":
            raise ValueError("the hand is over: no seat is to act")
        seat = self.to_act
        return self.view(seat, hide_cards=blind_decision, blind_decision=blind_decision)

    def view(self, seat: int, hide_cards: bool = False, blind_decision: bool = False) -> Observation:
        """What ``seat`` has seen so far, whether or not it is to act (``observation`` is the
        view of the seat to act); ``hide_cards`` leaves out its own cards."""
        n = self.rules.players
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
            raise ValueError(f"a seat is an int in 0..{n - 1}, not {seat!r}")
        seat = int(seat)
        hand = 0 if hide_cards else int(self._hands[seat])
        view = np.empty_like(self._pub)
        _st.observe(self._pub, self._hands, seat, self.rules_array, view)
        if hide_cards:
            _st.hide_own(view)
        return Observation(seat, hand, view, self.rules, self.plays, blind_decision)

    def bid_history(self) -> list[tuple[int, int, bool]]:
        """The bids made so far as (seat, bid, blind), in bidding order (a nil is bid 0)."""
        n = int(self._pub[_st.P_N_BIDS])
        seats = seat_order(self.dealer + 1, self.rules)[:n]
        return [(s, int(self._pub[_st.P_BIDS + s]), bool(self._pub[_st.P_BLIND + s])) for s in seats]

    # -- records -------------------------------------------------------------------------
    def to_record(self) -> dict:
        """A JSON-ready record (deal, dealer, rules, match state, passes, bids, plays) to replay
        from (``passes`` only when the rules pass cards)."""
        bids = self.bid_history()
        record = {
            "deal": [" ".join(map(str, m)) for m in self.deal],
            "dealer": self.dealer,
            "rules": self.rules.to_dict(),
            "scores": list(self.scores),
            "bag_count": list(self.bag_count),
            "hands_played": self.hands_played,
            "bids": [b for _, b, _ in bids],
            "blind": [bl for _, _, bl in bids],
            "plays": [str(c) for _, c in self.plays],
        }
        if self.rules.pass_cards or self.rules.blind_pass:
            record["passes"] = [[None if p is None else " ".join(map(str, p)) for p in rnd] for rnd in self.passes]
        return record

    def to_json(self) -> str:
        return json.dumps(self.to_record())

    @classmethod
    def from_record(cls, record: dict | str) -> Hand:
        """Replay a record from ``to_record`` (or its JSON); every action is checked again."""
        if isinstance(record, str):
            record = json.loads(record)
        if isinstance(record, dict) and "bags" in record and "bag_count" not in record:
            # written by spades_ai 0.1, which called the running bag count "bags"
            record = {("bag_count" if k == "bags" else k): v for k, v in record.items()}
        expected = {"deal", "dealer", "rules", "scores", "bag_count", "bids", "blind", "plays"}
        optional = {"hands_played", "passes"}  # older records lack hands_played; passes: only with passing
        if not isinstance(record, dict) or not expected <= set(record) <= expected | optional:
            got = sorted(record) if isinstance(record, dict) else type(record).__name__
            raise ValueError(f"a hand record has the keys {sorted(expected | optional)}, not {got}")
        hand = cls(
            record["deal"],
            record["dealer"],
            Rules.from_dict(record["rules"]),
            record["scores"],
            record["bag_count"],
            hands_played=record.get("hands_played", 0),
        )
        if len(record["blind"]) != len(record["bids"]):
            raise ValueError("a hand record has one blind flag per bid")
        n = hand.rules.players
        passes = record.get("passes", [[None] * n, [None] * n])
        rounds_ok = isinstance(passes, list) and len(passes) == 2
        if not (rounds_ok and all(isinstance(p, list) and len(p) == n for p in passes)):
            raise ValueError(f"a hand record's passes are two rounds of {n} entries (cards or None)")

        def replay_passes(rnd: int) -> None:
            for seat, cards in enumerate(passes[rnd]):
                if cards is not None:
                    hand.pass_cards(seat, cards)

        replay_passes(0)
        for b, blind in zip(record["bids"], record["blind"]):
            hand.bid(b, blind=blind)
        replay_passes(1)
        for c in record["plays"]:
            hand.play(c)
        return hand

    def __str__(self) -> str:
        lines = [f"dealer {self.dealer}, {self.phase}, bids {self.bids}, tricks {self.tricks_won}"]
        for seat in range(self.rules.players):
            lines.append(f"  seat {seat}: {self.cards(seat)}")
        if self.current_trick:
            lines.append("  trick: " + " ".join(f"{s}:{c}" for s, c in self.current_trick))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Hand dealer={self.dealer} phase={self.phase} to_act={self.to_act} plays={len(self.plays)}>"


def _bid_name(n: int, blind: bool) -> str:
    if blind:
        return "blind nil" if n == 0 else f"{n} (blind)"
    return "nil" if n == 0 else str(n)


def _side_values(values, field: str, n_sides: int) -> tuple[int, ...]:
    """``values`` as one int a side (sides 0, 1, ...), else ``FieldError`` naming ``field``."""
    want = "a pair of ints (side 0, side 1)" if n_sides == 2 else f"{n_sides} ints, one a side"
    try:
        ints = tuple(operator.index(v) for v in values)
    except TypeError:
        raise FieldError(field, f"{field} must be {want}, not {values!r}") from None
    if len(ints) != n_sides:
        raise FieldError(field, f"{field} must be {want}, not {values!r}")
    return ints
