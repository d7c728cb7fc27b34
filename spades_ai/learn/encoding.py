"""The observation vector and the action ids, as the learning environment has always named them:
the layout is defined in ``spades_ai.encoding`` (below ``models/``, which reads it too) and
re-exported here, so ``from spades_ai.learn.encoding import SLICES`` keeps working.
"""

from spades_ai.encoding import (  # noqa: F401 -- re-exported
    BID_OFFSET,
    BLIND_NIL,
    FIELDS,
    LOOK,
    N_ACTIONS,
    O_BAGS,
    O_BIDS,
    O_BLIND,
    O_BROKEN,
    O_DEALER,
    O_LEADER,
    O_OWN,
    O_PHASE,
    O_PLAYED,
    O_SCORES,
    O_TRICK,
    O_TRICK_NO,
    O_VOIDS,
    O_WON,
    OBSERVATION_HIGH,
    OBSERVATION_LOW,
    OBSERVATION_SIZE,
    PHASES,
    SLICES,
    action_to_string,
    bid_action,
)
