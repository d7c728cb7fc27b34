"""spades_ai as a PettingZoo AEC environment. Needs ``pip install "spades-ai[pettingzoo]"``.

::

    from spades_ai.interop.pettingzoo import env
    e = env()                                   # or env(Rules(bag_limit=5), dealer=None, episode="match")
                                                # or env("cutthroat"), env(players=6, teams="pairs")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Every table of the rules: ``env(rules, players=..., teams=...)`` takes a ``Rules``, a preset's
name (``"cutthroat"``) or None (the defaults), with ``players`` (3 to 12) and ``teams``
(``"pairs"`` / ``"solo"``) set on them (``spades_ai.encoding.table_rules``). Agents
``player_0`` .. ``player_{N-1}`` are seats 0..N-1, clockwise (at four players in pairs partners 0
and 2, 1 and 3; in pairs seat s and s + N/2; solo every seat is its own side), playing our engine
(``spades_ai.Hand``) under our ``Rules``. An illegal action raises ``IllegalBidError`` /
``IllegalPlayError`` (ValueError) naming the seat and the reason, and changes nothing.

``episode="hand"`` (the default): an episode is one hand. ``reset(seed=s)`` deals deal 0 of seed
``s`` (the same cards as ``spades_ai.deal(s, 0)`` and our tournaments), the next resets deals 1,
2, ... of it; the dealer is ``dealer`` (default 0), or with ``dealer=None`` it rotates with the
deal (deal i: dealer i % N). Rewards: 0 until the hand is over, then each agent gets its side's
points for the hand (its partnership's in pairs, its own solo: ``Hand.result().points``, bag penalties
included), 1.0 per point.

``episode="match"``: an episode is a whole match (``spades_ai.interop.episode``): hand after
hand, the scores and bag counts carried and the dealer moving one seat left, until a side wins
by the rules (``target_score``, ``loss_threshold``, ``max_hands``). ``reset(seed=s)`` plays match
0 of seed ``s``, the next resets matches 1, 2, ...: the cards ``play_matches`` and
``VectorEnv(episode="match")`` deal there, the first dealer theirs with ``dealer=None``, or
``dealer``. Rewards: 0 until the match is decided, then +1 to each agent of the winning side and
-1 / (sides - 1) to the others (-1 with two sides; as the OpenSpiel game, ``interop.episode``); a
match still undecided after ``MAX_MATCH_HANDS`` hands is truncated with 0.
``infos[agent]["hand_no"]`` is the hand in progress.

Actions, ``Discrete(55 + E)`` with ``E`` the table's cards each: ``Discrete(68)`` at 13 cards
each (4, 8 and 12 players), 72 at 17 (3, 6, 9), 65 at 10 (5); the same ids as the OpenSpiel
game, ``spades_ai.interop.encoding``::

    0..51          play a card: our card id, suit * 13 + rank (suits C D H S, ranks 2..A): 0 = 2C, 51 = AS
    52..52+E       bid 0..E: 52 = nil, 53 = 1, ..., 52 + E = E
    53+E           blind nil: offered first, before the seat looks at its cards, when the rules allow one
    54+E           look: decline the blind nil, see the cards, then bid

Observations: ``{"observation": float32[size], "action_mask": int8[55 + E]}``, ``size`` the
table's (``observation_layout(rules).size``: 567 at four players in pairs, 455 at three); the
mask is all 0 for an agent that is not to act. Seats in the vector are relative to the observer:
0 = itself, 1 = its left (plays next), ..., N - 1 = its right; cards are indexed by id (with
several decks, a plane of 52 per copy level). The fields at four players in pairs (every table's
are ``observation_layout(rules).fields``)::

    offset size  field          holds
         0   52  own_cards      cards the observer holds now (all 0 before it has looked at them)
        52  208  played_by      cards each seat has played so far, one block of 52 per seat
       260  208  current_trick  the card each seat has played to the unfinished trick
       468    4  trick_leader   seat that led the unfinished trick (all 0 when it is empty)
       472   56  bids           each seat's bid, one-hot 0 (nil) .. 13; all 0 until the seat bids
       528    4  blind_nil      1 if the seat bid blind nil
       532    4  tricks_won     tricks each seat has won / 13
       536    5  phase          one-hot: dealing, blind_decision, bidding, playing, over
       541    4  dealer         one-hot dealer seat
       545    1  spades_broken  1 once a spade has been played
       546   16  voids          seat x suit (C D H S): 1 once the seat has shown it holds none
       562    2  scores         match scores before the hand, (own side, other side) / 1000, in [-1, 1]
       564    2  bag_counts     match bag counts before the hand, (own side, other side) / bag_limit
       566    1  trick_no       tricks finished / 13

Every entry is in [0, 1] except the scores ([-1, 1]); the scores and bag counts are the match's
(0 in a hand episode). ``spades_ai.interop.encoding.observation_vector(obs)`` gives the same vector
for one of our ``Observation`` objects, so a policy trained here can play in our tournaments.
"""

from __future__ import annotations

import os

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from spades_ai.encoding import table_rules
from spades_ai.interop.encoding import Table, observation_layout
from spades_ai.interop.episode import Episode, check_episode
from spades_ai.rules import Rules
from spades_ai.seats import seats
from spades_ai.checks import check_dealer, check_seed
from spades_ai.simulate import deal, first_dealer, match_deal


def agent_names(rules: Rules) -> list[str]:
    """The agents of the table: ``player_0`` .. ``player_{N-1}``, seat by seat."""
    return [f"player_{seat}" for seat in seats(rules)]


def env(rules=None, *, players: int | None = None, teams: bool | str | None = None, dealer: int | None = 0,
        episode: str = "hand", render_mode: str | None = None):
    """The AEC environment (``raw_env`` inside PettingZoo's order-enforcing wrapper) at the table
    of ``rules`` (a ``Rules``, a preset's name or None) with ``players`` and ``teams``.

    >>> e = env("cutthroat"); e.reset(seed=1)
    >>> e.possible_agents, e.agent_selection, e.observation_space("player_0")["observation"].shape
    (['player_0', 'player_1', 'player_2'], 'player_1', (455,))
    """
    raw = raw_env(rules, players=players, teams=teams, dealer=dealer, episode=episode, render_mode=render_mode)
    return wrappers.OrderEnforcingWrapper(raw)


class raw_env(AECEnv):  # noqa: N801 -- PettingZoo's name for the unwrapped environment
    """One hand or one match of Spades per episode at any table; see the module docstring."""

    metadata = {"name": "spades_ai_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, rules=None, *, players: int | None = None, teams: bool | str | None = None,
                 dealer: int | None = 0, episode: str = "hand", render_mode: str | None = None):  # fmt: skip
        super().__init__()
        self.episode_kind = check_episode(episode)  # "hand" or "match"; self.episode is the one in play
        self.rules = table_rules(rules, players, teams)
        Table(self.rules)  # refuses now the rules the adapters cannot play
        self.fixed_dealer = None if dealer is None else check_dealer(dealer, self.rules)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.layout = observation_layout(self.rules)
        self.possible_agents = agent_names(self.rules)
        self.agents = []
        self.action_spaces = {a: spaces.Discrete(self.layout.n_actions) for a in self.possible_agents}
        self.observation_spaces = {a: self._observation_space() for a in self.possible_agents}
        self._seed: int | None = None
        self._deal_index = 0  # the next episode's deal (hand episodes) or match number
        self._index = 0  # the deal or match number of this episode
        self.episode: Episode | None = None

    def _observation_space(self) -> spaces.Dict:
        n, size = self.layout.n_actions, self.layout.size
        return spaces.Dict(
            {
                "observation": spaces.Box(self.layout.low, self.layout.high, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )

    @property
    def table(self) -> Table | None:
        """The hand in progress (None before the first reset)."""
        return None if self.episode is None else self.episode.table

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed, self._deal_index = check_seed(seed), 0
        elif self._seed is None:
            self._seed = int.from_bytes(os.urandom(8), "little")
        self._index = index = self._deal_index
        self._deal_index += 1
        match = self.episode_kind == "match"
        if self.fixed_dealer is not None:
            dealer = self.fixed_dealer
        else:
            dealer = first_dealer(self._seed, index, self.rules) if match else index % self.rules.players
        self.episode = Episode(self.rules, dealer, self.episode_kind)
        self._deal()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: self._info() for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.to_act]

    def _deal(self) -> None:
        """Deal the hand in progress: the episode's deal of the seed, or its hand of the episode's match."""
        if self.episode.match:
            hands = match_deal(self._seed, self._index, self.table.hands_played, self.rules)
        else:
            hands = deal(self._seed, self._index, self.rules)
        self.table.start(hands)

    def _info(self) -> dict:
        return {"hand_no": self.table.hands_played} if self.episode.match else {}

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        if seat == self.table.to_act:
            mask = self.table.legal_mask()
        else:
            mask = np.zeros(self.layout.n_actions, dtype=np.int8)
        return {"observation": self.table.vector(seat), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.table.apply(action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        e = self.episode
        if self.table.over and e.end_hand():
            self._deal()
            self.infos = {a: self._info() for a in self.agents}
        if e.over:
            self.rewards = dict(zip(self.possible_agents, e.seat_returns()))
            cut = e.match and e.unfinished  # no winner after MAX_MATCH_HANDS hands
            self.truncations = dict.fromkeys(self.agents, cut)
            self.terminations = dict.fromkeys(self.agents, not cut)
        else:
            self.agent_selection = self.possible_agents[self.table.to_act]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None or self.table is None:
            return None
        text = str(self.table.hand)
        if self.episode.match:
            text = f"{self.episode.summary()}\n{text}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
