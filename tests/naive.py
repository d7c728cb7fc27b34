"""Slow, obvious pure-Python references for the engine, written from ``RULES.md``.

Nothing here imports the kernels: cards are plain ints (``suit * 13 + rank``, suits C D H S,
ranks 2..A), hands are sorted lists of ints, and every rule is spelled out the way a player
would state it. The tests compare the engine with these functions, so a slip in either shows.

The random-stream replica (``NaiveStream``) re-implements the documented generator of
``spades_ai/engine/rng.py`` with Python ints masked to 64 bits: splitmix64 keyed by
``(seed, index, stream)`` and Lemire's bounded draw with its rejection step. With it the
tests check ``spades_ai.deal`` and ``spades_ai.random_playouts`` card for card.
"""

from __future__ import annotations

import random

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
SUIT_OF_LETTER = {"C": CLUBS, "D": DIAMONDS, "H": HEARTS, "S": SPADES}
RANKS = "23456789TJQKA"


def suit(card: int) -> int:
    return card // 13


def rank(card: int) -> int:
    return card % 13


def card_id(text: str) -> int:
    """``"AS"`` -> 51, ``"2C"`` -> 0 (two-character form only: this is a test helper)."""
    return SUIT_OF_LETTER[text[1].upper()] * 13 + RANKS.index(text[0].upper())


def card_name(card: int) -> str:
    return RANKS[rank(card)] + "CDHS"[suit(card)]


def team_of(seat: int) -> int:
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


# -- jokers and high deuces -----------------------------------------------------------------------
# RULES.md, seed 003's order: big joker, little joker, then the high deuces 2S, 2D, 2C, 2H (the
# first ``deuces_high`` of them), then AS .. 3S (and 2S unless it is high). The big joker takes
# the place (the card id) of 2H, the little joker that of 2C.
BIG_JOKER, LITTLE_JOKER = card_id("2H"), card_id("2C")
DEUCE_ORDER = [card_id("2S"), card_id("2D"), card_id("2C"), card_id("2H")]


def top_trumps(rules) -> list[int]:
    """The jokers and high deuces, highest first."""
    jokers = [BIG_JOKER, LITTLE_JOKER][: rules.jokers]
    return jokers + DEUCE_ORDER[: rules.deuces_high]


def card_label(card: int, rules) -> str:
    """How a card prints under the rules: ``BJ`` / ``LJ`` for the jokers."""
    if rules.jokers >= 1 and card == BIG_JOKER:
        return "BJ"
    if rules.jokers == 2 and card == LITTLE_JOKER:
        return "LJ"
    return card_name(card)


def plays_as(card: int, rules=None) -> int:
    """The suit a card counts as: every joker and high deuce is a spade."""
    if rules is not None and card in top_trumps(rules):
        return SPADES
    return suit(card)


def strength(card: int, rules=None) -> int:
    """Higher beats lower within the suit a card plays as: the rank, and above every ace the
    jokers and high deuces (the highest of ``top_trumps`` strongest)."""
    tops = top_trumps(rules) if rules is not None else []
    if card in tops:
        return 100 - tops.index(card)
    return rank(card)


def trick_order(card: int, rules=None) -> tuple[int, int]:
    """Cards sorted by suit (clubs .. spades, as they play) and strength within it."""
    return plays_as(card, rules), strength(card, rules)


# -- play -------------------------------------------------------------------------------------


def spades_may_be_led(rules, spades_broken: bool, trick_no: int) -> bool:
    """RULES.md's spade-lead option, for a leader who also holds other suits.

    ``trick_no`` counts from 0, so "after three tricks" means trick number 3 onwards.
    """
    option = rules.spade_lead
    if option == "anytime":
        return True
    if option == "broken":
        return spades_broken
    if option == "after_first_trick":
        return trick_no >= 1
    if option == "after_three_tricks":
        return trick_no >= 3
    if option == "after_three_tricks_or_broken":
        return spades_broken or trick_no >= 3
    raise AssertionError(f"unknown spade_lead {option!r}")


def naive_legal_cards(hand_cards, trick_so_far, spades_broken, trick_no, rules) -> list[int]:
    """The cards a player holding ``hand_cards`` may play, sorted by id.

    ``trick_so_far`` lists the card ids already played to this trick (empty when leading);
    ``spades_broken`` says whether a spade has been played to an earlier trick.
    """
    hand = sorted(int(c) for c in hand_cards)
    assert hand, "a player to act holds at least one card"
    trick = [int(c) for c in trick_so_far]
    if trick:
        led = plays_as(trick[0], rules)
        same_suit = [c for c in hand if plays_as(c, rules) == led]
        # Follow suit if able; a void player may play anything, a spade included.
        return same_suit if same_suit else hand
    if trick_no == 0 and rules.first_lead == "low_club":
        # The holder of the lowest club leads it to the first trick.
        clubs = [c for c in hand if plays_as(c, rules) == CLUBS]
        assert clubs, "the first leader under low_club holds a club"
        return [min(clubs, key=rank)]
    non_spades = [c for c in hand if plays_as(c, rules) != SPADES]
    if not non_spades:
        return hand  # only spades: a spade may always be led
    if spades_may_be_led(rules, spades_broken, trick_no):
        return hand
    return non_spades


def naive_trick_winner(trick, rules=None) -> int:
    """The seat that wins ``trick``, a list of four ``(seat, card)`` pairs in play order."""
    trick = [(int(s), int(c)) for s, c in trick]
    assert len(trick) == 4
    spades = [(s, c) for s, c in trick if plays_as(c, rules) == SPADES]
    if spades:
        candidates = spades
    else:
        led = plays_as(trick[0][1], rules)
        candidates = [(s, c) for s, c in trick if plays_as(c, rules) == led]
    best_seat, best_card = candidates[0]
    for s, c in candidates[1:]:
        if strength(c, rules) > strength(best_card, rules):
            best_seat, best_card = s, c
    return best_seat


def naive_first_leader(hands, dealer: int, rules) -> int:
    """Who leads trick 0: the dealer's left, or (low_club) the holder of the lowest club."""
    if rules.first_lead == "low_club":
        lowest = None
        holder = None
        for seat, h in enumerate(hands):
            for c in h:
                if plays_as(c, rules) == CLUBS and (lowest is None or rank(c) < rank(lowest)):
                    lowest, holder = c, seat
        return holder
    return (dealer + 1) % 4


# -- bidding ----------------------------------------------------------------------------------


def naive_legal_bids(seat, hand_cards, bids_by_seat, scores, rules) -> tuple[list[int], bool]:
    """``(bids, blind_ok)``: the bids ``seat`` may make (0 = nil) and whether a blind nil is allowed.

    ``bids_by_seat`` holds None for seats that have not bid yet; ``scores`` are the match scores
    before the hand (team 0, team 1).
    """
    n_spades = sum(1 for c in hand_cards if plays_as(int(c), rules) == SPADES)
    partner_bid = bids_by_seat[partner_of(seat)]
    if rules.bidding == "mirror":
        # Bid exactly the number of spades held; no spades means nil.
        return [n_spades], False
    if rules.bidding == "whiz":
        # Nil or the number of spades held (if that number is a legal bid at all).
        options = {0}
        if n_spades >= 1 and n_spades >= rules.min_bid:
            options.add(n_spades)
        return sorted(options), False
    if rules.bidding == "suicide":
        lowest = max(4, rules.min_bid)
        numbers = list(range(lowest, 14))
        if partner_bid is None or partner_bid == 0:
            # The first partner of a team, or the second after a nil (double nil is legal).
            legal = [0] + numbers
        else:
            legal = [0]  # the first partner bid a number: the team still needs its nil
    else:  # classic
        legal = list(range(rules.min_bid, 14))
        if rules.nil:
            legal = [0] + legal
        if partner_bid is not None and rules.min_team_bid > 0:
            legal = [b for b in legal if partner_bid + b >= rules.min_team_bid]
    blind_ok = False
    if rules.blind_nil and 0 in legal:
        trails_by = scores[1 - team_of(seat)] - scores[team_of(seat)]
        blind_ok = rules.blind_nil_min_deficit == 0 or trails_by >= rules.blind_nil_min_deficit
    others = [b for s, b in enumerate(bids_by_seat) if s != seat]
    if rules.hook and None not in others:
        # The last bidder may not make the four bids add up to 13, unless nothing else is left.
        hooked = [b for b in legal if b + sum(others) != 13]
        if hooked:
            legal = hooked
            blind_ok = blind_ok and sum(others) != 13
    return legal, blind_ok


def naive_seen_bids(seat, bids_by_seat, bidding_over: bool, rules) -> list:
    """The bids ``seat`` has seen: all of them, but under closed bidding only its own (and
    None for the others) until the bidding is over and the play starts."""
    if rules.closed_bidding and not bidding_over:
        return [b if s == seat else None for s, b in enumerate(bids_by_seat)]
    return list(bids_by_seat)


# -- passing ----------------------------------------------------------------------------------


def naive_passers(after_bidding: bool, blind_by_seat, rules) -> list[int]:
    """Who passes cards: before the bidding (``pass_cards``) every player; after it
    (``blind_pass``) the two partners of each team with a blind nil bidder."""
    if not after_bidding:
        return [0, 1, 2, 3] if rules.pass_cards else []
    if not rules.blind_pass:
        return []
    return sorted(s for s in range(4) if blind_by_seat[s] or blind_by_seat[partner_of(s)])


def naive_exchange(hands, gave: dict) -> list[list[int]]:
    """Partners hand each other their chosen cards at the same time: each passer loses the
    cards it gave and gains those its partner gave."""
    new = [sorted(h) for h in hands]
    for seat, cards in gave.items():
        for c in cards:
            new[seat].remove(c)
            new[partner_of(seat)].append(c)
    return [sorted(h) for h in new]


def naive_seen_passes(seat, gave: dict) -> dict:
    """The passes a seat has seen: its own and its partner's (both partners see what they gave
    and received); the opponents see neither."""
    return {s: sorted(c) for s, c in gave.items() if s in (seat, partner_of(seat))}


# -- scoring ----------------------------------------------------------------------------------


def naive_score(bids, blind, tricks, scores, bags, rules) -> dict:
    """Score a hand the way RULES.md says, team by team.

    Returns per-team lists ``points``, ``scores``, ``bags``, ``made``, ``contract``,
    ``new_bags``, ``nil_points``, ``penalties`` and per-seat ``nil`` (None: no nil bid,
    True: made, False: failed).
    """
    out = {k: [None, None] for k in ("points", "scores", "bags", "made", "contract", "new_bags", "nil_points", "penalties")}
    nil = [None] * 4
    for team in (0, 1):
        seats = (team, team + 2)
        bidders = [s for s in seats if bids[s] > 0]
        nil_seats = [s for s in seats if bids[s] == 0]
        contract = sum(bids[s] for s in bidders)
        toward = sum(tricks[s] for s in bidders)
        if rules.nil_tricks_count:
            toward += sum(tricks[s] for s in nil_seats)
        points = 0
        new_bags = 0
        made = toward >= contract
        if made:
            if rules.ten_for_200 and contract >= 10:
                points += 20 * contract
            else:
                points += 10 * contract
            overtricks = toward - contract
            points += overtricks
            new_bags += overtricks
        else:
            points -= 10 * contract
        nil_points = 0
        for s in nil_seats:
            bonus = rules.blind_nil_bonus if blind[s] else rules.nil_bonus
            nil[s] = tricks[s] == 0
            if tricks[s] == 0:
                nil_points += bonus
            elif blind[s] and rules.half_blind_penalty:
                nil_points -= bonus // 2  # a failed blind nil costs half
            else:
                nil_points -= bonus
            if not rules.nil_tricks_count:
                points += tricks[s]
                new_bags += tricks[s]
        points += nil_points
        count = bags[team] + new_bags
        penalties = 0
        while count >= rules.bag_limit:
            count -= rules.bag_limit
            penalties += 1
        points -= penalties * rules.bag_penalty
        out["points"][team] = points
        out["scores"][team] = scores[team] + points
        out["bags"][team] = count
        out["made"][team] = made
        out["contract"][team] = contract
        out["new_bags"][team] = new_bags
        out["nil_points"][team] = nil_points
        out["penalties"][team] = penalties
    out["nil"] = nil
    return out


def naive_match_winner(scores, rules, hands_played=None):
    """0 or 1 if the match is over at ``scores``, else None (RULES.md "Ending a match")."""
    s0, s1 = scores
    over = False
    if rules.target_score is not None and (s0 >= rules.target_score or s1 >= rules.target_score):
        over = True
    if rules.loss_threshold is not None and (s0 <= rules.loss_threshold or s1 <= rules.loss_threshold):
        over = True
    if rules.max_hands is not None and hands_played is not None and hands_played >= rules.max_hands:
        over = True
    if not over or s0 == s1:
        return None
    return 0 if s0 > s1 else 1


# -- the random stream ------------------------------------------------------------------------

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


def mix64(z: int) -> int:
    z &= MASK64
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def _unxorshift(z: int, k: int) -> int:
    x = z
    for _ in range(64 // k + 1):
        x = z ^ (x >> k)
    return x & MASK64


def unmix64(z: int) -> int:
    """The inverse of ``mix64`` (to build states whose next draw is chosen by a test)."""
    z = _unxorshift(z & MASK64, 31)
    z = (z * pow(MIX2, -1, 1 << 64)) & MASK64
    z = _unxorshift(z, 27)
    z = (z * pow(MIX1, -1, 1 << 64)) & MASK64
    return _unxorshift(z, 30)


def stream_start(seed: int, index: int, stream: int) -> int:
    z = mix64(seed + GAMMA)
    z = mix64(z + index)
    return mix64(z + stream)


class NaiveStream:
    """The engine's counter-based stream, one Python int of state."""

    def __init__(self, seed: int = 0, index: int = 0, stream: int = 0, *, state: int | None = None):
        self.state = stream_start(seed, index, stream) if state is None else state & MASK64
        self.draws = 0  # 64-bit words consumed

    def next_u64(self) -> int:
        self.state = (self.state + GAMMA) & MASK64
        self.draws += 1
        return mix64(self.state)

    def below(self, n: int) -> int:
        """Uniform in ``[0, n)``: Lemire's multiply-shift on the draw's high 32 bits, with rejection."""
        assert 1 <= n < 1 << 32
        while True:
            m = (self.next_u64() >> 32) * n
            low = m & 0xFFFFFFFF
            if low >= n or low >= ((1 << 32) - n) % n:
                return m >> 32


def naive_deal_from_stream(stream: NaiveStream) -> list[list[int]]:
    """Seats 0, 1, 2 draw 13 cards each (the r-th lowest card left); seat 3 keeps the rest."""
    remaining = list(range(52))
    hands = []
    for _seat in range(3):
        hand = []
        for _ in range(13):
            r = stream.below(len(remaining))
            hand.append(remaining.pop(r))
        hands.append(sorted(hand))
    hands.append(remaining)
    return hands


def naive_deal(seed: int, index: int = 0) -> list[list[int]]:
    return naive_deal_from_stream(NaiveStream(seed, index, 0))


def naive_random_playout(hands, leader: int, stream: NaiveStream, rules):
    """Play 13 tricks with uniformly random legal cards; returns ``(tricks per seat, plays)``.

    A card with exactly one legal choice costs no draw; otherwise ``r = below(count)`` picks
    the r-th lowest legal card (in ``trick_order``: by suit, then strength, so jokers and high
    deuces come last). ``plays`` lists the ``(seat, card)`` pairs in order.
    """
    hands = [sorted(h) for h in hands]
    broken = False
    tricks = [0, 0, 0, 0]
    plays = []
    for trick_no in range(13):
        trick = []
        for pos in range(4):
            seat = (leader + pos) % 4
            legal = naive_legal_cards(hands[seat], [c for _, c in trick], broken, trick_no, rules)
            legal.sort(key=lambda c: trick_order(c, rules))
            card = legal[0] if len(legal) == 1 else legal[stream.below(len(legal))]
            hands[seat].remove(card)
            trick.append((seat, card))
        plays.extend(trick)
        if any(plays_as(c, rules) == SPADES for _, c in trick):
            broken = True
        leader = naive_trick_winner(trick, rules)
        tricks[leader] += 1
    return tricks, plays


def naive_random_playouts(n: int, seed: int, rules, dealer: int = 0, start: int = 0):
    """Per deal ``(tricks, plays, hands)`` for deals ``start .. start+n-1`` of ``seed``."""
    out = []
    for index in range(start, start + n):
        stream = NaiveStream(seed, index, 0)
        hands = naive_deal_from_stream(stream)
        leader = naive_first_leader(hands, dealer, rules)
        tricks, plays = naive_random_playout(hands, leader, stream, rules)
        out.append((tricks, plays, hands))
    return out


# -- random rules -----------------------------------------------------------------------------


def random_rules_kwargs(rng: random.Random) -> dict:
    """A random valid combination of house-rule options (as ``Rules`` keyword arguments)."""
    bidding = rng.choice(["classic", "classic", "suicide", "mirror", "whiz"])
    kw = {
        "bidding": bidding,
        "spade_lead": rng.choice(["broken", "after_first_trick", "after_three_tricks", "after_three_tricks_or_broken", "anytime"]),
        "first_lead": rng.choice(["dealer_left", "low_club"]),
        "nil_tricks_count": rng.random() < 0.5,
        "ten_for_200": rng.random() < 0.5,
        "nil_bonus": rng.choice([50, 100, 200, 75]),
        "blind_nil_bonus": rng.choice([200, 300, 150]),
        "bag_limit": rng.choice([10, 10, 1, 2, 5, 7]),
        "bag_penalty": rng.choice([100, 50, 0, 20]),
        "target_score": rng.choice([500, 250, 300, 400, 600, 700, 1]),
        "loss_threshold": rng.choice([-200, -100, -500, None]),
    }
    kw["nil"] = True if bidding != "classic" else rng.random() < 0.8
    if bidding in ("classic", "suicide") and kw["nil"]:
        kw["blind_nil"] = rng.random() < 0.6
        kw["blind_nil_min_deficit"] = rng.choice([0, 0, 100, 50])
        kw["half_blind_penalty"] = kw["blind_nil"] and rng.random() < 0.5
    if bidding != "mirror":
        kw["min_bid"] = rng.choice([1, 1, 2, 3, 4, 5])
    if bidding == "classic":
        kw["min_team_bid"] = rng.choice([0, 0, 3, 4, 6])
    if rng.random() < 0.2:
        kw["max_hands"] = rng.randint(1, 20)
    if kw.get("blind_nil") and rng.random() < 0.5:
        kw["blind_pass"] = rng.randint(1, 3)
    elif not kw.get("blind_nil") and rng.random() < 0.3:
        kw["pass_cards"] = rng.randint(1, 3)  # a player who passed has looked: no blind nil
    if rng.random() < 0.5:
        kw["jokers"] = rng.randint(0, 2)
        kw["deuces_high"] = rng.randint(0, 4 - kw["jokers"])
    if bidding != "suicide" and not kw.get("min_team_bid") and rng.random() < 0.3:
        kw["closed_bidding"] = True  # not with limits that depend on the bids before
    elif bidding != "mirror":
        kw["hook"] = rng.random() < 0.4
    return kw


# -- exact play -------------------------------------------------------------------------------


def naive_minimax(hands, leader: int, trick, spades_broken: bool, trick_no: int, tricks_won, rules, leaf, team: int):
    """The value to ``team`` of a position when both teams play perfectly with every card seen.

    ``hands`` lists each seat's cards still held; ``trick`` the ``(seat, card)`` pairs played
    to the current trick (led by ``leader``); ``tricks_won`` each seat's tricks so far;
    ``leaf(t0, t1, t2, t3)`` the value of a finished hand. ``team`` maximizes, the other team
    minimizes. Plain recursion over every legal card, with a memo of positions seen.
    """
    memo = {}

    def value(hands, leader, trick, broken, trick_no, won):
        if not trick and not any(hands):
            return leaf(*won)
        key = (hands, leader, trick, broken, trick_no, won)
        if key in memo:
            return memo[key]
        seat = (leader + len(trick)) % 4
        options = []
        for card in naive_legal_cards(hands[seat], [c for _, c in trick], broken, trick_no, rules):
            after = list(hands)
            after[seat] = tuple(c for c in hands[seat] if c != card)
            after = tuple(after)
            played = trick + ((seat, card),)
            if len(played) < 4:
                options.append(value(after, leader, played, broken, trick_no, won))
                continue
            winner = naive_trick_winner(played, rules)
            # A spade (a joker or high deuce too) in this trick breaks spades for the tricks after it.
            now_broken = broken or any(plays_as(c, rules) == SPADES for _, c in played)
            new_won = tuple(w + (s == winner) for s, w in enumerate(won))
            options.append(value(after, winner, (), now_broken, trick_no + 1, new_won))
        best = max(options) if seat % 2 == team else min(options)
        memo[key] = best
        return best

    start = tuple(tuple(sorted(int(c) for c in h)) for h in hands)
    trick = tuple((int(s), int(c)) for s, c in trick)
    return value(start, leader, trick, bool(spades_broken), trick_no, tuple(int(t) for t in tricks_won))


def naive_double_dummy(hands, leader: int, spades_broken: bool, rules) -> int:
    """Most tricks the team of ``leader`` takes from a trick boundary (equal hands)."""
    team = leader % 2
    n = len(hands[0])
    return naive_minimax(hands, leader, (), spades_broken, 13 - n, (0, 0, 0, 0), rules,
                         lambda *t: t[team] + t[team + 2], team)
