"""Train the shipped play model of the reading of the play, ``spades_ai/models/weights/reading.npz``.

    python experiments/train_play_model.py            # the shipped model (dataset in experiments/data/)
    python experiments/train_play_model.py --tiny --out /tmp/reading.npz   # a small end-to-end run (CI)
    python experiments/train_play_model.py --players crazy --deals 1500 --out reading_crazy.npz

Issue 21, item 3. Crazy reading the play (``make_agent("crazy", read_play=True,
play_model="reading")``) weighs each world by how likely the cards the other seats played are
under this model (``montecarlo.reading``). The model is the learned card network
(``models.player``: a score a legal card, softmaxed) fitted on how the players at the table
play: every seat of ``DEALS`` hands of Hard self-play (the dataset command of issue 20,
``spades_ai.learn.write_dataset``, dealt from the seed, resumable), Hard being what Crazy's
opponents and partner nearly are (Crazy is Hard with more, weighted worlds). Its bidder and
blind-nil numbers are the default model's, so the file is a whole model. Same seed, same sizes:
the same file.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # see train_models.py
os.environ.setdefault("OMP_NUM_THREADS", "1")

from train_models import HARD, dataset, script_parser  # noqa: E402

from spades_ai import make_agent  # noqa: E402
from spades_ai.models.model import WEIGHTS_DIR  # noqa: E402
from spades_ai.models.fit import train_play_model  # noqa: E402

SEED = 23
FULL = {"deals": 6000, "players": "hard", "hidden": 8, "epochs": 4, "jobs": 2}
TINY = {"deals": 40, "players": "normal", "hidden": 4, "epochs": 1, "jobs": 1}


def main(argv=None) -> Path:
    ap = script_parser(__doc__, SEED, WEIGHTS_DIR / "reading.npz", "a small dataset of Normal's play and a tiny network (the CI run)")
    ap.add_argument("--hidden", type=int, help="the network's hidden units (the shipped model's by default)")
    ap.add_argument("--players", choices=["hard", "crazy"], help="whose self-play to imitate (hard by default)")
    ap.add_argument("--deals", type=int, help="how many hands of self-play (6,000 by default)")
    args = ap.parse_args(argv)
    size = dict(TINY if args.tiny else FULL)
    for key in ("hidden", "players", "deals"):
        if getattr(args, key) is not None:
            size[key] = getattr(args, key)
    # Hard as it was when the shipped model was fitted: bidding by its search (train_models.HARD)
    players = make_agent("hard", **HARD) if size["players"] == "hard" else size["players"]
    hands = dataset(size["players"], [players] * 2, size["deals"], args.seed, args.data, n_jobs=size["jobs"])
    t0 = time.perf_counter()
    info = {"made_by": "experiments/train_play_model.py" + (" --tiny" if args.tiny else ""), "imitates": f"{size['players']}, every seat",
            "datasets": {size["players"]: size["deals"]}, "hidden": size["hidden"], "epochs": size["epochs"]}  # fmt: skip
    model = train_play_model(hands, hidden=size["hidden"], epochs=size["epochs"], seed=args.seed, info=info)
    model.save(args.out)
    print(f"fitted in {time.perf_counter() - t0:.0f} s: {json.dumps(model.info['fit'])}")
    print(f"wrote {args.out}")
    return args.out


if __name__ == "__main__":
    main()
