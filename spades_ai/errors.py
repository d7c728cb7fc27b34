"""The errors spades_ai raises. Each message names the seat, the card or bid, and the reason."""


class RulesError(ValueError):
    """A ``Rules`` field or rules file holds a value the engine cannot play with."""


class IllegalBidError(ValueError):
    """A bid that the rules do not allow at this point of the hand."""


class IllegalPlayError(ValueError):
    """A card that the rules do not allow at this point of the hand."""
