"""Hand records as text: PBN-style tag pairs (Portable Bridge Notation, adapted to Spades).

A record is a block of lines: ``% comments``, tag pairs ``[Tag "value"]``, and after the
``Auction`` and ``Play`` tags their sections, as in PBN. Several records in one file are
separated by a blank line. The tags, in the order they are written:

========================  ============================================================
``[Event "..."]``         free text (optional)
``[Game "Spades"]``       always ``Spades``
``[Dealer "W"]``          the dealer's compass letter
``[Deal "N:..."]``        the four hands as dealt, clockwise from the letter before the
                          colon, each ``spades.hearts.diamonds.clubs`` with ranks
                          ``AKQJT98765432`` (PBN's form); under jokers a fifth field holds
                          them (``BJ``, ``LJ``, ``BJLJ``); a high deuce stays in its suit
``[Rules "k=v; ..."]``    the ``Rules`` fields that differ from the defaults (``""``: the
                          default rules); values are ints, ``true`` / ``false``, ``none`` or
                          words
``[MatchScore "NS 0 EW 0"]``, ``[BagCount "NS 0 EW 0"]``, ``[HandsPlayed "0"]``
                          the match state before the hand
``[Pass "2"]``            under ``pass_cards``: the cards each seat passed its partner before
                          the bidding, one line a seat (``S SA HT``: the seat, its cards)
``[Auction "N"]``         the first bidder; then the bids in bidding order, in lines:
                          ``1`` .. ``13``, ``Nil``, ``BlindNil``
``[BlindPass "1"]``       under ``blind_pass``: the blind pass after the bidding, the same way
``[Play "N"]``            the opening leader; then one line per trick, the cards in the
                          order of the seats clockwise from the opening leader (PBN's
                          columns, whoever led the trick), suit first (``SA``, ``HT``,
                          ``BJ``); ``-`` for a card not yet played in the last trick
``[Result "S 3 W 4 N 2 E 4"]``, ``[Points "NS 40 EW 52"]``
                          tricks by seat and the hand's points, for a finished hand;
                          checked on reading
========================  ============================================================

Seats (the same as at ``spades-ai play``'s table): seat 0 is South, seat 1 West, seat 2 North,
seat 3 East (``SEAT_LETTERS``); side 0 is NS (seats 0 and 2), side 1 is EW (seats 1 and 3).

Reading replays every bid and card through ``Hand``: a malformed record raises ``PBNError``
naming the line, the tag and the problem, a refused bid or card names it, and nothing is
corrected. Every ``Rules`` of the four-player partnership table can be written (the ``Rules``
tag holds any field, the ``Pass`` and ``BlindPass`` sections the passes). The format's four
compass seats and two pairs fix that table (and its one deck): a hand of 3 or 5 players, of
four solo, or of 6 to 12 players (two and three decks, whose hands may hold a card twice) is
refused by name through ``capabilities.require_table(rules, "pbn")``, written (``TableError``)
or read (``PBNError`` on the ``Rules`` tag); save such a hand as JSON lines instead
(``spades_ai.records``, one ``Hand.to_record()`` a line), which hold every table.

>>> from spades_ai import Hand, deal
>>> h = Hand(deal(seed=1)); [h.bid(3) for _ in range(h.rules.players)] and None
>>> Hand.from_pbn(h.to_pbn()).to_record() == h.to_record()
True
"""

from __future__ import annotations

import dataclasses
import re

from spades_ai.cards import RANK_CHARS, SUIT_CHARS
from spades_ai.capabilities import require_table
from spades_ai.errors import FieldError, IllegalBidError, IllegalPassError, IllegalPlayError, RulesError, TableError
from spades_ai.game import Hand
from spades_ai.rules import Rules
from spades_ai.seats import cards_dealt, left_of, seat_order, seats

#: The compass letter of each seat: seat 0 South, 1 West, 2 North, 3 East (clockwise).
SEAT_LETTERS = "SWNE"
_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_HOLDING_ORDER = (3, 2, 1, 0)  # PBN writes spades, hearts, diamonds, clubs
_SECTIONS = ("Pass", "Auction", "BlindPass", "Play")


class PBNError(ValueError):
    """A record that cannot be read: the line, the tag and the problem."""

    def __init__(self, line: int | None, tag: str | None, problem: str):
        self.line, self.tag, self.problem = line, tag, problem
        where = f"line {line}" if line is not None else "the record"
        super().__init__(f"{where}{f' [{tag}]' if tag else ''}: {problem}")


def seat_of(letter: str) -> int:
    """The seat of a compass letter (``S`` 0, ``W`` 1, ``N`` 2, ``E`` 3); ``ValueError`` else."""
    if not isinstance(letter, str) or len(letter.strip()) != 1 or letter.strip().upper() not in SEAT_LETTERS:
        raise ValueError(f"a seat is one of the letters N, E, S, W, not {letter!r}")
    return SEAT_LETTERS.index(letter.strip().upper())


# -- writing ---------------------------------------------------------------------------------
def pbn_card(card) -> str:
    """A card as a PBN play names it, suit first: ``SA``, ``HT``; ``BJ`` / ``LJ`` for jokers."""
    name = str(card)
    return name if name in ("BJ", "LJ") else SUIT_CHARS[int(card) // 13] + RANK_CHARS[int(card) % 13]


def _holding(cards) -> str:
    by_suit = dict.fromkeys(_HOLDING_ORDER, "")
    jokers = []
    for c in sorted(cards, key=int, reverse=True):
        if str(c) in ("BJ", "LJ"):
            jokers.append(str(c))
        else:
            by_suit[int(c) // 13] += RANK_CHARS[int(c) % 13]
    return ".".join(by_suit[s] for s in _HOLDING_ORDER) + (f".{''.join(sorted(jokers))}" if jokers else "")


def _rules_text(rules: Rules) -> str:
    default = Rules()
    parts = []
    for f in dataclasses.fields(Rules):
        v = getattr(rules, f.name)
        if v != getattr(default, f.name):
            parts.append(f"{f.name}={'none' if v is None else str(v).lower() if isinstance(v, bool) else v}")
    return "; ".join(parts)


def _bid_token(bid: int, blind: bool) -> str:
    return "BlindNil" if blind else "Nil" if bid == 0 else str(bid)


def _by_side(pair) -> str:
    return f"NS {pair[0]} EW {pair[1]}"


def _tricks_by_seat(result, rules: Rules) -> str:
    return " ".join(f"{SEAT_LETTERS[s]} {result.tricks_won[s]}" for s in seats(rules))


def to_pbn(hand: Hand, event: str | None = None) -> str:
    """The PBN record of a hand, in play or over (see the module docstring); four seats in
    pairs only (S W N E), any other table is refused by name."""
    rules = require_table(hand.rules, "pbn")
    rules_text = _rules_text(rules)
    deal = " ".join(_holding(hand.deal[s]) for s in seat_order(seat_of("N"), rules))  # N E S W
    first = left_of(hand.dealer, rules)
    lines = ["% spades_ai hand record; seats: S = 0, W = 1, N = 2, E = 3; teams NS = 0, EW = 1"]
    if event is not None:
        lines.append(f'[Event "{_quote(event)}"]')
    lines += ['[Game "Spades"]', f'[Dealer "{SEAT_LETTERS[hand.dealer]}"]', f'[Deal "N:{deal}"]',
              f'[Rules "{rules_text}"]', f'[MatchScore "{_by_side(hand.scores)}"]',
              f'[BagCount "{_by_side(hand.bag_count)}"]', f'[HandsPlayed "{hand.hands_played}"]']
    lines += _pass_section(hand, 0, "Pass", hand.rules.pass_cards)
    lines.append(f'[Auction "{SEAT_LETTERS[first]}"]')
    lines += [" ".join(_bid_token(b, bl) for _, b, bl in hand.bid_history())] if hand.bid_history() else []
    if any(p is not None for p in hand.passes[1]):
        lines += _pass_section(hand, 1, "BlindPass", hand.rules.blind_pass)
    if hand.plays:
        opening = hand.plays[0][0]
        lines.append(f'[Play "{SEAT_LETTERS[opening]}"]')
        for k in range(0, len(hand.plays), rules.players):
            by_seat = {s: pbn_card(c) for s, c in hand.plays[k : k + rules.players]}
            lines.append(" ".join(by_seat.get(s, "-") for s in seat_order(opening, rules)))
    if hand.phase == "over":
        r = hand.result()
        lines.append(f'[Result "{_tricks_by_seat(r, rules)}"]')
        lines.append(f'[Points "{_by_side(r.points)}"]')
    return "\n".join(lines) + "\n"


def _pass_section(hand: Hand, rnd: int, tag: str, n: int) -> list[str]:
    """A passing round: the tag (cards each) and one line per seat that has chosen."""
    if not n:
        return []
    lines = [f'[{tag} "{n}"]']
    for seat, cards in enumerate(hand.passes[rnd]):
        if cards is not None:
            lines.append(f"{SEAT_LETTERS[seat]} " + " ".join(pbn_card(c) for c in sorted(cards, key=int, reverse=True)))
    return lines


def _quote(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def write_pbn(hands, path, events=None) -> None:
    """Write several hands to one PBN file, a blank line between the records."""
    events = [None] * len(hands) if events is None else list(events)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(to_pbn(h, e) for h, e in zip(hands, events)))


# -- reading ---------------------------------------------------------------------------------
#: PBN's informational tags, read and kept as text; any other unknown tag is refused.
INFO_TAGS = ("Event", "Site", "Date", "Round", "Board", "North", "East", "South", "West", "Annotator", "Description")
KNOWN_TAGS = ("Game", "Dealer", "Deal", "Rules", "MatchScore", "BagCount", "HandsPlayed", "Pass", "Auction", "BlindPass",
              "Play", "Result", "Points")
_CARD = re.compile(r"^(?:([SHDC])([2-9TJQKA])|(BJ|LJ))$", re.IGNORECASE)


@dataclasses.dataclass
class _Tag:
    name: str
    value: str
    line: int
    section: list  # (line number, text) of the lines after Auction / Play


def records(text: str) -> list[list[_Tag]]:
    """The records of a PBN text (blank lines between them), each as its tags in order."""
    out: list[list[_Tag]] = []
    current: list[_Tag] = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            if current:
                out.append(current)
                current = []
            continue
        if line.startswith(("%", ";")):
            continue
        if line.startswith("["):
            m = _TAG.match(line)
            if m is None:
                name = re.match(r"^\[(\w*)", line).group(1) or None
                raise PBNError(no, name, f'not a tag pair [Tag "value"]: {line!r}')
            name, value = m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))
            if name not in KNOWN_TAGS and name not in INFO_TAGS:
                raise PBNError(no, name, f"unknown tag (known: {', '.join(KNOWN_TAGS + INFO_TAGS)})")
            if any(t.name == name for t in current):
                raise PBNError(no, name, "the tag appears twice in one record")
            current.append(_Tag(name, value, no, []))
        elif current and current[-1].name in _SECTIONS:
            current[-1].section.append((no, line))
        else:
            after = f"after [{current[-1].name}]" if current else "before any tag"
            raise PBNError(no, current[-1].name if current else None, f"a line that is no tag, {after}: {line!r}")
    if current:
        out.append(current)
    return out


def read_pbn(text: str) -> list[Hand]:
    """Every hand of a PBN text, each replayed through ``Hand`` (see the module docstring)."""
    return [_read_record({t.name: t for t in tags}) for tags in records(text)]


def from_pbn(text: str) -> Hand:
    """The one hand of a PBN record (``Hand.from_pbn``); a text with several raises."""
    found = records(text)
    if len(found) != 1:
        raise PBNError(None, None, f"the text holds {len(found)} records, not one (read them with spades_ai.pbn.read_pbn)")
    return _read_record({t.name: t for t in found[0]})


def _need(tags: dict, name: str) -> _Tag:
    if name not in tags:
        first = min((t.line for t in tags.values()), default=None)
        raise PBNError(first, name, "the record has no such tag, and it is required")
    return tags[name]


def _seat_tag(tag: _Tag) -> int:
    try:
        return seat_of(tag.value)
    except ValueError as exc:
        raise PBNError(tag.line, tag.name, str(exc)) from None


def _read_rules(tag: _Tag | None) -> Rules:
    if tag is None or not tag.value.strip():
        return Rules()
    fields = {}
    for part in tag.value.split(";"):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        if not eq:
            raise PBNError(tag.line, tag.name, f"{part.strip()!r} is not key=value")
        key, value = key.strip(), value.strip()
        low = value.lower()
        fields[key] = None if low == "none" else {"true": True, "false": False}.get(low, int(value) if re.fullmatch(r"-?\d+", value) else value)
    try:
        rules = Rules.from_dict(fields)
    except (RulesError, ValueError, TypeError) as exc:
        raise PBNError(tag.line, tag.name, str(exc)) from None
    try:  # the format's four compass seats (S W N E) and two pairs (NS, EW)
        return require_table(rules, "pbn")
    except TableError as exc:
        raise PBNError(tag.line, tag.name, str(exc)) from None


def _read_deal(tag: _Tag, rules: Rules) -> list[list[str]]:
    """Every seat's cards (names such as ``AS``, ``BJ``) from ``N:h h h h``, clockwise from
    the seat before the colon."""
    first, colon, rest = tag.value.partition(":")
    if not colon:
        raise PBNError(tag.line, tag.name, 'a deal is "N:" (or E:, S:, W:) and four hands')
    try:
        start = seat_of(first)
    except ValueError as exc:
        raise PBNError(tag.line, tag.name, str(exc)) from None
    holdings = rest.split()
    if len(holdings) != rules.players:
        raise PBNError(tag.line, tag.name, f"a deal has {rules.players} hands, not {len(holdings)}")
    hands: list[list[str]] = [[] for _ in seats(rules)]
    for seat, text in zip(seat_order(start, rules), holdings):  # the compass N E S W is clockwise too
        letter = SEAT_LETTERS[seat]
        parts = text.split(".")
        if len(parts) not in (4, 5):
            raise PBNError(tag.line, tag.name, f"{letter}'s hand {text!r} is spades.hearts.diamonds.clubs (and .jokers)")
        cards = []
        for suit, ranks in zip(_HOLDING_ORDER, parts[:4]):
            for r in ranks.upper():
                if r not in RANK_CHARS:
                    raise PBNError(tag.line, tag.name, f"{letter}'s hand: {r!r} is no rank (AKQJT98765432)")
                cards.append(r + SUIT_CHARS[suit])
        jokers = parts[4].upper() if len(parts) == 5 else ""
        if re.fullmatch(r"(BJ|LJ)*", jokers) is None:
            raise PBNError(tag.line, tag.name, f"{letter}'s jokers field {parts[4]!r} holds BJ and LJ only")
        cards += [jokers[i : i + 2] for i in range(0, len(jokers), 2)]
        hands[seat] = cards
    return hands


def _pair(tag: _Tag | None, integer=int) -> tuple[int, int]:
    if tag is None:
        return (0, 0)
    m = re.fullmatch(r"NS\s+(-?\d+)\s+EW\s+(-?\d+)", tag.value.strip())
    if m is None:
        raise PBNError(tag.line, tag.name, f'expected "NS <int> EW <int>", not {tag.value!r}')
    return (int(m.group(1)), int(m.group(2)))


def _read_record(tags: dict) -> Hand:
    game = tags.get("Game")
    if game is not None and game.value.strip().lower() != "spades":
        raise PBNError(game.line, "Game", f"this reader reads Spades records, not {game.value!r}")
    rules = _read_rules(tags.get("Rules"))
    dealer = _seat_tag(_need(tags, "Dealer"))
    deal_tag = _need(tags, "Deal")
    deal = _read_deal(deal_tag, rules)
    played = tags.get("HandsPlayed")
    try:
        hands_played = int(played.value) if played is not None else 0
    except ValueError:
        raise PBNError(played.line, "HandsPlayed", f"expected an int, not {played.value!r}") from None
    try:
        hand = Hand([" ".join(c) for c in deal], dealer, rules, _pair(tags.get("MatchScore")), _pair(tags.get("BagCount")),
                    hands_played=hands_played)  # fmt: skip
    except ValueError as exc:  # a FieldError names the argument it refuses; anything else is the deal's
        field = exc.field if isinstance(exc, FieldError) else None
        by_field = {"bag_count": "BagCount", "hands_played": "HandsPlayed", "scores": "MatchScore"}
        tag = tags.get(by_field.get(field, "Deal"), deal_tag)
        raise PBNError(tag.line, tag.name, str(exc)) from None
    _read_passes(hand, tags.get("Pass"), hand.rules.pass_cards)
    if "Auction" in tags:
        _read_auction(hand, tags["Auction"])
    _read_passes(hand, tags.get("BlindPass"), hand.rules.blind_pass)
    if "Play" in tags:
        _read_play(hand, tags["Play"])
    _check_result(hand, tags)
    return hand


def _read_auction(hand: Hand, tag: _Tag) -> None:
    first = _seat_tag(tag)
    if first != left_of(hand.dealer, hand.rules):
        want = SEAT_LETTERS[left_of(hand.dealer, hand.rules)]
        raise PBNError(tag.line, tag.name, f"the bidding starts at the dealer's left, {want}, not {tag.value}")
    tokens = [(no, tok) for no, text in tag.section for tok in text.split()]
    n = hand.rules.players
    if len(tokens) > n:
        raise PBNError(tokens[n][0], tag.name, f"{n} bids make the auction, and it holds {len(tokens)}")
    for i, (no, tok) in enumerate(tokens):
        low = tok.lower()
        if low in ("nil", "blindnil"):
            bid, blind = 0, low == "blindnil"
        elif re.fullmatch(r"\d{1,2}", tok):
            bid, blind = int(tok), False
        else:
            raise PBNError(no, tag.name, f"bid {i + 1} {tok!r} is none of 1..13, Nil, BlindNil")
        try:
            hand.bid(bid, blind=blind)
        except IllegalBidError as exc:
            raise PBNError(no, tag.name, f"bid {i + 1} ({tok}) is refused: {exc}") from None


def _read_passes(hand: Hand, tag: _Tag | None, n: int) -> None:
    """A passing round's section: ``S SA HT`` lines, each seat's pass through ``Hand``."""
    if tag is None:
        return
    if tag.value.strip() != str(n):
        raise PBNError(tag.line, tag.name, f"the rules pass {n} card(s) in this round, not {tag.value!r}")
    for no, text in tag.section:
        letter, *tokens = text.split()
        try:
            seat = seat_of(letter)
        except ValueError as exc:
            raise PBNError(no, tag.name, str(exc)) from None
        cards = [_read_card(no, tok, tag.name) for tok in tokens]
        try:
            hand.pass_cards(seat, cards)
        except IllegalPassError as exc:
            raise PBNError(no, tag.name, str(exc)) from None


def _read_card(no: int, tok: str, tag: str) -> str:
    m = _CARD.match(tok)
    if m is None:
        raise PBNError(no, tag, f"{tok!r} is no card: suit then rank (SA, HT, D2, C9), or BJ / LJ")
    return m.group(3).upper() if m.group(3) else (m.group(2) + m.group(1)).upper()


def _read_play(hand: Hand, tag: _Tag) -> None:
    if hand.phase != "playing":
        raise PBNError(tag.line, tag.name, f"the play starts after {hand.rules.players} bids, and the hand is {hand.phase}")
    opening = _seat_tag(tag)
    if opening != hand.to_act:
        raise PBNError(tag.line, tag.name, f"{SEAT_LETTERS[hand.to_act]} leads the first trick under these rules, not {tag.value}")
    for k, (no, text) in enumerate(tag.section):
        tokens = text.split()
        if len(tokens) != hand.rules.players:
            raise PBNError(no, tag.name, f"trick {k + 1} has {len(tokens)} entries, not {hand.rules.players} (one per seat, - for none)")
        if hand.phase != "playing":
            raise PBNError(no, tag.name, f"trick {k + 1} comes after the end of the hand")
        cards = {s: None if tok == "-" else _read_card(no, tok, tag.name)
                 for s, tok in zip(seat_order(opening, hand.rules), tokens)}  # fmt: skip
        for _ in seats(hand.rules):
            seat = hand.to_act
            if cards[seat] is None:
                break
            try:
                hand.play(cards.pop(seat))
            except IllegalPlayError as exc:
                raise PBNError(no, tag.name, f"trick {k + 1}: {exc}") from None
        left = {s: c for s, c in cards.items() if c is not None}
        if left:
            seat, card = next(iter(left.items()))
            raise PBNError(no, tag.name, f"trick {k + 1} lists {card} for {SEAT_LETTERS[seat]}, after a seat that did not play ({SEAT_LETTERS[hand.to_act]})")
        if len(hand.plays) % hand.rules.players and k != len(tag.section) - 1:
            raise PBNError(no, tag.name, f"trick {k + 1} is unfinished, and only the last trick may be")


def _check_result(hand: Hand, tags: dict) -> None:
    for name in ("Result", "Points"):
        tag = tags.get(name)
        if tag is None:
            continue
        if hand.phase != "over":
            raise PBNError(tag.line, name, f"the hand is not over ({len(hand.plays)} of {cards_dealt(hand.rules)} cards played), so it has no {name.lower()}")
        r = hand.result()
        want = _tricks_by_seat(r, hand.rules) if name == "Result" else _by_side(r.points)
        got = " ".join(tag.value.split())
        if name == "Result" and sorted(got.split()[::2]) == sorted(SEAT_LETTERS):  # any seat order
            parts = got.split()
            got = " ".join(f"{s} {dict(zip(parts[::2], parts[1::2]))[s]}" for s in SEAT_LETTERS)
        if got != want:
            raise PBNError(tag.line, name, f"the record says {tag.value!r}, and the play gives {want!r}")


def as_hand(record) -> Hand:
    """A ``Hand`` from a ``Hand`` (itself), a PBN text (``from_pbn``), or a record from
    ``Hand.to_record`` or its JSON (``Hand.from_record``): every form a hand is passed around in.

    >>> from spades_ai import deal
    >>> h = Hand(deal(seed=1))
    >>> as_hand(h) is h, as_hand(h.to_pbn()).deal == as_hand(h.to_json()).deal == h.deal
    (True, True)
    """
    if isinstance(record, Hand):
        return record
    if isinstance(record, str) and record.lstrip().startswith(("[", "%")):
        return from_pbn(record)
    if isinstance(record, (str, dict)):
        return Hand.from_record(record)
    raise TypeError(f"a hand is a Hand, a record (dict or JSON) or a PBN text, not {type(record).__name__}")


def read_pbn_file(path) -> list[Hand]:
    """Every hand of a PBN file."""
    with open(path, encoding="utf-8") as f:
        return read_pbn(f.read())


# ``Hand``'s PBN methods, attached from here so that ``spades_ai.game`` never imports its formats
Hand.to_pbn = to_pbn
Hand.from_pbn = staticmethod(from_pbn)
