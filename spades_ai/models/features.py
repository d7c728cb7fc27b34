"""The learned models' inputs, computed in numba from what a kernel agent is given (``pub``,
``seat``, ``hand``, ``rules``; read through ``spades_ai.kernels`` and Normal's own counts).

``bid_features`` describes a hand before its bid (``N_BID_FEATURES`` floats)::

    0..35   per suit (clubs, diamonds, hearts, spades), 9 each: length / 6, holds A K Q J T,
            void, singleton, doubleton (the trump lane counts as spades above the ace)
    36..37  Normal's trick estimate / 6 (``policies.normal.estimate_tricks``), Normal's nil test
    38..41  bids made before this one (0..3, one-hot)
    42..45  partner: has bid, its bid / 13, bid nil, blind nil
    46..49  opponents: bids made / 2, sum of their number bids / 13, nils, blind nils
    50..53  match scores / 500 (own team, other team), bag counts / 10 (own, other)
    54..61  per suit, the lowest and the second lowest card's rank + 1, / 13 (0 if none): the
            low cards that keep a nil safe

``card_features`` describes one legal card in a play decision (``N_CARD_FEATURES`` floats), at
any table of one deck (the table's seats and sides through ``engine.seats``: at a solo table the
partner's slots are 0, and "the opponents" are every other side)::

    0       it is Normal's card here
    1..5    suit (one-hot, trump lane as spades), rank / 12
    6..9    cards already in the trick (0..3, one-hot; 3 or more in the last)
    10..13  follows the led suit, trumps a side-suit lead, discards, wins the trick now
    14      the partner is winning the trick now
    15..17  unseen higher cards of its suit / 4, no unseen higher card (a master), unseen / 13
    18..19  own cards of its suit / 13, own cards of its suit below it / 13
    20      tricks finished / tricks of the hand (cards each)
    21..24  nil bidders: self, partner, the next seat, the seat before
    25..26  tricks the own side still needs / cards each (0 if made), the other sides' together
    27..28  the lowest, the highest legal card of its suit
    29..30  spades broken, the next seat has shown a void in its suit
    31      the seat before has shown a void in its suit

``bid_candidate_features`` describes one candidate bid of a vector bidder (``N_CARD_FEATURES``
floats, the card network's width, at any table; the candidates are Normal's bid moved by up to
``BID_WINDOW`` tricks, and nil: ``is_bid_candidate``)::

    0..1    it is Normal's bid, it is nil
    2..4    the bid / cards each, Normal's bid / cards each, Normal bids nil
    5..11   the bid minus Normal's, -3..+3 (one-hot)
    12      the bid minus Normal's / cards each

``bid_features`` reads four seats in pairs (the partner across, the opponents beside): the
tricks bidder is fitted and played at that table only (``models.model``: a model of another table
bids like Normal, which counts that table's tricks).
"""


from spades_ai import kernels as K
from spades_ai.engine.jit import inline_kernel, kernel
from spades_ai.policies.normal import estimate_tricks, nil_safe, normal_agent_play

N_BID_FEATURES = 62
N_CARD_FEATURES = 32
#: how far from Normal's bid a vector bidder's candidates go (``is_bid_candidate``)
BID_WINDOW = 3
#: ranks 12 (ace) down to 8 (ten): the honours ``bid_features`` flags per suit
HONOURS = (12, 11, 10, 9, 8)


@kernel
def bid_features(pub, seat, hand, rules, out):
    """Fill ``out`` (``N_BID_FEATURES`` floats) for ``seat`` holding ``hand`` before its bid."""
    out[:] = 0.0
    for s in range(K.N_SUITS):
        cards = K.suit_cards(hand, s)
        n = K.count(cards)
        base = 9 * s
        out[base] = n / 6.0
        for j in range(5):
            out[base + 1 + j] = 1.0 if (cards & K.card_bit(13 * s + HONOURS[j])) != K.ZERO else 0.0
        if n <= 2:
            out[base + 6 + n] = 1.0
        low = cards
        for j in range(2):
            if low != K.ZERO:
                out[54 + 2 * s + j] = (K.card_rank(K.lowest_card(low)) + 1) / 13.0
                low &= low - K.ONE
    lane = K.count(hand >> K.U64(52))
    out[27] += min(lane, 5) / 5.0  # the lane's trumps beat the ace: count them with it
    out[36] = estimate_tricks(hand, rules) / 6.0
    out[37] = 1.0 if nil_safe(hand) else 0.0
    made = K.bids_made(pub)
    out[38 + min(made, 3)] = 1.0
    closed = K.closed_bidding(rules)
    partner = K.partner(seat, rules)
    pb = -1 if closed else K.bid_of(pub, partner)
    if pb >= 0:
        out[42] = 1.0
        out[43] = pb / 13.0
        out[44] = 1.0 if pb == 0 else 0.0
        out[45] = 1.0 if K.is_blind(pub, partner) else 0.0
    for o in (K.next_seat(seat, rules), K.next_seat(partner, rules)):
        ob = -1 if closed else K.bid_of(pub, o)
        if ob >= 0:
            out[46] += 0.5
            out[47] += ob / 13.0
            if ob == 0:
                out[48] += 1.0
                out[49] += 1.0 if K.is_blind(pub, o) else 0.0
    team = K.side_of(seat, rules)
    out[50] = K.score(pub, team) / 500.0
    out[51] = K.score(pub, 1 - team) / 500.0
    out[52] = K.bag_count(pub, team) / 10.0
    out[53] = K.bag_count(pub, 1 - team) / 10.0


@inline_kernel
def _higher_in_suit(mask, card):
    """The cards of ``mask`` in ``card``'s suit that rank above it (for spades, the lane too)."""
    suit = K.card_suit(card)
    above = ~((K.card_bit(card) << K.U64(1)) - K.ONE)
    return K.suit_cards(mask, suit) & above


@inline_kernel
def seat_before(seat, rules):
    """The seat to this one's right (who played just before it in a trick)."""
    return (seat if seat > 0 else K.n_seats(rules)) - 1


@kernel
def other_sides_need(pub, side, rules):
    """Tricks the sides other than ``side`` still need for their contracts, together (each 0 if made)."""
    need = 0
    for k in range(K.n_sides(rules)):
        if k != side:
            need += max(K.tricks_needed(pub, k, rules), 0)
    return need


@kernel
def play_context(pub, seat, hand, legal, rules, ctx):
    """The features shared by every card of a decision, into ``ctx`` (``N_CARD_FEATURES``):
    the slots ``card_features`` leaves alone. Returns Normal's card."""
    ctx[:] = 0.0
    tricks = K.cards_each(rules)
    mate = K.partner(seat, rules)
    ctx[6 + min(K.trick_len(pub), 3)] = 1.0
    ctx[14] = 1.0 if (mate >= 0 and K.winning_seat(pub) == mate) else 0.0
    ctx[20] = K.trick_no(pub) / tricks
    ctx[21] = 1.0 if K.bid_of(pub, seat) == 0 else 0.0
    ctx[22] = 1.0 if (mate >= 0 and K.bid_of(pub, mate) == 0) else 0.0
    ctx[23] = 1.0 if K.bid_of(pub, K.next_seat(seat, rules)) == 0 else 0.0
    ctx[24] = 1.0 if K.bid_of(pub, seat_before(seat, rules)) == 0 else 0.0
    side = K.side_of(seat, rules)
    ctx[25] = max(K.tricks_needed(pub, side, rules), 0) / tricks
    ctx[26] = other_sides_need(pub, side, rules) / tricks
    ctx[29] = 1.0 if K.spades_broken(pub) else 0.0
    return normal_agent_play(pub, seat, hand, legal, rules)


@kernel
def card_features(pub, seat, hand, legal, rules, card, normal_card, ctx, out):
    """Fill ``out`` (``N_CARD_FEATURES`` floats) for playing ``card`` (an engine id among
    ``legal``), from the decision's shared ``ctx`` (``play_context``) and Normal's card."""
    out[:] = ctx
    out[0] = 1.0 if card == normal_card else 0.0
    suit = K.card_suit(card)
    out[1 + suit] = 1.0
    out[5] = K.card_rank(card) / 12.0
    led = K.led_suit(pub)
    if led >= 0:
        out[10] = 1.0 if suit == led else 0.0
        out[11] = 1.0 if (suit == 3 and led != 3) else 0.0
        out[12] = 1.0 if (suit != led and suit != 3) else 0.0
        win = K.winning_card(pub)
        ws = K.card_suit(win)
        beats = (suit == ws and K.card_rank(card) > K.card_rank(win)) or (suit == 3 and ws != 3)
        out[13] = 1.0 if beats else 0.0
    else:
        out[13] = 1.0  # a lead wins the trick as it stands
    unseen = K.unseen_cards(pub, hand)
    higher = K.count(_higher_in_suit(unseen, card))
    out[15] = min(higher, 4) / 4.0
    out[16] = 1.0 if higher == 0 else 0.0
    out[17] = K.count(K.suit_cards(unseen, suit)) / 13.0
    own = K.suit_cards(hand, suit)
    out[18] = K.count(own) / 13.0
    out[19] = K.count(own & ~_higher_in_suit(own, card) & ~K.card_bit(card)) / 13.0
    mine = K.suit_cards(legal, suit)
    out[27] = 1.0 if card == K.lowest_card(mine) else 0.0
    out[28] = 1.0 if card == K.highest_card(mine) else 0.0
    voids = K.voids_shown(pub)
    out[30] = 1.0 if K.void_in(voids, K.next_seat(seat, rules), suit) else 0.0
    out[31] = 1.0 if K.void_in(voids, seat_before(seat, rules), suit) else 0.0


@inline_kernel
def is_bid_candidate(b, normal):
    """Whether a vector bidder weighs bid ``b`` where Normal would bid ``normal``."""
    return b == 0 or abs(b - normal) <= BID_WINDOW


@kernel
def bid_candidate_features(b, normal, rules, out):
    """Fill ``out`` (``N_CARD_FEATURES`` floats) for the candidate bid ``b`` of a seat that
    Normal would bid ``normal`` for (see the module docstring)."""
    out[:] = 0.0
    each = K.cards_each(rules)
    d = b - normal
    out[0] = 1.0 if d == 0 else 0.0
    out[1] = 1.0 if b == 0 else 0.0
    out[2] = b / each
    out[3] = normal / each
    out[4] = 1.0 if normal == 0 else 0.0
    if -BID_WINDOW <= d <= BID_WINDOW:
        out[5 + BID_WINDOW + d] = 1.0
    out[12] = d / each
