"""What the page is sent: a match as you may see it, as one JSON-ready dict.

Everything comes from the engine through your own view of the hand (``Hand.view(0)``): the
other seats' cards are never sent (only how many each holds), closed bids stay hidden until the
play, and what you may do now (the legal bids, the cards you may play, the count of cards to
pass) is the engine's answer, not the page's. The pictures are ``spades_ai.render``'s: each
card's HTML (``card_html``) and the score sheet of each finished hand (``sheet_html``).
"""

from __future__ import annotations

from spades_ai.render.html import card_html, sheet_html
from spades_ai.render.text import TABLE_NAMES, TABLE_TEAMS, trick_winners
from spades_ai.table.game import HUMAN, PARTNER_LEVEL, TableMatch


class BrowserMatch(TableMatch):
    """A ``TableMatch`` at the browser table, which shows card passing and closed bidding."""

    shows_hidden_rules = True


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


def hand_view(match: TableMatch) -> dict:
    """The hand in progress as you see it (empty once the match is over)."""
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
    contracts = [[you.tricks_won[t] + you.tricks_won[t + 2], sum(bids[s] or 0 for s in (t, t + 2))] for t in (0, 1)]
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
        "held": [13 - len(you.played_by[s]) for s in range(4)],
        "trick": _trick(you.current_trick),
        "last_trick": last,
        "trick_no": you.trick_no,
        "spades_broken": you.spades_broken,
    }


def match_stats(match: TableMatch) -> dict:
    """The results screen's figures: contracts made by team, and yours (bids made, nils,
    tricks taken)."""
    results = match.results
    number_bids = [r for r in results if r.bids[HUMAN] > 0]
    nils = [r for r in results if r.bids[HUMAN] == 0]
    return {
        "hands": len(results),
        "contracts_made": [sum(bool(r.made[t]) for r in results if r.contract[t] > 0) for t in (0, 1)],
        "contracts_bid": [sum(r.contract[t] > 0 for r in results) for t in (0, 1)],
        "your_bids_made": sum(r.tricks_won[HUMAN] >= r.bids[HUMAN] for r in number_bids),
        "your_number_bids": len(number_bids),
        "your_nils_made": sum(bool(r.nil_made[HUMAN]) for r in nils),
        "your_nils": len(nils),
        "your_tricks": sum(r.tricks_won[HUMAN] for r in results),
        "bags": [sum(r.new_bags[t] for r in results) for t in (0, 1)],
    }


def match_view(match: TableMatch, lines: list[str] | None = None) -> dict:
    """The whole page state: the settings, the match score, the hand (``hand_view``), every
    score sheet of the last finished hand (of every one once over), the results, and ``lines``: what just happened."""
    return {
        "level": match.level,
        "partner_level": PARTNER_LEVEL[match.level],
        "rules": match.rules.to_dict(),
        "names": list(TABLE_NAMES),
        "teams": list(TABLE_TEAMS),
        "scores": list(match.scores),
        "bag_count": list(match.bag_count),
        "over": match.over,
        "winner": match.winner,
        "result_line": match.result_line() if match.over else "",
        "hand": hand_view(match),
        # every sheet on the results screen; during the match the last one (shown before NEXT HAND)
        "sheets": [
            {"hand_no": k, "points": list(r.points), "scores": list(r.scores), "html": sheet_html(r, TABLE_NAMES, TABLE_TEAMS)}
            for k, r in enumerate(match.results)
            if match.over or k == len(match.results) - 1
        ],
        "stats": match_stats(match),
        "lines": lines or [],
    }
