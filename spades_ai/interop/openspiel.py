"""spades_ai as an OpenSpiel game, and bots both ways. Needs ``pip install "spades-ai[openspiel]"``.

Importing this module registers the game ``"spades_ai"``::

    import pyspiel
    import spades_ai.interop.openspiel
    game = pyspiel.load_game("spades_ai", {"bag_limit": 5, "blind_nil": True})

Game: one hand of Spades played by our engine (``spades_ai.Hand``) under our ``Rules``. Players
0..3 are our seats (clockwise; partners 0 and 2, 1 and 3). An episode is the deal, the bidding
from the dealer's left, then 13 tricks; the match score and bag count start at 0.
Returns: at the end of the hand each player gets its team's points for the hand
(``Hand.result().points``, bag penalties included), 1.0 per point: a made bid of 4 is 40.0 (plus
1.0 per bag), a made nil +100.0. General-sum: the two teams' points are independent.
Actions (``spades_ai.interop.encoding``; the same ids in the PettingZoo environment)::

    0..51   play a card: our card id, suit * 13 + rank (suits C D H S, ranks 2..A): 0 = 2C, 51 = AS
    52..65  bid 0..13: 52 = nil, 53 = 1, ..., 65 = 13
    66      blind nil: offered first, before the seat looks at its cards, when the rules allow one
    67      look: decline the blind nil, see the cards, then bid with 52..65

Chance: 52 chance nodes deal the cards one at a time, outcome = card id, uniform over the cards
not yet dealt; the k-th card goes to seat (dealer + 1 + k) % 4.
Parameters: every field of ``spades_ai.Rules`` under its own name and default, checked by
``Rules`` (an error names the parameter); ``target_score``, ``loss_threshold`` and ``max_hands``
take 0 for None (off). Plus ``dealer`` (0..3, default 0).
Observation tensor: the 567 floats of ``encoding.FIELDS`` from the player's point of view
(listed field by field in ``spades_ai.interop.pettingzoo``). Information state tensor: the same,
then the cards the player was dealt (52, once it has looked at them), then every card played in
order (52 x 52 one-hot), which makes it perfect recall. Strings: readable, no hidden card.

Bots both ways: ``SpadesBot(agent)`` is one of our agents as a ``pyspiel.Bot``;
``OpenSpielAgent(bot)`` is an OpenSpiel bot as one of our agents (``name``, ``bid``, ``play``,
``blind_nil``), playing on a state rebuilt from the observation with the hidden cards sampled
uniformly among the deals that fit it, so it can sit in our tournaments
(``spades_ai.interop.openspiel:OpenSpielAgent:seed=3``).

>>> game = pyspiel.load_game("spades_ai")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pyspiel

from spades_ai.montecarlo.sampling import sample_worlds_kernel
from spades_ai.agents.registry import make_agent
from spades_ai.cards import Card, format_hand, mask_to_cards, to_card
from spades_ai.errors import RulesError
from spades_ai.kernels import decision_stream
from spades_ai.interop.encoding import (
    BID_OFFSET,
    BLIND_NIL,
    LOOK,
    N_ACTIONS,
    OBSERVATION_SIZE,
    SLICES,
    Table,
    action_to_string,
    bid_action,
)
from spades_ai.observation import Observation
from spades_ai.rules import Rules
from spades_ai.simulate import deal_masks

GAME_NAME = "spades_ai"
#: Rules fields that may be None: the game parameter takes 0 for None.
_OPTIONAL = frozenset(f.name for f in dataclasses.fields(Rules) if "None" in str(f.type))


def _parameter_specification() -> dict:
    spec = {}
    for f in dataclasses.fields(Rules):
        default = f.default
        if default is None and f.name in _OPTIONAL:
            default = 0
        if isinstance(default, (bool, int, float, str)):
            spec[f.name] = default
    spec["dealer"] = 0
    return spec


PARAMETERS = _parameter_specification()


def rules_from_params(params: dict) -> tuple[Rules, int]:
    """``(Rules, dealer)`` from game parameters (missing ones take their defaults)."""
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        names = ", ".join(map(repr, unknown))
        raise RulesError(f"unknown {GAME_NAME} parameter(s) {names}; valid: {', '.join(PARAMETERS)}")
    values = {**PARAMETERS, **params}
    dealer = values.pop("dealer")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < 4:
        raise RulesError(f"{GAME_NAME} parameter 'dealer' must be a seat 0..3, not {dealer!r}")
    fields = {k: (None if k in _OPTIONAL and v == 0 and not isinstance(v, bool) else v) for k, v in values.items()}
    return Rules(**fields), dealer


def params_from_rules(rules: Rules | None = None, dealer: int = 0) -> dict:
    """The game parameters of ``rules`` (``pyspiel.load_game("spades_ai", params_from_rules(r))``)."""
    rules = Rules() if rules is None else rules
    params = {k: getattr(rules, k) for k in PARAMETERS if k != "dealer"}
    params = {k: (0 if v is None else v) for k, v in params.items()}
    params["dealer"] = dealer
    return params


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Spades (spades_ai engine and house rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def utility_bounds(rules: Rules) -> tuple[float, float]:
    """Bounds on one team's points for one hand from a bag count below the limit (not tight)."""
    nil = max(rules.nil_bonus, rules.blind_nil_bonus if rules.blind_nil else 0) if rules.nil else 0
    per_trick = 20 if rules.ten_for_200 else 10
    penalties = (rules.bag_limit - 1 + 13) // rules.bag_limit
    return float(-10 * 13 - 2 * nil - penalties * rules.bag_penalty), float(per_trick * 13 + 13 + 2 * nil)


class SpadesGame(pyspiel.Game):
    """The ``"spades_ai"`` game: made by ``pyspiel.load_game``, with ``rules`` and ``dealer``."""

    def __init__(self, params=None):
        rules, dealer = rules_from_params(dict(params or {}))
        low, high = utility_bounds(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=N_ACTIONS,
            max_chance_outcomes=52,
            num_players=4,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=52 + 4 + (4 if rules.blind_nil else 0),
        )
        super().__init__(_GAME_TYPE, info, params_from_rules(rules, dealer))
        self.rules = rules
        self.dealer = dealer

    def new_initial_state(self, *args):
        if args:
            raise ValueError(f"{GAME_NAME} starts only from the deal: new_initial_state() takes no arguments")
        return SpadesState(self)

    def max_chance_nodes_in_history(self):
        return 52

    def make_py_observer(self, iig_obs_type=None, params=None):
        return SpadesObserver(iig_obs_type, params)


class SpadesState(pyspiel.State):
    """A state of ``"spades_ai"``: a ``Table`` (the deal, then our ``Hand``)."""

    def __init__(self, game: SpadesGame):
        super().__init__(game)
        self._table = Table(game.rules, game.dealer)

    @property
    def table(self) -> Table:
        return self._table

    def current_player(self):
        t = self._table
        if t.dealing:
            return pyspiel.PlayerId.CHANCE
        if t.over:
            return pyspiel.PlayerId.TERMINAL
        return t.to_act

    def _legal_actions(self, player):
        return self._table.legal_actions()

    def chance_outcomes(self):
        cards = self._table.undealt()
        return [(c, 1.0 / len(cards)) for c in cards]

    def _apply_action(self, action):
        if self._table.dealing:
            self._table.deal_card(action)
        else:
            self._table.apply(action)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card(int(action))}"
        return action_to_string(action)

    def is_terminal(self):
        return self._table.over

    def returns(self):
        points = self._table.points()
        return [float(points[p % 2]) for p in range(4)]

    def __str__(self):
        return str(self._table)


class SpadesObserver:
    """Tensors and strings for ``"spades_ai"`` (OpenSpiel's Python observer protocol).

    Default: the observation vector. ``perfect_recall``: also the dealt cards and the play
    sequence. ``private_info=NONE``: the player's own cards are left out (the public view);
    ``public_info=False``: only the player's own cards.
    """

    def __init__(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"the {GAME_NAME} observer takes no parameters, not {dict(params)}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(f"{GAME_NAME} has no observation of every player's cards")
        self.public = iig_obs_type.public_info
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = iig_obs_type.perfect_recall
        pieces = []
        if self.public:
            pieces.append(("observation", (OBSERVATION_SIZE,)))
        elif self.private:
            pieces.append(("own_cards", (52,)))
        if self.perfect_recall and self.private:
            pieces.append(("dealt_cards", (52,)))
        if self.perfect_recall and self.public:
            pieces.append(("play_sequence", (52, 52)))
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict = {}
        at = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size
        self._vector = np.zeros(OBSERVATION_SIZE, np.float32)

    def set_from(self, state, player):
        t = _table_of(state)
        v = t.vector(player, out=self._vector)
        if not self.private:
            v[SLICES["own_cards"]] = 0.0
        if "observation" in self.dict:
            self.dict["observation"][:] = v
        if "own_cards" in self.dict:
            self.dict["own_cards"][:] = v[SLICES["own_cards"]]
        if "dealt_cards" in self.dict:
            dealt = t.initial_cards(player)
            self.dict["dealt_cards"][:] = [dealt >> c & 1 for c in range(52)]
        if "play_sequence" in self.dict:
            seq = self.dict["play_sequence"]
            seq[:] = 0.0
            for k, card in enumerate(a for a in t.actions if a < 52):
                seq[k, card] = 1.0

    def string_from(self, state, player):
        t = _table_of(state)
        if not self.public:
            if not self.private:
                return ""
            if self.perfect_recall:
                return f"p{player} dealt {format_hand(t.initial_cards(player))}"
            held = int(t.view(player).cards) if t.hand is not None else 0
            return f"p{player} holds {format_hand(held)}"
        if not self.perfect_recall:
            return t.seat_summary(player, show_cards=self.private)
        cards = mask_to_cards(t.initial_cards(player)) if self.private else []
        dealt = f"dealt {' '.join(map(str, cards))}" if cards else "cards unseen"
        history = " ".join(action_to_string(a).replace(" ", "") for a in t.actions)
        progress = f"dealing {len(t.dealt)}/52" if t.dealing else "dealt"
        return f"p{player} dealer {t.dealer} {progress}; {dealt}; {history}"


def _table_of(state) -> Table:
    table = getattr(state, "_table", None)
    if not isinstance(table, Table):
        game = state.get_game()
        raise TypeError(f"a state of the {GAME_NAME!r} game is needed, not {type(state).__name__} of {game}")
    return table


# -- our agents as OpenSpiel bots ----------------------------------------------------------------
class SpadesBot(pyspiel.Bot):
    """One of our agents (``"normal"``, a ``make_agent`` result, any object with ``bid`` and
    ``play``) as an OpenSpiel bot for ``"spades_ai"``.

    >>> bots = [SpadesBot("normal") for _ in range(4)]
    """

    def __init__(self, agent="normal", player_id: int | None = None):
        pyspiel.Bot.__init__(self)
        self.agent = make_agent(agent) if isinstance(agent, str) else agent
        self._player_id = player_id

    def player_id(self):
        return self._player_id

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def provides_policy(self):
        return False

    def step(self, state):
        table = _table_of(state)
        seat = table.to_act
        if seat is None:
            why = "the cards are being dealt" if table.dealing else "the hand is over"
            raise ValueError(f"no player is to act in this state: {why}")
        obs = table.view(seat)
        name = getattr(self.agent, "name", type(self.agent).__name__)
        if table.blind_pending:
            wants = getattr(self.agent, "blind_nil", None)
            action = BLIND_NIL if wants is not None and wants(obs) else LOOK
        elif obs.phase == "bidding":
            b = self.agent.bid(obs)
            if isinstance(b, bool) or not isinstance(b, (int, np.integer)):
                raise ValueError(f"agent {name!r} at seat {seat} bid {b!r}, not an int")
            action = bid_action(b)
        else:
            action = int(to_card(self.agent.play(obs)))
        if action not in table.legal_actions():
            raise ValueError(f"agent {name!r} at seat {seat} chose an illegal {action_to_string(action)}")
        return action


# -- OpenSpiel bots as our agents ----------------------------------------------------------------
@functools.lru_cache(maxsize=32)
def _game(rules: Rules, dealer: int) -> SpadesGame:
    return pyspiel.load_game(GAME_NAME, params_from_rules(rules, dealer))


def state_from_observation(obs: Observation, seed: int = 0):
    """A ``"spades_ai"`` state that ``obs.seat`` cannot tell from the real one, at its decision.

    The hidden cards are drawn uniformly among the deals that fit everything ``obs`` shows (each
    seat's card count, the cards played, the voids shown), from a stream keyed by ``seed`` and
    ``obs`` (the same observation gives the same state). The match scores and bag counts are
    ``obs``'s, so blind-nil eligibility is the real one.
    """
    rules, dealer, seat = obs.rules, obs.dealer, obs.seat
    game = _game(rules, dealer)
    state = game.new_initial_state()
    state._table = Table(rules, dealer, obs.scores, obs.bag_count)
    own = int(obs.cards)
    key = np.uint64(decision_stream(seed, obs.public, seat, np.uint64(own)))
    if obs.blind_decision:  # nothing is seen or played yet: any deal fits
        holding = [int(m) for m in deal_masks(int(key), 0, 1)[0]]
    else:
        _, worlds = sample_worlds_kernel(key, obs.public, seat, np.uint64(own), obs.rules_array, 1)
        holding = [int(m) for m in worlds[0]]
    dealt = [mask_to_cards(holding[s] | int(obs.played_by[s])) for s in range(4)]
    for k in range(52):
        state.apply_action(int(dealt[(dealer + 1 + k) % 4][k // 4]))
    table = state._table
    for i in range(4):
        bidder = (dealer + 1 + i) % 4
        b = obs.bids[bidder]
        if b is None:
            break
        if table.blind_pending:
            state.apply_action(BLIND_NIL if obs.blind[bidder] else LOOK)
        if not obs.blind[bidder]:
            state.apply_action(bid_action(b))
    if table.blind_pending and not obs.blind_decision:
        state.apply_action(LOOK)
    for _, card in obs.plays:
        state.apply_action(int(card))
    if state.current_player() != seat:
        who = state.current_player()
        raise ValueError(f"the observation of seat {seat} does not lead to its decision (seat {who} is to act)")
    return state


def _uniform_random(game, player: int, seed: int):
    return pyspiel.make_uniform_random_bot(player, seed)


_BOTS = {"uniform_random": _uniform_random}


class OpenSpielAgent:
    """An OpenSpiel bot as one of our agents: ``name``, ``bid(obs)``, ``play(obs)``, ``blind_nil(obs)``.

    ``bot`` is ``"uniform_random"``, a factory ``bot(game, player, seed) -> pyspiel.Bot`` called
    afresh for every decision with a seed drawn from ``seed`` and the observation (decisions are
    then reproducible, as ``check_agent`` requires), or a ``pyspiel.Bot`` asked as it is. The bot
    plays on ``state_from_observation(obs)``: a state with the hidden cards sampled to fit what
    the seat has seen (a bot that reads only the information state is not helped by them).

    In a tournament: ``spades-ai tournament --agents normal,spades_ai.interop.openspiel:OpenSpielAgent``.
    """

    def __init__(self, bot="uniform_random", *, seed: int = 0, name: str | None = None):
        if isinstance(bot, str):
            if bot not in _BOTS:
                known = ", ".join(_BOTS)
                raise ValueError(f"unknown OpenSpiel bot {bot!r}; by name: {known} (or pass a bot or a factory)")
            self.name = name or f"openspiel:{bot}"
            bot = _BOTS[bot]
        else:
            self.name = name or f"openspiel:{type(bot).__name__}"
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ValueError(f"seed must be an int in 0..2**63-1, not {seed!r}")
        self.bot = bot
        self.seed = seed

    def _action(self, obs: Observation) -> int:
        state = state_from_observation(obs, self.seed)
        if isinstance(self.bot, pyspiel.Bot):
            bot = self.bot
        else:
            key = decision_stream(self.seed ^ 0x5EED, obs.public, obs.seat, np.uint64(int(obs.cards)))
            bot = self.bot(state.get_game(), obs.seat, int(key) % (2**31 - 1))
        action = int(bot.step(state))
        if action not in state.legal_actions():
            raise ValueError(f"OpenSpiel bot {self.name!r} at seat {obs.seat} chose an illegal action {action}")
        return action

    def blind_nil(self, obs: Observation) -> bool:
        return self._action(obs) == BLIND_NIL

    def bid(self, obs: Observation) -> int:
        return self._action(obs) - BID_OFFSET

    def play(self, obs: Observation) -> Card:
        return Card(self._action(obs))

    def __repr__(self) -> str:
        return f"OpenSpielAgent({self.name!r}, seed={self.seed})"


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, SpadesGame)
