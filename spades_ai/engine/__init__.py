"""The numba engine: bitboards, dealing, legal moves, tricks and scoring. Kernels only.

Rules variant: 3 to 12 players (``Rules.players``), seats 0..N-1 clockwise, solo or in pairs
(partners seat s and s + N/2; a seat's side is ``seat % n_sides``: ``seats``), one deck up to 5
players and two or three from 6 (the cards removed and the cards each of ``Rules.TABLES``: 13 at
4 players, 17 at 3), aces high, spades always trump, one bid each from the dealer's left, a
trick for each card a seat holds. The table and the house rules arrive as ``Rules.as_array()``
(see ``spades_ai.rules``), which every kernel reads.

Encoding: card id = ``suit * 13 + rank``, suits C D H S (0..3), ranks 2..A (0..12); a hand is
one ``uint64`` with bit ``id`` set for each card held, so the spades are bits 39..51 (layout
drawn in ``bits``), and with several decks one ``uint64`` for each copy count (``copies``). A bid
is 0 (nil) or 1..cards_each. Random numbers come from counter-based streams keyed by
``(seed, index, stream)`` (``rng``), so results never depend on call order.

Modules: ``jit`` (the one decorator policy and the kernel cache), ``bits`` (masks, popcount,
select), ``seats`` (seats and sides from the rules array), ``copies`` (cards that repeat),
``rng``, ``deal``, ``play`` (legal cards, trick winner, random playouts), ``bids`` (legal bids),
``state`` (the public array and its transitions), ``score`` (hand scoring, match end),
``solver`` (the exact search of four in pairs) and ``table_solver`` (that of every other table).
There is no global state: kernels read their arguments and return results, except the
few whose docstrings say they fill or update an array they are given (dealing into ``hands``,
``reset_public`` / ``apply_bid`` / ``apply_card`` on the public array, scoring into ``out``).
The validated Python face is ``spades_ai.game`` and friends.
"""
