"""Issue 11, item 3: how much the play model's noise ``eps`` lets Crazy read the hidden hands.

    python experiments/read_play_noise.py [--deals 150] [--worlds 2000] [--players hard] [--play-models reading]

Deals are bid by Normal and played by ``--players`` at every seat (Hard by default: Crazy's
opponents and, nearly, its partner) to a random point of the play (8 to 40 cards); the seat to
act samples ``--worlds`` uniform worlds and weighs them by the bids alone and by the bids and
the play at each ``eps``. Reported per eps, paired deal by deal against the bids alone: the log
score of the true holder of every hidden card (mean ``log p``, p floored at 1e-3; a proper
scoring rule, so the best ``eps`` is the model that fits the players best), the share of worlds
giving each hidden ace, king and queen to its true holder, and how often the weights were
tempered. ``--play-models`` (issue 21, item 3) adds learned play models (``models.player``:
a model's card network, softmaxed, mixed with ``eps`` of uniform noise) beside Normal's play,
on the same worlds. Writes ``experiments/results/read_play_noise_PLAYERS.md`` (with the models'
names when given).
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

from spades_ai import Hand, make_agent
from spades_ai.montecarlo.sampling import sample_worlds_kernel
from spades_ai.montecarlo.weights import world_weights_kernel
from spades_ai.analysis.summary import mean_interval
from spades_ai.engine import state as st
from spades_ai.engine.rng import stream_state
from spades_ai.models.model import packed_after
from spades_ai.simulate import deal_masks

EPS = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5)
HERE = Path(__file__).parent


def scores(worlds, w, deal, hidden):
    """(mean log score of the true holders of ``hidden``, mean share for its honours)."""
    p = np.empty(len(hidden))
    for j, c in enumerate(hidden):
        holder = next(s for s in range(4) if deal[s] >> c & 1)
        p[j] = (w * ((worlds[:, holder] >> np.uint64(c)) & np.uint64(1))).sum() / w.sum()
    honours = [j for j, c in enumerate(hidden) if c % 13 >= 10]
    return float(np.mean(np.log(np.maximum(p, 1e-3)))), (float(np.mean(p[honours])) if honours else None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--worlds", type=int, default=2000)
    ap.add_argument("--players", default="hard")
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--play-models", default="", help="learned play models to weigh too, comma-separated (shipped names or .npz paths)")
    ap.add_argument("--eps", default=",".join(map(str, EPS)), help="the noises, comma-separated")
    args = ap.parse_args()
    eps_grid = [float(e) for e in args.eps.split(",")]
    readers = {"normal": (np.zeros(1, np.int64), 0)}
    for name in filter(None, args.play_models.split(",")):
        readers[name] = packed_after(np.zeros(1, np.int64), name)
    keys = [(r, e) for r in readers for e in eps_grid]
    normal, player = make_agent("normal"), make_agent(args.players)
    rng = random.Random(args.seed)
    log_gain = {k: [] for k in keys}
    hon_gain = {k: [] for k in keys}
    tempered = {k: 0 for k in keys}
    t0 = time.process_time()
    for i, masks in enumerate(deal_masks(args.seed, 0, args.deals)):
        deal = [int(m) for m in masks]
        hand = Hand(deal, dealer=i % 4)
        for _ in range(4):
            hand.bid(normal.bid(hand.observation()))
        for _ in range(rng.randint(8, 40)):
            hand.play(player.play(hand.observation()))
        obs = hand.observation()
        pub = np.array(obs.public)
        n = args.worlds
        _, worlds = sample_worlds_kernel(np.uint64(stream_state(np.uint64(args.seed), i, 1)), pub, obs.seat, np.uint64(obs.cards),
                                  obs.rules_array, n)
        hidden = [c for c in range(52) if not (int(obs.cards) | int(pub[st.P_PLAYED])) >> c & 1]
        w0, _ = world_weights_kernel(pub, obs.seat, worlds, n, obs.rules_array)
        base_log, base_hon = scores(worlds, w0, deal, hidden)
        for r, e in keys:
            w, fell = world_weights_kernel(pub, obs.seat, worlds, n, obs.rules_array, True, e, *readers[r])
            tempered[r, e] += bool(fell)
            lg, hon = scores(worlds, w, deal, hidden)
            log_gain[r, e].append(lg - base_log)
            if hon is not None:
                hon_gain[r, e].append(hon - base_hon)
    cpu = time.process_time() - t0
    command = f"python experiments/read_play_noise.py --deals {args.deals} --worlds {args.worlds} --players {args.players} --seed {args.seed}"
    if args.play_models:
        command += f" --play-models {args.play_models}"
    if eps_grid != list(EPS):
        command += f" --eps {args.eps}"
    lines = [f"`{command}`: {args.deals} deals played by {args.players} at every seat, {cpu:.0f} s CPU.", "",
             "| play model | eps | log score gain per hidden card (nats) | 95% interval | honours: true holder's share gain | 95% interval | tempered |",
             "|---|---|---|---|---|---|---|"]
    for r, e in keys:
        m, lo, hi = mean_interval(np.array(log_gain[r, e]))
        hm, hlo, hhi = mean_interval(np.array(hon_gain[r, e]))
        lines.append(f"| {r} | {e} | {m:+.4f} | [{lo:+.4f}, {hi:+.4f}] | {hm:+.4f} | [{hlo:+.4f}, {hhi:+.4f}] | {tempered[r, e]} of {args.deals} |")
    text = "\n".join(lines) + "\n"
    tag = "_".join([args.players] + [Path(m).stem for m in filter(None, args.play_models.split(","))])
    (HERE / "results" / f"read_play_noise_{tag}.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
