"""The observation vector and the action ids, as the learning environment has always named them:
the layout is defined in ``spades_ai.encoding`` (below ``models/``, which reads it too) and
re-exported here, so ``from spades_ai.learn.encoding import SLICES`` keeps working. ``O_*`` are
the fields' offsets at four players in pairs (``observation_layout(rules).slices`` gives any
table's).
"""

from spades_ai.encoding import (  # noqa: F401 -- re-exported
    BID_OFFSET,
    BLIND_NIL,
    FIELDS,
    LOOK,
    N_ACTIONS,
    OBSERVATION_HIGH,
    OBSERVATION_LOW,
    OBSERVATION_SIZE,
    PHASES,
    SLICES,
    Layout,
    action_to_string,
    bid_action,
    observation_layout,
)

O_OWN = SLICES["own_cards"].start
O_PLAYED = SLICES["played_by"].start
O_TRICK = SLICES["current_trick"].start
O_LEADER = SLICES["trick_leader"].start
O_BIDS = SLICES["bids"].start
O_BLIND = SLICES["blind_nil"].start
O_WON = SLICES["tricks_won"].start
O_PHASE = SLICES["phase"].start
O_DEALER = SLICES["dealer"].start
O_BROKEN = SLICES["spades_broken"].start
O_VOIDS = SLICES["voids"].start
O_SCORES = SLICES["scores"].start
O_BAGS = SLICES["bag_counts"].start
O_TRICK_NO = SLICES["trick_no"].start
