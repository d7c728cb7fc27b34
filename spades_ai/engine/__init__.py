"""The numba engine: bitboards, dealing, legal moves, tricks and scoring. Kernels only.

Rules variant: four players, seats 0..3 clockwise, partners opposite (team 0 = seats 0 and 2),
52 cards, aces high, spades always trump, one bid each from the dealer's left, 13 tricks; the
house rules arrive as ``Rules.as_array()`` (see ``spades_ai.rules``).

Encoding: card id = ``suit * 13 + rank``, suits C D H S (0..3), ranks 2..A (0..12); a hand is
one ``uint64`` with bit ``id`` set for each card held, so the spades are bits 39..51 (layout
drawn in ``bits``). A bid is 0 (nil) or 1..13. Random numbers come from counter-based streams
keyed by ``(seed, index, stream)`` (``rng``), so results never depend on call order.

Modules: ``jit`` (the one decorator policy and the kernel cache), ``bits`` (masks, popcount,
select), ``rng``, ``deal``, ``play`` (legal cards, trick winner, random playouts), ``bids``
(legal bids), ``state`` (the public array and its transitions), ``score`` (hand scoring, match
end). There is no global state: kernels read their arguments and return results, except the
few whose docstrings say they fill or update an array they are given (dealing into ``hands``,
``reset_public`` / ``apply_bid`` / ``apply_card`` on the public array, scoring into ``out``).
The validated Python face is ``spades_ai.game`` and friends.
"""
