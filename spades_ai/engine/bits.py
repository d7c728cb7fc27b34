"""Bit tricks on one-``uint64``-per-hand bitboards.

Card ``c`` (``suit * 13 + rank``) is bit ``c``::

    bit  55 .. 52 51 ............ 39 38 ............ 26 25 ............ 13 12 ............. 0
         extra     A K Q J T 9 8 ... 2 A K ....... 3 2  A K ....... 3 2   A K ........ 3 2
         ------------ trumps --------  ---- hearts ----  --- diamonds ----  ----- clubs ----

Because the ranks rise with the bit index inside a suit, the highest card of a suit is its
highest set bit, and because spades sit above every other suit, the highest spade of a trick
is also the highest set bit of the trick.

The trump lane (``SPADES``, ``SUIT_MASK[3]``) is bits 39..55. Bits 52..55 are empty under the
default rules; with jokers or high deuces (``Rules.jokers``, ``deuces_high``) those cards move
there, lowest trump first (``rules.R_EXTRA``), and their own bits stay empty. So every joker and
high deuce is a spade for following, leading, breaking, voids and spade counts, and outranks
the ace, with no kernel testing for it: "highest bit" still means "best card". The bit index
of a card in this layout is its engine id; ``suit_of`` (0..3) and ``RANK_OF`` (0..12, 13 and
up above the ace) read it.

``select_bit(mask, r)`` (the r-th lowest set bit, as a one-bit mask) is the hottest operation
of a playout. On x86 CPUs with BMI2 it is one ``pdep`` instruction; elsewhere a branch-free
binary search over popcounts (six steps) stands in. Its inverse, ``compress_bits(x, mask)``
(the bits of ``x`` under ``mask``, packed down: ``pext``), and ``deposit_bits`` (``pdep``)
give the exact solver its relative-rank keys. The choice is made once, at import, from
the host CPU's features, and numba's cache is keyed by the CPU, so a cached kernel never runs
on a machine without the instruction.

With the JIT off (``NUMBA_DISABLE_JIT=1``) the kernels run as plain Python and the intrinsics
below are replaced, once at import, by pure-Python stand-ins that give the same uint64 results.
"""

import llvmlite.binding as _llb
import numpy as np
from llvmlite import ir
from numba import config, types
from numba.extending import intrinsic

from spades_ai.engine.jit import inline_kernel, kernel, wrapping

U64 = np.uint64
ONE = U64(1)
ZERO = U64(0)

CLUBS = U64(0x1FFF)
DIAMONDS = U64(0x1FFF << 13)
HEARTS = U64(0x1FFF << 26)
SPADES = U64(0x1FFFF << 39)  # the trump lane: the 13 spades and up to 4 extra trumps
FULL_DECK = U64((1 << 52) - 1)  # the 52 card ids: the engine's deck under the default rules
#: Every bit a card can occupy under some rules (the deck of a hand is ``Rules.as_array()[R_DECK]``).
ALL_CARDS = U64((1 << 56) - 1)
NON_SPADES = U64((1 << 39) - 1)
#: The suits, ``0 .. N_SUITS - 1``: 0 clubs, 1 diamonds, 2 hearts, 3 spades (loop over suits with
#: ``range(N_SUITS)``, never a bare 4, which reads as four seats).
N_SUITS = 4
#: SUIT_MASK[s] holds the bits of suit s (0 clubs, 1 diamonds, 2 hearts, 3 spades: the lane).
SUIT_MASK = np.array([CLUBS, DIAMONDS, HEARTS, SPADES], dtype=np.uint64)
#: LANE_MASK[bit // 13]: the suit mask of a bit (index 4 covers the extra trumps, bits 52..55).
LANE_MASK = np.array([CLUBS, DIAMONDS, HEARTS, SPADES, SPADES], dtype=np.uint64)
#: RANK_OF[bit]: 0 for a two .. 12 for an ace, 13 .. 16 for the extra trumps above the ace.
RANK_OF = np.array([i % 13 for i in range(52)] + [13 + i for i in range(12)] + [0], dtype=np.int64)

HAS_PDEP = bool(_llb.get_host_cpu_features().get("bmi2", False))


@intrinsic
def _ctpop(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def _pdep(typingctx, src, mask):
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64, i64])
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=fnty)
        return builder.call(fn, args)

    return sig, codegen


@intrinsic
def _pext(typingctx, src, mask):
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64, i64])
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pext.64", fnty=fnty)
        return builder.call(fn, args)

    return sig, codegen


# Plain-Python stand-ins for the intrinsics above, used when numba.config.DISABLE_JIT is set
# (kernels run as Python, to step through in a debugger or to measure coverage): an @intrinsic
# cannot run as Python. Each takes and returns a uint64, as the compiled intrinsic does, so the
# kernels around it see the same types and values.
_MASK64 = (1 << 64) - 1


def _ctpop_py(x):
    return U64((int(x) & _MASK64).bit_count())


def _ctlz_py(x):
    return U64(64 - (int(x) & _MASK64).bit_length())


def _cttz_py(x):
    x = int(x) & _MASK64
    return U64((x & -x).bit_length() - 1 if x else 64)


def _pdep_py(src, mask):
    src, mask = int(src) & _MASK64, int(mask) & _MASK64
    out = 0
    k = 1
    while mask:
        low = mask & -mask
        if src & k:
            out |= low
        mask ^= low
        k <<= 1
    return U64(out)


def _pext_py(src, mask):
    src, mask = int(src) & _MASK64, int(mask) & _MASK64
    out = 0
    k = 1
    while mask:
        low = mask & -mask
        if src & low:
            out |= k
        mask ^= low
        k <<= 1
    return U64(out)


if config.DISABLE_JIT:  # chosen once, at import: the compiled kernels keep the intrinsics
    _ctpop, _ctlz, _cttz, _pdep, _pext = _ctpop_py, _ctlz_py, _cttz_py, _pdep_py, _pext_py


@kernel
def popcount(x):
    """Number of set bits of a uint64."""
    return _ctpop(x)


@kernel
def lowest_index(x):
    """Index of the lowest set bit (64 for zero)."""
    return np.int64(_cttz(x))


@kernel
def highest_index(x):
    """Index of the highest set bit (-1 for zero)."""
    return np.int64(63) - np.int64(_ctlz(x))


@kernel
def highest_bit(x):
    """The highest set bit of a non-zero mask, as a one-bit mask."""
    return ONE << (U64(63) - _ctlz(x))


@kernel
@wrapping  # ~0 + 1
def lowest_bit(x):
    """The lowest set bit as a one-bit mask (0 for zero)."""
    return x & (~x + ONE)


@kernel
def select_bit_portable(mask, r):
    """``select_bit`` without BMI2: a branch-free binary search over popcounts."""
    r = U64(r)
    x = mask
    base = ZERO
    width = U64(32)
    for _ in range(6):
        low = _ctpop(x & ((ONE << width) - ONE))
        go_high = U64(r >= low)
        shift = width * go_high
        r -= low * go_high
        x >>= shift
        base += shift
        width >>= ONE
    return ONE << base


@kernel
def _select_bit_pdep(mask, r):
    return _pdep(ONE << U64(r), mask)


#: The r-th lowest set bit of ``mask`` (r counts from 0), as a one-bit mask.
select_bit = _select_bit_pdep if HAS_PDEP else select_bit_portable


@kernel
def compress_bits_portable(x, mask):
    """``compress_bits`` without BMI2: one step per set bit of ``mask``."""
    out = ZERO
    k = ZERO
    m = mask
    while m != ZERO:
        b = m & (~m + ONE)
        if x & b:
            out |= ONE << k
        k += ONE
        m ^= b
    return out


@kernel
def _compress_bits_pext(x, mask):
    return _pext(x, mask)


#: The bits of ``x`` that lie under ``mask``, packed into the low bits in order (``pext``).
compress_bits = _compress_bits_pext if HAS_PDEP else compress_bits_portable


@kernel
def deposit_bits_portable(x, mask):
    """``deposit_bits`` without BMI2: one step per set bit of ``mask``."""
    out = ZERO
    k = ZERO
    m = mask
    while m != ZERO:
        b = m & (~m + ONE)
        if x & (ONE << k):
            out |= b
        k += ONE
        m ^= b
    return out


@kernel
def _deposit_bits_pdep(x, mask):
    return _pdep(x, mask)


#: The low bits of ``x`` spread, in order, onto the set bits of ``mask`` (``pdep``; the inverse
#: of ``compress_bits``).
deposit_bits = _deposit_bits_pdep if HAS_PDEP else deposit_bits_portable


@kernel
def suit_mask_of(card_bit):
    """The mask of the suit that a non-zero one-bit mask lies in (the trump lane for a trump)."""
    return LANE_MASK[np.int64(_cttz(card_bit)) // 13]


@inline_kernel
@wrapping  # 0 - 1
def lane_of(card_bit):
    """``suit_mask_of`` without a table or a division (for a one-bit mask too): three
    comparisons, each lane boundary passed flipping the mask to the next suit. Fewer cycles
    from the card to its suit, which a playout waits on at every trick (the led suit)."""
    past_clubs = ZERO - U64(card_bit > CLUBS)
    past_diamonds = ZERO - U64(card_bit > DIAMONDS)
    past_hearts = ZERO - U64(card_bit > HEARTS)
    return (CLUBS ^ (past_clubs & (CLUBS ^ DIAMONDS)) ^ (past_diamonds & (DIAMONDS ^ HEARTS))
            ^ (past_hearts & (HEARTS ^ SPADES)))  # fmt: skip


@inline_kernel
def suit_of(engine_id):
    """The suit (0..3) of an engine card id; an extra trump (52..55) is a spade."""
    return min(engine_id // 13, 3)
