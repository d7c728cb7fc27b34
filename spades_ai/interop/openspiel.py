"""spades_ai as an OpenSpiel game, and bots both ways. Needs ``pip install "spades-ai[openspiel]"``.

Importing this module registers the game ``"spades_ai"``::

    import pyspiel
    import spades_ai.interop.openspiel
    game = pyspiel.load_game("spades_ai", {"bag_limit": 5, "blind_nil": True})
    cutthroat = pyspiel.load_game("spades_ai", {"players": 3})     # or params_from_rules("cutthroat")

Game: Spades played by our engine (``spades_ai.Hand``) under our ``Rules``, at every table of the
rules: the game parameters ``players`` (3 to 12) and ``teams`` (``"pairs"``, ``"solo"``, or ""
for that many players' default) choose it, and the decks, the cards removed and the cards each
``E`` follow (docs/rules.md). Players 0..N-1 are our seats (clockwise; at four players in pairs
partners 0 and 2, 1 and 3; in pairs seat s and s + N/2; solo every seat is its own side). With
``episode="hand"`` (the default) an episode is one hand: the deal, the bidding from the dealer's
left, then ``E`` tricks, the match score and bag count at 0. With ``episode="match"`` it is a
whole match (``interop.episode``): hand after hand, each dealt by chance nodes, the scores and
bags carried and the dealer moving left, until a side wins by the rules (``target_score``,
``loss_threshold``, ``max_hands``).
Returns: in a hand, each player gets its side's points for the hand (its partnership's in pairs, its
own solo: ``Hand.result().points``, bag penalties included), 1.0 per point: a made bid of 4 is
40.0 (plus 1.0 per bag), a made nil +100.0; general-sum, the sides' points are independent. In a
match, +1.0 to each player of the winning side and -1.0 / (sides - 1) to the others (zero-sum);
0.0 to all if a match is still undecided after ``interop.episode.MAX_MATCH_HANDS`` hands (the
bound ``max_game_length`` and ``max_chance_nodes_in_history`` count). Rewards come only at the
end (terminal).
Actions (``spades_ai.interop.encoding``; the same ids in the PettingZoo environment; ``E`` cards
each, 13 at 4, 8 and 12 players, so 68 actions there, 72 at 3 players)::

    0..51          play a card: our card id, suit * 13 + rank (suits C D H S, ranks 2..A): 0 = 2C, 51 = AS
    52..52+E       bid 0..E: 52 = nil, 53 = 1, ..., 52 + E = E
    53+E           blind nil: offered first, before the seat looks at its cards, when the rules allow one
    54+E           look: decline the blind nil, see the cards, then bid

Chance: ``N * E`` chance nodes deal the cards one at a time, outcome = card id, with the
probability of drawing one of its copies left among the cards not yet dealt (the table's decks
less the cards it removes: uniform over the undealt cards with one deck); the k-th card goes to
seat (dealer + 1 + k) % N.
Parameters: every field of ``spades_ai.Rules`` under its own name and default, checked by
``Rules`` (an error names the parameter); ``target_score``, ``loss_threshold`` and ``max_hands``
take 0 for None (off), ``teams`` "" for None. Plus ``dealer`` (a seat, default 0: the first
hand's dealer) and ``episode`` (``"hand"`` or ``"match"``).
Observation tensor: the floats of ``observation_layout(rules)`` (567 at four players in pairs,
``encoding.FIELDS``, listed field by field in ``spades_ai.interop.pettingzoo``; 455 at three)
from the player's point of view (in a match the scores and bag counts are the match's).
Information state tensor: the same, then the cards the player was dealt (``decks`` planes of 52,
once it has looked at them), then every card played in order (``N * E`` x 52 one-hot), which
makes it perfect recall within the hand (in a match, earlier hands enter it only through the
scores and bags; the information state string holds all of them). Strings: readable, no hidden
card.

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
>>> six = pyspiel.load_game("spades_ai", params_from_rules(players=6, teams="pairs"))
>>> six.num_players(), six.num_distinct_actions(), six.new_initial_state().chance_outcomes()[:2]
(6, 72, [(0, 0.0196078431372549), (1, 0.0196078431372549)])
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from spades_ai.montecarlo.sampling import sample_worlds_kernel
from spades_ai.agents.registry import make_agent
from spades_ai.cards import Card, CardSet, format_hand, mask_to_cards, to_card
from spades_ai.capabilities import require_table
from spades_ai.checks import is_int
from spades_ai.encoding import table_rules
from spades_ai.errors import RulesError
from spades_ai.kernels import decision_stream
from spades_ai.interop.episode import MAX_MATCH_HANDS, Episode, PlayedHand, check_episode
from spades_ai.interop.encoding import BID_OFFSET, Table, observation_layout
from spades_ai.observation import Observation
from spades_ai.rules import TABLES, Rules
from spades_ai.seats import cards_dealt, left_of, seat_order, seats
from spades_ai.simulate import deal

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
    fields = {k: (None if k in _OPTIONAL and v == _NONE[k] and not isinstance(v, bool) else v) for k, v in values.items()}
    rules = Rules(**fields)
    require_table(rules, "adapters")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < rules.players:
        raise RulesError(f"{GAME_NAME} parameter 'dealer' must be a seat 0..{rules.players - 1}, not {dealer!r}")
    return rules, dealer, episode


def params_from_rules(rules=None, dealer: int = 0, episode: str = "hand", *, players: int | None = None,
                      teams: bool | str | None = None) -> dict:  # fmt: skip
    """The game parameters of the table of ``rules`` (a ``Rules``, a preset's name or None, with
    ``players`` and ``teams`` set on them: ``spades_ai.encoding.table_rules``), for
    ``pyspiel.load_game("spades_ai", params_from_rules("cutthroat"))``."""
    rules = table_rules(rules, players, teams)
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
        max_num_players=max(TABLES),
        min_num_players=min(TABLES),
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
    """Bounds on one side's points for one hand from a bag count below the limit (not tight):
    every seat of the side bids all ``E`` tricks and is set, or makes ``E`` with every bag, and
    each of its nils is won or lost."""
    nil = max(rules.nil_bonus, rules.blind_nil_bonus if rules.blind_nil else 0) if rules.nil else 0
    per_trick = 20 if rules.ten_for_200 else 10
    each, seated = rules.cards_each, rules.players // rules.n_sides  # seats a side
    penalties = (rules.bag_limit - 1 + each) // rules.bag_limit
    low = -10 * seated * each - rules.failed_bid - seated * nil - penalties * rules.bag_penalty
    return float(low), float(per_trick * each + each + seated * nil)


class SpadesGame(pyspiel.Game):
    """The ``"spades_ai"`` game: made by ``pyspiel.load_game``, with ``rules``, ``dealer`` and
    ``episode``."""

    def __init__(self, params=None):
        rules, dealer, episode = rules_from_params(dict(params or {}))
        match = episode == "match"
        low, high = (-1.0, 1.0) if match else utility_bounds(rules)
        hands = MAX_MATCH_HANDS if match else 1
        self.layout = observation_layout(rules)
        n = rules.players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.n_actions,
            max_chance_outcomes=52,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if match else None,
            max_game_length=hands * (cards_dealt(rules) + n + (n if rules.blind_nil else 0)),
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
        return cards_dealt(self.rules) * (MAX_MATCH_HANDS if self.episode == "match" else 1)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return SpadesObserver(iig_obs_type, params, self.rules)


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
        copies = self._episode.table.undealt_copies()
        left = sum(n for _, n in copies)
        return [(c, n / left) for c, n in copies]

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
        return self._episode.table.layout.action_to_string(action)

    def is_terminal(self):
        return self._episode.over

    def returns(self):
        return list(self._episode.seat_returns())

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one, drawn exactly uniformly among the
        deals that fit everything it has seen (``montecarlo.sampling``: the cards played, the
        voids shown, the spade counts revealed by bids); ``probability_sampler()`` returns
        floats in [0, 1) (OpenSpiel's ``UniformProbabilitySampler``) and keys the draw.

        The cards of earlier hands of a match are all public (every card is played), so only
        the hand in progress is redrawn: its history is replayed on the new deal.
        """
        t = self._episode.table
        n = t.rules.players
        if not is_int(player_id) or not 0 <= player_id < n:
            raise ValueError(f"player_id must be a player 0..{n - 1}, not {player_id!r}")
        player = int(player_id)
        if t.dealing and not t.dealt:
            return self.clone()
        key = np.uint64(_sampler_key(probability_sampler))
        if t.dealing:  # nobody has seen a card yet: any cards will do
            cards = dealing_order(deal(int(key), 0, t.rules), t.dealer)[: len(t.dealt)]
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


def sampled_deal(obs: Observation, looked: bool, key) -> list[CardSet]:
    """Every seat's dealt cards (copies included) in a deal drawn exactly uniformly among the
    physical deals that fit what ``obs.seat`` has seen (``looked``: whether it has seen its
    cards), from the random stream ``key``."""
    rules = obs.rules
    if not looked:  # no card seen nor played; blind nil never combines with bids that show spades
        return list(deal(int(key), 0, rules))
    _, worlds = sample_worlds_kernel(np.uint64(key), obs.public, obs.seat, np.uint64(obs.engine_cards), obs.rules_array, 1)
    n, row = rules.players, worlds[0]
    held = [CardSet.from_levels(*(int(row[k * n + s]) for k in range(rules.decks))) for s in seats(rules)]
    return [held[s] + obs.played_by[s] for s in seats(rules)]


def dealing_order(hands, dealer: int) -> list[int]:
    """The chance outcomes that deal ``hands`` (every seat's cards, seats 0..N-1: bitboards or
    ``CardSet``s, copies included): card k goes to seat (dealer + 1 + k) % N.

    >>> import spades_ai as sa
    >>> state = pyspiel.load_game("spades_ai").new_initial_state()
    >>> for card in dealing_order(sa.deal(seed=1), dealer=0):
    ...     state.apply_action(card)
    >>> state.current_player()
    1
    """
    held = [mask_to_cards(int(m)) for m in hands]
    n = len(held)
    return [int(held[(dealer + 1 + k) % n][k // n]) for k in range(sum(map(len, held)))]


class SpadesObserver:
    """Tensors and strings for ``"spades_ai"`` (OpenSpiel's Python observer protocol).

    Default: the observation vector of the table of ``rules``. ``perfect_recall``: also the
    dealt cards and the play sequence. ``private_info=NONE``: the player's own cards are left out
    (the public view); ``public_info=False``: only the player's own cards.
    """

    def __init__(self, iig_obs_type=None, params=None, rules: Rules | None = None):
        if params:
            raise ValueError(f"the {GAME_NAME} observer takes no parameters, not {dict(params)}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(f"{GAME_NAME} has no observation of every player's cards")
        self.public = iig_obs_type.public_info
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = iig_obs_type.perfect_recall
        self.layout = layout = observation_layout(rules)
        planes = 52 * layout.decks  # the cards of a hand: a plane of 52 per copy level
        pieces = []
        if self.public:
            pieces.append(("observation", (layout.size,)))
        elif self.private:
            pieces.append(("own_cards", (planes,)))
        if self.perfect_recall and self.private:
            pieces.append(("dealt_cards", (planes,)))
        if self.perfect_recall and self.public:
            pieces.append(("play_sequence", (layout.players * layout.cards_each, 52)))
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict = {}
        at = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size
        self._vector = np.zeros(layout.size, np.float32)

    def set_from(self, state, player):
        t = _table_of(state)
        if t.layout.table != self.layout.table:
            raise ValueError(f"this observer is of the game at {self.layout.table}, not of a state at {t.layout.table}")
        own = self.layout.slices["own_cards"]
        v = t.vector(player, out=self._vector)
        if not self.private:
            v[own] = 0.0
        if "observation" in self.dict:
            self.dict["observation"][:] = v
        if "own_cards" in self.dict:
            self.dict["own_cards"][:] = v[own]
        if "dealt_cards" in self.dict:
            levels = t.initial_cards(player).levels()
            self.dict["dealt_cards"][:] = [levels[c // 52] >> (c % 52) & 1 for c in range(52 * self.layout.decks)]
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
        return self._public_string(e, player)

    def _public_string(self, e: Episode, player: int) -> str:
        t = e.table
        match = f"{e.summary()}; " if e.match else ""
        if not self.perfect_recall:
            return match + t.seat_summary(player, show_cards=self.private)
        cards = mask_to_cards(t.initial_cards(player)) if self.private else []
        dealt = f"dealt {' '.join(map(str, cards))}" if cards else "cards unseen"
        progress = f"dealing {len(t.dealt)}/{t.cards_dealt}" if t.dealing else "dealt"
        # earlier hands of a match are public: every card of them was played
        earlier = "".join(f"hand {k} {_played_text(h, t.layout)}; " for k, h in enumerate(e.played))
        return f"{earlier}p{player} dealer {t.dealer} {progress}; {dealt}; {_actions_text(t.actions, t.layout)}"


def _actions_text(actions, layout) -> str:
    return " ".join(layout.action_to_string(a).replace(" ", "") for a in actions)


@functools.lru_cache(maxsize=4096)
def _played_text(hand: PlayedHand, layout) -> str:
    """A finished hand in an information state string (asked again at every search node)."""
    return f"dealer {hand.dealer}: {_actions_text(hand.actions, layout)}"


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
    ``play``) as an OpenSpiel bot for ``"spades_ai"``, at any table.

    >>> game = pyspiel.load_game("spades_ai", params_from_rules("cutthroat"))
    >>> bots = [SpadesBot("normal") for _ in range(game.num_players())]
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
        layout = table.layout
        if table.blind_pending:
            wants = getattr(self.agent, "blind_nil", None)
            action = layout.blind_nil if wants is not None and wants(obs) else layout.look
        elif obs.phase == "bidding":
            b = self.agent.bid(obs)
            if not is_int(b) or not 0 <= b <= layout.cards_each:
                raise ValueError(f"agent {name!r} at seat {seat} bid {b!r}, not an int in 0..{layout.cards_each}")
            action = layout.bid_action(b)
        else:
            action = int(to_card(self.agent.play(obs)))
        if action not in table.legal_actions():
            raise ValueError(f"agent {name!r} at seat {seat} chose an illegal {layout.action_to_string(action)}")
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
    layout = table.layout
    for bidder in seat_order(left_of(dealer, rules), rules):
        b = obs.bids[bidder]
        if b is None:
            break
        if table.blind_pending:
            state.apply_action(layout.blind_nil if obs.blind[bidder] else layout.look)
        if not obs.blind[bidder]:
            state.apply_action(layout.bid_action(b))
    if table.blind_pending and not obs.blind_decision:
        state.apply_action(layout.look)
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
            key = decision_stream(self.seed ^ 0x5EED, obs.public, obs.seat, np.uint64(obs.engine_cards))
            bot = self.bot(state.get_game(), obs.seat, int(key) % (2**31 - 1))
        action = int(bot.step(state))
        if action not in state.legal_actions():
            raise ValueError(f"OpenSpiel bot {self.name!r} at seat {obs.seat} chose an illegal action {action}")
        return action

    def blind_nil(self, obs: Observation) -> bool:
        return self._action(obs) == observation_layout(obs.rules).blind_nil

    def bid(self, obs: Observation) -> int:
        return self._action(obs) - BID_OFFSET

    def play(self, obs: Observation) -> Card:
        return Card(self._action(obs))

    def __repr__(self) -> str:
        return f"OpenSpielAgent({self.name!r}, seed={self.seed})"


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, SpadesGame)
