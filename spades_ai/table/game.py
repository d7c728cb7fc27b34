"""A match at the table: you at seat 0 (South) against agents, at any table of 3 to 12 players.

At four in pairs (the default) you have a partner at seat 2 (North) against two agents, and at
6 to 12 players in pairs the seat across (seat players/2); solo (``Rules.preset("cutthroat")``:
three players, ``"solo"``: four, or ``Rules(players=8)``) every other seat is an opponent and
every seat scores for itself. From 6 players two decks are shuffled together (three from 9), so
a hand may hold a card twice. The seats are named clockwise from you
(``render.text.TABLE_SEATS``: You, West, ..., East).

The online tables we imitate set the opponents by a level, Easy to Crazy, and give you a
partner that plays at least Hard (Crazy at Crazy). A ``TableMatch`` holds the match: the
seed (which fixes every deal and the first dealer: hand ``k`` is ``simulate.match_deal(seed, 0,
k, rules)``, the cards of match 0 of ``play_matches``), the rules, the level, the finished hands and
the hand in progress. It never reads input itself: ``advance`` lets the agents act until it is
your turn, ``question`` says what you are asked, ``answer`` takes one line and either acts
or returns one line saying why not (the engine's ``IllegalBidError`` / ``IllegalPlayError``
decide; nothing changes on a refusal); ``step`` lets one agent act (the browser table shows
the agents' cards one by one). The agents decide from the observation and their seed, so the
same seed and the same answers give the same match, resumed or not.

Card passing and closed bidding are played here too (an agent passes with its ``pass_cards``;
under closed bidding an agent's bid is told as made, its number at the start of play), but the
terminal cannot show them rightly and refuses them; the browser table
(``spades_ai.web``) sets ``shows_hidden_rules``.

A match is saved as JSON lines: one line per finished hand, then the hand in progress, each
with the seed, the level, the rules, ``hand_no`` and ``Hand.to_record()`` (``save`` /
``TableMatch.load``; the file is rewritten whole after each action, through a temporary file).

>>> m = TableMatch(seed=7, level="easy", rules=Rules(target_score=250))
>>> lines = m.advance()          # the agents bid until it is your turn
>>> m.question()
'Your bid (1-13, or nil)?'
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from spades_ai.agents import make_agent
from spades_ai.agents.grammar import PROGRAM_PREFIX
from spades_ai.agents.spec import parse_agent
from spades_ai.cards import Card
from spades_ai.checks import check_seed
from spades_ai.errors import IllegalBidError, IllegalPassError, IllegalPlayError, RulesError
from spades_ai.folders import write_atomic
from spades_ai.game import Hand
from spades_ai.policies.agent import default_pass
from spades_ai.rules import Rules
from spades_ai.scoring import HandResult, match_winner
from spades_ai.seats import cards_dealt, partner, seats, sides
from spades_ai.simulate import first_dealer, match_deal
from spades_ai.table import render

LEVELS = ("easy", "normal", "hard", "crazy")
HUMAN = 0
#: The partner plays at least Hard, and Crazy at Crazy.
PARTNER_LEVEL = {"easy": "hard", "normal": "hard", "hard": "hard", "crazy": "crazy"}
MATCH_NO = 0  # the match's cards: match 0 of the seed's match streams


class SaveFileError(ValueError):
    """A saved match that cannot be resumed (unreadable, or not following from its seed)."""


def table_agents(level: str, seed: int, rules: Rules | None = None) -> list:
    """The agents by seat (None at your seat): the level's agent at every opponent's seat and,
    in pairs, the partner's level at your partner's, each with the match's seed; a level
    ``cmd:COMMAND`` seats that bot program (``agents.program``) as the opponents, with Hard as
    your partner. ``rules``: the table (four in pairs by default)."""
    rules = Rules() if rules is None else rules
    mate = partner(HUMAN, rules)
    if level.startswith(f"{PROGRAM_PREFIX}:"):  # a bot program (docs/PROTOCOL.md) as the opponents, Hard as partner
        bot = parse_agent(level).build()
        return [None if s == HUMAN else make_agent("hard", seed=seed) if s == mate else bot for s in seats(rules)]
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}, or a bot program cmd:COMMAND")
    return [None if s == HUMAN else make_agent(PARTNER_LEVEL[level] if s == mate else level, seed=seed) for s in seats(rules)]


def agent_pass(agent, obs) -> list:
    """The cards ``agent`` passes from ``obs``: its own ``pass_cards``, or the default pass."""
    return agent.pass_cards(obs) if hasattr(agent, "pass_cards") else default_pass(obs)


def parse_bid(line: str) -> tuple[int, bool] | None:
    """``(bid, blind)`` from ``3``, ``nil``, ``0``, ``blind nil`` or ``blind``; None if the line
    is no bid at all (the engine decides whether a bid is allowed)."""
    words = line.strip().lower().split()
    if words in (["blind"], ["blind", "nil"]):
        return 0, True
    if words == ["nil"]:
        return 0, False
    if len(words) == 1 and re.fullmatch(r"-?[0-9]{1,6}", words[0]):  # ASCII digits: "²".isdigit() too
        return int(words[0]), False
    return None


class TableMatch:
    """One match at the table; see the module docstring.

    ``names`` and ``teams`` are what the text calls the seats and the sides (``"You & North"``
    in pairs, a seat's name solo); ``partner`` is your partner's seat, None solo.
    """

    #: Whether this table can show card passing and closed bidding (the terminal cannot).
    shows_hidden_rules = False

    def __init__(self, seed: int, level: str = "normal", rules: Rules | None = None):
        self.seed = check_seed(seed)
        self.rules = Rules() if rules is None else rules
        if not isinstance(self.rules, Rules):
            raise TypeError(f"rules must be a spades_ai.Rules, not {type(self.rules).__name__}")
        self.names = render.table_names(self.rules)
        self.teams = render.team_names(self.names, self.rules)
        self.partner = partner(HUMAN, self.rules)
        if not self.shows_hidden_rules and (self.rules.pass_cards or self.rules.blind_pass or self.rules.closed_bidding):
            raise RulesError(
                "the table has no prompt for card passing and announces every bid as it is made: "
                "rules fields 'pass_cards', 'blind_pass' and 'closed_bidding' must be off"
            )
        self.level = level
        self.agents = table_agents(level, self.seed, self.rules)
        self.first_dealer = first_dealer(self.seed, MATCH_NO, self.rules)
        #: the finished hands, as ``Hand`` objects, and their score sheets
        self.hands: list[Hand] = []
        self.results: list[HandResult] = []
        #: the hand in progress (None once the match is over)
        self.hand: Hand | None = None
        #: the winning side once the match is over
        self.winner: int | None = None
        #: whether you have seen your cards in this hand (a blind nil is bid before looking)
        self.looked = False
        self._start_hand()

    # -- the match ------------------------------------------------------------------------
    @property
    def hand_no(self) -> int:
        """The number of the hand in progress (from 0), or of the hands played once over."""
        return len(self.hands)

    @property
    def over(self) -> bool:
        return self.hand is None

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's match score."""
        return self.results[-1].scores if self.results else (0,) * self.rules.n_sides

    @property
    def bag_count(self) -> tuple[int, ...]:
        """Each side's bag count."""
        return self.results[-1].bag_count if self.results else (0,) * self.rules.n_sides

    def deal_of(self, hand_no: int) -> list[int]:
        """The seats' bitboards (card ids) of hand ``hand_no`` of this match."""
        return match_deal(self.seed, MATCH_NO, hand_no, self.rules)

    def dealer_of(self, hand_no: int) -> int:
        """The dealer of hand ``hand_no``: the deal passes to the left each hand."""
        return (self.first_dealer + hand_no) % self.rules.players

    def _start_hand(self) -> None:
        k = self.hand_no
        self.hand = Hand(self.deal_of(k), self.dealer_of(k), self.rules, self.scores, self.bag_count, hands_played=k)
        self.looked = False

    def _finish_hand(self) -> list[str]:
        hand = self.hand
        result = hand.result()
        self.hands.append(hand)
        self.results.append(result)
        k = len(self.hands)
        lines = ["", render.format_sheet(result, self.names, self.teams, f"Score sheet, hand {k}")]
        self.winner = match_winner(result.scores, self.rules, hands_played=k)
        if self.winner is None:
            self._start_hand()
            return lines
        self.hand = None
        lines += ["", self.result_line()]
        return lines

    def result_line(self) -> str:
        """Who won the match, and the score (the winner's first, then the others' from the
        highest)."""
        if self.winner is None:
            return f"The match goes on: {' to '.join(map(str, self.scores))}."
        who = self.teams[self.winner].replace(" & ", " and ")
        verb = "win" if who == "You" or " and " in who else "wins"
        order = sorted(sides(self.rules), key=lambda k: (k != self.winner, -self.scores[k]))
        score = " to ".join(str(self.scores[k]) for k in order)
        return f"{who} {verb} the match, {score}, after {len(self.hands)} hands."

    def seating(self) -> str:
        """Who sits where, in words: ``you (South) and North (hard) against West and East (easy)``,
        ``you (South) against West and East (easy)``."""
        level = self.level
        opponents = [self.names[s] for s in seats(self.rules) if s not in (HUMAN, self.partner)]
        you = "you (South)"
        if self.partner is not None:
            you += f" and {self.names[self.partner]} ({PARTNER_LEVEL.get(level, 'hard')})"
        return f"{you} against {_and(opponents)} ({level})"

    # -- the agents ------------------------------------------------------------------------
    def advance(self) -> list[str]:
        """Let the agents act until you are to act or the match is over; the lines that tell
        what happened (bids, cards, tricks won, score sheets)."""
        lines: list[str] = []
        while self.agent_to_act:
            lines += self.step()
        return lines

    @property
    def agent_to_act(self) -> bool:
        """True when an agent, not you, is to act next."""
        return not self.over and self.hand.to_act != HUMAN

    def step(self) -> list[str]:
        """One agent's pass, bid or card (an agent must be to act: ``agent_to_act``), and the
        score sheet if it ends the hand; the lines that tell it."""
        if not self.agent_to_act:
            raise ValueError("no agent is to act: " + ("the match is over" if self.over else "it is your turn"))
        lines = self._agent_acts()
        if self.hand.phase == "over":
            lines += self._finish_hand()
        return lines

    @property
    def fresh(self) -> bool:
        """True before anyone has passed, bid or played in the hand in progress."""
        h = self.hand
        return h is not None and all(b is None for b in h.bids) and all(p is None for p in h.passes[0])

    def _hand_header(self) -> list[str]:
        h = self.hand
        return [
            "",
            f"=== Hand {self.hand_no + 1}: {self.names[h.dealer]} {'deal' if h.dealer == HUMAN else 'deals'}. "
            + render.format_match_score(h.scores, h.bag_count, self.teams, self.rules.target_score),
        ]

    def _agent_acts(self) -> list[str]:
        h = self.hand
        seat = h.to_act
        agent = self.agents[seat]
        lines = self._hand_header() if self.fresh else []
        if h.phase == "passing":
            obs = h.observation()
            n, blind = h.pass_count, None not in h.bids
            h.pass_cards(seat, agent_pass(agent, obs))
            mate = partner(seat, self.rules)  # passing is played in pairs only
            to = "you" if mate == HUMAN else self.names[mate]
            return lines + [f"{self.names[seat]} passes {n} card{'s' * (n != 1)} to {to}."] + self._received(blind)
        if h.phase == "bidding":
            if h.legal_bids(blind=True) and hasattr(agent, "blind_nil") and agent.blind_nil(h.observation(blind_decision=True)):
                h.bid(0, blind=True)
            else:
                h.bid(agent.bid(h.observation()))
            if self.rules.closed_bidding:
                lines.append(f"{self.names[seat]} bids (closed bidding: shown when the play starts).")
            else:
                lines.append(f"{self.names[seat]} bids {render.bid_text(h.bids[seat], h.blind[seat])}.")
            return lines + self._bids_shown()
        lines += self._play(agent.play(h.observation()))
        return lines

    def _bids_shown(self) -> list[str]:
        """Under closed bidding, every seat's bid once the last is made."""
        h = self.hand
        return [render.format_bids(h, self.names) + "."] if self.rules.closed_bidding and h.phase != "bidding" else []

    def _received(self, blind: bool) -> list[str]:
        """After a pass: the cards your partner passed you, if it ended the round (``blind``: the
        round after the bidding)."""
        h = self.hand
        if h.phase == "passing" or h.passes[blind][self.partner] is None:
            return []
        return [f"{self.names[self.partner]} passed you {' '.join(map(str, h.passes[blind][self.partner]))}."]

    def _play(self, card) -> list[str]:
        """Play ``card`` for the seat to act (checked by the engine); the lines it gives."""
        h = self.hand
        seat, before = h.to_act, h.tricks_won
        h.play(card)
        card = h.plays[-1][1]
        lines = [f"{self.names[seat]} {'play' if seat == HUMAN else 'plays'} {card}."]
        after = h.tricks_won
        if after != before:
            winner = next(s for s in seats(self.rules) if after[s] > before[s])
            won = dict(h.tricks[-1])[winner]
            lines.append(
                f"  {self.names[winner]} {'win' if winner == HUMAN else 'wins'} trick {h.trick_no} with {won}. "
                f"Tricks: {render.tricks_against_bids(h.bids, h.tricks_won, self.names)}"
            )
        return lines

    # -- you -------------------------------------------------------------------------------
    def asks_blind_nil(self) -> bool:
        """True when you may bid blind nil and have not looked at your cards yet."""
        h = self.hand
        return not self.over and h.to_act == HUMAN and h.phase == "bidding" and not self.looked and bool(h.legal_bids(blind=True))

    def question(self) -> str:
        """What you are asked now (empty once the match is over)."""
        if self.over:
            return ""
        if self.asks_blind_nil():
            return "Bid blind nil before you look at your cards? ('blind nil', or 'look')"
        if self.hand.phase == "passing":
            return f"Pass {self.hand.pass_count} cards to {self.names[self.partner]} (e.g. AS KH)?"
        if self.hand.phase == "bidding":
            legal = self.hand.legal_bids()
            numbers = [b for b in legal if b > 0]
            nil = "nil" if 0 in legal else ""
            most = self.rules.cards_each
            if numbers and numbers == list(range(numbers[0], most + 1)):
                span = f"{numbers[0]}-{most}" if numbers[0] < most else str(most)
                return f"Your bid ({span}{', or ' + nil if nil else ''})?"
            return f"Your bid ({', '.join([nil] * bool(nil) + [str(b) for b in numbers])})?"
        return "Your card?"

    def view(self) -> list[str]:
        """The table as you see it before you act: the match score, the bids, each seat's
        tricks against its bid, the trick in progress and your cards with the legal ones marked."""
        if self.over:
            return []
        h = self.hand
        lines = []
        if h.phase == "bidding" and all(b is None for b in h.bids):
            lines += self._hand_header()
        if self.asks_blind_nil():
            return lines + [render.format_bids(h, self.names)]
        if h.phase == "playing":
            lines.append("")
            lines.append(
                f"Hand {self.hand_no + 1}, trick {h.trick_no + 1}. "
                + render.format_match_score(h.scores, h.bag_count, self.teams, self.rules.target_score)
            )
            tricks = f"Tricks: {render.tricks_against_bids(h.bids, h.tricks_won, self.names)}"
            if self.partner is not None:  # solo, a side's tricks are its seat's
                tricks += f"   teams {render.team_tricks_against_contracts(h.bids, h.tricks_won, self.rules)}"
            lines.append(tricks)
            trick = h.current_trick
            lines.append(f"On the table: {render.format_trick(trick, self.names) if trick else 'nothing yet, you lead'}")
            lines.append(f"Your cards: {render.format_cards(h.cards(HUMAN), h.legal_cards())}   (* = you may play it)")
        else:
            lines.append(render.format_bids(h.view(HUMAN), self.names))  # your view: closed bids hidden
            lines.append(f"Your cards: {render.format_cards(h.cards(HUMAN))}")
        return lines

    def answer(self, line: str) -> tuple[bool, list[str]]:
        """Act on one line of yours: ``(True, lines that tell what happened)``, or ``(False,
        [one line saying why not])`` and nothing changes."""
        if self.over:
            return False, ["The match is over."]
        h = self.hand
        if h.to_act != HUMAN:
            return False, [f"It is {self.names[h.to_act]}'s turn, not yours."]
        text = line.strip()
        if h.phase == "passing":
            n, blind = h.pass_count, None not in h.bids
            try:
                h.pass_cards(HUMAN, text)
            except IllegalPassError as exc:
                return False, [pass_refusal(exc, n, text)]
            self.looked = True
            return True, [f"You pass {text.upper()} to {self.names[self.partner]}."] + self._received(blind)
        if self.asks_blind_nil():
            words = text.lower().split()
            if words == ["look"]:
                self.looked = True
                return True, []
            if words in (["blind"], ["blind", "nil"]):
                h.bid(0, blind=True)
                self.looked = True
                return True, ["You bid blind nil."]
            return False, ["Answer 'blind nil', or 'look' to see your cards first."]
        if h.phase == "bidding":
            bid = parse_bid(text)
            if bid is None:
                return False, [f"Not a bid: {text!r} (bid a number of tricks, 1 to {self.rules.cards_each}, or nil)."]
            n, blind = bid
            if blind and self.looked:
                return False, ["A blind nil is bid before looking at your cards: bid a number or nil."]
            try:
                h.bid(n, blind=blind)
            except IllegalBidError as exc:
                return False, [bid_refusal(exc, n, blind)]
            return True, [f"You bid {render.bid_text(n, blind)}."] + self._bids_shown()
        try:
            lines = self._play(text)
        except IllegalPlayError as exc:
            return False, [play_refusal(exc, h, text)]
        if h.phase == "over":
            lines += self._finish_hand()
        return True, lines

    def warm_up(self) -> None:
        """Have each agent decide once, a bid and a card, on a copy of the first hand: this
        compiles (or loads) the kernels the match needs before the first question."""
        hand = Hand(self.deal_of(0), self.dealer_of(0), self.rules)
        done = set()
        for agent in self.agents:  # the opponents' level, and the partner's
            if agent is None or agent.name in done:
                continue
            done.add(agent.name)
            trial = hand.clone()
            trial.bid(agent.bid(trial.observation()))
            while trial.phase == "bidding":
                trial.bid(trial.legal_bids()[-1])
            agent.play(trial.observation())

    # -- saving ----------------------------------------------------------------------------
    @classmethod
    def _settings_of(cls, line: dict) -> dict:
        """The settings beyond the seed, level and rules that a save file's first line gives the
        constructor (a subclass's own; the terminal has none)."""
        return {}

    def _line(self, hand: Hand, hand_no: int, finished: bool) -> dict:
        line = {
            "seed": self.seed,
            "level": self.level,
            "rules": self.rules.to_dict(),
            "hand_no": hand_no,
            "finished": finished,
            "hand": hand.to_record(),
        }
        if not finished and self.looked:
            line["looked"] = True
        return line

    def to_lines(self) -> list[dict]:
        """The save file's lines: the finished hands, then the hand in progress (if any)."""
        out = [self._line(h, k, True) for k, h in enumerate(self.hands)]
        if self.hand is not None:
            out.append(self._line(self.hand, self.hand_no, False))
        return out

    def save(self, path: str | os.PathLike) -> None:
        """Write the match to ``path`` (JSON lines), whole or not at all."""
        write_atomic(Path(path), "".join(json.dumps(line) + "\n" for line in self.to_lines()).encode())

    @classmethod
    def load(cls, path: str | os.PathLike) -> TableMatch:
        """The match saved in ``path``, every card checked again and every hand checked to
        follow from the seed; ``SaveFileError`` says what is wrong."""
        lines = read_match_file(path)
        if not lines:
            raise SaveFileError(f"{path} holds no hand")
        first = lines[0]
        try:
            match = cls(first["seed"], first["level"], Rules.from_dict(first["rules"]), **cls._settings_of(first))
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveFileError(f"{path}: line 1 is not a saved match ({exc})") from None
        match.hands, match.results, match.hand = [], [], None
        for i, line in enumerate(lines):
            where = f"{path}, line {i + 1}"
            if (line.get("seed"), line.get("level"), line.get("rules")) != (first["seed"], first["level"], first["rules"]):
                raise SaveFileError(f"{where}: another match (seed, level or rules differ from line 1)")
            if line.get("hand_no") != i or (line.get("finished") is not True and i != len(lines) - 1):
                raise SaveFileError(f"{where}: expected finished hand {i}")
            hand = hand_from_line(line, where)
            expected = Hand(match.deal_of(i), match.dealer_of(i), match.rules, match.scores, match.bag_count, hands_played=i)
            if (hand.deal, hand.dealer, hand.scores, hand.bag_count) != (expected.deal, expected.dealer, expected.scores, expected.bag_count):
                raise SaveFileError(f"{where}: hand {i} is not the one seed {match.seed} deals at that point of the match")
            if match.winner is not None:
                raise SaveFileError(f"{where}: the match was already over")
            if line["finished"]:
                if hand.phase != "over":
                    raise SaveFileError(f"{where}: marked finished, but only {len(hand.plays)} of {cards_dealt(match.rules)} cards are played")
                match.hand = hand
                match._finish_hand()
            else:
                match.hand = hand
                match.looked = bool(line.get("looked", False)) or hand.bids[HUMAN] is not None
        if match.hand is None and match.winner is None:
            match._start_hand()
        return match


def _and(words: list[str]) -> str:
    """``West``, ``West and East``, ``West, North and East``."""
    return " and ".join(filter(None, [", ".join(words[:-1]), words[-1]]))


def pass_refusal(exc: IllegalPassError, n: int, text: str) -> str:
    """One line for a refused pass, in the table's words, from the engine's reason."""
    if exc.reason == "bad_pass":
        return f"Not cards: {text!r} (write cards as AS KH)."
    if exc.reason == "count":
        return f"Pass {n} different cards to North."
    if exc.reason == "not_held":
        return f"You {exc.detail.removeprefix('it ')}."
    return exc.detail[:1].upper() + exc.detail[1:] + "."


def bid_refusal(exc: IllegalBidError, n: int, blind: bool) -> str:
    """One line for a refused bid, in the table's words, from the engine's reason."""
    return f"You may not bid {render.bid_text(n, blind)}: {exc.detail}."


_SPADE_LEAD_WORDS = {
    "broken": "Spades aren't broken yet",
    "after_first_trick": "Spades may not be led to the first trick",
    "after_three_tricks": "Spades may not be led before the fourth trick",
    "after_three_tricks_or_broken": "Spades aren't broken yet, and three tricks aren't played",
}


def play_refusal(exc: IllegalPlayError, hand: Hand, text: str) -> str:
    """One line for a refused card, in the site's words ("You must follow suit", "Spades
    aren't broken yet"), chosen by the engine's reason code."""
    if exc.reason == "bad_card":
        return f"Not a card: {text!r} (write a card as AS, 10d or Q♥)."
    if exc.reason == "not_held":
        return f"You do not hold {Card.parse(text)}."
    if exc.reason == "follow_suit":
        return f"You must follow suit: play {render.follow_suit_name(hand)}."
    if exc.reason == "spade_lead":
        return _SPADE_LEAD_WORDS.get(hand.rules.spade_lead, "Spades may not be led yet") + ": lead another suit."
    if exc.reason == "must_win":  # "seat 0 must win the trick (must_win): QH is winning and it holds AH KH"
        return f"You must win the trick if you can: {exc.detail.split(': ', 1)[1].replace('it holds', 'you hold')}."
    if exc.reason == "first_lead":
        return f"The first trick is led with the lowest club: {exc.detail.rsplit(', ', 1)[-1]}."
    return exc.detail[:1].upper() + exc.detail[1:] + "."


def read_match_file(path: str | os.PathLike) -> list[dict]:
    """The lines of a saved match (JSON objects), or ``SaveFileError``."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise SaveFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    lines = []
    for i, raw in enumerate(text.splitlines()):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except ValueError as exc:
            raise SaveFileError(f"{path}, line {i + 1}: not JSON ({exc})") from None
        if not isinstance(line, dict) or "hand" not in line:
            raise SaveFileError(f"{path}, line {i + 1}: not a saved hand (no 'hand' record)")
        lines.append(line)
    return lines


def hand_from_line(line: dict, where: str) -> Hand:
    """The ``Hand`` of a save-file line, every action checked again by the engine."""
    try:
        return Hand.from_record(line["hand"])
    except (IllegalBidError, IllegalPlayError, KeyError, TypeError, ValueError) as exc:
        raise SaveFileError(f"{where}: the hand does not replay ({exc})") from None
