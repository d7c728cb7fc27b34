"""What the page is sent: a match as you may see it, as one JSON-ready dict.

Everything comes from the engine through your own view of the hand (``Hand.view(0)``): the
other seats' cards are never sent (only how many each holds), closed bids stay hidden until the
play, and what you may do now (the legal bids, the cards you may play, the count of cards to
pass) is the engine's answer, not the page's. The pictures are ``spades_ai.render``'s: each
card's HTML (``card_html``) and the score sheet of each finished hand (``sheet_html``).

The turn timer is the server's: a ``BrowserMatch`` with ``timer`` seconds starts the clock of
your turn when it first shows you that turn, reads the time from its ``clock`` (the store's;
a test gives a fake one), and once the time has run out ``play_for_you`` plays Normal's choice
and says so. The page counts down ``time_left`` and asks for that move (``POST .../step``).
"""

from __future__ import annotations

import time

from spades_ai.agents import make_agent
from spades_ai.render.html import card_html, seat_places, sheet_html
from spades_ai.render.text import trick_winners
from spades_ai.rules import Rules
from spades_ai.seats import seats, side_of, side_seats, sides
from spades_ai.table.game import HUMAN, PARTNER_LEVEL, TableMatch, agent_pass
from spades_ai.web.settings import check_timer

#: The agent whose choice the table plays for you when your time runs out.
STAND_IN = "normal"


class BrowserMatch(TableMatch):
    """A ``TableMatch`` at the browser table, which shows card passing and closed bidding and
    may give you a turn timer (``timer`` seconds, ``settings.TIMERS``; None: off).

    >>> m = BrowserMatch(7, "easy", Rules.preset("cutthroat"), timer=15)
    >>> m.clock = lambda: 100.0; m.advance() and None
    >>> m.time_left()                 # your turn: its clock starts now
    15.0
    >>> m.clock = lambda: 116.0; m.time_left(), m.timed_out()
    (0.0, True)
    >>> m.play_for_you()[0]  # doctest: +ELLIPSIS
    "Time ran out (15 s): the table bids ... for you (Normal's choice)."
    """

    shows_hidden_rules = True
    #: where the timer reads the time, in seconds (the store sets its own; a test a fake one)
    clock = staticmethod(time.monotonic)

    def __init__(self, seed: int, level: str = "normal", rules: Rules | None = None, timer: int | None = None):
        super().__init__(seed, level, rules)
        self.timer = check_timer(timer)
        self._turn = None  # the turn whose clock runs (``_turn_key``), and when it runs out
        self._deadline = 0.0
        self._stand_in = None

    def _turn_key(self) -> tuple[int, ...]:
        """Your decision in progress: the hand and how many actions were taken in it."""
        h = self.hand
        return (self.hand_no, len(h.plays), sum(b is not None for b in h.bids),
                sum(p is not None for rnd in h.passes for p in rnd))

    def time_left(self, start: bool = True) -> float | None:
        """Seconds left for your turn (0.0: run out); None when the timer is off, it is not your
        turn or (``start=False``) its clock has not started. ``start`` starts the clock of a turn
        that has none."""
        if self.timer is None or self.over or self.hand.to_act != HUMAN:
            return None
        key = self._turn_key()
        if key != self._turn:
            if not start:
                return None
            self._turn, self._deadline = key, self.clock() + self.timer
        return max(0.0, self._deadline - self.clock())

    def timed_out(self) -> bool:
        """Whether your turn's time has run out."""
        return self.time_left(start=False) == 0.0

    def play_for_you(self) -> list[str]:
        """Your move as Normal would make it (a bid, never blind; the cards to pass; a card),
        checked by the engine like any answer of yours; the lines that tell it, the first one
        saying that the time ran out."""
        if self._stand_in is None:
            self._stand_in = make_agent(STAND_IN, seed=self.seed)
        h, agent = self.hand, self._stand_in
        self.looked = True  # no blind nil for you: the stand-in looks at your cards
        obs = h.observation()
        if h.phase == "passing":
            what, action = "passes", " ".join(map(str, agent_pass(agent, obs)))
        elif h.phase == "bidding":
            bid = agent.bid(obs)
            what, action = "bids", "nil" if bid == 0 else str(bid)
        else:
            what, action = "plays", str(agent.play(obs))
        ok, lines = self.answer(action)
        if not ok:
            raise RuntimeError(f"the engine refused {STAND_IN}'s choice {action!r}: {lines}")
        return [f"Time ran out ({self.timer} s): the table {what} {action} for you ({STAND_IN.capitalize()}'s choice)."] + lines

    @classmethod
    def _settings_of(cls, line: dict) -> dict:
        return {"timer": line.get("timer")}

    def _line(self, hand, hand_no: int, finished: bool) -> dict:
        line = super()._line(hand, hand_no, finished)
        if self.timer is not None:
            line["timer"] = self.timer
        return line

    def seat_levels(self) -> list[str | None]:
        """Each seat's level as the page labels it (None at your seat)."""
        level = self.level
        return [None if s == HUMAN else PARTNER_LEVEL.get(level, "hard") if s == self.partner else level
                for s in seats(self.rules)]


def _card(card, legal: bool | None = None) -> dict:
    out = {"card": str(card), "html": card_html(card, "hand")}
    if legal is not None:
        out["legal"] = legal
    return out


def _trick(cards) -> list[dict]:
    return [{"seat": seat, **_card(card)} for seat, card in cards]


def _sorted(cards) -> list:
    """Spades first, then hearts, clubs, diamonds (colours alternate), high cards first."""
    order = {3: 0, 2: 1, 0: 2, 1: 3}
    return sorted(cards, key=lambda c: (order[c.suit], -c.rank))


def hand_view(match: BrowserMatch, start_clock: bool = True) -> dict:
    """The hand in progress as you see it (empty once the match is over); ``start_clock``: start
    your turn's timer if this shows it first (see ``BrowserMatch.time_left``)."""
    if match.over:
        return {}
    h = match.hand
    you = h.view(HUMAN)
    your_turn = h.to_act == HUMAN
    legal = set(h.legal_cards()) if your_turn and h.phase == "playing" else set()
    bids = you.bids
    last = None
    if h.tricks:
        last = {"cards": _trick(h.tricks[-1]), "winner": trick_winners(h)[-1], "trick_no": len(h.tricks)}
    rules = match.rules
    contracts = [[sum(you.tricks_won[s] for s in side_seats(t, rules)), sum(bids[s] or 0 for s in side_seats(t, rules))]
                 for t in sides(rules)]
    return {
        "hand_no": match.hand_no,
        "phase": h.phase,
        "dealer": h.dealer,
        "to_act": h.to_act,
        "your_turn": your_turn,
        "fresh": match.fresh,
        "question": match.question() if your_turn else "",
        "blind_nil_question": match.asks_blind_nil(),
        "cards": [] if match.asks_blind_nil() else [_card(c, c in legal) for c in _sorted(you.cards)],
        "legal_bids": h.legal_bids() if your_turn and h.phase == "bidding" and not match.asks_blind_nil() else [],
        "pass_count": h.pass_count if your_turn and h.phase == "passing" else 0,
        "gave": [str(c) for c in you.gave | you.blind_gave],
        "received": [str(c) for c in you.received | you.blind_received],
        "bids": bids,
        "blind": you.blind,
        "tricks_won": you.tricks_won,
        "contracts": contracts,
        "held": [rules.cards_each - len(you.played_by[s]) for s in seats(rules)],
        "trick": _trick(you.current_trick),
        "last_trick": last,
        "trick_no": you.trick_no,
        "spades_broken": you.spades_broken,
        "time_left": match.time_left(start=start_clock),
    }


def match_stats(match: TableMatch) -> dict:
    """The results screen's figures: contracts made by side, and yours (bids made, nils,
    tricks taken)."""
    results = match.results
    number_bids = [r for r in results if r.bids[HUMAN] > 0]
    nils = [r for r in results if r.bids[HUMAN] == 0]
    return {
        "hands": len(results),
        "contracts_made": [sum(bool(r.made[t]) for r in results if r.contract[t] > 0) for t in sides(match.rules)],
        "contracts_bid": [sum(r.contract[t] > 0 for r in results) for t in sides(match.rules)],
        "your_bids_made": sum(r.tricks_won[HUMAN] >= r.bids[HUMAN] for r in number_bids),
        "your_number_bids": len(number_bids),
        "your_nils_made": sum(bool(r.nil_made[HUMAN]) for r in nils),
        "your_nils": len(nils),
        "your_tricks": sum(r.tricks_won[HUMAN] for r in results),
        "bags": [sum(r.new_bags[t] for r in results) for t in sides(match.rules)],
    }


def match_view(match: BrowserMatch, lines: list[str] | None = None, start_clock: bool = True) -> dict:
    """The whole page state: the settings, where the seats sit (``grid`` x ``grid`` cells, seat
    s at ``places[s]``, as ``render.html.seat_places`` draws them), the match score, the hand
    (``hand_view``), every score sheet of the last finished hand (of every one once over), the
    results, and ``lines``: what just happened. ``start_clock`` as in ``hand_view``."""
    grid, places = seat_places(match.rules.players)
    return {
        "level": match.level,
        "partner_level": None if match.partner is None else match.seat_levels()[match.partner],
        "seat_levels": match.seat_levels(),
        "partner": match.partner,
        "timer": match.timer,
        "rules": match.rules.to_dict(),
        "names": list(match.names),
        "teams": list(match.teams),
        "side_of": [side_of(seat, match.rules) for seat in seats(match.rules)],
        "grid": grid,
        "places": [list(place) for place in places],
        "scores": list(match.scores),
        "bag_count": list(match.bag_count),
        "over": match.over,
        "winner": match.winner,
        "result_line": match.result_line() if match.over else "",
        "hand": hand_view(match, start_clock),
        # every sheet on the results screen; during the match the last one (shown before NEXT HAND)
        "sheets": [
            {"hand_no": k, "points": list(r.points), "scores": list(r.scores), "html": sheet_html(r, match.names, match.teams)}
            for k, r in enumerate(match.results)
            if match.over or k == len(match.results) - 1
        ],
        "stats": match_stats(match),
        "lines": lines or [],
    }
