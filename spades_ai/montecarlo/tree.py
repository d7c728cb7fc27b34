"""The ISMCTS tree's layout and the choice at its root (``tree_search`` grows the tree).

One row per node, at most one node per iteration plus the root; children as a linked list.
"""

from spades_ai.engine.jit import kernel

# The tree: one int64 row per node (columns below) and its summed rewards in a float64 array,
# a row per value the tree keeps (one per side, or the searching side's alone: ``tree_search``).
#   NODE_PARENT  the parent's row (-1 at the root)     NODE_CARD   the card played to reach it
#   NODE_MOVER   the seat that played that card         NODE_VISITS iterations through it
#   NODE_AVAIL   its parent's visits in which its card was legal (availability)
#   NODE_CHILD   the first child's row (-1: none)      NODE_NEXT   the next sibling's row (-1: last)
#   NODE_KIDS    the cards of its children (a uint64 mask stored as int64)
NODE_PARENT, NODE_CARD, NODE_MOVER, NODE_VISITS, NODE_AVAIL, NODE_CHILD, NODE_NEXT, NODE_KIDS = range(8)
NODE_COLUMNS = 8


@kernel
def most_visited(tree, reward_sum):
    """The card of the root's most visited child (ties: the higher summed reward to the
    searching side, ``reward_sum``, then the lower card)."""
    best = -1
    c = tree[0, NODE_CHILD]
    while c >= 0:
        if best < 0:
            best = c
        else:
            v, bv = tree[c, NODE_VISITS], tree[best, NODE_VISITS]
            if v > bv or (v == bv and reward_sum[c] > reward_sum[best]) or (
                v == bv and reward_sum[c] == reward_sum[best] and tree[c, NODE_CARD] < tree[best, NODE_CARD]
            ):
                best = c
        c = tree[c, NODE_NEXT]
    return tree[best, NODE_CARD]

