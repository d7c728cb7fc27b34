"""A learned model as data: the bidding and card-playing networks and a few numbers, kept in an
``.npz`` file (numpy alone reads it), and packed into a kernel agent's ``params``.

>>> m = load_model("default")
>>> m.bid["W1"].shape[1] == N_BID_FEATURES, m.play["W1"].shape[1] == PLAY_SHAPES[m.play_kind][0]
(True, True)

The bidding network is of the kind ``bid_kind`` names (``BID_KINDS``, stored in the file):
``"tricks"``, the distribution of the tricks (``N_BID_OUTPUTS`` outputs), or ``"value"``, each
candidate bid's margin (``N_VALUE_OUTPUTS``; see ``bidder``); both read four seats in pairs. A
model of another table bids like Normal (``"normal"``: no network; Normal counts the tricks of
the table) or by a ``"vector"`` network, of the card network's shape: a score a candidate bid. The card network is of the kind
``play_kind`` names (``PLAY_KINDS``, stored in the file too), one score a legal card: from its
``N_CARD_FEATURES`` hand-made features (``"cards"``), or from the seat's observation vector
(``spades_ai.encoding``, ``OBSERVATION_SIZE`` floats) followed by those features
(``"vector"``; see ``player``). Each network is ``{"W1", "b1", "W2", "b2"}`` (``network``). ``scalars`` are the
blind-nil numbers (``BLIND_*``) and the card network's margin (``PLAY_MARGIN``, read by the
``"cards"`` kind alone). ``info`` says how the file was made (seed, data, fit). A file written
before the bidder's kind was stored is read as its bidding network's outputs show
(``legacy_bid_kind``); one written before the card network's kind was stored has the
``"cards"`` kind, the only one there was then.

A model knows the table it was trained at (``table``: players and teams; a file written before
the table was stored is of four players in pairs, the only table there was then): its card
network reads that table's observation vector (``spades_ai.encoding.observation_layout``), and
``check_table`` / ``check_vectors`` refuse another table's, naming both tables.

>>> m.table_name
'4 players in pairs'
>>> m.check_table(Rules(players=3))
Traceback (most recent call last):
...
spades_ai.errors.TableError: the learned model plays 4 players in pairs, not 3 players solo: its networks read the observation of a table and were fitted there; those tables have a model (docs/learning.md#at-every-table-the-learned-agent)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from spades_ai.capabilities import FOUR_IN_PAIRS as FOUR_IN_PAIRS_TABLE
from spades_ai.capabilities import LEARNED_TABLES, PARTS, Part, Tables, require_table
from spades_ai.encoding import observation_layout, table_rules
from spades_ai.engine.jit import kernel
from spades_ai.engine.seats import n_seats, n_sides
from spades_ai.errors import TableError
from spades_ai.models.features import N_BID_FEATURES, N_CARD_FEATURES
from spades_ai.rules import Rules
from spades_ai.seats import table_name

WEIGHTS_DIR = Path(__file__).parent / "weights"
#: the bidding network's outputs: 27 logits of D (the team's counted tricks minus the partner's
#: bid, -13..13), the partner's bid / 13 (when it bids later), the nil logit, the partner's
#: contract value / 100 beside a nil
N_TRICK_CLASSES = 27
OUT_PARTNER, OUT_NIL, OUT_NIL_PARTNER = 27, 28, 29
N_BID_OUTPUTS = 30
#: a *value* bidding network (``bidder``) instead has ``N_VALUE_OUTPUTS`` outputs: the margin
#: (points / ``VALUE_SCALE``) of Normal's number bid moved by each of ``VALUE_SHIFTS``, then nil's
VALUE_SHIFTS = (-2, -1, 0, 1, 2, 3)
OUT_VALUE_NIL = len(VALUE_SHIFTS)
N_VALUE_OUTPUTS = OUT_VALUE_NIL + 1
VALUE_SCALE = 100.0
#: ``scalars``: a blind nil's chance, the partner's contract value beside one, a sighted bid's
#: value, and the card network's margin: how much higher than Normal's card another must score
BLIND_MADE, BLIND_PARTNER, SIGHTED_VALUE, PLAY_MARGIN = 0, 1, 2, 3
N_SCALARS = 4
#: the kinds of bidding network, and the outputs of each; the packed params hold the kind's index
#: (``"normal"``: no network, Normal's bids; ``"vector"``: the card network's shape, scoring
#: each candidate bid from the observation vector and the candidate's features)
BID_KINDS = ("tricks", "value", "normal", "vector")
BID_OUTPUTS = {"tricks": N_BID_OUTPUTS, "value": N_VALUE_OUTPUTS}
TRICKS_BIDDER, VALUE_BIDDER, NORMAL_BIDDER, VECTOR_BIDDER = 0, 1, 2, 3
#: the kinds of card network, the (inputs, outputs) of each; the packed params hold the kind's index
PLAY_KINDS = ("cards", "vector")
#: (at four players in pairs: ``play_shape`` gives any table's)
PLAY_SHAPES = {"cards": (N_CARD_FEATURES, 1), "vector": (observation_layout().size + N_CARD_FEATURES, 1)}
#: the table a model is trained at when nothing else is said (and of every file that says nothing)
FOUR_IN_PAIRS = (4, "pairs")
#: the shipped model the learned agent plays at each table with ``model="default"``: at four in
#: pairs ``default`` (its bidding and card networks), elsewhere a card network of that table
#: fitted on Hard's values, bidding like Normal (``experiments/train_table_models.py``)
TABLE_MODELS = dict(zip(LEARNED_TABLES, ("default", "table-3", "table-4solo", "table-5", "table-6pairs")))
#: the tables of the ``"tricks"`` and ``"value"`` bidding networks and their rows
#: (``features.bid_features``); another table's model bids by a ``"vector"`` network or like Normal
FOUR_SEAT_BIDDERS = Part("a 'tricks' or 'value' bidding network", FOUR_IN_PAIRS_TABLE, "docs/learning.md",
                         "its features read a partner across the table and two opponents beside")
#: int64 slots a model takes in the head of a packed set of models (``pack_models``)
SET_ENTRY = 3
CARDS_PLAYER, VECTOR_PLAYER = range(2)
#: int64 slots of the packed params before the floats
H_BID_HIDDEN, H_BID_AT, H_PLAY_HIDDEN, H_PLAY_AT, H_SCALARS_AT, H_BID_KIND, H_PLAY_KIND = range(7)
N_HEADER = 7
LAYERS = ("W1", "b1", "W2", "b2")


@dataclass(frozen=True)
class Model:
    """A bidding network of the kind ``bid_kind``, a card network of the kind ``play_kind`` and
    the blind-nil numbers (see the module docstring)."""

    bid: dict
    play: dict
    scalars: np.ndarray
    #: how it was made: seed, datasets, sizes, fit (shown, never read by the kernels)
    info: dict = field(default_factory=dict)
    #: the bidding network's kind, one of ``BID_KINDS``
    bid_kind: str = field(kw_only=True)
    #: the card network's kind, one of ``PLAY_KINDS``
    play_kind: str = field(kw_only=True)
    #: the table it was trained at, ``(players, teams)``: its card network reads that table's vector
    table: tuple = field(default=FOUR_IN_PAIRS, kw_only=True)

    def __post_init__(self):
        if self.bid_kind not in BID_KINDS:
            raise ValueError(f"a model's bid_kind is one of {', '.join(BID_KINDS)}, not {self.bid_kind!r}")
        if self.play_kind not in PLAY_KINDS:
            raise ValueError(f"a model's play_kind is one of {', '.join(PLAY_KINDS)}, not {self.play_kind!r}")
        players, teams = self.table
        object.__setattr__(self, "table", (int(players), str(teams)))
        self.rules  # a table of the rules, or RulesError
        if self.bid_kind == "normal":
            if self.bid:
                raise ValueError("a model of bid_kind 'normal' bids like Normal: its bid network is empty ({})")
        elif self.bid_kind == "vector":
            _check_net("bid", self.bid, *play_shape("vector", self.rules))
        else:
            require_table(self.rules, FOUR_SEAT_BIDDERS)
            _check_net("bid", self.bid, N_BID_FEATURES, BID_OUTPUTS[self.bid_kind])
        _check_net("play", self.play, *play_shape(self.play_kind, self.rules))
        if np.shape(self.scalars) != (N_SCALARS,):
            raise ValueError(f"a model's scalars are {N_SCALARS} floats, not shape {np.shape(self.scalars)}")

    @property
    def rules(self) -> Rules:
        """The default rules of its table."""
        return Rules(players=self.table[0], teams=self.table[1])

    @property
    def table_name(self) -> str:
        return table_name(self.rules)

    def part(self) -> Part:
        """The model as a part of the toolkit that plays the table it was trained at (the learned
        agent declares it, so that the one table check refuses any other, naming both tables)."""
        return models_part([self], "the learned model")

    def check_table(self, rules) -> Rules:
        """``rules`` (a ``Rules`` or a preset's name) if they are of the model's table, else
        ``TableError`` naming both tables."""
        return require_table(table_rules(rules), self.part())

    def check_vectors(self, vectors) -> np.ndarray:
        """``vectors`` (observation vectors, one a row) as a float32 array if they are of the
        model's table (its vector's length), else ``TableError`` naming both tables."""
        vectors = np.asarray(vectors, np.float32)
        check_vector_width(vectors.shape[-1] if vectors.ndim in (1, 2) else -1, self.rules)
        return vectors

    @property
    def values_bids(self) -> bool:
        """Whether the bidding network is a value network (``N_VALUE_OUTPUTS``: each candidate
        bid's margin) rather than the distribution of the tricks (``N_BID_OUTPUTS``)."""
        return self.bid_kind == "value"

    def with_margin(self, margin: float) -> "Model":
        """The same model with the card network's margin ``margin`` (``player``)."""
        scalars = np.array(self.scalars, np.float64)
        scalars[PLAY_MARGIN] = margin
        return replace(self, scalars=scalars, info={**self.info, "play_margin": float(margin)})

    def save(self, path) -> Path:
        """Write the model as ``path`` (an ``.npz``)."""
        path = Path(path)
        arrays = {f"{net}_{k}": np.asarray(getattr(self, net)[k], np.float64) for net in ("bid", "play") for k in LAYERS
                  if getattr(self, net)}  # fmt: skip
        np.savez_compressed(path, **arrays, scalars=np.asarray(self.scalars, np.float64), info=np.array(json.dumps(self.info)),
                            bid_kind=np.array(self.bid_kind), play_kind=np.array(self.play_kind),
                            table=np.array(json.dumps(list(self.table))))  # fmt: skip
        return path

    def params(self) -> np.ndarray:
        """The int64 params of a kernel agent playing this model: ``N_HEADER`` ints (``H_*``:
        each network's hidden size and where it starts, where the scalars start, the bidding
        network's kind: ``TRICKS_BIDDER`` or ``VALUE_BIDDER``, the card network's:
        ``CARDS_PLAYER`` or ``VECTOR_PLAYER``), then the floats (their bits), read by the kernels
        through ``params.view(np.float64)``; a ``"vector"`` card network's ``W1`` is packed
        transposed (``network``)."""
        flat = [np.zeros(N_HEADER)]
        at = N_HEADER
        header = np.zeros(N_HEADER, np.int64)
        for net, hidden_slot, at_slot in (("bid", H_BID_HIDDEN, H_BID_AT), ("play", H_PLAY_HIDDEN, H_PLAY_AT)):
            layers = getattr(self, net)
            if not layers:  # a model that bids like Normal
                header[at_slot] = at
                continue
            header[hidden_slot], header[at_slot] = layers["W1"].shape[0], at
            for k in LAYERS:
                a = np.asarray(layers[k], np.float64)
                if k == "W1" and (net, "vector") in (("play", self.play_kind), ("bid", self.bid_kind)):
                    a = a.T  # the sparse pass's packing (``network.add_rows``)
                a = a.reshape(-1)
                flat.append(a)
                at += a.size
        header[H_SCALARS_AT] = at
        header[H_BID_KIND] = BID_KINDS.index(self.bid_kind)
        header[H_PLAY_KIND] = PLAY_KINDS.index(self.play_kind)
        flat.append(np.asarray(self.scalars, np.float64))
        out = np.concatenate(flat).view(np.int64)
        out[:N_HEADER] = header
        return out


def play_shape(kind: str, rules=None) -> tuple[int, int]:
    """The (inputs, outputs) of a card network of ``kind`` at the table of ``rules``: the
    ``"vector"`` kind reads the table's observation vector (``PLAY_SHAPES`` at four in pairs)."""
    if kind == "vector":
        return observation_layout(rules).size + N_CARD_FEATURES, 1
    return PLAY_SHAPES[kind]


def check_vector_width(width: int, rules) -> None:
    """``TableError`` naming both tables unless ``width`` is the length of the vector at the
    table of ``rules`` (what a model of that table reads)."""
    rules = table_rules(rules)
    size = observation_layout(rules).size
    if width != size:
        tables = vector_tables(width)
        shown = " or ".join(tables) if tables else "no table"
        raise TableError(f"a learned model of {table_name(rules)} reads that table's vectors of {size} floats, not vectors "
                         f"of {width} ({shown}): fit a model at that table (docs/learning.md)",
                         part="the learned model", table=tables[0] if tables else "", doc="docs/learning.md")  # fmt: skip


def vector_tables(size: int) -> list[str]:
    """The tables (in words) whose observation vector has ``size`` floats."""
    found = []
    for players in range(3, 13):
        for teams in ("solo", "pairs") if players % 2 == 0 else ("solo",):
            rules = Rules(players=players, teams=teams)
            if observation_layout(rules).size == size:
                found.append(table_name(rules))
    return found


def packed_after(head, model) -> tuple[np.ndarray, int]:
    """``head`` (an agent's int64 params) followed by ``model``'s packed params (``Model.params``;
    ``model`` as ``load_model`` takes it), and where those start: how a search carries a learned
    play model (``models.player.card_probabilities`` reads it there)."""
    head = np.asarray(head, np.int64)
    return np.concatenate([head, load_model(model).params()]), len(head)


def load_models(model) -> list[Model]:
    """The models the learned agent plays with ``model=``: for ``"default"`` the shipped model
    of each table of ``TABLE_MODELS`` (a table's file missing, that table is not played), else
    the one model ``load_model`` reads."""
    if isinstance(model, (str, Path)) and str(model) == "default":
        return [load_model(name) for name in TABLE_MODELS.values() if name in shipped_models()]
    return [load_model(model)]


def models_part(models: list[Model], name: str) -> Part:
    """``models`` as one part of the toolkit (``name``) that plays the tables they were trained at."""
    tables = {m.table for m in models}
    if tables == set(LEARNED_TABLES):  # the shipped set: the learned agent's part as docs/rules.md lists it
        return replace(PARTS["learned"], name=name)
    names = [m.table_name for m in models]
    words = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
    return replace(PARTS["learned"], name=name, tables=Tables(words, lambda rules: (rules.players, rules.teams) in tables))


def pack_models(models: list[Model]) -> np.ndarray:
    """The int64 params of the learned agent playing ``models`` (one a table): how many, then
    per model its seats, its sides and where its ``Model.params`` start, then those params
    (``model_at`` finds a table's)."""
    head = [len(models)]
    parts, at = [], 1 + SET_ENTRY * len(models)
    for m in models:
        rules = m.rules
        packed = m.params()
        head += [rules.players, rules.n_sides, at]
        parts.append(packed)
        at += len(packed)
    return np.concatenate([np.array(head, np.int64)] + parts)


@kernel
def model_at(params, rules):
    """Where the packed params of the model of the table of ``rules`` start in a set of models
    (``pack_models``), -1 if it holds none (the agent's table check refuses that table first)."""
    for k in range(params[0]):
        e = 1 + SET_ENTRY * k
        if params[e] == n_seats(rules) and params[e + 1] == n_sides(rules):
            return params[e + 2]
    return -1


def _check_net(name: str, layers: dict, inputs: int, outputs: int) -> None:
    missing = [k for k in LAYERS if k not in layers]
    if missing:
        raise ValueError(f"the {name} network lacks {', '.join(missing)}")
    hidden = np.shape(layers["W1"])[0]
    want = {"W1": (hidden, inputs), "b1": (hidden,), "W2": (outputs, hidden), "b2": (outputs,)}
    for k, shape in want.items():
        if np.shape(layers[k]) != shape:
            raise ValueError(f"the {name} network's {k} is {shape} ({inputs} inputs, {outputs} outputs), not {np.shape(layers[k])}")


def shipped_models() -> list[str]:
    """The names of the models shipped in the package (``spades_ai/models/weights/NAME.npz``)."""
    return sorted(p.stem for p in WEIGHTS_DIR.glob("*.npz"))


def load_model(model) -> Model:
    """A ``Model``: itself, a shipped model by name (``"default"``), or an ``.npz`` path."""
    if isinstance(model, Model):
        return model
    if not isinstance(model, (str, Path)):
        raise ValueError(f"a model is a Model, a shipped name ({', '.join(shipped_models())}) or an .npz path, not {model!r}")
    path = Path(model)
    if path.suffix != ".npz":
        if str(model) not in shipped_models():
            raise ValueError(f"no shipped model {model!r}: shipped models are {', '.join(shipped_models()) or 'none'}; "
                             "or give the path of an .npz file")  # fmt: skip
        path = WEIGHTS_DIR / f"{model}.npz"
    if not path.exists():
        raise ValueError(f"model file {path} does not exist")
    with np.load(path, allow_pickle=False) as f:
        try:
            stored = str(f["bid_kind"]) if "bid_kind" in f else None
            nets = {net: {k: f[f"{net}_{k}"] for k in LAYERS} if net == "play" or stored != "normal" else {} for net in ("bid", "play")}
            bid_kind = stored or legacy_bid_kind(nets["bid"])
            play_kind = str(f["play_kind"]) if "play_kind" in f else "cards"  # written before the vector kind
            table = tuple(json.loads(str(f["table"]))) if "table" in f else FOUR_IN_PAIRS  # written before the tables
            return Model(nets["bid"], nets["play"], f["scalars"], json.loads(str(f["info"])), bid_kind=bid_kind, play_kind=play_kind,
                         table=table)  # fmt: skip
        except KeyError as exc:
            raise ValueError(f"{path} is not a model file: it lacks {exc}") from None


def legacy_bid_kind(bid: dict) -> str:
    """The kind of the bidding network ``bid`` of a file written before the kind was stored:
    ``"value"`` if it has ``N_VALUE_OUTPUTS`` outputs, else ``"tricks"`` (the one place a kind
    is read from a shape)."""
    return "value" if np.shape(bid["b2"]) == (N_VALUE_OUTPUTS,) else "tricks"
