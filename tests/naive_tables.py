"""Slow, obvious pure-Python references for every table of RULES.md: 3 to 12 seats, solo or
pairs, one to three decks ("Tables of 3 to 12 players", and the 4-player game above it).

This module is independent of ``naive.py``'s rules and of the engine: it borrows only the card
notation (ids ``suit * 13 + rank``, suits C D H S, ranks 2..A; ``card_id`` / ``card_name``), so
that the 4-player partnership game, played through these functions, is a second, separate
reading of RULES.md that the tests hold against ``naive.py`` and ``spades_ai.Hand``.

Representation
--------------
* A **deck** and a **hand** are sorted lists of card ids *with repeats*: with two decks a
  seat may hold ``[51, 51]`` (two aces of spades). ``collections.Counter`` gives the copies.
* A **trick** is a list of ``(seat, card)`` pairs in play order (empty before the lead).
* **Sides**: ``sides(rules)`` lists the seats of each side, side by side index. Pairs: side
  ``k`` is seats ``k`` and ``k + N/2`` (partners opposite; at 4 players side 0 = seats 0 and 2,
  side 1 = seats 1 and 3, as the engine's teams); solo: side ``s`` is seat ``s`` alone.
* ``rules`` is read by attribute (``rules.players``, ``rules.nil_bonus``, ...): a ``TableRules``
  here, and later any ``spades_ai.Rules`` that carries the same fields.

"Could win" under must win (RULES.md: "a player who holds a legal card that would beat the card
now winning the trick must play such a card (the leader is free)")
---------------------------------------------------------------------------------------------
A card *could win* when, added to the cards already on the trick, it would be the trick's
winning card by the trick-winner rule applied to that partial trick: a spade over no spade or
over a lower spade; a card of the led suit over a lower card of the led suit when no spade is on
the trick. An identical copy of the card now winning beats it only under ``equal_cards="last"``
(under "first" the earlier copy stays ahead, so it does not beat). It looks at the cards played
so far only, not at the players still to play. The rule filters the cards that are legal anyway
(follow suit first; a player void in the led suit who can trump to the lead must therefore
trump, and over-trump a spade already played if it can). When no legal card could win, every
legal card may be played. The leader is free (only the spade-lead rule applies to a lead).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields
from math import comb
from typing import Optional

from naive import card_id, card_name

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3

# RULES.md, "Decks and deal": players -> (decks, cards removed (names, one per copy)).
DECKS: dict[int, tuple[int, tuple[str, ...]]] = {
    3: (1, ("2D",)),
    4: (1, ()),
    5: (1, ("2D", "2C")),
    6: (2, ("2D", "2D")),
    7: (2, ("2D", "2D", "2C", "2C", "2H", "2H")),
    8: (2, ()),
    9: (3, ("2D", "2D", "2D")),
    10: (3, ("2D", "2D", "2D", "2C", "2C", "2C")),
    11: (3, ("2D", "2D")),
    12: (3, ()),
}
SPADE_LEADS = ("broken", "after_first_trick", "after_three_tricks", "after_three_tricks_or_broken", "anytime")


def _suit(card: int) -> int:
    return card // 13


def _rank(card: int) -> int:
    return card % 13


# -- the table ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableRules:
    """The options these references read (RULES.md's names and defaults).

    ``teams=None`` takes the table's default: pairs at 4 players, solo otherwise. Jokers and
    high deuces are outside this reference (RULES.md leaves their copies under several decks
    open); ``from_rules`` refuses rules that use them.
    """

    players: int = 4
    teams: Optional[str] = None
    must_win: bool = False
    failed_bid: int = 0
    equal_cards: str = "first"
    spade_lead: str = "broken"
    first_lead: str = "dealer_left"
    nil_bonus: int = 100
    blind_nil_bonus: int = 200
    half_blind_penalty: bool = False
    nil_tricks_count: bool = False
    ten_for_200: bool = False
    bag_limit: int = 10
    bag_penalty: int = 100
    target_score: Optional[int] = 500
    loss_threshold: Optional[int] = -200
    max_hands: Optional[int] = None

    def __post_init__(self) -> None:
        if self.players not in DECKS:
            raise ValueError(f"players must be 3..12, not {self.players!r}")
        if self.teams is None:
            object.__setattr__(self, "teams", "pairs" if self.players == 4 else "solo")
        if self.teams not in ("solo", "pairs"):
            raise ValueError(f"teams must be 'solo' or 'pairs', not {self.teams!r}")
        if self.teams == "pairs" and self.players % 2:
            raise ValueError(f"teams='pairs' needs an even number of players, not {self.players}")
        if self.must_win and self.teams != "solo":
            raise ValueError("must_win is a solo rule: it needs teams='solo'")
        if self.failed_bid not in (0, 10, 50):
            raise ValueError(f"failed_bid must be 0, 10 or 50, not {self.failed_bid!r}")
        if self.equal_cards not in ("first", "last"):
            raise ValueError(f"equal_cards must be 'first' or 'last', not {self.equal_cards!r}")
        if self.spade_lead not in SPADE_LEADS:
            raise ValueError(f"spade_lead must be one of {SPADE_LEADS}, not {self.spade_lead!r}")
        if self.first_lead not in ("dealer_left", "low_club"):
            raise ValueError(f"first_lead must be 'dealer_left' or 'low_club', not {self.first_lead!r}")

    @classmethod
    def from_rules(cls, rules, **table) -> "TableRules":
        """The fields of a ``spades_ai.Rules`` that this reference reads, plus ``table`` options."""
        if getattr(rules, "jokers", 0) or getattr(rules, "deuces_high", 0):
            raise ValueError("jokers and high deuces are outside the tables reference")
        mine = {f.name for f in fields(cls)}
        kwargs = {k: v for k, v in rules.to_dict().items() if k in mine}
        return cls(**{**kwargs, **table})


def decks(players: int) -> int:
    """How many 52-card decks the table uses."""
    return DECKS[players][0]


def removed_cards(players: int) -> Counter:
    """The cards taken out of the decks, with their number of copies."""
    return Counter(card_id(name) for name in DECKS[players][1])


def deck(players: int) -> list[int]:
    """The table's cards with copies, sorted: every card ``decks`` times, less the removed ones."""
    cards = Counter({c: decks(players) for c in range(52)})
    cards.subtract(removed_cards(players))
    return sorted(cards.elements())


def cards_each(players: int) -> int:
    """Cards per player, which is also the tricks of a hand and the highest bid."""
    size = len(deck(players))
    assert size % players == 0, (players, size)
    return size // players


def sides(rules) -> list[tuple[int, ...]]:
    """The seats of each side, side by side index."""
    n = rules.players
    if rules.teams == "pairs":
        return [(k, k + n // 2) for k in range(n // 2)]
    return [(s,) for s in range(n)]


def side_of(seat: int, rules) -> int:
    """The index of the side ``seat`` plays for."""
    return next(k for k, seats in enumerate(sides(rules)) if seat in seats)


def partner(seat: int, rules) -> Optional[int]:
    """The seat opposite ``seat`` when the table plays pairs, None solo."""
    others = [s for s in sides(rules)[side_of(seat, rules)] if s != seat]
    return others[0] if others else None


def naive_table_deal(rules, rnd) -> list[list[int]]:
    """Shuffle the table's deck with ``rnd`` (a ``random.Random``) and hand out ``cards_each``
    cards to each seat in turn; every hand is returned sorted."""
    cards = deck(rules.players)
    rnd.shuffle(cards)
    n = rules.players
    return [sorted(cards[seat::n]) for seat in range(n)]


# -- play ----------------------------------------------------------------------------------------


def first_leader(hands, dealer: int, rules) -> int:
    """The seat that leads trick 0: the dealer's left, or under low_club the holder of the
    lowest club in the deal (copies: the first holder clockwise from the dealer's left)."""
    n = rules.players
    order = [(dealer + 1 + k) % n for k in range(n)]
    if rules.first_lead == "dealer_left":
        return order[0]
    lowest = min(c for h in hands for c in h if _suit(c) == CLUBS)
    return next(seat for seat in order if lowest in hands[seat])


def leading_spades_allowed(rules, spades_broken: bool, trick_no: int) -> bool:
    """Whether a leader who also holds other suits may lead a spade (trick_no counts from 0)."""
    return {
        "broken": spades_broken,
        "after_first_trick": trick_no >= 1,
        "after_three_tricks": trick_no >= 3,
        "after_three_tricks_or_broken": spades_broken or trick_no >= 3,
        "anytime": True,
    }[rules.spade_lead]


def beats(card: int, best: int, rules) -> bool:
    """Whether ``card``, played after ``best`` (the card now winning a trick), takes the lead
    from it: a spade over a non-spade, or a higher card of the same suit (``best`` is always a
    spade or of the led suit); an identical copy only under ``equal_cards="last"``."""
    if _suit(card) == SPADES and _suit(best) != SPADES:
        return True
    if _suit(card) != _suit(best):
        return False
    return _rank(card) > _rank(best) or (_rank(card) == _rank(best) and rules.equal_cards == "last")


def winning_position(cards, rules) -> int:
    """The index, in play order, of the card winning the (possibly partial) trick ``cards``."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], rules):
            best = i
    return best


def naive_table_trick_winner(trick, rules) -> int:
    """The seat that wins a full trick, a list of ``players`` ``(seat, card)`` pairs in play order."""
    assert len(trick) == rules.players, trick
    return trick[winning_position([c for _, c in trick], rules)][0]


def naive_table_legal_cards(hand_cards, trick_so_far, spades_broken: bool, trick_no: int, rules) -> list[int]:
    """The distinct card ids the player holding ``hand_cards`` may play, sorted.

    ``trick_so_far`` lists the cards already on this trick (ids, play order). Follow the led
    suit if able (void: anything); a leader may lead a spade once the spade-lead rule allows it
    or when it holds only spades; under low_club the first lead is the lowest club. Then, under
    must win, keep only the cards that could win (module docstring) if there are any.
    """
    hand = sorted(set(int(c) for c in hand_cards))
    assert hand, "a player to act holds at least one card"
    trick = [int(c) for c in trick_so_far]
    if not trick:
        if trick_no == 0 and rules.first_lead == "low_club":
            return [min(c for c in hand if _suit(c) == CLUBS)]
        others = [c for c in hand if _suit(c) != SPADES]
        if others and not leading_spades_allowed(rules, spades_broken, trick_no):
            return others
        return hand
    followers = [c for c in hand if _suit(c) == _suit(trick[0])]
    legal = followers or hand
    if rules.must_win:
        best = trick[winning_position(trick, rules)]
        winners = [c for c in legal if beats(c, best, rules)]
        if winners:
            return winners
    return legal


# -- scoring -------------------------------------------------------------------------------------

SIDE_FIELDS = (
    "contract",
    "side_tricks",
    "counted",
    "made",
    "contract_points",
    "failed_bid_points",
    "new_bags",
    "nil_points",
    "penalties",
    "points",
    "scores",
    "bags",
)


def naive_table_score(bids, blind, tricks, scores, bags, rules) -> dict:
    """Score one hand side by side (RULES.md, "Scoring a hand" and "Scoring a side").

    ``bids``, ``blind``, ``tricks`` have one entry per seat (bid 0 = nil); ``scores`` and
    ``bags`` one per side, the match totals before the hand. Returns a list per side for each
    of ``SIDE_FIELDS`` and ``nil``, one entry per seat (None: no nil bid, True made, False
    failed). ``failed_bid_points`` is the extra loss of a set contract of 5 or more.
    """
    n = rules.players
    assert len(bids) == len(blind) == len(tricks) == n
    assert sum(tricks) == cards_each(n), tricks
    assert len(scores) == len(bags) == len(sides(rules))
    out: dict = {k: [] for k in SIDE_FIELDS}
    nil: list = [None] * n
    for side, seats in enumerate(sides(rules)):
        bidders = [s for s in seats if bids[s] > 0]
        nil_bidders = [s for s in seats if bids[s] == 0]
        contract = sum(bids[s] for s in bidders)
        counted = sum(tricks[s] for s in bidders)
        if rules.nil_tricks_count:
            counted += sum(tricks[s] for s in nil_bidders)
        # A nil bidder's tricks that do not count toward the contract are bags, a point each.
        nil_bags = 0 if rules.nil_tricks_count else sum(tricks[s] for s in nil_bidders)
        made = counted >= contract
        failed_bid_points = 0
        if made:
            per_trick = 20 if rules.ten_for_200 and contract >= 10 else 10
            contract_points = per_trick * contract
            new_bags = (counted - contract) + nil_bags
        else:
            contract_points = -10 * contract
            new_bags = nil_bags
            if contract >= 5:
                failed_bid_points = -rules.failed_bid
        nil_points = 0
        for s in nil_bidders:
            bonus = rules.blind_nil_bonus if blind[s] else rules.nil_bonus
            nil[s] = tricks[s] == 0
            if nil[s]:
                nil_points += bonus
            elif blind[s] and rules.half_blind_penalty:
                nil_points -= bonus // 2
            else:
                nil_points -= bonus
        count = bags[side] + new_bags
        penalties = 0
        while count >= rules.bag_limit:
            count -= rules.bag_limit
            penalties += 1
        points = contract_points + failed_bid_points + new_bags + nil_points - penalties * rules.bag_penalty
        row = {
            "contract": contract,
            "side_tricks": sum(tricks[s] for s in seats),
            "counted": counted,
            "made": made,
            "contract_points": contract_points,
            "failed_bid_points": failed_bid_points,
            "new_bags": new_bags,
            "nil_points": nil_points,
            "penalties": penalties,
            "points": points,
            "scores": scores[side] + points,
            "bags": count,
        }
        for k in SIDE_FIELDS:
            out[k].append(row[k])
    out["nil"] = nil
    return out


def naive_table_match_winner(scores, rules, hands_played: Optional[int] = None) -> Optional[int]:
    """The winning side's index if the match is over at ``scores`` (one per side), else None.

    Over once any side has reached the target or fallen to the loss threshold, or after
    ``max_hands`` hands; then the single highest score wins, and a tie for it plays on.
    """
    over = False
    if rules.target_score is not None and any(s >= rules.target_score for s in scores):
        over = True
    if rules.loss_threshold is not None and any(s <= rules.loss_threshold for s in scores):
        over = True
    if rules.max_hands is not None and hands_played is not None and hands_played >= rules.max_hands:
        over = True
    top = max(scores)
    leaders = [side for side, s in enumerate(scores) if s == top]
    if not over or len(leaders) > 1:
        return None
    return leaders[0]


def naive_worlds(unseen, sizes, voids=None) -> dict:
    """Every world of a hidden deal with copies, with its weight: how many deals of the
    physical cards give it.

    ``unseen`` is the multiset of cards nobody has seen (ids with repeats), ``sizes`` the
    number of cards each hidden seat holds (their sum is ``len(unseen)``), ``voids[i]`` the
    set of suits hidden seat ``i`` is known to lack. A world is a tuple of sorted tuples, one
    per hidden seat. The copies of a card are alike in play but not in the shuffle: a world in
    which two seats hold one ace of spades each comes from two deals of the two physical aces,
    one in which a seat holds both from one. So the exact distribution of worlds, before the
    bids and the play are weighed in, is proportional to these weights, not uniform over the
    worlds: a sampler that draws "a multiset deal, uniformly" is wrong with copies.
    """
    voids = voids or [set() for _ in sizes]
    assert sum(sizes) == len(unseen) and len(voids) == len(sizes)
    out: dict = {}

    def choose(pool: Counter, cards: list[int], size: int, start: int):
        """Sub-multisets of ``pool`` of ``size`` cards drawn from ``cards[start:]``, with the
        number of ways to pick their physical copies."""
        if size == 0:
            yield (), 1
            return
        for i in range(start, len(cards)):
            c = cards[i]
            for k in range(1, min(pool[c], size) + 1):
                for rest, ways in choose(pool, cards, size - k, i + 1):
                    yield (c,) * k + rest, ways * comb(pool[c], k)

    def deal_from(seat: int, pool: Counter, world: tuple, weight: int):
        if seat == len(sizes):
            out[world] = out.get(world, 0) + weight
            return
        cards = sorted(c for c in pool if pool[c] and _suit(c) not in voids[seat])
        for hand, ways in choose(pool, cards, sizes[seat], 0):
            deal_from(seat + 1, pool - Counter(hand), world + (hand,), weight * ways)

    deal_from(0, Counter(unseen), (), 1)
    return out


def naive_table_hand(rules, rnd, dealer: int = 0) -> dict:
    """Deal and play one hand with uniformly random legal cards (bids are the caller's).

    Returns ``hands`` (as dealt), ``tricks`` (each a list of ``(seat, card)``), ``winners`` (per
    trick), ``tricks_won`` (per seat) and ``legal`` (the legal cards at every turn, in order).
    """
    n = rules.players
    hands = naive_table_deal(rules, rnd)
    held = [list(h) for h in hands]
    leader = first_leader(hands, dealer, rules)
    broken = False
    out = {"hands": hands, "tricks": [], "winners": [], "tricks_won": [0] * n, "legal": []}
    for trick_no in range(cards_each(n)):
        trick: list[tuple[int, int]] = []
        for pos in range(n):
            seat = (leader + pos) % n
            legal = naive_table_legal_cards(held[seat], [c for _, c in trick], broken, trick_no, rules)
            out["legal"].append(legal)
            card = rnd.choice(legal)
            held[seat].remove(card)
            trick.append((seat, card))
        leader = naive_table_trick_winner(trick, rules)
        broken = broken or any(_suit(c) == SPADES for _, c in trick)
        out["tricks"].append(trick)
        out["winners"].append(leader)
        out["tricks_won"][leader] += 1
    assert not any(held)
    return out


# -- exact play ----------------------------------------------------------------------------------


def naive_table_minimax(hands, leader: int, trick, spades_broken: bool, trick_no: int, tricks_won, rules, leaf,
                        max_side: int):
    """The paranoid value of a position to side ``max_side``, every card seen: that side's seats
    maximise, every other seat minimises (one party against it, whatever their sides).

    ``hands`` lists each seat's cards still held; ``trick`` the ``(seat, card)`` pairs played to
    the current trick, led by ``leader``; ``tricks_won`` each seat's tricks so far; ``leaf(won)``
    the value of a finished hand (``won`` a tuple of tricks per seat). Plain recursion over
    every legal card (must win included), with a memo of positions seen.
    """
    n = rules.players
    memo = {}

    def value(hands, leader, trick, broken, trick_no, won):
        if not trick and not any(hands):
            return leaf(won)
        key = (hands, leader, trick, broken, trick_no, won)
        if key in memo:
            return memo[key]
        seat = (leader + len(trick)) % n
        options = []
        for card in naive_table_legal_cards(hands[seat], [c for _, c in trick], broken, trick_no, rules):
            after = list(hands)
            held = list(hands[seat])
            held.remove(card)
            after[seat] = tuple(held)
            after = tuple(after)
            played = trick + ((seat, card),)
            if len(played) < n:
                options.append(value(after, leader, played, broken, trick_no, won))
                continue
            winner = naive_table_trick_winner(list(played), rules)
            now_broken = broken or any(_suit(c) == SPADES for _, c in played)
            new_won = tuple(w + (s == winner) for s, w in enumerate(won))
            options.append(value(after, winner, (), now_broken, trick_no + 1, new_won))
        best = max(options) if side_of(seat, rules) == max_side else min(options)
        memo[key] = best
        return best

    start = tuple(tuple(sorted(int(c) for c in h)) for h in hands)
    trick = tuple((int(s), int(c)) for s, c in trick)
    return value(start, leader, trick, bool(spades_broken), trick_no, tuple(int(t) for t in tricks_won))


__all__ = [
    "DECKS",
    "SIDE_FIELDS",
    "TableRules",
    "beats",
    "card_id",
    "card_name",
    "cards_each",
    "deck",
    "decks",
    "first_leader",
    "leading_spades_allowed",
    "naive_table_deal",
    "naive_table_hand",
    "naive_table_legal_cards",
    "naive_table_match_winner",
    "naive_table_minimax",
    "naive_table_score",
    "naive_table_trick_winner",
    "naive_worlds",
    "partner",
    "removed_cards",
    "side_of",
    "sides",
    "winning_position",
]
