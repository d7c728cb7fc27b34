"""Fitting the learned models in numpy, from their training rows (``models.rows``), with the
network and optimiser of ``models.optim``.

>>> # see experiments/train_models.py, which makes the shipped ``weights/default.npz``
>>> # model = train_model(dataset_hands("runs/bids"), dataset_vector_rows(iter_dataset("runs/hardv")), ...)

``fit_bidder`` fits the bidding network (the distribution of D, the partner's bid, the nil
chance and the partner's value beside a nil, each on the rows that show it);
``fit_value_bidder`` the value bidder's network (each candidate's margin) on
``montecarlo.bid_values.value_bidding_rows``; ``blind_scalars`` the blind-nil numbers, ``fit_player`` the card
network of the ``"cards"`` kind (the softmax over the legal cards of the imitated agent's
choice, or its values), ``fit_vector_player`` the ``"vector"`` kind's (a labeller's value of
every card from the observation vector; ``vector_regret`` scores it), ``train_model`` a whole
model (or a model's bidder beside a new vector card network), ``train_play_model`` a play model
for reading the play (the ``"cards"`` network, fitted on every seat of the table's hands). Every draw comes from ``numpy.random.default_rng(seed)``: the
same rows and seed give the same weights.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from spades_ai.models import replay
from spades_ai.models.features import N_BID_FEATURES, N_CARD_FEATURES
from spades_ai.models.model import (
    BLIND_MADE,
    BLIND_PARTNER,
    N_BID_OUTPUTS,
    N_SCALARS,
    N_TRICK_CLASSES,
    N_VALUE_OUTPUTS,
    OUT_NIL,
    OUT_NIL_PARTNER,
    OUT_PARTNER,
    SIGHTED_VALUE,
    Model,
    check_vector_width,
    load_model,
)
from spades_ai.models.optim import adam, fit_network, forward, init_network, shuffled, softmax
from spades_ai.models.rows import bidding_rows, card_rows
from spades_ai.rules import Rules


# -- the bidder ----------------------------------------------------------------------------------
def _bid_loss(out, rows):
    """Cross-entropy of D on number bids, squared error of the partner's later bid, the nil's
    logistic loss and its partner value's squared error on nils; all over the batch size."""
    cols, vals = rows["cols"], rows["vals"]
    n = len(out)
    d = np.zeros_like(out)
    number = cols[:, replay.B_BID] > 0
    p = softmax(out[number, :N_TRICK_CLASSES])
    target = cols[number, replay.B_D] + N_TRICK_CLASSES // 2
    loss = -np.log(p[np.arange(len(p)), target] + 1e-12).sum()
    p[np.arange(len(p)), target] -= 1.0
    d[number, :N_TRICK_CLASSES] = p
    later = cols[:, replay.B_PARTNER_LATER] == 1
    err = out[later, OUT_PARTNER] - cols[later, replay.B_PARTNER] / 13.0
    loss += (err**2).sum()
    d[later, OUT_PARTNER] = 2 * err
    nil = ~number
    q = 1.0 / (1.0 + np.exp(-out[nil, OUT_NIL]))
    made = cols[nil, replay.B_NO_TRICK]
    loss -= (made * np.log(q + 1e-12) + (1 - made) * np.log(1 - q + 1e-12)).sum()
    d[nil, OUT_NIL] = q - made
    err = out[nil, OUT_NIL_PARTNER] - vals[nil, replay.V_PARTNER] / 100.0
    loss += (err**2).sum()
    d[nil, OUT_NIL_PARTNER] = 2 * err
    return loss / n, d / n


def fit_bidder(rows: dict, *, hidden: int = 32, epochs: int = 8, batch: int = 1024, seed: int = 0) -> tuple[dict, list]:
    """The bidding network fitted on the sighted bids of ``bidding_rows``: ``(net, losses)``."""
    keep = rows["cols"][:, replay.B_KIND] == replay.KIND_BID
    x, cols, vals = rows["x"][keep], rows["cols"][keep], rows["vals"][keep]
    if len(x) == 0:
        raise ValueError("no sighted bids to fit the bidder on")
    return _fit_bidding_network(x, lambda i: {"cols": cols[i], "vals": vals[i]}, N_BID_OUTPUTS, _bid_loss, hidden,
                                epochs, batch, seed)  # fmt: skip


def _bid_value_loss(out, vals):
    """Squared error of each tried candidate's margin (NaN: not tried), over the batch size."""
    tried = ~np.isnan(vals)
    err = np.where(tried, out - np.nan_to_num(vals), 0.0)
    return float((err**2).sum() / len(out)), 2 * err / len(out)


def fit_value_bidder(rows: dict, *, hidden: int = 128, epochs: int = 6, batch: int = 1024, seed: int = 0) -> tuple[dict, list]:
    """The value bidder's network fitted on ``montecarlo.bid_values.value_bidding_rows``: each output the margin of
    one candidate bid (``model.VALUE_SHIFTS``, nil), regressed on the rows that tried it.
    ``(net, losses)``."""
    x, vals = rows["x"], rows["vals"]
    if len(x) == 0:
        raise ValueError("no rows to fit the value bidder on")
    return _fit_bidding_network(x, lambda i: vals[i], N_VALUE_OUTPUTS, _bid_value_loss, hidden, epochs, batch, seed)


def _fit_bidding_network(x, targets, outputs: int, loss, hidden: int, epochs: int, batch: int, seed: int):
    """A bidding network of ``outputs`` fitted on the rows ``x`` by ``loss``, in minibatches
    drawn by ``seed`` (``targets(i)``: the targets of rows ``i``): ``(net, losses)``."""
    rng = np.random.default_rng(seed)
    net = init_network(N_BID_FEATURES, hidden, outputs, rng)

    def batches(epoch):
        for i in shuffled(rng, len(x), batch):
            yield x[i], targets(i)

    return net, fit_network(net, batches, loss, epochs)


def blind_scalars(rows: dict) -> np.ndarray:
    """The blind-nil numbers (``model.BLIND_*``) from the blind-nil questions of ``bidding_rows``:
    how often a blind nil was made, its partner's value beside it, and the team's value when
    the seat looked and its partner bid no blind nil (a sighted value of infinity, never a
    blind nil, when the rows hold none)."""
    out = np.zeros(N_SCALARS)
    ask = rows["cols"][:, replay.B_KIND] == replay.KIND_BLIND
    took = ask & (rows["cols"][:, replay.B_BID] == 1)
    looked = ask & ~took & (rows["cols"][:, replay.B_PARTNER_BLIND] == 0)
    if not took.any() or not looked.any():
        out[BLIND_MADE], out[SIGHTED_VALUE] = 0.0, np.inf
        return out
    out[BLIND_MADE] = rows["cols"][took, replay.B_NO_TRICK].mean()
    out[BLIND_PARTNER] = rows["vals"][took, replay.V_PARTNER].mean()
    out[SIGHTED_VALUE] = rows["vals"][looked, replay.V_TEAM].mean()
    return out


# -- the card player -----------------------------------------------------------------------------
def _decision_batch(rows, decisions):
    count = rows["count"][decisions]
    first = np.repeat(rows["start"][decisions], count)
    offset = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
    return first + offset, count


def _card_loss(out, batch):
    """Cross-entropy of the played card over each decision's legal cards, over the decisions."""
    count, chosen = batch
    seg = np.repeat(np.arange(len(count)), count)
    starts = np.cumsum(count) - count
    s = out[:, 0]
    top = np.maximum.reduceat(s, starts)
    e = np.exp(s - top[seg])
    z = np.add.reduceat(e, starts)
    p = e / z[seg]
    pick = starts + chosen
    loss = -np.log(p[pick] + 1e-12).sum()
    p[pick] -= 1.0
    return loss / len(count), (p / len(count))[:, None]


def _value_loss(out, batch):
    """Squared error of each decision's scores, centred, against its weighed cards' values,
    centred (only the differences between cards play), over the decisions."""
    count, _, values = batch
    seg = np.repeat(np.arange(len(count)), count)
    weighed = ~np.isnan(values)
    n_w = np.bincount(seg, weights=weighed, minlength=len(count))
    s = out[:, 0]
    t = np.where(weighed, values, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        s_mean = np.bincount(seg, weights=s * weighed, minlength=len(count)) / n_w
        t_mean = np.bincount(seg, weights=t, minlength=len(count)) / n_w
    use = weighed & (n_w[seg] > 1)
    e = np.where(use, (s - s_mean[seg]) - (t - t_mean[seg]), 0.0)
    return (e**2).sum() / len(count), (2 * e / len(count))[:, None]


def fit_player(rows: dict, *, hidden: int = 32, epochs: int = 8, batch: int = 256, seed: int = 0) -> tuple[dict, list]:
    """The card network fitted on ``card_rows``: ``(net, losses)``. On the card chosen (the
    softmax's cross-entropy), or where ``rows`` has ``values`` (``card_value_targets``) on the
    labeller's value of every card (``_value_loss``: a wrong card is charged what it costs)."""
    n = len(rows["count"])
    if n == 0:
        raise ValueError("no card decisions to fit the player on")
    rng = np.random.default_rng(seed)
    net = init_network(N_CARD_FEATURES, hidden, 1, rng)
    on_values = "values" in rows

    def batches(epoch):
        order = rng.permutation(n)
        for s in range(0, n, batch):
            dec = order[s : s + batch]
            idx, count = _decision_batch(rows, dec)
            yield rows["x"][idx], (count, rows["chosen"][dec]) + ((rows["values"][idx],) if on_values else ())

    return net, fit_network(net, batches, _value_loss if on_values else _card_loss, epochs)


# -- the card player over the observation vector ---------------------------------------------------
#: the losses of ``fit_vector_player``: squared error of the centred values (``_value_loss``), or
#: the cross-entropy against the softmax of the values (``_soft_value_loss``; a trick, 10
#: points, a unit of its logits)
VECTOR_LOSSES = ("values", "softmax")


def _soft_value_loss(out, batch):
    """Cross-entropy of the softmax of each decision's scores over the cards the labeller
    weighed against the softmax of its values of them (decisions with two weighed cards or
    more), over the decisions."""
    count, _, values = batch
    seg = np.repeat(np.arange(len(count)), count)
    starts = np.cumsum(count) - count
    weighed = ~np.isnan(values)
    use = weighed & (np.bincount(seg, weights=weighed, minlength=len(count))[seg] > 1)

    def softmax(z):
        z = np.where(use, z, -np.inf)
        top = np.maximum.reduceat(z, starts)
        e = np.where(use, np.exp(z - np.where(np.isfinite(top), top, 0.0)[seg]), 0.0)
        return e / np.maximum(np.add.reduceat(e, starts), 1e-300)[seg]

    p, q = softmax(out[:, 0].astype(np.float64)), softmax(np.where(use, values, 0.0).astype(np.float64))
    loss = -(q * np.log(np.where(use, p, 1.0) + 1e-12)).sum()
    return loss / len(count), ((p - q) / len(count))[:, None]


def vector_scores(net: dict, rows: dict, decisions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``"vector"`` card network's score of every card row of ``decisions`` (indices of
    ``rows``, ``vector_card_rows``; as ``player.vector_scores``), with its hidden layer and each
    row's decision (an index into ``decisions``): ``(scores (rows, 1), hidden, seg)``."""
    idx, count = _decision_batch(rows, decisions)
    seg = np.repeat(np.arange(len(decisions)), count)
    n_obs = rows["obs"].shape[1]
    shared = rows["obs"][decisions] @ net["W1"][:, :n_obs].T  # once a decision, as the kernel
    h = np.maximum(shared[seg] + rows["x"][idx] @ net["W1"][:, n_obs:].T + net["b1"], 0.0)
    return h @ net["W2"].T + net["b2"], h, seg


def fit_vector_player(rows: dict, *, hidden: int = 256, epochs: int = 4, batch: int = 256, loss: str = "softmax", lr: float = 1e-3,
                      decay: float = 1.0, seed: int = 0) -> tuple[dict, list]:  # fmt: skip
    """The ``"vector"`` card network (a decision's observation vector and a card's features ->
    the card's score) fitted on ``rows.vector_card_rows`` by ``loss`` (one of ``VECTOR_LOSSES``),
    Adam in float32 minibatches of ``batch`` decisions drawn by ``seed``, the vector's weights
    shrunk by ``lr * decay`` a step (decoupled weight decay: the vector's hundreds of sparse
    inputs otherwise fit the noise of Hard's values, ``experiments/RESULTS.md``): ``(net,
    losses)`` (the net in float64)."""
    if loss not in VECTOR_LOSSES:
        raise ValueError(f"the vector player's loss is one of {', '.join(VECTOR_LOSSES)}, not {loss!r}")
    if not 0.0 <= lr * decay < 1.0:
        raise ValueError(f"the vector player's decay shrinks its weights by lr * decay a step, in [0, 1): not {lr} * {decay}")
    n = len(rows["count"])
    if n == 0:
        raise ValueError("no card decisions to fit the vector player on")
    rng = np.random.default_rng(seed)
    n_obs = rows["obs"].shape[1]
    net = {k: v.astype(np.float32) for k, v in init_network(n_obs + rows["x"].shape[1], hidden, 1, rng).items()}
    loss_grad = _value_loss if loss == "values" else _soft_value_loss
    step = adam(net, lr)
    history = []
    for epoch in range(epochs):
        losses = []
        for dec in shuffled(rng, n, batch):
            dec = np.sort(dec)  # reads the rows in order: the same draws, faster
            out, h, seg = vector_scores(net, rows, dec)
            idx, count = _decision_batch(rows, dec)
            value, d_out = loss_grad(out, (count, None, rows["values"][idx]))
            d_out = d_out.astype(np.float32)
            dz = (d_out @ net["W2"]) * (h > 0)
            d_shared = np.add.reduceat(dz, np.cumsum(count) - count)  # a decision's rows share its vector's part
            grads = {"W1": np.hstack([d_shared.T @ rows["obs"][dec], dz.T @ rows["x"][idx]]), "b1": dz.sum(0), "W2": d_out.T @ h,
                     "b2": d_out.sum(0)}  # fmt: skip
            step(grads)
            net["W1"][:, :n_obs] *= np.float32(1.0 - lr * decay)
            losses.append(value)
        history.append(float(np.mean(losses)))
    return {k: v.astype(np.float64) for k, v in net.items()}, history


def vector_regret(net: dict, rows: dict, scale: float = 10.0, batch: int = 8192) -> dict:
    """How the ``"vector"`` card network's top card among the cards the labeller weighed compares
    with the labeller's best, over the decisions of ``rows`` where it weighed two or more:
    ``regret``, the points it gives up a decision by the labeller's own values (``scale`` back
    to points), and ``agreement``, the share of decisions where it is the labeller's best card."""
    lost, same, n = 0.0, 0, 0
    for s in range(0, len(rows["count"]), batch):
        dec = np.arange(s, min(s + batch, len(rows["count"])))
        out, _, seg = vector_scores(net, rows, dec)
        idx, count = _decision_batch(rows, dec)
        values = rows["values"][idx]
        starts = np.cumsum(count) - count
        weighed = ~np.isnan(values)
        use = np.add.reduceat(weighed.astype(np.int64), starts) > 1
        score = np.where(weighed, out[:, 0], -np.inf)
        top = np.maximum.reduceat(score, starts)
        best = np.maximum.reduceat(np.where(weighed, values, -np.inf), starts)
        # the value of the top-scored card (the first of equal scores, as the kernel)
        first = np.minimum.reduceat(np.where(score == top[seg], np.arange(len(seg)), len(seg)), starts)
        got = values[first]
        lost += float((best - got)[use].sum())
        same += int((got == best)[use].sum())
        n += int(use.sum())
    return {"regret": lost * scale / max(n, 1), "agreement": same / max(n, 1)}


def card_accuracy(net: dict, rows: dict) -> float:
    """The share of decisions where the network's top card is the one played."""
    s = forward(net, rows["x"])[0][:, 0]
    starts, count = rows["start"], rows["count"]
    hits = [np.argmax(s[a : a + c]) == k for a, c, k in zip(starts, count, rows["chosen"])]
    return float(np.mean(hits))


@dataclass(frozen=True)
class FitSettings:
    """How ``train_model`` fits a model's networks; ``FitSettings()`` holds the defaults.

    >>> FitSettings(play_hidden=8, epochs=2, seed=5)
    FitSettings(bid_hidden=32, play_hidden=8, epochs=2, bid_epochs=None, play_loss='softmax', play_decay=1.0, seed=5)
    """

    bid_hidden: int = 32
    """Hidden units of the bidding network."""
    play_hidden: int = 256
    """Hidden units of the ``"vector"`` card network (``fit_vector_player``)."""
    epochs: int = 4
    """Passes over the card rows."""
    bid_epochs: int | None = None
    """Passes over the bidding rows (None: ``epochs``)."""
    play_loss: str = "softmax"
    """The card network's loss (one of ``VECTOR_LOSSES``), and the vector bidder's."""
    play_decay: float = 1.0
    """The card network's weight decay (``fit_vector_player``'s ``decay``), and the vector bidder's."""
    seed: int = 0
    """The draws of the fit: the bidder's from ``seed``, the card network's from ``seed + 1``."""

    def __post_init__(self):
        for name in ("bid_hidden", "play_hidden", "epochs", "bid_epochs", "seed"):
            value = getattr(self, name)
            if value is None and name == "bid_epochs":
                continue
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < (0 if name == "seed" else 1):
                least = "an int >= 0" if name == "seed" else "an int >= 1" + (" or None" if name == "bid_epochs" else "")
                raise ValueError(f"FitSettings: {name} must be {least}, not {value!r}")
        if self.play_loss not in VECTOR_LOSSES:
            raise ValueError(f"FitSettings: play_loss is one of {', '.join(VECTOR_LOSSES)}, not {self.play_loss!r}")


def train_model(bid_hands: dict | None, play_rows: dict, blind_hands: dict | None = None, *, bid_rows: dict | None = None,
                bidder_from=None, settings: FitSettings = FitSettings(), rules: Rules | None = None,
                info: dict | None = None) -> Model:  # fmt: skip
    """A ``Model``: the ``"vector"`` card network fitted on ``play_rows`` (``rows.vector_card_rows``:
    a labeller's value of every card; ``fit_vector_player`` with the ``settings``' ``play_hidden``,
    ``epochs``, ``play_loss`` and ``play_decay``), the bidder fitted on ``bid_hands`` (for
    ``bid_epochs``, by default ``epochs``) and the blind-nil numbers from ``blind_hands`` (rules
    with blind nil; without them the model never bids blind nil). For a dataset too large to hold
    as hands, pass its ``bid_rows`` (``dataset_bidding_rows``) and ``bid_hands`` None; ``bid_rows``
    of ``montecarlo.bid_values.value_bidding_rows`` fit the value bidder (``fit_value_bidder``).
    With ``bidder_from`` (a ``Model`` or what ``load_model`` takes) that model's bidding network
    and blind-nil numbers are kept as they are, and no bidding data is given; with
    ``bidder_from="normal"`` the model bids like Normal (``bid_kind="normal"``: no network);
    ``bid_rows`` of ``rows.vector_bid_rows`` (a labeller's value of each candidate bid) fit the
    ``"vector"`` bidder as the card network is fitted (``bid_hidden``, ``bid_epochs``,
    ``play_loss``, ``play_decay``). ``settings``: the fit's sizes, epochs, loss and seed
    (``FitSettings``). ``info`` is kept with it.

    >>> # model = train_model(hands, rows, settings=FitSettings(play_hidden=8, epochs=2, seed=5))
    """
    _check_training_data(bid_hands, blind_hands, bid_rows, bidder_from, settings)
    s = settings
    table = (4, "pairs") if rules is None else (rules.players, rules.teams)
    check_vector_width(np.shape(play_rows["obs"])[1], Rules(players=table[0], teams=table[1]))
    play_net, play_losses = fit_vector_player(play_rows, hidden=s.play_hidden, epochs=s.epochs, loss=s.play_loss, decay=s.play_decay,
                                              seed=s.seed + 1)  # fmt: skip
    fit = {"play_loss": play_losses, **vector_regret(play_net, play_rows), "card_decisions": len(play_rows["count"])}
    info = {**(info or {}), "seed": s.seed}
    if isinstance(bidder_from, str) and bidder_from == "normal":
        return Model({}, play_net, np.zeros(N_SCALARS), {**info, "fit": fit, "bids": "normal"}, bid_kind="normal", play_kind="vector",
                     table=table)  # fmt: skip
    if bid_rows is not None and "obs" in bid_rows:  # a labeller's value of each candidate bid: the vector bidder
        bid_net, bid_loss = fit_vector_player(bid_rows, hidden=s.bid_hidden, epochs=_bid_epochs(s), loss=s.play_loss, decay=s.play_decay,
                                              seed=s.seed)  # fmt: skip
        bid_fit = {"bid_loss": bid_loss, **{f"bid_{k}": v for k, v in vector_regret(bid_net, bid_rows).items()},
                   "bid_decisions": len(bid_rows["count"])}  # fmt: skip
        info = {**info, "fit": {**fit, **bid_fit}}
        return Model(bid_net, play_net, np.zeros(N_SCALARS), info, bid_kind="vector", play_kind="vector", table=table)
    if bidder_from is not None:
        base = load_model(bidder_from)
        # the info of the model that fitted the bidder, however many models kept it since
        info = {**info, "fit": fit, "bidder_from": base.info.get("bidder_from", base.info)}
        return replace(base, play=play_net, play_kind="vector", scalars=base.scalars.copy(), info=info, table=table)
    bid_net, bid_kind, bid_fit = _fit_bidder(bidding_rows(bid_hands, rules) if bid_rows is None else bid_rows, s)
    if blind_hands is not None:
        scalars = blind_scalars(bidding_rows(blind_hands, Rules(blind_nil=True) if rules is None else rules))
    else:
        scalars = blind_scalars({"cols": np.zeros((0, replay.N_B), np.int64), "vals": np.zeros((0, replay.N_V))})
    fit = {"bid_loss": bid_fit.pop("bid_loss"), **fit, **bid_fit}
    return Model(bid_net, play_net, scalars, {**info, "fit": fit}, bid_kind=bid_kind, play_kind="vector", table=table)


def _check_training_data(bid_hands, blind_hands, bid_rows, bidder_from, settings) -> None:
    """``train_model``'s bidding data: from one source, or none beside ``bidder_from``."""
    if not isinstance(settings, FitSettings):
        raise TypeError(f"train_model: settings is a FitSettings (models.fit), not {type(settings).__name__}")
    if bidder_from is not None and (bid_hands, bid_rows, blind_hands) != (None, None, None):
        raise ValueError("train_model: with bidder_from the bidder is that model's: give no bidding hands, rows or blind-nil hands")
    if bidder_from is None and (bid_hands is None) == (bid_rows is None):
        raise ValueError("train_model: give the bidding hands (bid_hands) or their rows (bid_rows=), one of the two")


def _bid_epochs(settings: FitSettings) -> int:
    return settings.epochs if settings.bid_epochs is None else settings.bid_epochs


def _fit_bidder(bid_rows: dict, settings: FitSettings) -> tuple[dict, str, dict]:
    """``(net, kind, fit)``: the ``"tricks"`` bidder fitted on ``bidding_rows``, or the
    ``"value"`` bidder on ``value_bidding_rows``; ``fit`` holds its losses and its rows' count."""
    s = settings
    if "cols" in bid_rows:
        net, loss = fit_bidder(bid_rows, hidden=s.bid_hidden, epochs=_bid_epochs(s), seed=s.seed)
        return net, "tricks", {"bid_loss": loss, "bid_hands": int(bid_rows["cols"][:, replay.B_HAND].max()) + 1}
    net, loss = fit_value_bidder(bid_rows, hidden=s.bid_hidden, epochs=_bid_epochs(s), seed=s.seed)
    return net, "value", {"bid_loss": loss, "bid_rows": len(bid_rows["x"])}


def train_play_model(hands: dict, *, base="default", agent: int | None = None, hidden: int = 8, epochs: int = 4,
                     seed: int = 0, rules: Rules | None = None, info: dict | None = None) -> Model:  # fmt: skip
    """A play model for reading the play (``make_agent("crazy", read_play=True, play_model=...)``):
    the card network fitted on how the players of ``hands`` play (every seat, or agent index
    ``agent``), beside the bidder and numbers of ``base`` (a ``Model`` or what ``load_model``
    takes), so the file is a whole model. ``hands``: ``learn.hands.dataset_hands`` of a self-play dataset,
    or the hands of a ``--keep-plays`` results folder (``tournament.recorded.recorded_hands``;
    ``agent`` then indexes its labels, so a model can learn one opponent's play)."""
    base = load_model(base)
    cards = card_rows(hands, agent, rules)
    net, loss = fit_player(cards, hidden=hidden, epochs=epochs, seed=seed)
    fit = {"play_loss": loss, "play_accuracy": card_accuracy(net, cards), "card_decisions": len(cards["count"]),
           "hands": len(hands["deals"]), "bidder_from": base.info.get("made_by", "a model")}  # fmt: skip
    return Model(base.bid, net, base.scalars, {**(info or {}), "seed": seed, "fit": fit, "role": "play model"},
                 bid_kind=base.bid_kind, play_kind="cards")  # fmt: skip
