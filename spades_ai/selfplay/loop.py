"""The self-play loop, as a template (``spades_ai.templates``): ``selfplay.codegen.bind`` makes
one copy per set of kernel agents, whose binding module defines ``seat_bid``, ``seat_play`` and
``seat_pass`` calling those agents' kernels directly by slot (so numba inlines them, and the
copy is cached on disk like any other module); ``_binding.py`` beside this file seats Normal.

The loop plays many *tables* at once, each a hand in progress (``pubs[t]``, ``hands[t]``,
``seqs[t]`` and the bookkeeping row ``tables[t]``). Kernel agents decide inside it. When a
Python agent is to act, its table stops and a *question* is written out (one row of ``asked``
per waiting table, with a copy of the public array and the cards played so far, which the
agent's ``Observation`` reads); once every table is waiting or done, the kernel returns, Python
answers every question (``python_seats.answer``) and calls the kernel again with the answers,
which it checks and applies before playing on. So there is one loop for every kind of agent,
no callback from numba into Python, and one kernel call for a few hundred Python decisions.
A lineup of kernel agents only never stops: one table plays every deal in a single call.

A lineup gives each seat a row of ``slots``: its bid slot and play slot (an agent may bid like
one agent and play like another, ``Mixed``), whether each of them is a Python agent, and
whether the bidder is asked about a blind nil. Slot ``k`` of a kernel agent calls kernel agent
``k``; a Python slot is answered by the Python agent registered under that number.
A seat passes cards with its bid slot (a Python bidder is asked its pass as a question too).
An illegal action stops the loop and is reported in ``err``: (1 bid / 2 card / 3 pass, seat,
action, slot), then the public array, the hands and the cards played in order (``report``), from
which the caller rebuilds the hand and raises the engine's own error, naming the agent.

Deal ``i`` of ``play_hands`` comes from ``(seed, i)``; hand ``k`` of match ``m`` of
``play_matches`` from ``(seed, m, stream 1 + k)``, and match ``m``'s first dealer from its own
stream (``engine.deal``), so the same seed gives the same cards whoever sits down, and a
hand's record does not depend on which table played it or on how many tables there were.

Rules that hide something from a seat or pass cards (closed bidding, ``pass_cards``,
``blind_pass``) take ``play_on_house``, where every decision is made on the seat's view (the
questions to Python agents carry that view too) and passing rounds are played; the default
rules keep ``play_on``, the tight loop, which pays nothing for them.

What a call compiles follows from its argument *types*, so that a run compiles only what it
needs (a cold first run spends most of its time compiling): ``views`` is None under rules that
hide nothing, and then ``play_on_house`` is not compiled at all (numba prunes a branch on an
argument that is None); ``answers`` is None for a lineup of kernel agents only, which never
waits, and then neither is the code that applies answers and puts questions. Each combination
is a separate compiled (and cached) version of the kernel.
"""

import numpy as np

from spades_ai.engine.bids import BID_BITS, BLIND_NIL_BIT, legal_bids
from spades_ai.engine.deal import DEAL_STREAM, deal_for, deal_match_hand, match_first_dealer, public_id
from spades_ai.engine.jit import inline_kernel, kernel
from spades_ai.engine.rng import stream_state
from spades_ai.engine.seats import cards_each, n_seats, n_sides
from spades_ai.engine.state import (
    MAX_HAND_SLOTS,
    MAX_SEATS,
    MAX_SIDES,
    N_PUBLIC,
    P_PHASE,
    P_TO_ACT,
    PHASE_BIDDING,
    PHASE_PASSING,
    PHASE_PLAYING,
    apply_bid,
    apply_card,
    choose_pass,
    hides_anything,
    legal_now,
    hide_own,
    observe,
    pass_count,
    pass_ok,
    reset_public,
)
from spades_ai.engine.score import F_BAGS, F_SCORE
from spades_ai.selfplay.loop_kernels import MAX_MATCH_HANDS, after_hand, grow, record_hand

from ._binding import seat_bid, seat_pass, seat_play


# a seat's row of ``slots``
S_BID, S_PLAY, S_PY_BID, S_PY_PLAY, S_ASK_BLIND = 0, 1, 2, 3, 4
SLOTS_WIDTH = 5

# a table's bookkeeping row: the job it plays (a deal or match index; -1 when free), the cards
# played in ``seqs[t]``, the question it waits on (and for which slot, with which legal mask),
# whether the seat to bid declined a blind nil, in matches the hand number, dealer, scores
# and bags carried into the next hand, and the passes chosen in the current passing round
# (``T_PENDING + seat``: masks kept out of the public array, hidden from every view until the
# exchange; ``engine.state.choose_pass``); scores and bags have a slot per side, passes per seat
T_JOB, T_N, T_ASKED, T_SLOT, T_LEGAL, T_NO_BLIND, T_HAND_NO, T_DEALER = 0, 1, 2, 3, 4, 5, 6, 7
T_SCORE = 8
T_BAGS = T_SCORE + MAX_SIDES
T_PENDING = T_BAGS + MAX_SIDES
TABLE_WIDTH = T_PENDING + MAX_SEATS
#: cards of a hand that ``seqs`` and the questions hold: the most a table deals (12 x 13)
MAX_PLAYS = MAX_SEATS * 13

# the questions put to a Python agent
Q_NONE, Q_BLIND, Q_BID, Q_CARD, Q_PASS = 0, 1, 2, 3, 4
BLIND_QUESTION = (1 << BLIND_NIL_BIT) | 1  # before looking: only the blind nil and the nil to choose from

# a row of ``asked``: the table, the slot and seat asked, the question, the seat's cards, the
# legal bids (a mask of ``engine.bids``) or cards (for a pass: how many cards), and how many cards of ``seqs`` were played
A_TABLE, A_SLOT, A_SEAT, A_WHAT, A_HAND, A_LEGAL, A_N = 0, 1, 2, 3, 4, 5, 6
ASKED_WIDTH = 7

# what ``play_on`` stopped on
DONE, WAITING, ILLEGAL = 0, 1, 2

ERR_SIZE = 4 + N_PUBLIC + MAX_HAND_SLOTS + MAX_PLAYS
#: ``err[0]``: typed int64, not as the literals 1, 2 and 3, so that ``report`` compiles once
BAD_BID, BAD_CARD, BAD_PASS = np.int64(1), np.int64(2), np.int64(3)


@kernel
def report(err, what, seat, action, slot, pub, hands, seq):
    """Fill ``err`` (``ERR_SIZE``) with the illegal action and the state it was taken in.

    Element by element: a slice assignment compiles numba's shape-mismatch error message (string
    formatting), which took a tenth of a cold first run's compile time."""
    err[0], err[1], err[2], err[3] = what, seat, action, slot
    for k in range(N_PUBLIC):
        err[4 + k] = pub[k]
    for s in range(hands.shape[0]):
        err[4 + N_PUBLIC + s] = np.int64(hands[s])
    for j in range(MAX_PLAYS):
        err[4 + N_PUBLIC + MAX_HAND_SLOTS + j] = seq[j]


@inline_kernel
def wait_for(row, what, slot, legal):
    """Mark the table as waiting for the Python agent in ``slot``."""
    row[T_ASKED], row[T_SLOT], row[T_LEGAL] = what, slot, legal
    return WAITING


@inline_kernel
def play_on(pub, hands, slots, params, rules, seq, row, err):
    """Play the hand in ``pub`` / ``hands`` on from wherever it stands, noting the cards in play
    order in ``seq`` (``64 * seat + card``; ``row[T_N]`` are there already). Returns DONE at
    the end of the hand, WAITING when a Python agent is to decide (the question in ``row``),
    ILLEGAL (with ``err`` filled) on an illegal action.

    Inlined into the one kernel a run calls (``play_hands_kernel``, ``play_matches_kernel`` or
    ``play_on_kernel``): compiled apart, it held the lineup's kernels, which numba links into
    every compiled function above them and optimises again there, so a cold first Hard run
    optimised Hard's whole search once more for it (5 of its 70 s of compile)."""
    while pub[P_PHASE] == PHASE_BIDDING:
        seat = pub[P_TO_ACT]
        slot = slots[seat, S_BID]
        full = legal_bids(seat, hands[seat], pub, rules)
        blind = False
        if (full >> BLIND_NIL_BIT) & 1 and slots[seat, S_ASK_BLIND] and not row[T_NO_BLIND]:
            if slots[seat, S_PY_BID]:
                return wait_for(row, Q_BLIND, slot, BLIND_QUESTION)
            ask = np.int64(BLIND_QUESTION)
            blind = seat_bid(slot, pub, seat, np.uint64(0), ask, rules, params) == BLIND_NIL_BIT
        row[T_NO_BLIND] = 0
        legal = full & BID_BITS
        if blind:
            b = 0
        else:
            if slots[seat, S_PY_BID]:
                return wait_for(row, Q_BID, slot, legal)
            b = seat_bid(slot, pub, seat, hands[seat], legal, rules, params)
            if b < 0 or b > cards_each(rules) or not (legal >> b) & 1:
                report(err, BAD_BID, seat, b, slot, pub, hands, seq)
                return ILLEGAL
        apply_bid(pub, hands, b, blind, rules)
    i = row[T_N]
    while pub[P_PHASE] == PHASE_PLAYING:
        seat = pub[P_TO_ACT]
        hand = hands[seat]
        legal = legal_now(pub, hand, rules)
        slot = slots[seat, S_PLAY]
        if slots[seat, S_PY_PLAY]:
            row[T_N] = i
            return wait_for(row, Q_CARD, slot, np.int64(legal))
        card = seat_play(slot, pub, seat, hand, legal, rules, params)
        if card < 0 or card > 55 or not (legal >> np.uint64(card)) & np.uint64(1):
            report(err, BAD_CARD, seat, card, slot, pub, hands, seq)
            return ILLEGAL
        seq[i] = 64 * seat + card
        i += 1
        apply_card(pub, hands, card, rules)
    row[T_N] = i
    return DONE


@kernel
def note_pass(pub, hands, row, seat, cards, rules):
    """``engine.state.choose_pass`` with the round's pending passes kept in ``row[T_PENDING:]``
    (so a table may wait for a Python passer between two passes of a round)."""
    pending = np.empty(n_seats(rules), dtype=np.uint64)
    for s in range(n_seats(rules)):
        pending[s] = np.uint64(row[T_PENDING + s])
    choose_pass(pub, hands, pending, seat, cards, rules)
    for s in range(n_seats(rules)):
        row[T_PENDING + s] = np.int64(pending[s])


@kernel
def house_pass(pub, hands, slots, params, rules, seq, row, err, view):
    """The choice of the passer to act in ``play_on_house``, on its own view and with its bid
    slot: DONE once noted (``note_pass``), else WAITING or ILLEGAL as ``play_on``."""
    seat = pub[P_TO_ACT]
    slot = slots[seat, S_BID]
    n = pass_count(pub, rules)
    if slots[seat, S_PY_BID]:
        return wait_for(row, Q_PASS, slot, n)
    observe(pub, hands, seat, rules, view)
    cards = seat_pass(slot, view, seat, hands[seat], n, rules, params)
    if not pass_ok(hands[seat], cards, n):
        report(err, BAD_PASS, seat, np.int64(cards), slot, pub, hands, seq)
        return ILLEGAL
    note_pass(pub, hands, row, seat, cards, rules)
    return DONE


@kernel
def play_on_house(pub, hands, slots, params, rules, seq, row, err, view):
    """``play_on`` under rules that hide something or pass cards: every decision is taken on
    the seat's view (``engine.state.observe``, written into ``view``), and the passing rounds
    are played (each passer chooses on its own view, with its bid slot; the choices wait in
    ``row[T_PENDING:]`` until the exchange). Returns as ``play_on``; a Python passer is asked
    ``Q_PASS`` (``T_LEGAL``: how many cards)."""
    i = row[T_N]
    while pub[P_PHASE] == PHASE_PASSING or pub[P_PHASE] == PHASE_BIDDING or pub[P_PHASE] == PHASE_PLAYING:
        seat = pub[P_TO_ACT]
        hand = hands[seat]
        if pub[P_PHASE] == PHASE_PASSING:
            status = house_pass(pub, hands, slots, params, rules, seq, row, err, view)
            if status != DONE:
                return status
        elif pub[P_PHASE] == PHASE_BIDDING:
            slot = slots[seat, S_BID]
            full = legal_bids(seat, hand, pub, rules)
            blind = False
            if (full >> BLIND_NIL_BIT) & 1 and slots[seat, S_ASK_BLIND] and not row[T_NO_BLIND]:
                if slots[seat, S_PY_BID]:
                    return wait_for(row, Q_BLIND, slot, BLIND_QUESTION)
                observe(pub, hands, seat, rules, view)
                hide_own(view)
                ask = np.int64(BLIND_QUESTION)
                blind = seat_bid(slot, view, seat, np.uint64(0), ask, rules, params) == BLIND_NIL_BIT
            row[T_NO_BLIND] = 0
            legal = full & BID_BITS
            if blind:
                b = 0
            else:
                if slots[seat, S_PY_BID]:
                    return wait_for(row, Q_BID, slot, legal)
                observe(pub, hands, seat, rules, view)
                b = seat_bid(slot, view, seat, hand, legal, rules, params)
                if b < 0 or b > cards_each(rules) or not (legal >> b) & 1:
                    report(err, BAD_BID, seat, b, slot, pub, hands, seq)
                    return ILLEGAL
            apply_bid(pub, hands, b, blind, rules)
        else:
            legal = legal_now(pub, hand, rules)
            slot = slots[seat, S_PLAY]
            if slots[seat, S_PY_PLAY]:
                row[T_N] = i
                return wait_for(row, Q_CARD, slot, np.int64(legal))
            observe(pub, hands, seat, rules, view)
            card = seat_play(slot, view, seat, hand, legal, rules, params)
            if card < 0 or card > 55 or not (legal >> np.uint64(card)) & np.uint64(1):
                report(err, BAD_CARD, seat, card, slot, pub, hands, seq)
                return ILLEGAL
            seq[i] = 64 * seat + card
            i += 1
            apply_card(pub, hands, card, rules)
    row[T_N] = i
    return DONE


@inline_kernel
def play_rest(pub, hands, slots, params, rules, seq, row, err, views, t):
    """Play table ``t``'s hand on from wherever it stands: ``play_on`` if ``views`` is None,
    else (rules that hide something or pass cards) ``play_on_house``, the seat's view written
    into ``views[t]``."""
    if views is None:
        return play_on(pub, hands, slots, params, rules, seq, row, err)
    return play_on_house(pub, hands, slots, params, rules, seq, row, err, views[t])


@kernel
def take_answer(pub, hands, seq, row, action, rules, err):
    """Apply a Python agent's answer to the question its table waits on; False (with ``err``
    filled) if the answer is illegal."""
    what, slot, legal = row[T_ASKED], row[T_SLOT], row[T_LEGAL]
    row[T_ASKED] = Q_NONE
    seat = pub[P_TO_ACT]
    if what == Q_PASS:  # ``legal``: how many cards
        if action < 0 or not pass_ok(hands[seat], np.uint64(action), legal):
            report(err, BAD_PASS, seat, action, slot, pub, hands, seq)
            return False
        note_pass(pub, hands, row, seat, np.uint64(action), rules)
        return True
    if what == Q_BLIND:
        if action == BLIND_NIL_BIT:
            apply_bid(pub, hands, np.int64(0), np.bool_(True), rules)  # typed as play_on's call: one compile
        else:
            row[T_NO_BLIND] = 1  # asked again for an ordinary bid
        return True
    if what == Q_BID:
        if action < 0 or action > cards_each(rules) or not (legal >> action) & 1:
            report(err, BAD_BID, seat, action, slot, pub, hands, seq)
            return False
        apply_bid(pub, hands, action, np.bool_(False), rules)
        return True
    if action < 0 or action > 55 or not (legal >> action) & 1:
        report(err, BAD_CARD, seat, action, slot, pub, hands, seq)
        return False
    seq[row[T_N]] = 64 * seat + action
    row[T_N] += 1
    apply_card(pub, hands, action, rules)
    return True


@kernel
def take_answers(pubs, hands, seqs, tables, asked, answers, rules, err):
    """Apply each answer to its table (``asked[q, A_TABLE]``); False on the first illegal one."""
    for q in range(answers.shape[0]):
        t = asked[q, A_TABLE]
        if not take_answer(pubs[t], hands[t], seqs[t], tables[t], answers[q], rules, err):
            return False
    return True


@kernel
def questions(n):
    """Empty arrays for up to ``n`` questions: ``asked`` and the copies of the public arrays and
    the cards played that the Python agents' observations read."""
    return (
        np.empty((n, ASKED_WIDTH), dtype=np.int64),
        np.empty((n, N_PUBLIC), dtype=np.int64),
        np.empty((n, MAX_PLAYS), dtype=np.int64),
    )


@kernel
def put_question(q, t, pub, hands, seq, row, asked, seen_pub, seen_seq, rules):
    """Question ``q`` out of waiting table ``t``; ``seen_pub[q]`` is the seat's view of the
    public array (``engine.state.observe``) under rules that hide anything."""
    seat = pub[P_TO_ACT]
    asked[q, A_TABLE], asked[q, A_SLOT], asked[q, A_SEAT], asked[q, A_WHAT] = t, row[T_SLOT], seat, row[T_ASKED]
    asked[q, A_HAND] = 0 if row[T_ASKED] == Q_BLIND else np.int64(hands[seat])
    asked[q, A_LEGAL], asked[q, A_N] = row[T_LEGAL], row[T_N]
    if hides_anything(rules):
        observe(pub, hands, seat, rules, seen_pub[q])
        if row[T_ASKED] == Q_BLIND:
            hide_own(seen_pub[q])
    else:
        for k in range(N_PUBLIC):  # element by element, as in ``report``
            seen_pub[q, k] = pub[k]
    for j in range(MAX_PLAYS):
        seen_seq[q, j] = seq[j]


@kernel
def play_hands_kernel(job, slots, params, rules, table_arrays, records, asked, answers, err, views):
    """Deals ``start .. start+n-1`` of ``job`` = ``(seed, start, n, dealer, keep)`` into rows
    ``0 .. n-1`` of ``records`` = ``(bids, blind, tricks_won, sheet, nil, plays)`` (with
    ``keep``, their cards in play order into ``plays``), on as many tables as ``table_arrays`` =
    ``(pubs, hands, seqs, tables, next_job)`` has rows. Applies ``answers`` to the questions
    ``asked`` by the previous call, then plays until every table waits for a Python agent or no
    deal is left (``next_job[0]``: the next deal to start). Returns the new questions (none when
    every deal is done, or on an illegal action, with ``err`` filled) and the records."""
    seed, start, n, dealer, keep = job
    pubs, hands, seqs, tables, next_job = table_arrays
    bids, blind, tricks_won, sheet, nil, plays = records
    new, seen_pub, seen_seq = questions(pubs.shape[0])
    if answers is not None and not take_answers(pubs, hands, seqs, tables, asked, answers, rules, err):
        return new[:0], seen_pub[:0], seen_seq[:0], records
    zeros = np.zeros(MAX_SIDES, dtype=np.int64)  # every deal starts a match: scores and bags 0
    q = np.int64(0)  # not the literal 0: numba would also compile put_question for it
    for t in range(pubs.shape[0]):
        pub, hidden, seq, row = pubs[t], hands[t], seqs[t], tables[t]
        while True:
            if row[T_JOB] < 0:
                if next_job[0] >= n:
                    break
                row[T_JOB], row[T_N] = next_job[0], 0
                next_job[0] += 1
                deal_for(stream_state(seed, start + row[T_JOB], DEAL_STREAM), hidden, rules)
                reset_public(pub, hidden, dealer, zeros, zeros, 0, rules)
            status = play_rest(pub, hidden, slots, params, rules, seq, row, err, views, t)
            if status == ILLEGAL:
                return new[:0], seen_pub[:0], seen_seq[:0], records
            if status == WAITING:
                if answers is not None:  # (None: kernel agents only, which never wait)
                    put_question(q, t, pub, hidden, seq, row, new, seen_pub, seen_seq, rules)
                    q += 1
                break
            i = row[T_JOB]
            record_hand(pub, rules, i, bids, blind, tricks_won, sheet, nil)
            if keep:
                for j in range(plays.shape[1]):
                    plays[i, j] = public_id(seq[j] & 63, rules)
            row[T_JOB] = -1
    return new[:q], seen_pub[:q], seen_seq[:q], records


@kernel
def start_match_hand(seed, m, pub, hidden, row, rules):
    """Deal hand ``row[T_HAND_NO]`` of match ``m`` with the dealer, scores and bags in ``row``."""
    k = row[T_HAND_NO]
    deal_match_hand(seed, m, k, hidden, rules)
    reset_public(pub, hidden, row[T_DEALER], row[T_SCORE : T_SCORE + MAX_SIDES], row[T_BAGS : T_BAGS + MAX_SIDES], k, rules)
    row[T_N] = 0


@kernel
def play_matches_kernel(job, slots, params, rules, table_arrays, records, asked, answers, err, views):
    """Matches ``start .. start+n-1`` of ``job`` = ``(seed, start, n, keep)``, one at a time on
    each table, as ``play_hands_kernel``: one row per hand of ``records`` = ``(bids, blind,
    tricks_won, sheet, nil, meta, plays)`` (``next_job[1]`` rows used; the arrays grow and are
    returned), with the row's match, hand, dealer and winner (-1 until a match's last hand) in
    ``meta`` and the cards in play order in ``plays`` (``keep``). Rows are in the order hands
    end; with one table, match by match."""
    seed, start, n, keep = job
    pubs, hands, seqs, tables, next_job = table_arrays
    bids, blind, tricks_won, sheet, nil, meta, plays = records
    new, seen_pub, seen_seq = questions(pubs.shape[0])
    if answers is not None and not take_answers(pubs, hands, seqs, tables, asked, answers, rules, err):
        return new[:0], seen_pub[:0], seen_seq[:0], records
    q = np.int64(0)  # not the literal 0: numba would also compile put_question for it
    for t in range(pubs.shape[0]):
        pub, hidden, seq, row = pubs[t], hands[t], seqs[t], tables[t]
        while True:
            if row[T_JOB] < 0:
                if next_job[0] >= n:
                    break
                m = start + next_job[0]
                next_job[0] += 1
                row[T_JOB], row[T_HAND_NO], row[T_DEALER] = m, 0, match_first_dealer(seed, m, rules)
                row[T_SCORE : T_SCORE + MAX_SIDES] = 0
                row[T_BAGS : T_BAGS + MAX_SIDES] = 0
                start_match_hand(seed, m, pub, hidden, row, rules)
            status = play_rest(pub, hidden, slots, params, rules, seq, row, err, views, t)
            if status == ILLEGAL:
                return new[:0], seen_pub[:0], seen_seq[:0], (bids, blind, tricks_won, sheet, nil, meta, plays)
            if status == WAITING:
                if answers is not None:  # (None: kernel agents only, which never wait)
                    put_question(q, t, pub, hidden, seq, row, new, seen_pub, seen_seq, rules)
                    q += 1
                break
            r = next_job[1]
            if r == bids.shape[0]:
                cap = 2 * r
                bids, blind, tricks_won = grow(bids, cap), grow(blind, cap), grow(tricks_won, cap)
                sheet, nil, meta = grow(sheet, cap), grow(nil, cap), grow(meta, cap)
                if keep:
                    plays = grow(plays, cap)
            next_job[1] += 1
            record_hand(pub, rules, r, bids, blind, tricks_won, sheet, nil)
            if keep:
                for j in range(plays.shape[1]):
                    plays[r, j] = public_id(seq[j] & 63, rules)
            m, k = row[T_JOB], row[T_HAND_NO]
            meta[r, 0], meta[r, 1], meta[r, 2] = m, k, row[T_DEALER]
            winner, dealer = after_hand(sheet[r], k, row[T_DEALER], rules)
            meta[r, 3] = winner
            if winner >= 0 or k + 1 == MAX_MATCH_HANDS:
                row[T_JOB] = -1
                continue
            row[T_HAND_NO], row[T_DEALER] = k + 1, dealer
            for side in range(n_sides(rules)):
                row[T_SCORE + side], row[T_BAGS + side] = sheet[r, side, F_SCORE], sheet[r, side, F_BAGS]
            start_match_hand(seed, m, pub, hidden, row, rules)
    return new[:q], seen_pub[:q], seen_seq[:q], (bids, blind, tricks_won, sheet, nil, meta, plays)


@kernel
def play_on_kernel(slots, params, rules, table_arrays, asked, answers, err, views):
    """Play each table whose ``tables[t, T_JOB]`` is set from where it stands to the end of its
    hand, as ``play_hands_kernel`` (``table_arrays`` = ``(pubs, hands, seqs, tables)``;
    ``sa.play_out``: a hand finished in a sampled world)."""
    pubs, hands, seqs, tables = table_arrays
    new, seen_pub, seen_seq = questions(pubs.shape[0])
    if answers is not None and not take_answers(pubs, hands, seqs, tables, asked, answers, rules, err):
        return new[:0], seen_pub[:0], seen_seq[:0]
    q = np.int64(0)  # not the literal 0: numba would also compile put_question for it
    for t in range(pubs.shape[0]):
        pub, hidden, seq, row = pubs[t], hands[t], seqs[t], tables[t]
        if row[T_JOB] < 0:
            continue
        status = play_rest(pub, hidden, slots, params, rules, seq, row, err, views, t)
        if status == ILLEGAL:
            return new[:0], seen_pub[:0], seen_seq[:0]
        if status == WAITING:
            if answers is not None:  # (None: kernel agents only, which never wait)
                put_question(q, t, pub, hidden, seq, row, new, seen_pub, seen_seq, rules)
                q += 1
        else:
            row[T_JOB] = -1
    return new[:q], seen_pub[:q], seen_seq[:q]
