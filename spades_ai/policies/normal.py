"""Normal: a counting bidder and a card player that knows what it needs (the Normal level of docs/agents.md).

Bidding counts sure and likely tricks: aces, guarded kings and queens, high and long spades,
and ruffs from voids, singletons and doubletons with spades to spare. It trims the bid when the
partner already bid high or the table has overbid, bids up when its team is close to the bag
limit, and bids nil with a safe hand (no ace, no high or long spades, no unguarded honour),
never after its partner's nil at four players (from six, a partnership may go double nil).
Under ``closed_bidding`` it reads no other bid.

Blind nil (when the rules allow it): only far behind late in the match, when a safe game
will not catch up: the team trails by at least ``BLIND_TRAIL`` (150) points, the opponents are
within ``BLIND_LATE`` (150) of the target (or at most two hands are left under ``max_hands``),
and the partner has not bid nil. ``make_agent("normal", blind_nil=False)`` never bids it.

Passing (``pass_cards``, ``blind_pass``) follows one convention, so partners understand each
other without talking: a seat that means to bid nil (its hand is nil-safe once its most
dangerous cards are gone) passes those cards, its highest (spades first at equal rank); any
other seat passes low side cards, from short suits first (it shortens a suit for ruffing and
gives a partner who goes nil cards it can safely hold). In the blind pass the blind nil bidder
passes its highest cards and its partner its lowest.

Play tracks the unseen cards and the voids shown. With the contract not yet safe (or a set of
the opponents within reach) it wins tricks as cheaply as possible: it never overtakes a
partner's sure winner, plays the lowest card that surely wins, ducks in second seat, plays high
in third and trumps with the lowest spade that wins. Once the contract is safe it ducks,
shedding its highest losers. A nil bidder plays under; its partner covers (wins early, plays
high in front of the nil, leads winners); against a live nil it leads low in suits the nil
bidder still holds and never overtakes the nil bidder's card.

Its count is the table's (``table_tricks``, ``trick_table``; the four-player count
``estimate_tricks`` at four players in pairs, whatever the house rules): spades beyond the
length the longest rival is expected to hold are long, side aces and ruffs are worth the chance
that no rival ruffs first, a top card with copies out shares its trick with them
(``copy_share``), a spade honour needs a guard for every copy above it, and under must win short
suits ruff more and kings and queens fall more. Its nil needs the guards the seats at a trick
call for (``nil_table``). The count is mapped onto the four-player line (``TABLE_TRICKS``) and
bid along the table's ``BID_LINE`` (``bid_target``): below it, and further below for a big
count than a small one, a set costing ten a trick of the contract and a bag one.

At every table (``kernels.n_seats``): the opponents are every seat of the other sides, the
partner's part (covering a nil, a partner's sure winner, the partner's bid) is played only
with a partner (``kernels.partner`` >= 0), a set is tried against the other side that needs
the most tricks, and the tricks of a hand are ``kernels.cards_each``. With several decks (6 to
12 players) it counts copies: its bid counts every copy it holds (``kernels.own_copies``), its
play tracks the unseen multiset (``kernels.unseen_copies``), and a card is a sure winner only
if no unseen copy can beat it: under ``equal_cards = "last"`` an identical card played later
does (``tactics.later_beaters``).
"""

from collections import namedtuple

import numpy as np

from spades_ai import kernels as K
from spades_ai.policies.tactics import (
    discard_high,
    discard_low,
    highest_by_rank,
    is_top,
    later_beaters,
    losers_under,
    lowest_by_rank,
    rank_of,
    winners_over,
)
from spades_ai.kernels import N_SUITS, NIL_BIT, NON_SPADES, ONE, SPADES, SUIT_MASK, U64, ZERO, highest_bit, lowest_bit, lowest_index, popcount
from spades_ai.engine.jit import hot_kernel, inline_kernel, kernel

# rank indexes
_Q, _K, _A = 10, 11, 12
#: Normal bids blind nil only trailing by this much ...
BLIND_TRAIL = 150
#: ``tricks = a + b * estimate_tricks`` in Normal self-play at each table size, solo (rows by
#: players; four players: the partnership game, the reference line; ``experiments/table_calibration.py``
#: prints them). ``table_estimate`` maps another table's estimate onto the four-player line, so
#: the bid keeps its four-player margin.
TABLE_TRICKS = np.array([
    (0.0, 1.0), (0.0, 1.0), (0.0, 1.0),
    (2.03, 1.23),
    (0.74, 0.96),
    (0.19, 0.76),
    (1.13, 1.08),
    (0.65, 0.84),
    (0.49, 0.83),
    (0.90, 0.88),
    (0.60, 0.84),
    (0.54, 0.67),
    (0.40, 0.70),
])  # fmt: skip
#: The same lines in pairs (rows by players; only 6, 8, 10 and 12 are played, the other rows
#: are never read): a partner who covers and ducks under a sure winner moves the line.
PAIRS_TABLE_TRICKS = np.array([(0.0, 1.0)] * 6 + [
    (1.12, 1.09),
    (0.0, 1.0),
    (0.39, 0.89),
    (0.0, 1.0),
    (0.51, 0.92),
    (0.0, 1.0),
    (0.31, 0.76),
])  # fmt: skip
#: Normal's bid at each table size, solo (rows by players): ``a + b * est`` of its estimate
#: ``est`` on the four-player scale, bid to the nearest trick (``bid_target``). The self-play
#: lines above overstate the slope (a seat that bids more fights for more tricks), so where the
#: slope is under one a big count is bid further below itself than a small one; a set costs ten
#: a trick of the contract where a trick over costs one. Tuned on the bidding benchmark
#: (``experiments/bidding_N.toml``, tuning seed 2027; rows with slope one are a plain cushion).
BID_LINE = np.array([
    (0.0, 1.0), (0.0, 1.0), (0.0, 1.0),
    (1.0, 0.7),
    (0.4, 0.8),
    (0.3, 0.8),
    (0.4, 0.8),
    (-0.4, 1.0),
    (0.5, 0.7),
    (-0.5, 1.0),
    (-0.4, 1.0),
    (-0.4, 1.0),
    (-0.4, 1.0),
])  # fmt: skip
#: The same in pairs (four players in pairs: ``est`` itself, the partnership game's own bids).
PAIRS_BID_LINE = np.array([(0.0, 1.0)] * 6 + [
    (0.8, 0.7),
    (0.0, 1.0),
    (0.8, 0.7),
    (0.0, 1.0),
    (-0.7, 1.0),
    (0.0, 1.0),
    (-0.7, 1.0),
])  # fmt: skip
#: Whether a nil at each table size may be looser (solo; rows by players): one spade more, a
#: top spade with two spades above it and one low guard less under a side ace or king (at
#: least one). At twelve eleven cards fall on every trick: a nil there makes 80% of hands
#: even so, every seat bidding so (``nil_table``; the rows are chosen on the bidding benchmark).
NIL_EASED = np.array([False] * 12 + [True])
#: The same in pairs: a partner covers the nil (from six players: a partner's nil does not
#: stop one, ``normal_bid``).
PAIRS_NIL_EASED = np.array([False] * 6 + [True, False, True, False, True, False, True])
#: ... with the opponents this close to the target.
BLIND_LATE = 150


#: What Normal's trick count reads of its table (``trick_table``; the four-player count's own
#: numbers are ``FOUR_PLAYERS``): ``decks``; ``long_from``, the spade length beyond which every
#: spade is a long trick (the length the longest rival is expected to hold); ``side_long``, the
#: side-suit length beyond which an ace is as good as ruffed; ``ace_factor`` and ``ruff_factor``,
#: the chance that no rival ruffs (or overruffs) a trick, against four players in pairs;
#: ``honour_factor``, what a king or queen keeps when a seat must win (it is played over a low
#: card and falls to the ace).
TrickTable = namedtuple("TrickTable", ["decks", "long_from", "side_long", "ace_factor", "ruff_factor", "honour_factor"])
#: ``NilTable``: what Normal's nil test reads of its table (``nil_table``): at most
#: ``max_spades`` spades (-1: no nil at all), the top spade with at least ``spades_over``
#: spades of the deck above it, and ``ace_guard`` (``king_guard``, ``queen_guard``) low cards
#: (2 to 7) under a side ace (king, queen); with one deck an ace always takes its trick
#: (``NO_NIL_ACE``).
NilTable = namedtuple("NilTable", ["max_spades", "spades_over", "ace_guard", "king_guard", "queen_guard"])
#: The expected maximum of n independent standard normal draws, n = 0..11 (the longest of n
#: rivals' spade holdings, in standard deviations above the mean; n = 0 and 1: none above it).
EXPECTED_MAX = np.array([0.0, 0.0, 0.5642, 0.8463, 1.0294, 1.1630, 1.2672, 1.3522, 1.4236, 1.4850, 1.5388, 1.5864])
#: A guard no suit can hold: a side ace with no copy out is never nil-safe.
NO_NIL_ACE = 99
#: Under must win a void seat must ruff, so its short suits ruff more often ...
MUST_WIN_RUFF = 1.4
#: ... and a king or queen under the top must be played over a low card and falls.
MUST_WIN_HONOUR = 0.85


@inline_kernel
def four_players():
    """The count's table at four players with one deck (``TrickTable``): the numbers the
    four-player count was written with (``trick_table`` of the partnership game gives them)."""
    return TrickTable(1, 4, 5, 1.0, 1.0, 1.0)


@inline_kernel
def four_players_nil():
    """The nil test's table at four players (``NilTable``; ``nil_table`` of the partnership game)."""
    return NilTable(3, 4, NO_NIL_ACE, 3, 2)


@kernel
def rivals(rules):
    """The seats that can beat a seat's card to a trick: every seat of the other sides."""
    seats = K.n_seats(rules)
    return seats - seats // K.n_sides(rules)


@kernel
def void_chance(unseen, suit_unseen, each):
    """The chance that a seat dealt ``each`` of ``unseen`` cards holds none of ``suit_unseen``
    of them (hypergeometric, real counts allowed: ``C(unseen - suit_unseen, each) / C(unseen, each)``)."""
    p = 1.0
    for i in range(each):
        p *= max(unseen - suit_unseen - i, 0.0) / (unseen - i)
    return p


@kernel
def ruff_free(seats, each, trumps, n_rivals):
    """The chance that no rival is void in a side suit of average length when it is first led,
    with ``trumps`` of the ``seats * each`` cards dealt (the seat's own share of the suit out)."""
    dealt = seats * each
    side = (dealt - trumps) / (3.0 * seats)
    return (1.0 - void_chance(dealt - each, (dealt - trumps) / 3.0 - side, each)) ** n_rivals


@kernel
def rival_spades(seats, each, trumps, n_rivals):
    """The spade length the longest of ``n_rivals`` holds, as expected: the mean holding plus
    the expected maximum of that many draws, in standard deviations of a hypergeometric holding
    (``trumps`` among the ``seats * each`` cards dealt)."""
    dealt = seats * each
    p = trumps / dealt
    sd = np.sqrt(each * p * (1.0 - p) * (dealt - each) / (dealt - 1.0))
    return each * p + sd * EXPECTED_MAX[n_rivals]


@kernel
def trick_table(rules):
    """Normal's ``TrickTable`` at the table of ``rules``: the spade length that runs, the
    side-suit length past which an ace is ruffed and the rivals' ruffs, from the seats, the cards
    each and the decks; must win's ruffs and honours. ``four_players()`` for four players in
    pairs."""
    # 13 trumps a deck whatever the jokers and high deuces: four players in pairs count as the
    # four-player count does under every house rule
    seats, each, trumps, n = K.n_seats(rules), K.cards_each(rules), 13 * K.n_decks(rules), rivals(rules)
    side = (seats * each - trumps) / (3.0 * seats)
    factor = ruff_free(seats, each, trumps, n) / ruff_free(4, 13, 13, 2)
    must = K.must_win(rules)
    return TrickTable(K.n_decks(rules), np.int64(np.floor(rival_spades(seats, each, trumps, n))), np.int64(np.floor(side + 1.75)), factor,
                      factor * (MUST_WIN_RUFF if must else 1.0), MUST_WIN_HONOUR if must else 1.0)  # fmt: skip


@kernel
def nil_table(rules):
    """Normal's ``NilTable`` at the table of ``rules``: the spades a seat holds on average, and
    guards that shrink as more seats play to each trick (more cards to fall over a low one);
    a side ace only with a copy of it out (one may fall first); none under must win, nor at
    four solo (no partner covers it, and three rivals' cards fall on a trick: Normal made 37-50%
    of its nils there); looser where ``NIL_EASED`` (``PAIRS_NIL_EASED``) says.
    ``four_players_nil()`` at four players in pairs."""
    seats, decks, must = K.n_seats(rules), K.n_decks(rules), K.must_win(rules)
    pairs = K.n_sides(rules) < seats
    # under must win a nil must beat the winning card whenever it can: no hand is safe
    spades = -1 if must or (seats == 4 and not pairs) else np.int64(np.floor(13 * decks / seats + 0.25))
    ace = NO_NIL_ACE if decks == 1 else np.int64(np.ceil(12.0 / (seats - 1)))
    king, queen = np.int64(np.ceil(9.0 / (seats - 1))), np.int64(np.ceil(6.0 / (seats - 1)))
    if (PAIRS_NIL_EASED if pairs else NIL_EASED)[seats] and spades >= 0:
        return NilTable(spades + 1, 2, max(ace - 1, 1) if ace != NO_NIL_ACE else ace, max(king - 1, 1), queen)
    return NilTable(spades, 4, ace, king, queen)


@inline_kernel
def copy_share(held, decks):
    """The tricks ``held`` copies of a top card take with the deck's other copies out: each out
    copy takes one in ``held + out`` of them (``held`` itself with none out)."""
    out = max(decks - held, 0)
    return held * held / (held + out) if held > 0 else 0.0


@kernel
def estimate_tricks(hand, rules, hand2=ZERO, hand3=ZERO):
    """Expected tricks of ``hand`` as a float, by honours, spade length and ruffs, counted as at
    four players (``four_players``; ``table_tricks`` counts for the table). The trumps are read
    from the top of the lane: with jokers or high deuces the best trump counts as the ace does
    without them (``kernels.extra_trumps``). With several decks the hand's levels are
    ``(hand, hand2, hand3)`` (``kernels.own_copies``) and every copy counts: each copy of an
    honour is valued as one, and a suit's length counts its copies."""
    return count_tricks(hand, rules, hand2, hand3, four_players())


@kernel
def table_tricks(hand, rules, hand2=ZERO, hand3=ZERO):
    """``estimate_tricks`` counted for the table of ``rules`` (``trick_table``): long spades
    from the rivals' expected length, aces and ruffs by the chance of a rival's ruff, a copy of
    an honour out shares its trick (``copy_share``), kings and queens guarded by the copies above
    them, must win's ruffs and honours. The four-player count at four players in pairs."""
    return count_tricks(hand, rules, hand2, hand3, trick_table(rules))


@kernel
def count_tricks(hand, rules, hand2, hand3, t):
    """The trick count of ``hand`` (levels ``hand, hand2, hand3``) under ``TrickTable`` ``t``."""
    n_sp = K.size_of(hand & SPADES, hand2 & SPADES, hand3 & SPADES)
    shift = U64(K.extra_trumps(rules))
    sp1, sp2, sp3 = ((hand & SPADES) >> shift) & SPADES, ((hand2 & SPADES) >> shift) & SPADES, ((hand3 & SPADES) >> shift) & SPADES
    # Spade honours, guarded by length (by every copy of the deck above them); every spade
    # beyond the longest rival's is a long trick.
    aces = K.copies_of(ONE << U64(39 + _A), sp1, sp2, sp3)
    kings = K.copies_of(ONE << U64(39 + _K), sp1, sp2, sp3)
    queens = K.copies_of(ONE << U64(39 + _Q), sp1, sp2, sp3)
    total = copy_share(aces, t.decks) * 1.0
    total += copy_share(kings, t.decks) * (1.0 if n_sp >= 1 + t.decks else 0.4) * t.honour_factor
    total += copy_share(queens, t.decks) * (0.9 if n_sp >= 1 + 2 * t.decks else 0.3) * t.honour_factor
    if n_sp >= t.long_from:
        total += copy_share(K.copies_of(ONE << U64(39 + 9), sp1, sp2, sp3), t.decks) * 0.5
    if n_sp > t.long_from:
        total += n_sp - t.long_from
    spare = n_sp - aces - kings - queens
    for s in range(3):
        total, spare = _side_suit_tricks(total, spare, hand & SUIT_MASK[s], hand2 & SUIT_MASK[s], hand3 & SUIT_MASK[s], 13 * s, t)
    return total


@inline_kernel
def _side_suit_tricks(total, spare, m1, m2, m3, base, t):
    """``total`` and ``spare`` (spades to ruff with) after counting the side suit of levels
    ``m1, m2, m3`` whose lowest card is bit ``base``: its ace, its king guarded by as many cards
    as aces are out, its queen, and ruffs when it is short."""
    n = K.size_of(m1, m2, m3)
    aces = K.copies_of(ONE << U64(base + _A), m1, m2, m3)
    kings = K.copies_of(ONE << U64(base + _K), m1, m2, m3)
    total += copy_share(aces, t.decks) * (1.0 if n <= t.side_long else 0.6) * t.ace_factor
    aces_out = max(t.decks - aces, 0)
    if n >= 1 + aces_out and n <= t.side_long:
        total += copy_share(kings, t.decks) * (0.8 if aces_out == 0 else 0.6 * 0.6 ** (aces_out - 1)) * t.honour_factor
    elif n < 1 + aces_out:
        total += kings * 0.15
    if n >= 3 and n <= t.side_long - 1:
        queens = copy_share(K.copies_of(ONE << U64(base + _Q), m1, m2, m3), t.decks)
        total += queens * (0.3 if aces + kings > 0 else 0.15) * t.honour_factor
    # Ruffs: short side suits with spades to spare.
    if spare > 0:
        if n == 0:
            r = min(spare, 2)
            total += 0.8 * r * t.ruff_factor
            spare -= r
        elif n == 1:
            total += 0.7 * t.ruff_factor
            spare -= 1
        elif n == 2 and spare >= 2:
            total += 0.3 * t.ruff_factor
            spare -= 1
    return total, spare


@kernel
def nil_safe(hand, hand2=ZERO, hand3=ZERO):
    """A hand that can hope to take no trick: few low spades, no ace, no unguarded honour, as
    at four players (``nil_safe_at`` with ``four_players_nil()``). With several decks the hand's
    levels are ``(hand, hand2, hand3)`` and lengths count copies."""
    return nil_safe_at(hand, hand2, hand3, four_players_nil(), 1)


@kernel
def nil_safe_at(hand, hand2, hand3, t, decks):
    """``nil_safe`` under ``NilTable`` ``t`` with ``decks`` copies of each card in the deck."""
    sp = hand & SPADES
    n_sp = K.size_of(sp, hand2 & SPADES, hand3 & SPADES)
    if n_sp > t.max_spades:
        return False
    if sp != ZERO and decks * (12 - rank_of(highest_bit(sp))) < t.spades_over:  # too few spades above it
        return False
    for s in range(3):
        m = hand & SUIT_MASK[s]
        n = np.int64(popcount(m))
        if n == 0:
            continue
        # cards 2..7 of the suit guard an honour
        low = U64(0x3F) << U64(13 * s)
        n_low = K.size_of(m & low, hand2 & low, hand3 & low)
        if m >> U64(13 * s + _A) & ONE and n_low < t.ace_guard:
            return False
        if m >> U64(13 * s + _K) & ONE and n_low < t.king_guard:
            return False
        if m >> U64(13 * s + _Q) & ONE and n_low < t.queen_guard:
            return False
    return True


@inline_kernel
def table_estimate(est, seats, pairs=False):
    """``est`` on the four-player scale at a table of ``seats`` (``TABLE_TRICKS``, or in
    ``pairs`` from six players ``PAIRS_TABLE_TRICKS``); at four players ``est`` itself."""
    if seats == 4:
        return est
    t = PAIRS_TABLE_TRICKS if pairs else TABLE_TRICKS
    return (t[seats, 0] + t[seats, 1] * est - TABLE_TRICKS[4, 0]) / TABLE_TRICKS[4, 1]


@inline_kernel
def bid_target(est, seats, pairs=False):
    """The tricks Normal bids for an estimate ``est`` (four-player scale) at a table of
    ``seats`` (``BID_LINE``, in ``pairs`` ``PAIRS_BID_LINE``): ``est`` itself at four players
    in pairs."""
    line = PAIRS_BID_LINE[seats] if pairs else BID_LINE[seats]
    return line[0] + line[1] * est


@kernel
def normal_bid(pub, seat, hand, rules, bid_mask):
    """Normal's bid (0 = nil) from the legal-bid mask. Under closed bidding it reads no other
    bid, even from a full public array (as in a rollout)."""
    # every read of the arrays first, branches on the values after: an array read under a
    # branch costs numba's reference counting on every call
    closed = K.closed_bidding(rules)
    seats, each = K.n_seats(rules), K.cards_each(rules)
    mate = K.partner(seat, rules)
    mate_bid = K.bid_of(pub, max(mate, 0))
    partner = -1 if closed or mate < 0 else mate_bid
    _, hand2, hand3 = K.own_copies(pub, hand)
    nil_needs, decks = nil_table(rules), K.n_decks(rules)
    est = table_estimate(table_tricks(hand, rules, hand2, hand3), seats, mate >= 0)
    # from six players a partner's nil does not stop one (a partnership's double nil)
    if (bid_mask & NIL_BIT) and (partner != 0 or seats > 4) and est < 1.6 and nil_safe_at(hand, hand2, hand3, nil_needs, decks):
        return 0
    est = bid_target(est, seats, mate >= 0)
    if (bid_mask & K.BID_BITS & ~NIL_BIT) == 0:
        return 0
    team = K.side_of(seat, rules)
    if K.bag_count(pub, team) >= K.bag_limit(rules) - 3:
        est += 0.4  # close to the bag limit: bid the extra trick rather than bag it
    if partner > 0 and partner + est > each - 4:  # the two bids near the whole hand
        est -= 0.5
    total = 0
    known = 0
    for s in range(seats):
        b = K.bid_of(pub, s)
        if b > 0 and not (closed and s != seat):
            total += b
            known += 1
    if known > 0 and total + est > each + 0.5 - (seats - 1 - known) * 1.5:
        est -= 0.5
    want = max(1, np.int64(est + 0.6))
    return K.nearest_legal_bid(bid_mask, want)


@kernel
def normal_blind_nil(pub, seat, rules):
    """Whether Normal bids blind nil (asked before it sees its cards; see the module docstring)."""
    team = K.side_of(seat, rules)
    mine = K.score(pub, team)
    opp = K.best_other_score(pub, team, rules)
    mate = K.partner(seat, rules)
    if opp - mine < BLIND_TRAIL or (mate >= 0 and K.bid_of(pub, mate) == 0):
        return False
    late = opp >= K.target_score(rules) - BLIND_LATE
    if K.max_hands(rules) > 0 and K.hands_played(pub) >= K.max_hands(rules) - 2:
        late = True
    return late


@kernel
def pass_low(hand, n, short_suit):
    """``n`` low cards of ``hand``, side suits before spades: the lowest rank anywhere, or with
    ``short_suit`` the lowest of rank plus twice the suit's length (low cards from short side
    suits, toward a void)."""
    out = ZERO
    m = hand
    for _ in range(n):
        side = m & NON_SPADES
        if side == ZERO:
            b = lowest_bit(m)
        elif short_suit:
            b = ZERO
            best_score = 99
            for s in range(3):
                c = m & SUIT_MASK[s]
                if c != ZERO:
                    score = rank_of(lowest_bit(c)) + 2 * np.int64(popcount(c))
                    if score < best_score:
                        b, best_score = lowest_bit(c), score
        else:
            b = lowest_by_rank(side)
        out |= b
        m &= ~b
    return out


@kernel
def normal_pass(pub, seat, hand, rules, n):
    """Normal's pass of ``n`` cards (a mask; see the module docstring)."""
    if K.bids_made(pub) == K.n_seats(rules):  # the blind pass: the blind nil bidder and its partner
        return K.highest_cards(hand, n) if K.is_blind(pub, seat) else pass_low(hand, n, False)
    high = K.highest_cards(hand, n)
    rest = hand & ~high
    if K.nil_allowed(rules) and nil_safe(rest) and estimate_tricks(rest, rules) < 1.2:
        return high
    return pass_low(hand, n, True)


@kernel
def _sure_partner_win(win, led_suit, unseen, seat, trick_len, voids, seats, equal_last):
    """Whether the partner's winning card ``win`` will hold against the seats still to play
    (``seats``: the table's)."""
    left = seats - 1 - trick_len
    if left == 0:
        return True
    if not is_top(win, unseen, equal_last):
        return False
    if win & SPADES:
        return True
    # An opponent after us who shows a void in the led suit may trump.
    for k in range(1, left + 1):
        after = seat + k
        if K.void_in(voids, after - seats if after >= seats else after, led_suit) and (unseen & SPADES) != ZERO:
            return False
    return True


@kernel
def _low_lead(legal, unseen, unseen2, unseen3, equal_last, above_weight, spade_penalty):
    """Lead the lowest card of the suit where the most unseen cards (copies counted: the
    unseen multiset's levels) beat it (scored ``above_weight * above - spade_penalty`` for
    spades): the lead least likely to win."""
    best = ZERO
    best_score = -99
    for s in range(N_SUITS):
        m = legal & SUIT_MASK[s]
        if m != ZERO:
            b = lowest_bit(m)
            beat = SUIT_MASK[s] & later_beaters(b, equal_last)
            above = K.size_of(unseen & beat, unseen2 & beat, unseen3 & beat)
            score = above_weight * above - (spade_penalty if s == 3 else 0)
            if score > best_score:
                best, best_score = b, score
    return best


@kernel
def _lowest_top(cards, unseen, equal_last):
    """The lowest of ``cards`` (of one suit, the highest of them ``is_top``) that is still
    ``is_top``."""
    m = cards
    while m != ZERO:
        b = lowest_bit(m)
        if is_top(b, unseen, equal_last):
            return b
        m &= ~b
    return ZERO


@kernel
def _play_under(legal, win, led, last, forced_high, equal_last):
    """Lose the trick if possible, shedding the highest card that loses. Forced to win in last
    seat, play the highest card of the led suit, or when void the highest card (a nil that is
    lost anyway: ``forced_high``) or the lowest (keep the high trumps)."""
    under = losers_under(legal, win, led, equal_last)
    if under != ZERO:
        if (under & led) != ZERO:
            return highest_bit(under & led)
        return discard_high(under)
    if last:
        if (legal & led) != ZERO:
            return highest_bit(legal & led)
        return highest_bit(legal) if forced_high else lowest_bit(legal)
    return lowest_by_rank(legal)


@kernel
def _lead(legal, unseen, unseen2, unseen3, equal_last, aims, voids):
    """Choose a lead, for the seat's ``aims`` (``_aims``: ``(cover, attack_seat, opponents,
    want)``; ``opponents``: bit s set for each seat of another side). ``unseen`` ..
    ``unseen3``: the levels of the unseen cards, ``kernels.unseen_copies``."""
    cover, attack_seat, opponents, want = aims
    if attack_seat >= 0:
        # Lead low in a suit the nil bidder still holds.
        best = ZERO
        best_rank = 99
        for s in range(N_SUITS):
            m = legal & SUIT_MASK[s]
            if m != ZERO and not K.void_in(voids, attack_seat, s) and (unseen & SUIT_MASK[s]) != ZERO:
                b = lowest_bit(m)
                r = rank_of(b) + (4 if s == 3 else 0)
                if r < best_rank:
                    best, best_rank = b, r
        if best != ZERO:
            return best
    if cover or want:
        # Draw trumps with the top spade, then cash sure side-suit winners.
        sp = legal & SPADES
        if sp != ZERO and (unseen & SPADES) != ZERO and is_top(highest_bit(sp), unseen, equal_last):
            return highest_bit(sp)
        trumps_out = (unseen & SPADES) != ZERO
        for s in range(3):
            m = legal & SUIT_MASK[s]
            if m != ZERO:
                top = highest_bit(m)
                ruffed = trumps_out and _void_among(voids, opponents, s)
                if not ruffed and is_top(top, unseen, equal_last) and (unseen & SUIT_MASK[s]) != ZERO:
                    return top
        if cover:
            return highest_by_rank(legal)
        # Lead low from the longest side suit, keeping spades.
        best = ZERO
        best_len = -1
        for s in range(3):
            m = legal & SUIT_MASK[s]
            n = np.int64(popcount(m))
            if n > best_len and m != ZERO:
                best, best_len = lowest_bit(m), n
        return best if best != ZERO else lowest_bit(legal)
    # Ducking: lead the low card with the most unseen cards above it.
    return _low_lead(legal, unseen, unseen2, unseen3, equal_last, 1, 3)


@kernel
def _void_among(voids, seats, suit):
    """Whether one of ``seats`` (bit s for seat s) has shown a void in ``suit``."""
    m = seats
    while m:
        s = lowest_index(U64(m))
        if K.void_in(voids, s, suit):
            return True
        m &= m - 1
    return False


@inline_kernel
def _need_of(pub, a, b, nil_count):
    """Tricks the side of seats ``a`` and ``b`` (-1: a side of one seat) still needs."""
    m = max(b, 0)
    bid_b, won_b = K.bid_of(pub, m), K.tricks_won(pub, m)
    return K.partnership_need(K.bid_of(pub, a), K.tricks_won(pub, a), bid_b if b >= 0 else -1, won_b if b >= 0 else 0, nil_count)


@hot_kernel
def _aims(pub, seat, partner, rules, seats, sides):
    """What the seat plays for: ``(cover, attack_seat, opponents, want)``: whether it covers
    its partner's live nil, the live nil bidder it attacks (-1: none; clockwise, the last one
    met), the opponents (bit s for each seat of another side) and whether it wants tricks (its
    side's contract is not yet safe, or a set of the other side that needs the most is in
    reach)."""
    cover = partner >= 0 and K.bid_of(pub, partner) == 0 and K.tricks_won(pub, partner) == 0
    attack_seat = np.int64(-1)  # not the literal -1: numba would also compile _lead for that type
    opponents = 0
    nil_count = K.nil_tricks_count(rules)
    need = _need_of(pub, seat, partner, nil_count)
    opp_need = -(1 << 20)  # the other side with the most tricks still to make: the one to set
    for k in range(1, seats):  # clockwise: the last live nil bidder met is attacked
        opp = seat + k - (seats if seat + k >= seats else 0)
        if opp != partner:
            opponents |= 1 << opp
            if K.bid_of(pub, opp) == 0 and K.tricks_won(pub, opp) == 0:
                attack_seat = opp
            if k < sides:  # seats seat+1 .. seat+sides-1: one seat of each other side
                mate = -1 if sides == seats else (opp + sides - (seats if opp + sides >= seats else 0))
                opp_need = max(opp_need, _need_of(pub, opp, mate, nil_count))
    side = seat - sides if seat >= sides else seat  # as kernels.side_of, on the constants
    left = K.cards_each(rules) - K.trick_no(pub)
    bags_close = K.bag_count(pub, side) >= K.bag_limit(rules) - 2
    set_chance = opp_need > 0 and left - opp_need < (1 if bags_close else 2)
    return cover, attack_seat, opponents, need > 0 or set_chance


@hot_kernel
def _cover_card(legal, win, led, partner_wins, last, want, equal_last):
    """The card of a seat covering its partner's live nil, ZERO where it plays as usual: win
    above the nil partner (the lowest winner when the partner wins, else high in front of the
    nil), or last to a trick the partner has lost, duck unless it wants tricks."""
    if partner_wins or not last:
        over = winners_over(legal, win, led, equal_last)
        if over != ZERO:
            if partner_wins or (over & led) == ZERO:
                return lowest_bit(over & led) if (over & led) != ZERO else lowest_bit(over)
            return highest_bit(over & led)  # play high in front of the nil
    # Last to a trick the nil partner has lost: it is safe, so play for our own tricks.
    if not partner_wins and last and not want:
        return _play_under(legal, win, led, last, False, equal_last)
    return ZERO


@hot_kernel
def _win_cheaply(legal, win, led, partner_wins, partner_sure, trick_len, last, unseen, equal_last):
    """Follow for tricks: duck under a partner's sure winner, else win as cheaply as possible
    (the lowest sure winner, second hand low, third hand high, the lowest trump that wins; in
    second seat ruff only high cards), else throw a low card."""
    if partner_sure:
        return discard_low(legal) if (legal & led) == ZERO else lowest_bit(legal & led)
    over = winners_over(legal, win, led, equal_last)
    if over == ZERO:
        return discard_low(legal) if (legal & led) == ZERO else lowest_bit(legal & led)
    if last:
        # Cheapest winner: a card of the led suit, else the lowest trump.
        return lowest_bit(over & led) if (over & led) != ZERO else lowest_bit(over)
    if (over & led) != ZERO:
        top = highest_bit(over & led)
        if is_top(top, unseen, equal_last):
            return _lowest_top(over & led, unseen, equal_last)
        if trick_len == 1:
            return lowest_bit(legal & led)  # second hand low
        return top  # third hand high
    # Void in the led suit: trump with the lowest spade that wins.
    if trick_len == 1 and not partner_wins and not is_top(win, unseen, equal_last) and (win & SPADES) == ZERO:
        # Second seat: the partner may still win a low lead; ruff only high cards.
        if rank_of(win) < 9:
            return discard_low(legal & ~SPADES) if (legal & NON_SPADES) != ZERO else lowest_bit(over)
    return lowest_bit(over)


@hot_kernel
def normal_play(pub, seat, hand, rules, legal, seats, sides):
    """Normal's card (a one-bit mask) among the ``legal`` cards, at a table of ``seats`` seats
    and ``sides`` sides (``kernels.n_seats``, ``n_sides``; the caller at the usual table gives
    them as constants, and LLVM folds the table away: ``normal_agent_play``).

    The public array is read once into scalars and the helpers take scalars: a numba call
    that passes an array costs reference counting that dominated this function's time (the
    helpers that read it, ``_aims``, are hot kernels, which count no references).
    """
    if popcount(legal) == 1:
        return legal
    unseen, unseen2, unseen3 = K.unseen_copies(pub, hand)
    equal_last = K.equal_cards_last(rules)
    partner = -1 if sides == seats else (seat + sides - (seats if seat + sides >= seats else 0))  # as kernels.partner
    trick_len = K.trick_len(pub)
    voids = K.voids_shown(pub)
    if K.bid_of(pub, seat) == 0 and K.tricks_won(pub, seat) == 0:
        if trick_len == 0:
            return _low_lead(legal, unseen, unseen2, unseen3, equal_last, 2, 1)
        return _play_under(legal, K.card_bit(K.winning_card(pub)), SUIT_MASK[K.led_suit(pub)], trick_len == seats - 1, True, equal_last)
    aims = _aims(pub, seat, partner, rules, seats, sides)
    if trick_len == 0:
        return _lead(legal, unseen, unseen2, unseen3, equal_last, aims, voids)
    cover, attack_seat, _, want = aims
    win = K.card_bit(K.winning_card(pub))
    win_seat = K.winning_seat(pub)
    led_suit = K.led_suit(pub)
    led = SUIT_MASK[led_suit]
    last = trick_len == seats - 1
    if cover:
        card = _cover_card(legal, win, led, win_seat == partner, last, want, equal_last)
        if card != ZERO:
            return card
    if attack_seat >= 0 and win_seat == attack_seat:
        under = losers_under(legal, win, led, equal_last)
        if under != ZERO:
            if (under & led) != ZERO:
                return highest_bit(under & led)
            return discard_high(under)
    if not want:
        return _play_under(legal, win, led, last, False, equal_last)
    partner_sure = win_seat == partner and _sure_partner_win(win, led_suit, unseen, seat, trick_len, voids, seats, equal_last)
    return _win_cheaply(legal, win, led, win_seat == partner, partner_sure, trick_len, last, unseen, equal_last)


# -- the kernel agent (spades_ai.kernels) ------------------------------------------------------
@inline_kernel
def normal_agent_bid(pub, seat, hand, legal, rules):
    if hand == ZERO:  # asked about a blind nil, before looking
        return K.BLIND_NIL if normal_blind_nil(pub, seat, rules) else 0
    return normal_bid(pub, seat, hand, rules, legal)


@inline_kernel
def normal_agent_bid_sighted(pub, seat, hand, legal, rules):
    """Normal's bid that never bids blind nil (``make_agent("normal", blind_nil=False)``)."""
    if hand == ZERO:
        return 0
    return normal_bid(pub, seat, hand, rules, legal)


@inline_kernel
def normal_agent_pass(pub, seat, hand, n, rules):
    return normal_pass(pub, seat, hand, rules, n)


@hot_kernel  # so the loop's seat dispatch counts no references (``selfplay.codegen._counts_no_references``)
def normal_agent_play(pub, seat, hand, legal, rules):
    seats, sides = K.n_seats(rules), K.n_sides(rules)
    if seats == 4 and sides == 2:  # the usual table, folded into the code (``normal_play``)
        return lowest_index(normal_play(pub, seat, hand, rules, legal, 4, 2))
    return lowest_index(normal_play(pub, seat, hand, rules, legal, seats, sides))
