"""Waste, measured (issue 11, item 6): how often an agent plays a card dearer than the cheapest
card with the same effect on the current trick, and, for Hard and Crazy, whether their own
rollouts say the dearer card gains or the choice is noise.

    python experiments/waste.py [--deals 600] [--seed 31] [--agents normal hard crazy] [--deals-of crazy=150]

(agents as in a tournament file: ``hard:thrift=false`` is Hard without the thrift fix.)

Each agent holds seats 0 and 2 against Normal (seats 1 and 3) on deals ``0 .. deals-1`` of
``seed`` under the default rules (``play_hands(..., keep_plays=True)``); every card the agent
played is then classified, in the position it was played, by ``waste``. Reported per agent:
waste cards per player-hand (13 cards), with a 95% interval over deals (the two seats of a deal
averaged), by kind; and for Hard and Crazy, each waste card's decision is evaluated again with
the agent's own worlds (same seed, same stream: the worlds it saw), and the paired difference
between the card played and the cheapest card with the same effect says whether the card
played was clearly better in the rollouts (a **gain**, more than ``ANCHOR_Z`` standard errors:
bag management, unblocking, ...) or not (**noise**); also whether the card played was Normal's
(the anchor of ``anchored_choice``), i.e. the waste was inherited from the rollout policy. Two
contexts of the waste cards are shown as shares: a nil bid at the table (covering or attacking
a nil), and the seat's team having made its contract before the trick (shedding winners to
avoid bags).

Definitions (default rules: 52 cards, spades trump; card id ``suit * 13 + rank``, spades = 3):

- A card **wins now** if it beats every card of the trick so far (a lead always does): a spade
  beats any non-spade and a lower spade; a card of the led suit beats a lower one of that suit;
  any other card never wins.
- **Effect on the current trick** of a legal card ``c`` played by ``seat``:
  - last to play (three cards on the trick): the trick is decided; the effect is the team that
    wins it, or the seat that wins it when that team has a nil bidder (a nil's tricks are its own);
  - earlier: if ``c`` does not win now, the effect is "loses" (whatever the later seats play, the
    trick goes where it would have gone without ``c``); if it wins now, the effect is "wins, with
    ``k`` unseen cards of its suit above it", where unseen means not held by the seat and not yet
    played (a later seat may hold it): two such cards of one suit have the same effect exactly
    when no unseen card lies between them, so the later seats beat both or neither.
- **Cheaper**: ``a`` is cheaper than ``b`` if they share a suit and ``a`` ranks lower, or ``b`` is a
  spade and ``a`` is not (a trump is dearer than any side card). Cards of two side suits are
  not compared (which suit to discard is strategy, not waste).
- **Equal cards** are not waste: two cards of a suit with only the seat's own or already played
  cards (the current trick included) between them are the same card in every respect.
- A played card is **waste** if some legal card, not equal to it, has the same effect and is
  cheaper; the **cheapest** such card (lowest ``(is spade, rank)``) is its alternative. Kinds:
  ``overtake`` (last to play, it takes the trick from the partner, who was winning it: a ruff or
  a higher card), ``high win`` (it wins now or wins the trick, and a cheaper card does the
  same), ``high loss`` (it does not win, and a cheaper card loses as well: a high card or a
  trump thrown on a trick that is lost, or under the partner's winner).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from dataclasses import dataclass

import numpy as np

import spades_ai as sa
from spades_ai.analysis.summary import mean_interval
from spades_ai.engine.state import P_PLAYED, legal_now
from spades_ai.simulate import deal_masks
from spades_ai.agents.spec import parse_agent

SPADES = 3
KINDS = ("overtake", "high win", "high loss")


def suit(c: int) -> int:
    """The suit of an engine card id: the trump lane's jokers and high deuces (52..55) are spades."""
    return min(c // 13, SPADES)


def rank(c: int) -> int:
    """The rank of an engine card id: 0 for a two .. 12 for an ace, 13.. for the trump lane."""
    return c % 13 + 13 * (c >= 52)


def strength(card: int, led: int) -> tuple[int, int, int]:
    """Order of cards in a trick led in suit ``led``: spades, then the led suit, by rank."""
    return (suit(card) == SPADES, suit(card) == led, rank(card))


def trick_winner(trick: list[tuple[int, int]]) -> int:
    """The seat winning ``trick`` (a list of (seat, card id), leader first) so far."""
    led = suit(trick[0][1])
    return max(trick, key=lambda sc: strength(sc[1], led))[0]


def wins_now(trick: list[tuple[int, int]], card: int) -> bool:
    if not trick:
        return True
    led = suit(trick[0][1])
    best = max(strength(c, led) for _, c in trick)
    return strength(card, led) > best


def effect(trick, seat: int, card: int, unseen: int, nil_seats: frozenset) -> tuple:
    """The effect of ``card`` on the current trick (see the module docstring); ``unseen`` is a
    mask of the cards a later seat may hold."""
    if len(trick) == 3:
        w = trick_winner([*trick, (seat, card)])
        team = w & 1
        return ("seat", w) if any(s & 1 == team for s in nil_seats) else ("team", team)
    if not wins_now(trick, card):
        return ("loses",)
    above = sum(1 for c in range(card + 1, 56) if suit(c) == suit(card) and unseen >> c & 1)
    return ("wins", suit(card), above)


def cheaper(a: int, b: int) -> bool:
    """``a`` is cheaper than ``b`` (module docstring)."""
    return (suit(a) == suit(b) and rank(a) < rank(b)) or (suit(b) == SPADES and suit(a) != SPADES)


def equal_cards(a: int, b: int, gone: int) -> bool:
    """Same suit, and every card between them is in ``gone`` (own cards and cards played)."""
    if suit(a) != suit(b):
        return False
    lo, hi = min(a, b), max(a, b)
    return all(gone >> x & 1 for x in range(lo + 1, hi))


@dataclass(frozen=True)
class Waste:
    kind: str
    card: int
    cheapest: int


def waste(trick, seat: int, card: int, legal: list[int], hand: int, played: int, nil_seats=frozenset(),
          deck: int = (1 << 52) - 1) -> Waste | None:
    """Whether ``card`` (legal for ``seat``, holding ``hand``, after ``played``: every card played
    so far, the current trick included; engine ids, ``deck`` the rules' cards) wastes: the
    cheapest legal card with the same effect, and the kind; None if ``card`` is the cheapest (or
    equal to it)."""
    unseen = deck & ~hand & ~played
    gone = hand | played | (((1 << 56) - 1) & ~deck)
    mine = effect(trick, seat, card, unseen, nil_seats)
    alts = [c for c in legal if c != card and cheaper(c, card) and not equal_cards(c, card, gone)
            and effect(trick, seat, c, unseen, nil_seats) == mine]
    if not alts:
        return None
    cheapest = min(alts, key=lambda c: (suit(c) == SPADES, rank(c), suit(c)))
    if len(trick) == 3:
        before = trick_winner(trick)
        after = trick_winner([*trick, (seat, card)])
        if before == (seat + 2) & 3 and after == seat:
            return Waste("overtake", card, cheapest)
        return Waste("high win" if after == seat else "high loss", card, cheapest)
    return Waste("high win" if mine[0] == "wins" else "high loss", card, cheapest)


# -- playing and classifying ------------------------------------------------------------------
@dataclass
class Event:
    deal: int
    seat: int
    waste: Waste
    obs: object
    nil: bool  # a seat of the table bid nil
    made: bool  # the seat's team had made its contract before this trick


def classify_run(spec: str, deals: int, seed: int):
    """Play ``spec`` (seats 0, 2) against Normal and classify every card of the agent: a
    ``(deals, 2)`` array of waste counts per player-hand by kind, and the waste events."""
    agent = parse_agent(spec).build()
    rec = sa.play_hands([agent, "normal"], deals, seed=seed, keep_plays=True)
    masks = deal_masks(seed, 0, deals)
    counts = np.zeros((deals, 2, len(KINDS)), dtype=np.int64)
    events = []
    for i in range(deals):
        dealer = int(rec.dealer[i])
        hand = sa.Hand(masks[i].tolist(), dealer=dealer)
        for k in range(4):
            s = (dealer + 1 + k) & 3
            hand.bid(int(rec.bids[i, s]), blind=bool(rec.blind[i, s]))
        nil_seats = frozenset(s for s in range(4) if int(rec.bids[i, s]) == 0)
        for c in rec.plays[i]:
            obs = hand.observation()
            if obs.seat % 2 == 0:
                trick = [(s, int(x)) for s, x in obs.current_trick]
                played = int(obs.public[P_PLAYED])
                legal = [int(x) for x in obs.legal_cards()]
                w = waste(trick, obs.seat, int(c), legal, int(obs.cards), played, nil_seats)
                if w is not None:
                    counts[i, obs.seat // 2, KINDS.index(w.kind)] += 1
                    won = obs.tricks_won
                    team = [s for s in (obs.seat, obs.seat ^ 2) if int(rec.bids[i, s]) > 0]
                    made = bool(team) and sum(won[s] for s in team) >= sum(int(rec.bids[i, s]) for s in team)
                    events.append(Event(i, obs.seat, w, obs, bool(nil_seats), made))
            hand.play(int(c))
    return agent, counts, events


def judge(agent, ev: Event) -> tuple[str, bool, float, float]:
    """Re-evaluate a waste decision of Hard or Crazy with its own worlds: ("gain" | "noise" |
    "loss", the card was Normal's, mean advantage of the card played over the cheapest, its
    standard error)."""
    from spades_ai.montecarlo.candidates import play_candidates
    from spades_ai.montecarlo.selection import ANCHOR_Z, worlds_for

    m = agent.module
    pub, seat, hand, rules, settings, state = agent.search_args(ev.obs)
    settings = settings._replace(race_z=0.0, play_eps=0.0)  # every candidate plays every world
    legal = np.uint64(legal_now(pub, hand, rules))
    cands = int(play_candidates(pub, hand, legal))
    ids = np.array([c for c in range(52) if cands >> c & 1], dtype=np.int64)
    policy = int(m.rollout_play(pub, seat, hand, legal, rules))
    anchor_card = max(c for c in ids if c <= policy and suit(c) == suit(policy))
    n = worlds_for(settings.worlds, settings.rollouts, len(ids))
    values, weights, _, _, _ = m.evaluate(pub, seat, hand, rules, ids, False, n, settings, state, 0)
    a = list(ids).index(ev.waste.card)
    b = list(ids).index(ev.waste.cheapest)
    d = values[:, a] - values[:, b]
    w = weights
    mean = float((w * d).sum() / w.sum())
    n_eff = w.sum() ** 2 / (w * w).sum()
    se = float(np.sqrt((w * (d - mean) ** 2).sum() / w.sum() / max(n_eff - 1.0, 1.0)))
    z = ANCHOR_Z
    verdict = "gain" if mean > z * se else ("loss" if mean < -z * se else "noise")
    return verdict, anchor_card == ev.waste.card, mean, se


def fmt(m, lo, hi) -> str:
    return f"{m:.3f} [{lo:.3f}, {hi:.3f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--agents", nargs="+", default=["normal", "hard", "crazy"], help="agent specs (as in a tournament file)")
    ap.add_argument("--deals-of", nargs="*", default=["crazy=150"], metavar="SPEC=N", help="fewer deals for a slow agent")
    args = ap.parse_args()
    fewer = dict(x.rsplit("=", 1) for x in args.deals_of)
    print(f"`python experiments/waste.py {' '.join(sys.argv[1:])}`: seed {args.seed}, each agent at seats 0 and 2 against "
          f"Normal; {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, spades_ai {sa.__version__}.")
    print()
    print("| agent | deals | waste cards per player-hand (95% interval) | overtake | high win | high loss | nil at the table | contract made | gain | noise | loss | Normal's card |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for spec in args.agents:
        deals = int(fewer.get(spec, args.deals))
        t0 = time.process_time()
        agent, counts, events = classify_run(spec, deals, args.seed)
        per_deal = counts.sum(axis=2).mean(axis=1)  # the two seats of a deal averaged
        cols = [fmt(*mean_interval(per_deal))]
        for k in range(len(KINDS)):
            cols.append(f"{counts[:, :, k].mean():.3f}")
        n_ev = max(len(events), 1)
        cols.append(f"{sum(e.nil for e in events) / n_ev:.0%}")
        cols.append(f"{sum(e.made for e in events) / n_ev:.0%}")
        if hasattr(agent, "module"):
            verdicts = [judge(agent, ev) for ev in events]
            n = max(len(verdicts), 1)
            for v in ("gain", "noise", "loss"):
                cols.append(f"{sum(x[0] == v for x in verdicts) / n:.0%}")
            cols.append(f"{sum(x[1] for x in verdicts) / n:.0%}")
        else:
            cols += ["-", "-", "-", "-"]
        print(f"| {spec} | {deals:,} | " + " | ".join(cols) + " |", flush=True)
        print(f"<!-- {spec}: {len(events)} waste cards, {time.process_time() - t0:.0f} s CPU -->", flush=True)


if __name__ == "__main__":
    main()
