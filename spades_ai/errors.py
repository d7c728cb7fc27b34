"""The errors spades_ai raises. Each message names the seat, the card or bid, and the reason.

``IllegalBidError``, ``IllegalPlayError`` and ``IllegalPassError`` also carry the refusal in parts, so that a front
end (the terminal table in ``spades_ai.table``) can word it for a player without deciding the
rules again: ``reason``, a short code naming the rule (``PLAY_REASONS`` / ``BID_REASONS`` /
``PASS_REASONS``), and
``detail``, the rule in plain words without the seat (``"a bid is 0 (nil) to 13"``).
"""

#: ``IllegalPlayError.reason``: no card is due (bidding, or the hand is over); not a card;
#: a card the rules' deck does not have (``BJ`` without jokers, ``2H`` the big joker replaced);
#: a card the seat does not hold; a card that does not follow the suit led; a spade led before
#: the rules allow it; the first lead must be the lowest club.
PLAY_REASONS = ("not_due", "bad_card", "not_in_deck", "not_held", "follow_suit", "spade_lead", "first_lead")
#: ``IllegalBidError.reason``: no bid is due; not an int bid (or a non-bool blind flag); a bid
#: outside 0..13; a blind bid other than nil; nil or blind nil off in the rules; a blind nil
#: while the side does not trail enough; the bidding preset's rule (mirror, whiz, suicide);
#: the minimum bid; the minimum bid of a side (``Rules.min_team_bid``).
BID_REASONS = (
    "not_due", "bad_bid", "range", "blind_number", "nil_off", "blind_off", "blind_deficit",
    "mirror", "whiz", "suicide", "min_bid", "min_team_bid",
)  # fmt: skip


#: ``IllegalPassError.reason``: no pass is due; not a seat or not cards; a seat that does not
#: pass in this round (only a side with a blind nil bidder passes after the bidding); a seat that
#: has already chosen; the wrong number of cards (or one twice); a card the seat does not hold.
PASS_REASONS = ("not_due", "bad_pass", "not_passer", "already_chosen", "count", "not_held")


class RulesError(ValueError):
    """A ``Rules`` field or rules file holds a value the engine cannot play with."""


class TableError(RulesError):
    """A part of the toolkit refused the table it was given (``spades_ai.capabilities``): one
    line naming the part, the table (``"3 players solo"``) and where the part is documented."""

    def __init__(self, message: str, part: str = "", table: str = "", doc: str = ""):
        super().__init__(message)
        #: the part that refused (``"the SVG picture"``)
        self.part = part
        #: the table in words (``"6 players in pairs"``)
        self.table = table
        #: where the part and the tables it plays are documented
        self.doc = doc


class _RefusedAction(ValueError):
    def __init__(self, message: str = "", reason: str | None = None, detail: str | None = None):
        super().__init__(message)
        #: the rule that refused the action, one of ``PLAY_REASONS`` / ``BID_REASONS``
        self.reason = reason
        #: that rule in plain words, without the seat
        self.detail = detail if detail is not None else message


class IllegalBidError(_RefusedAction):
    """A bid that the rules do not allow at this point of the hand (``reason``: ``BID_REASONS``)."""


class IllegalPlayError(_RefusedAction):
    """A card that the rules do not allow at this point of the hand (``reason``: ``PLAY_REASONS``)."""


class IllegalPassError(_RefusedAction):
    """Cards that a seat may not pass to its partner (``reason``: ``PASS_REASONS``)."""


class FieldError(ValueError):
    """A value refused for one named argument or field (``field``), such as a ``Hand``'s
    ``scores``, ``bag_count`` or ``hands_played``: a reader of records maps ``field`` to its own
    names instead of parsing the message."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        #: the argument or field that holds the refused value
        self.field = field


class TournamentError(ValueError):
    """A tournament description that cannot be run: unknown agent, bad count, bad file; also an
    agent spec (``"easy:careless=0.5"``, ``"module:attribute"``) that names no agent."""
