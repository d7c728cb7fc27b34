"""Fitting the learned models in numpy, from the rows of ``spades_ai.learn`` datasets.

>>> # see experiments/train_models.py, which makes the shipped ``weights/default.npz``
>>> # bids = load_dataset(...); hard = load_dataset(...)
>>> # model = train_model(hands_from_rows(bids, seed), hands_from_rows(hard, seed), ...)

``hands_from_rows`` turns a dataset's rows (``load_dataset``) back into hands; ``bidding_rows``
(``dataset_bidding_rows`` for a whole dataset folder, chunk by chunk) and ``card_rows`` replay them on the engine into features (``replay``); ``fit_bidder`` fits the
bidding network (the distribution of D, the partner's bid, the nil chance and the partner's
value beside a nil, each on the rows that show it); ``value_bidding_rows`` plays every
candidate bid out on dealt cards and ``fit_value_bidder`` fits the value bidder's network (each
candidate's margin) on them, no dataset needed; ``blind_scalars`` the blind-nil numbers,
``fit_player`` the card network (the softmax over the legal cards of the imitated agent's
choice), ``train_play_model`` a play model for reading the play (the same network, fitted on
every seat of the table's hands). Every draw comes from ``numpy.random.default_rng(seed)``: the same rows and seed give
the same weights.
"""

from __future__ import annotations

import numpy as np

from spades_ai.errors import RulesError
from spades_ai.models import replay
from spades_ai.models.features import N_BID_FEATURES, N_CARD_FEATURES
from spades_ai.models.model import (
    BLIND_MADE,
    BLIND_PARTNER,
    N_BID_OUTPUTS,
    N_SCALARS,
    N_VALUE_OUTPUTS,
    N_TRICK_CLASSES,
    OUT_NIL,
    OUT_NIL_PARTNER,
    OUT_PARTNER,
    SIGHTED_VALUE,
    Model,
    load_model,
)
from spades_ai.rules import Rules
from spades_ai.simulate import deal_masks

#: the dataset's phases and action ids (``learn.encoding``: bids at 52 + b, blind nil 66)
PHASE_BLIND, PHASE_BID, PHASE_PLAY = 1, 2, 3
BID_OFFSET, BLIND_NIL_ACTION = 52, 66
#: the dataset columns ``hands_from_rows`` rebuilds hands from
HAND_COLUMNS = ["deal_no", "seat", "phase", "action", "agent"]


def hands_from_rows(data: dict, seed: int) -> dict:
    """The hands of a dataset's rows (``load_dataset`` of a folder dealt from ``seed``, dealer
    0): ``deals`` ``(n, 4)``, ``dealer``, ``bids`` / ``blind`` ``(n, 4)``, ``plays`` ``(n, 52)``
    card ids in play order, ``deal_no`` and ``seat_agents`` ``(n, 4)`` (the acting agent's
    index), as ``tournament.recorded.recorded_hands`` gives the hands of a results folder."""
    for k in HAND_COLUMNS:
        if k not in data:
            raise ValueError(f"the rows lack the column {k!r} (load_dataset(path) reads it)")
    deal_no, seat, phase, action = (np.asarray(data[k]).astype(np.int64) for k in ("deal_no", "seat", "phase", "action"))
    hands, index = np.unique(deal_no, return_inverse=True)
    n = len(hands)
    card = phase == PHASE_PLAY
    if card.sum() != 52 * n:
        raise ValueError(f"{n} hands need {52 * n} card rows, the rows hold {int(card.sum())}: every hand must be whole")
    bids = np.full((n, 4), -1, np.int64)
    blind = np.zeros((n, 4), np.bool_)
    b = phase == PHASE_BID
    bids[index[b], seat[b]] = action[b] - BID_OFFSET
    bl = (phase == PHASE_BLIND) & (action == BLIND_NIL_ACTION)
    bids[index[bl], seat[bl]] = 0
    blind[index[bl], seat[bl]] = True
    agents = np.zeros((n, 4), np.int64)
    agents[index[card], seat[card]] = np.asarray(data["agent"])[card]
    order = np.argsort(index[card], kind="stable")
    plays = action[card][order].reshape(n, 52)
    consecutive = n and np.all(np.diff(hands) == 1)
    deals = deal_masks(seed, int(hands[0]), n) if consecutive else np.concatenate([deal_masks(seed, int(d), 1) for d in hands] or [np.zeros((0, 4), np.uint64)])
    return {"deals": deals, "dealer": np.zeros(n, np.int64), "bids": bids, "blind": blind, "plays": plays, "deal_no": hands, "seat_agents": agents}


def _check_rules(rules) -> Rules:
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, not {rules!r}")
    if rules.pass_cards or rules.blind_pass:
        raise RulesError("the models are fitted on hands without card passing (pass_cards=0, blind_pass=0)")
    return rules


def bidding_rows(hands: dict, rules: Rules | None = None) -> dict:
    """The bidding rows of ``hands`` (``replay.bid_rows``): ``x`` features (float32: a row
    per bid, millions of them in a large dataset), ``cols`` (``B_*``) and ``vals`` (``V_*``)."""
    rules = _check_rules(rules)
    n = len(hands["deals"])
    x = np.zeros((8 * n, N_BID_FEATURES))
    cols = np.zeros((8 * n, replay.N_B), np.int64)
    vals = np.zeros((8 * n, replay.N_V))
    m = replay.bid_rows(hands["deals"], hands["dealer"], hands["bids"], hands["blind"], hands["plays"], rules.as_array(), x, cols, vals)
    return {"x": x[:m].astype(np.float32), "cols": cols[:m], "vals": vals[:m]}


def dataset_bidding_rows(chunks, seed: int, *, hands: int | None = None, rules: Rules | None = None) -> dict:
    """The ``bidding_rows`` of the first ``hands`` hands (all when None) of a dataset dealt
    from ``seed``, given as its chunks of rows with the columns ``HAND_COLUMNS``
    (``learn.dataset.iter_dataset(path, columns=HAND_COLUMNS)``), built chunk by chunk so that
    only the rows, never every hand's cards, are held at once."""
    parts, done = [], 0
    for chunk in chunks:
        if hands is not None and done >= hands:
            break
        part = hands_from_rows(chunk, seed)
        if hands is not None:
            part = {k: v[: hands - done] for k, v in part.items()}
        rows = bidding_rows(part, rules)
        rows["cols"][:, replay.B_HAND] += done  # the hand's index in the dataset, not the chunk
        parts.append(rows)
        done += len(part["deals"])
    if not parts:
        raise ValueError("the dataset holds no hands")
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def card_rows(hands: dict, agent: int | None = None, rules: Rules | None = None) -> dict:
    """The card rows of ``hands`` (``replay.play_rows``) played by agent index ``agent`` (every
    seat when None): ``x`` (a row per legal card), ``start``, ``count`` and ``chosen`` per
    decision with a choice."""
    rules = _check_rules(rules)
    n = len(hands["deals"])
    actors = np.ones((n, 4), np.bool_) if agent is None else hands["seat_agents"] == agent
    # at most 13 + 12 + ... + 1 legal cards over a seat's 13 decisions
    x = np.zeros((int(actors.sum()) * 91, N_CARD_FEATURES))
    dec = np.zeros((int(actors.sum()) * 13, 3), np.int64)
    m, d = replay.play_rows(hands["deals"], hands["dealer"], hands["bids"], hands["blind"], hands["plays"], actors, rules.as_array(), x, dec)
    if (dec[:d, 2] < 0).any():
        raise ValueError("a recorded card is not among the legal cards of its decision: the hands were not played under these rules")
    return {"x": x[:m], "start": dec[:d, 0], "count": dec[:d, 1], "chosen": dec[:d, 2]}


def card_value_targets(data: dict, cards: dict, rules: Rules | None = None, scale: float = 10.0) -> np.ndarray:
    """The labeller's value of every card row of ``cards`` (``card_rows`` of every seat of the
    hands of ``data``, a dataset with ``labels="hard"`` or ``"crazy"``: ``load_dataset`` with
    the columns ``phase``, ``mask``, ``action``, ``label_values``), in points / ``scale`` (a
    trick is 1), NaN where it weighed the card not. Checks that the rows are the same
    decisions: a dataset and hands that do not belong together are refused."""
    rules = _check_rules(rules)
    for k in ("phase", "mask", "action", "label_values"):
        if k not in data:
            raise ValueError(f"the rows lack the column {k!r}: a dataset written with labels='hard' (or 'crazy') has it")
    card = np.asarray(data["phase"]) == PHASE_PLAY
    mask = np.asarray(data["mask"])[card, :52].astype(bool)
    choice = mask.sum(1) > 1
    mask, values = mask[choice], np.asarray(data["label_values"])[card][choice]
    action = np.asarray(data["action"])[card][choice]
    if len(mask) != len(cards["count"]) or not (mask.sum(1) == cards["count"]).all():
        raise ValueError(f"the dataset's {len(mask)} card decisions with a choice are not the {len(cards['count'])} of the card rows")
    engine = np.array([rules.engine_mask(1 << c).bit_length() - 1 for c in range(52)])  # the rows go by engine id
    out = np.full(len(cards["x"]), np.nan)
    for d in range(len(mask)):
        legal = np.flatnonzero(mask[d])
        order = legal[np.argsort(engine[legal], kind="stable")]
        if order[cards["chosen"][d]] != action[d]:
            raise ValueError(f"card decision {d}: the rows played card {order[cards['chosen'][d]]}, the dataset {action[d]}")
        start = cards["start"][d]
        out[start : start + len(order)] = values[d, order] / scale
    return out


# -- the network in numpy ------------------------------------------------------------------------
def init_network(inputs: int, hidden: int, outputs: int, rng) -> dict:
    """He-initialised weights of a one-hidden-layer network (``network``'s layout)."""
    return {"W1": rng.normal(0.0, np.sqrt(2.0 / inputs), (hidden, inputs)), "b1": np.zeros(hidden),
            "W2": rng.normal(0.0, np.sqrt(1.0 / hidden), (outputs, hidden)), "b2": np.zeros(outputs)}  # fmt: skip


def forward(net: dict, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(outputs, hidden)`` of the network for the rows of ``x`` (as ``network.forward``)."""
    h = np.maximum(x @ net["W1"].T + net["b1"], 0.0)
    return h @ net["W2"].T + net["b2"], h


def _backward(net: dict, x, h, d_out) -> dict:
    dh = (d_out @ net["W2"]) * (h > 0)
    return {"W1": dh.T @ x, "b1": dh.sum(0), "W2": d_out.T @ h, "b2": d_out.sum(0)}


def fit_network(net: dict, batches, loss_grad, epochs: int, lr: float = 3e-3) -> list[float]:
    """Adam on ``net`` in place: each epoch, for each ``(x, batch)`` of ``batches(epoch)``,
    ``loss_grad(outputs, batch) -> (loss, d_outputs)``. Returns each epoch's mean loss."""
    m = {k: np.zeros_like(v) for k, v in net.items()}
    v = {k: np.zeros_like(w) for k, w in net.items()}
    t, history = 0, []
    for epoch in range(epochs):
        losses = []
        for x, batch in batches(epoch):
            out, h = forward(net, x)
            loss, d_out = loss_grad(out, batch)
            grads = _backward(net, x, h, d_out)
            t += 1
            for k in net:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v[k] = 0.999 * v[k] + 0.001 * grads[k] ** 2
                net[k] -= lr * (m[k] / (1 - 0.9**t)) / (np.sqrt(v[k] / (1 - 0.999**t)) + 1e-8)
            losses.append(loss)
        history.append(float(np.mean(losses)))
    return history


def _softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


# -- the bidder ----------------------------------------------------------------------------------
def _bid_loss(out, rows):
    """Cross-entropy of D on number bids, squared error of the partner's later bid, the nil's
    logistic loss and its partner value's squared error on nils; all over the batch size."""
    cols, vals = rows["cols"], rows["vals"]
    n = len(out)
    d = np.zeros_like(out)
    number = cols[:, replay.B_BID] > 0
    p = _softmax(out[number, :N_TRICK_CLASSES])
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


def _shuffled(rng, n: int, batch: int):
    """An epoch's minibatches: the row indices of a fresh permutation of ``n`` rows, ``batch`` at a time."""
    order = rng.permutation(n)
    for s in range(0, n, batch):
        yield order[s : s + batch]


def fit_bidder(rows: dict, *, hidden: int = 32, epochs: int = 8, batch: int = 1024, seed: int = 0) -> tuple[dict, list]:
    """The bidding network fitted on the sighted bids of ``bidding_rows``: ``(net, losses)``."""
    keep = rows["cols"][:, replay.B_KIND] == replay.KIND_BID
    x, cols, vals = rows["x"][keep], rows["cols"][keep], rows["vals"][keep]
    if len(x) == 0:
        raise ValueError("no sighted bids to fit the bidder on")
    rng = np.random.default_rng(seed)
    net = init_network(N_BID_FEATURES, hidden, N_BID_OUTPUTS, rng)

    def batches(epoch):
        for i in _shuffled(rng, len(x), batch):
            yield x[i], {"cols": cols[i], "vals": vals[i]}

    return net, fit_network(net, batches, _bid_loss, epochs)


def value_bidding_rows(seed: int, start: int, n: int, rules: Rules | None = None) -> dict:
    """The value bidder's rows of deals ``start .. start+n-1`` of ``seed`` (``replay.bid_value_rows``:
    each candidate bid's margin on the deal's own cards, Normal finishing): ``x`` (float32
    features, four rows a deal) and ``vals`` (``N_VALUE_OUTPUTS`` a row, NaN where not tried)."""
    rules = _check_rules(rules)
    if rules.blind_nil:
        raise RulesError("the value bidder's rows are dealt without blind nil (its numbers come from the blind-nil dataset)")
    deals = deal_masks(seed, start, n)
    x = np.zeros((4 * n, N_BID_FEATURES))
    vals = np.zeros((4 * n, N_VALUE_OUTPUTS))
    m = replay.bid_value_rows(deals, rules.as_array(), x, vals)
    return {"x": x[:m].astype(np.float32), "vals": vals[:m]}


def _bid_value_loss(out, vals):
    """Squared error of each tried candidate's margin (NaN: not tried), over the batch size."""
    tried = ~np.isnan(vals)
    err = np.where(tried, out - np.nan_to_num(vals), 0.0)
    return float((err**2).sum() / len(out)), 2 * err / len(out)


def fit_value_bidder(rows: dict, *, hidden: int = 128, epochs: int = 6, batch: int = 1024, seed: int = 0) -> tuple[dict, list]:
    """The value bidder's network fitted on ``value_bidding_rows``: each output the margin of
    one candidate bid (``model.VALUE_SHIFTS``, nil), regressed on the rows that tried it.
    ``(net, losses)``."""
    x, vals = rows["x"], rows["vals"]
    if len(x) == 0:
        raise ValueError("no rows to fit the value bidder on")
    rng = np.random.default_rng(seed)
    net = init_network(N_BID_FEATURES, hidden, N_VALUE_OUTPUTS, rng)

    def batches(epoch):
        for i in _shuffled(rng, len(x), batch):
            yield x[i], vals[i]

    return net, fit_network(net, batches, _bid_value_loss, epochs)


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


def card_accuracy(net: dict, rows: dict) -> float:
    """The share of decisions where the network's top card is the one played."""
    s = forward(net, rows["x"])[0][:, 0]
    starts, count = rows["start"], rows["count"]
    hits = [np.argmax(s[a : a + c]) == k for a, c, k in zip(starts, count, rows["chosen"])]
    return float(np.mean(hits))


def train_model(bid_hands: dict | None, play_hands: dict, blind_hands: dict | None = None, *, player_agent: int | None = None,
                bid_hidden: int = 32, play_hidden: int = 32, epochs: int = 8, bid_epochs: int | None = None, seed: int = 0,
                rules: Rules | None = None, info: dict | None = None, bid_rows: dict | None = None) -> Model:  # fmt: skip
    """A ``Model``: the bidder fitted on ``bid_hands``, the player on the cards of agent
    ``player_agent`` in ``play_hands``, the blind-nil numbers from ``blind_hands`` (rules with
    blind nil; without them the model never bids blind nil), each network for ``epochs`` epochs
    (the bidder for ``bid_epochs`` when given). ``info`` is kept with it. For a dataset too
    large to hold as hands, pass its ``bid_rows`` (``dataset_bidding_rows``) and ``bid_hands``
    None; ``bid_rows`` of ``value_bidding_rows`` fit the value bidder (``fit_value_bidder``)."""
    if (bid_hands is None) == (bid_rows is None):
        raise ValueError("train_model: give the bidding hands (bid_hands) or their rows (bid_rows=), one of the two")
    bid_rows = bidding_rows(bid_hands, rules) if bid_rows is None else bid_rows
    bid_epochs = epochs if bid_epochs is None else bid_epochs
    if "cols" in bid_rows:
        bid_net, bid_loss = fit_bidder(bid_rows, hidden=bid_hidden, epochs=bid_epochs, seed=seed)
        bid_count = {"bid_hands": int(bid_rows["cols"][:, replay.B_HAND].max()) + 1}
    else:
        bid_net, bid_loss = fit_value_bidder(bid_rows, hidden=bid_hidden, epochs=bid_epochs, seed=seed)
        bid_count = {"bid_rows": len(bid_rows["x"])}
    cards = card_rows(play_hands, player_agent, rules)
    play_net, play_loss = fit_player(cards, hidden=play_hidden, epochs=epochs, seed=seed + 1)
    if blind_hands is not None:
        scalars = blind_scalars(bidding_rows(blind_hands, Rules(blind_nil=True) if rules is None else rules))
    else:
        scalars = blind_scalars({"cols": np.zeros((0, replay.N_B), np.int64), "vals": np.zeros((0, replay.N_V))})
    fit = {"bid_loss": bid_loss, "play_loss": play_loss, "play_accuracy": card_accuracy(play_net, cards), **bid_count,
           "card_decisions": len(cards["count"])}  # fmt: skip
    return Model(bid_net, play_net, scalars, {**(info or {}), "seed": seed, "fit": fit})


def train_play_model(hands: dict, *, base="default", agent: int | None = None, hidden: int = 8, epochs: int = 4,
                     seed: int = 0, rules: Rules | None = None, info: dict | None = None) -> Model:  # fmt: skip
    """A play model for reading the play (``make_agent("crazy", read_play=True, play_model=...)``):
    the card network fitted on how the players of ``hands`` play (every seat, or agent index
    ``agent``), beside the bidder and numbers of ``base`` (a ``Model`` or what ``load_model``
    takes), so the file is a whole model. ``hands``: ``hands_from_rows`` of a self-play dataset,
    or the hands of a ``--keep-plays`` results folder (``tournament.recorded.recorded_hands``;
    ``agent`` then indexes its labels, so a model can learn one opponent's play)."""
    base = load_model(base)
    cards = card_rows(hands, agent, rules)
    net, loss = fit_player(cards, hidden=hidden, epochs=epochs, seed=seed)
    fit = {"play_loss": loss, "play_accuracy": card_accuracy(net, cards), "card_decisions": len(cards["count"]),
           "hands": len(hands["deals"]), "bidder_from": base.info.get("made_by", "a model")}  # fmt: skip
    return Model(base.bid, net, base.scalars, {**(info or {}), "seed": seed, "fit": fit, "role": "play model"})
