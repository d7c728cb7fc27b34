"""spades_ai as an OpenSpiel game, and bots both ways. Needs ``pip install "spades-ai[openspiel]"``.

Importing this module registers the game ``"spades_ai"``::

    import pyspiel
    import spades_ai.interop.openspiel
    game = pyspiel.load_game("spades_ai", {"bag_limit": 5, "blind_nil": True})

Game: Spades played by our engine (``spades_ai.Hand``) under our ``Rules``. Players 0..3 are
our seats (clockwise; partners 0 and 2, 1 and 3). With ``episode="hand"`` (the default) an
episode is one hand: the deal, the bidding from the dealer's left, then 13 tricks, the match
score and bag count at 0. With ``episode="match"`` it is a whole match (``interop.episode``):
hand after hand, each dealt by chance nodes, the scores and bags carried and the dealer moving
left, until a team wins by the rules (``target_score``, ``loss_threshold``, ``max_hands``).
Returns: in a hand, each player gets its team's points for the hand (``Hand.result().points``,
bag penalties included), 1.0 per point: a made bid of 4 is 40.0 (plus 1.0 per bag), a made nil
+100.0; general-sum, the two teams' points are independent. In a match, +1.0 to each player of
the winning team and -1.0 to the others (zero-sum); 0.0 to all if a match is still undecided after
``interop.episode.MAX_MATCH_HANDS`` hands (the bound ``max_game_length`` and
``max_chance_nodes_in_history`` count). Rewards come only at the end (terminal).
Actions (``spades_ai.interop.encoding``; the same ids in the PettingZoo environment)::

    0..51   play a card: our card id, suit * 13 + rank (suits C D H S, ranks 2..A): 0 = 2C, 51 = AS
    52..65  bid 0..13: 52 = nil, 53 = 1, ..., 65 = 13
    66      blind nil: offered first, before the seat looks at its cards, when the rules allow one
    67      look: decline the blind nil, see the cards, then bid with 52..65

Chance: 52 chance nodes deal the cards one at a time, outcome = card id, uniform over the cards
not yet dealt; the k-th card goes to seat (dealer + 1 + k) % 4.
Parameters: every field of ``spades_ai.Rules`` under its own name and default, checked by
``Rules`` (an error names the parameter); ``target_score``, ``loss_threshold`` and ``max_hands``
take 0 for None (off). Plus ``dealer`` (0..3, default 0: the first hand's dealer) and
``episode`` (``"hand"`` or ``"match"``).
Observation tensor: the 567 floats of ``encoding.FIELDS`` from the player's point of view
(listed field by field in ``spades_ai.interop.pettingzoo``; in a match the scores and bag counts
are the match's). Information state tensor: the same, then the cards the player was dealt (52,
once it has looked at them), then every card played in order (52 x 52 one-hot), which makes it
perfect recall within the hand (in a match, earlier hands enter it only through the scores and
bags; the information state string holds all of them). Strings: readable, no hidden card.

Determinizing algorithms: ``state.resample_from_infostate(player, sampler)`` draws a state the
player cannot tell from this one, exactly uniformly among the deals that fit everything it has
seen (``spades_ai.montecarlo.sampling``, the sampler Hard uses: the cards played, the voids
shown, the spade counts mirror and whiz bids reveal; the deal's own odds, not weighted by how
likely the other players' policies made their bids and cards); ``sampler()`` (OpenSpiel's
``UniformProbabilitySampler``) supplies the randomness, so OpenSpiel's
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` runs on this game.

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
from open_spiel.python.algorithms import ismcts, mcts

from spades_ai.montecarlo.sampling import sample_worlds_kernel
from spades_ai.agents.registry import make_agent
from spades_ai.cards import Card, format_hand, mask_to_cards, to_card
from spades_ai.capabilities import require_table
from spades_ai.checks import is_int
from spades_ai.errors import RulesError
from spades_ai.kernels import decision_stream
from spades_ai.interop.episode import MAX_MATCH_HANDS, Episode, PlayedHand, check_episode
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
#: Rules fields that may be None: the game parameter takes 0 for None ("" for a text field).
_OPTIONAL = frozenset(f.name for f in dataclasses.fields(Rules) if "None" in str(f.type))
_NONE = {f.name: "" if "str" in str(f.type) else 0 for f in dataclasses.fields(Rules) if f.name in _OPTIONAL}


def _parameter_specification() -> dict:
    spec = {}
    for f in dataclasses.fields(Rules):
        default = f.default
        if default is None and f.name in _OPTIONAL:
            default = _NONE[f.name]
        if isinstance(default, (bool, int, float, str)):
            spec[f.name] = default
    spec["dealer"] = 0
    spec["episode"] = "hand"
    return spec


PARAMETERS = _parameter_specification()


def rules_from_params(params: dict) -> tuple[Rules, int, str]:
    """``(Rules, dealer, episode)`` from game parameters (missing ones take their defaults)."""
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        names = ", ".join(map(repr, unknown))
        raise RulesError(f"unknown {GAME_NAME} parameter(s) {names}; valid: {', '.join(PARAMETERS)}")
    values = {**PARAMETERS, **params}
    dealer = values.pop("dealer")
    try:
        episode = check_episode(values.pop("episode"))
    except ValueError as e:
        raise RulesError(f"{GAME_NAME} parameter {e}") from None
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < 4:
        raise RulesError(f"{GAME_NAME} parameter 'dealer' must be a seat 0..3, not {dealer!r}")
    fields = {k: (None if k in _OPTIONAL and v == _NONE[k] and not isinstance(v, bool) else v) for k, v in values.items()}
    rules = Rules(**fields)
    require_table(rules, "adapters")
    return rules, dealer, episode


def params_from_rules(rules: Rules | None = None, dealer: int = 0, episode: str = "hand") -> dict:
    """The game parameters of ``rules`` (``pyspiel.load_game("spades_ai", params_from_rules(r))``)."""
    rules = Rules() if rules is None else rules
    params = {k: getattr(rules, k) for k in PARAMETERS if k not in ("dealer", "episode")}
    params = {k: (_NONE[k] if v is None else v) for k, v in params.items()}
    params["dealer"] = dealer
    params["episode"] = check_episode(episode)
    return params


def _game_type(zero_sum: bool) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Spades (spades_ai engine and house rules)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=4,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS,
    )


#: The registered type (one hand: general-sum points); a match episode is zero-sum (+1 / -1).
_GAME_TYPE = _game_type(zero_sum=False)
_MATCH_TYPE = _game_type(zero_sum=True)


def utility_bounds(rules: Rules) -> tuple[float, float]:
    """Bounds on one team's points for one hand from a bag count below the limit (not tight)."""
    nil = max(rules.nil_bonus, rules.blind_nil_bonus if rules.blind_nil else 0) if rules.nil else 0
    per_trick = 20 if rules.ten_for_200 else 10
    penalties = (rules.bag_limit - 1 + 13) // rules.bag_limit
    return float(-10 * 13 - 2 * nil - penalties * rules.bag_penalty), float(per_trick * 13 + 13 + 2 * nil)


class SpadesGame(pyspiel.Game):
    """The ``"spades_ai"`` game: made by ``pyspiel.load_game``, with ``rules``, ``dealer`` and
    ``episode``."""

    def __init__(self, params=None):
        rules, dealer, episode = rules_from_params(dict(params or {}))
        match = episode == "match"
        low, high = (-1.0, 1.0) if match else utility_bounds(rules)
        hands = MAX_MATCH_HANDS if match else 1
        info = pyspiel.GameInfo(
            num_distinct_actions=N_ACTIONS,
            max_chance_outcomes=52,
            num_players=4,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if match else None,
            max_game_length=hands * (52 + 4 + (4 if rules.blind_nil else 0)),
        )
        super().__init__(_MATCH_TYPE if match else _GAME_TYPE, info, params_from_rules(rules, dealer, episode))
        self.rules = rules
        self.dealer = dealer
        self.episode = episode

    def new_initial_state(self, *args):
        if args:
            raise ValueError(f"{GAME_NAME} starts only from the deal: new_initial_state() takes no arguments")
        return SpadesState(self)

    def max_chance_nodes_in_history(self):
        return 52 * (MAX_MATCH_HANDS if self.episode == "match" else 1)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return SpadesObserver(iig_obs_type, params)


class SpadesState(pyspiel.State):
    """A state of ``"spades_ai"``: an ``Episode`` (the ``Table`` of the hand in progress, the
    deal and then our ``Hand``, and in a match the hands before it)."""

    def __init__(self, game: SpadesGame):
        super().__init__(game)
        self._episode = Episode(game.rules, game.dealer, game.episode)

    @property
    def table(self) -> Table:
        """The hand in progress."""
        return self._episode.table

    @property
    def episode(self) -> Episode:
        """The episode: the hand in progress and, in a match, the hands before it."""
        return self._episode

    def current_player(self):
        e = self._episode
        if e.table.dealing:
            return pyspiel.PlayerId.CHANCE
        if e.over:
            return pyspiel.PlayerId.TERMINAL
        return e.table.to_act

    def _legal_actions(self, player):
        return self._episode.table.legal_actions()

    def chance_outcomes(self):
        cards = self._episode.table.undealt()
        return [(c, 1.0 / len(cards)) for c in cards]

    def _apply_action(self, action):
        e = self._episode
        t = e.table
        if t.dealing:
            if not t.dealt and e.played and e.start is None:
                e.start = self.clone()  # the state before the hand's first card: resampling starts here
            t.deal_card(action)
        else:
            t.apply(action)
            if t.over and e.end_hand():
                e.start = None

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card(int(action))}"
        return action_to_string(action)

    def is_terminal(self):
        return self._episode.over

    def returns(self):
        team = self._episode.team_returns()
        return [team[p % 2] for p in range(4)]

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one, drawn exactly uniformly among the
        deals that fit everything it has seen (``montecarlo.sampling``: the cards played, the
        voids shown, the spade counts revealed by bids); ``probability_sampler()`` returns
        floats in [0, 1) (OpenSpiel's ``UniformProbabilitySampler``) and keys the draw.

        The cards of earlier hands of a match are all public (every card is played), so only
        the hand in progress is redrawn: its history is replayed on the new deal.
        """
        if not is_int(player_id) or not 0 <= player_id < 4:
            raise ValueError(f"player_id must be a player 0..3, not {player_id!r}")
        player = int(player_id)
        t = self._episode.table
        if t.dealing and not t.dealt:
            return self.clone()
        key = np.uint64(_sampler_key(probability_sampler))
        if t.dealing:  # nobody has seen a card yet: any cards will do
            cards = dealing_order(deal_masks(int(key), 0, 1)[0], t.dealer)[: len(t.dealt)]
        else:
            obs = t.view(player)
            key = decision_stream(key, obs.public, player, np.uint64(obs.engine_cards))
            cards = dealing_order(sampled_deal(obs, t.looked[player], key), t.dealer)
        state = self._hand_start()
        for card in cards:
            state.apply_action(card)
        for action in t.actions:
            state.apply_action(action)
        return state

    def _hand_start(self):
        """A state before the first card of the hand in progress, with its history."""
        e, t = self._episode, self._episode.table
        if e.start is not None:
            state = e.start.clone()
            state._episode.start = e.start
        else:  # the episode's first hand, or a state_from_observation: its table's match facts
            state = self.get_game().new_initial_state()
            state._episode.table = Table(t.rules, t.dealer, t.scores, t.bag_count, t.hands_played)
        return state

    def __str__(self):
        text = str(self._episode.table)
        return f"{self._episode.summary()}\n{text}" if self._episode.match else text


def _sampler_key(sampler) -> int:
    """64 random bits from two draws of an OpenSpiel probability sampler."""
    if not callable(sampler):
        raise TypeError(f"probability_sampler must be callable (pyspiel.UniformProbabilitySampler), not {sampler!r}")
    key = 0
    for _ in range(2):
        u = sampler()
        if not isinstance(u, (float, int, np.floating)) or not 0.0 <= u < 1.0:
            raise ValueError(f"probability_sampler() must return a float in [0, 1), not {u!r}")
        key = key << 32 | int(u * 2**32)
    return key


def sampled_deal(obs: Observation, looked: bool, key) -> list[int]:
    """The four seats' dealt bitboards in a deal drawn exactly uniformly among those that fit
    what ``obs.seat`` has seen (``looked``: whether it has seen its cards), from the random
    stream ``key``."""
    if not looked:  # no card seen nor played; blind nil never combines with bids that show spades
        return [int(m) for m in deal_masks(int(key), 0, 1)[0]]
    _, worlds = sample_worlds_kernel(np.uint64(key), obs.public, obs.seat, np.uint64(obs.engine_cards), obs.rules_array, 1)
    return [int(worlds[0][s]) | int(obs.played_by[s]) for s in range(4)]


def dealing_order(masks, dealer: int) -> list[int]:
    """The 52 chance outcomes that deal ``masks`` (seats 0..3, bitboards or ``CardSet``s):
    card k goes to seat (dealer + 1 + k) % 4.

    >>> import spades_ai as sa
    >>> state = pyspiel.load_game("spades_ai").new_initial_state()
    >>> for card in dealing_order(sa.deal(seed=1), dealer=0):
    ...     state.apply_action(card)
    >>> state.current_player()
    1
    """
    held = [mask_to_cards(int(m)) for m in masks]
    return [int(held[(dealer + 1 + k) % 4][k // 4]) for k in range(52)]


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
        e = _episode_of(state)
        t = e.table
        if not self.public:
            if not self.private:
                return ""
            if self.perfect_recall:
                return f"p{player} dealt {format_hand(t.initial_cards(player))}"
            held = int(t.view(player).cards) if t.hand is not None else 0
            return f"p{player} holds {format_hand(held)}"
        match = f"{e.summary()}; " if e.match else ""
        if not self.perfect_recall:
            return match + t.seat_summary(player, show_cards=self.private)
        cards = mask_to_cards(t.initial_cards(player)) if self.private else []
        dealt = f"dealt {' '.join(map(str, cards))}" if cards else "cards unseen"
        progress = f"dealing {len(t.dealt)}/52" if t.dealing else "dealt"
        # earlier hands of a match are public: every card of them was played
        earlier = "".join(f"hand {k} {_played_text(h)}; " for k, h in enumerate(e.played))
        return f"{earlier}p{player} dealer {t.dealer} {progress}; {dealt}; {_actions_text(t.actions)}"


def _actions_text(actions) -> str:
    return " ".join(action_to_string(a).replace(" ", "") for a in actions)


@functools.lru_cache(maxsize=4096)
def _played_text(hand: PlayedHand) -> str:
    """A finished hand in an information state string (asked again at every search node)."""
    return f"dealer {hand.dealer}: {_actions_text(hand.actions)}"


def _episode_of(state) -> Episode:
    episode = getattr(state, "_episode", None)
    if not isinstance(episode, Episode):
        game = state.get_game()
        raise TypeError(f"a state of the {GAME_NAME!r} game is needed, not {type(state).__name__} of {game}")
    return episode


def _table_of(state) -> Table:
    return _episode_of(state).table


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
            if not is_int(b):
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
    seat's card count, the cards played, the voids shown, the spade counts bids reveal:
    ``sampled_deal``), from a stream keyed by ``seed`` and ``obs`` (the same observation gives
    the same state). It is a one-hand episode whose match scores, bag counts and hands played
    are ``obs``'s, so blind-nil eligibility is the real one.
    """
    rules, dealer, seat = obs.rules, obs.dealer, obs.seat
    game = _game(rules, dealer)
    state = game.new_initial_state()
    state._episode.table = Table(rules, dealer, obs.scores, obs.bag_count, obs.hands_played)
    key = decision_stream(seed, obs.public, seat, np.uint64(obs.engine_cards))
    for card in dealing_order(sampled_deal(obs, not obs.blind_decision, key), dealer):
        state.apply_action(card)
    table = state.table
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


def resampler(seed: int):
    """A resampler for ``ISMCTSBot.set_resampler``: ``resample_from_infostate`` fed by one
    stream seeded with ``seed`` (0..2**31-1), so the bot's searches repeat exactly (by default
    it draws from a sampler seeded afresh by the system at every simulation).

    >>> evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    >>> bot = ismcts.ISMCTSBot(pyspiel.load_game("spades_ai"), evaluator, 2.0, 50, random_state=np.random.RandomState(0))
    >>> bot.set_resampler(resampler(0))
    """
    if not is_int(seed) or not 0 <= seed < 2**31:
        raise ValueError(f"seed must be an int in 0..2**31-1, not {seed!r}")
    sampler = pyspiel.UniformProbabilitySampler(int(seed), 0.0, 1.0)

    def resample(state, player):
        return state.resample_from_infostate(player, sampler)

    return resample


def _uniform_random(game, player: int, seed: int):
    return pyspiel.make_uniform_random_bot(player, seed)


def _ismcts(game, player: int, seed: int, simulations: int = 50, uct_c: float = 2.0):
    """OpenSpiel's Python ISMCTS: UCT with ``uct_c``, ``simulations`` a move, one random
    rollout per leaf, every random draw (worlds included) from ``seed``."""
    if isinstance(simulations, bool) or not isinstance(simulations, int) or simulations < 1:
        raise ValueError(f"ismcts option simulations must be an int >= 1, not {simulations!r}")
    if isinstance(uct_c, bool) or not isinstance(uct_c, (int, float)) or not uct_c > 0:
        raise ValueError(f"ismcts option uct_c must be a number > 0, not {uct_c!r}")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, float(uct_c), simulations, random_state=np.random.RandomState(seed))
    bot.set_resampler(resampler(seed))
    return bot


#: OpenSpiel bots by name, with the options each takes besides (game, player, seed).
_BOTS = {"uniform_random": (_uniform_random, ()), "ismcts": (_ismcts, ("simulations", "uct_c"))}


class OpenSpielAgent:
    """An OpenSpiel bot as one of our agents: ``name``, ``bid(obs)``, ``play(obs)``, ``blind_nil(obs)``.

    ``bot`` is a name, ``"uniform_random"`` or ``"ismcts"`` (OpenSpiel's Python ISMCTS, with
    the options ``simulations``, default 50, and ``uct_c``, default 2.0), a factory
    ``bot(game, player, seed) -> pyspiel.Bot``, or a ``pyspiel.Bot`` asked as it is. A named bot
    or a factory is made afresh for every decision with a seed drawn from ``seed`` and the
    observation (decisions are then reproducible, as ``check_agent`` requires). The bot plays on
    ``state_from_observation(obs)``: a one-hand state with the hidden cards sampled to fit what
    the seat has seen (a bot that reads only the information state is not helped by them).

    In a tournament: ``spades-ai tournament --agents normal,spades_ai.interop.openspiel:OpenSpielAgent``
    (``...:OpenSpielAgent:bot=ismcts,simulations=100`` for ISMCTS).
    """

    def __init__(self, bot="uniform_random", *, seed: int = 0, name: str | None = None, **options):
        if isinstance(bot, str):
            if bot not in _BOTS:
                known = ", ".join(_BOTS)
                raise ValueError(f"unknown OpenSpiel bot {bot!r}; by name: {known} (or pass a bot or a factory)")
            factory, takes = _BOTS[bot]
            unknown = sorted(set(options) - set(takes))
            if unknown:
                valid = ", ".join(takes) or "none"
                raise ValueError(f"OpenSpiel bot {bot!r} takes no option {', '.join(unknown)}; its options: {valid}")
            shown = f"({', '.join(f'{k}={v}' for k, v in sorted(options.items()))})" if options else ""
            self.name = name or f"openspiel:{bot}{shown}"
            bot = functools.partial(factory, **options)
            bot(_game(Rules(), 0), 0, 0)  # a bad option value is refused now, not at the first decision
        elif options:
            raise ValueError(f"options {', '.join(sorted(options))} are for a bot named by a string")
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
