"""Counter-based random numbers: the same key gives the same stream in any order or process.

A stream is keyed by ``(seed, index, stream)``. The keys in use (``ARCHITECTURE.md`` lists them
too)::

    deal i of a seed (play_hands, random_playouts)   (seed, i, DEAL_STREAM = 0); random
                                                     playouts go on drawing from that stream
    hand k of match m (play_matches)                 (seed, m, 1 + k)
    the first dealer of match m                      (seed, m, MATCH_DEALER_STREAM = 2**40)
    a built-in agent's decision                      (agent seed, own cards ^ mix64(cards
                                                     played), seat + 4 * bids made)

``stream_state`` hashes the key with the splitmix64 finaliser, a bijection on 64-bit words,
applied once per key part. Draws then
follow splitmix64 (add the golden gamma, finalise), and ``below(state, n)`` turns a draw into an
exactly uniform integer in ``[0, n)`` with Lemire's multiply-shift and its rare rejection step.

There is no global state: every kernel takes the state and returns the advanced one.
"""

import numpy as np

from spades_ai.engine.jit import inline_kernel, kernel, wrapping

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)
_32 = np.uint64(32)
_TWO_GAMMA = np.uint64((2 * 0x9E3779B97F4A7C15) % (1 << 64))
_THREE_GAMMA = np.uint64((3 * 0x9E3779B97F4A7C15) % (1 << 64))


@kernel
@wrapping
def mix64(z):
    """The splitmix64 finaliser: a bijective, well-mixed hash of a 64-bit word."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@kernel
@wrapping
def stream_state(seed, index, stream):
    """The starting state of the stream keyed by ``(seed, index, stream)``."""
    z = mix64(np.uint64(seed) + _GAMMA)
    z = mix64(z + np.uint64(index))
    return mix64(z + np.uint64(stream))


@kernel
@wrapping
def next_u64(state):
    """Advance the state; return ``(state, 64 random bits)``."""
    # A Python int state arrives typed int64, and int64 + uint64 is float64 in numba: coerce.
    state = np.uint64(state) + _GAMMA
    return state, mix64(state)


@kernel
def below(state, n):
    """Advance the state; return ``(state, r)`` with r uniform in ``[0, n)``, 1 <= n < 2**32."""
    n = np.uint64(n)
    state, x = next_u64(state)
    m = (x >> np.uint64(32)) * n
    low = m & _LOW32
    if low < n:
        threshold = (_TWO32 - n) % n
        while low < threshold:
            state, x = next_u64(state)
            m = (x >> np.uint64(32)) * n
            low = m & _LOW32
    return state, np.int64(m >> np.uint64(32))


@inline_kernel
@wrapping
def peek(state):
    """The stream's next two outputs after ``state``, ``(a, b)``, without advancing it: the
    window ``below_skip`` draws from."""
    state = np.uint64(state)
    return mix64(state + _GAMMA), mix64(state + _TWO_GAMMA)


@inline_kernel
@wrapping
def below_skip(state, a, b, n):
    """``below(state, n)`` for ``n > 1`` and no draw at all for ``n == 1`` (r = 0), without a
    branch on which: returns ``(state, a, b, r)``, ``(a, b)`` the window (``peek``) after the
    returned state.

    The stream's outputs do not depend on which draws are skipped, so the output after the
    next one is computed before it is known whether this draw takes one; the window then moves
    by a select. A branch on ``n == 1`` (a card with a single legal choice) is mispredicted
    often enough to cost a random playout a sixth of its time. Lemire's rejection step, rare,
    goes to ``_below_rejecting``."""
    state, a, b, n = np.uint64(state), np.uint64(a), np.uint64(b), np.uint64(n)  # as in next_u64
    m = (a >> _32) * n
    c = mix64(state + _THREE_GAMMA)
    if (m & _LOW32) < n:
        return _below_rejecting(state, n)
    take = np.uint64(0) - np.uint64(n > np.uint64(1))
    return state + (_GAMMA & take), (b & take) | (a & ~take), (c & take) | (b & ~take), np.int64(m >> _32)


@kernel
@wrapping
def _below_rejecting(state, n):
    """``below_skip`` where the first draw's low word is below ``n``: ``below`` itself."""
    if n > np.uint64(1):
        state, r = below(state, n)
    else:
        r = 0
    a, b = peek(state)
    return state, a, b, np.int64(r)


@kernel
def below64(state, n):
    """Advance the state; return ``(state, r)`` with r uniform in ``[0, n)`` for any n >= 1.

    Draws the bit length of ``n - 1`` and rejects values >= n (fewer than two draws on average).
    """
    state = np.uint64(state)  # as in next_u64: an int64 state would make the result float64
    n = np.uint64(n)
    if n <= np.uint64(1):
        return state, np.int64(0)
    bits = np.uint64(64) - np.uint64(_bit_length(n - np.uint64(1)))
    while True:
        state, x = next_u64(state)
        x >>= bits
        if x < n:
            return state, np.int64(x)


@kernel
def _bit_length(x):
    n = 0
    while x != np.uint64(0):
        x >>= np.uint64(1)
        n += 1
    return n
