"""Writes the six notebooks (run: python notebooks/_make_notebooks.py). Notebooks only call
spades_ai: every computation lives in the package, so the notebooks stay short and tested.

To open them: ``pip install -e ".[notebooks]"`` then ``jupyter lab notebooks/``; to run them all
headless at their small sizes: ``jupyter execute notebooks/*.ipynb`` (``notebooks/README.md``)."""

from pathlib import Path

import nbformat as nbf

HERE = Path(__file__).parent


def notebook(title: str, intro: str, params: str, cells: list[str]) -> nbf.NotebookNode:
    nb = nbf.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbf.v4.new_markdown_cell(f"# {title}\n\n{intro}")]
    p = nbf.v4.new_code_cell(params)
    p.metadata["tags"] = ["parameters"]
    nb.cells.append(p)
    nb.cells += [nbf.v4.new_markdown_cell(c[3:]) if c.startswith("## ") else nbf.v4.new_code_cell(c) for c in cells]
    for i, cell in enumerate(nb.cells):  # ids by position, not random: regenerating changes only what changed
        cell.id = f"cell-{i}"
    return nb


def setup(*analysis: str) -> str:
    """The first code cell: the imports (``analysis``: the modules of ``spades_ai.analysis`` the
    notebook uses) and the folder its runs write to."""
    return (f"import tempfile\nimport pandas as pd\nimport spades_ai as sa\nfrom spades_ai.analysis import {', '.join(analysis)}\n"
            'pd.set_option("display.width", 160)\nout = OUT or tempfile.mkdtemp(prefix="spades-nb-")')



rates = notebook(
    "Bag and set rates",
    "Tournament results to bag and set rates: a round-robin on duplicate deals (hands mode) for the "
    "rates and the bid accuracy, and a matches-mode run for how the rates move with the score "
    "context (near the target, close to the bag limit, trailing).",
    "# Parameters: small for CI. Full size used in experiments/RESULTS.md: DEALS = 100_000, MATCHES = 2_000\n"
    'AGENTS = "normal,easy,random"\nDEALS = 400\nMATCHES = 30\nSEED = 1\nOUT = None  # a folder to keep the results in',
    [
        setup("metrics", "plots"),
        "## Round-robin, hands mode",
        'run = sa.run_tournament(AGENTS, deals=DEALS, seed=SEED, out=f"{out}/hands", progress=False)\n'
        "df = sa.load_results(run)\nrates = metrics.agent_rates(df)\n"
        'rates[["agent", "hands", "set_rate", "set_lo", "set_hi", "bags_per_hand", "penalties_per_100", "nil_rate", "nil_success", "bid_error", "bid_mae"]].round(3)',
        "plots.plot_rates(rates);",
        "plots.plot_bid_accuracy(metrics.bid_accuracy(df));",
        "## Score context, matches mode",
        'runm = sa.run_tournament("normal,easy", deals=MATCHES, seed=SEED, mode="matches", out=f"{out}/matches", progress=False)\n'
        "dm = sa.load_results(runm)\n"
        'ctx = metrics.rates_by_context(dm, "near_bag_limit")\n'
        'ctx[["agent", "near_bag_limit", "hands", "set_rate", "bags_per_hand", "bid_error"]].round(3)',
        "plots.plot_rates_by_context(ctx);",
        'near = metrics.rates_by_context(dm, "near_target")\n'
        'near[["agent", "near_target", "hands", "set_rate", "bags_per_hand"]].round(3)',
        "plots.plot_rates_by_context(near);",
    ],
)

bidding = notebook(
    "Bidding benchmark",
    "Bidding heuristics compared on one fixed set of deals: each bidder bids for one partnership "
    "(both orientations, same cards), every card is played by one fixed policy (Normal), so the "
    "differences are the bidding's. A bidder is a built-in agent or a plain function.",
    "# Parameters: small for CI. Full size in experiments/RESULTS.md: DEALS = 20_000, HARD_WORLDS = 512\n"
    "DEALS = 150\nHARD_WORLDS = 16\nSEED = 3\nOUT = None",
    [
        "import pandas as pd\nfrom spades_ai.analysis import plots\nfrom spades_ai.analysis.bidding import bidding_benchmark\npd.set_option('display.width', 160)",
        "## A bidder of our own: count aces, kings with a guard, and spades beyond three",
        "def honours_and_length(cards, seat, bids, scores):\n"
        "    suits = [[c for c in cards if c.suit == s] for s in range(4)]\n"
        "    n = sum(1 for c in cards if c.rank == 12) + sum(1 for cs in suits for c in cs if c.rank == 11 and len(cs) >= 2)\n"
        "    n += max(0, len(suits[3]) - 3)\n"
        "    return max(1, min(13, n))",
        'board = bidding_benchmark({"normal": "normal", "easy": "easy", f"hard:worlds={HARD_WORLDS}": f"hard:worlds={HARD_WORLDS}",\n'
        '                          "honours_and_length": honours_and_length}, deals=DEALS, seed=SEED)\n'
        "board.round(3)",
        "plots.plot_bidding_leaderboard(board);",
    ],
)

ladder = notebook(
    "Agent ladder",
    "Easy < Normal < Hard < Crazy: a round-robin on duplicate deals, Bradley-Terry ratings on the "
    "Elo scale with bootstrap intervals, and the points-per-deal table behind them.",
    "# Parameters: small for CI. Full size in experiments/RESULTS.md: DEALS = 2_000 with the default budgets\n"
    'AGENTS = "easy,normal,hard:worlds=16"\nDEALS = 60\nSEED = 5\nOUT = None\n'
    "# The partner study: PARTNERS = \"easy,normal,hard\", PARTNER_DEALS = 200 (experiments/partners.toml)\n"
    'PARTNERS = "easy,normal"\nPARTNER_DEALS = 100',
    [
        setup("plots"),
        'run = sa.run_tournament(AGENTS, deals=DEALS, seed=SEED, out=f"{out}/ladder", progress=False)\n'
        "df = sa.load_results(run)\ntable = sa.summarize(df)\n"
        'table[["agent", "opponent", "units", "diff", "diff_lo", "diff_hi", "set_rate", "nil_success"]].round(2)',
        "from spades_ai.analysis import ratings\nr = ratings(df)\nr",
        "plots.plot_ladder(r);",
        "## Partners\n\nEvery partnership of two of `PARTNERS` (`easy+normal`: Easy at seats 0/1, Normal at 2/3) "
        "meets every other on the same duplicate deals; an additive model of the team's duplicate points gives "
        "each agent's value as a partner, in points per deal it adds to its team (summing to zero), with "
        "95% intervals clustered by deal.",
        "from spades_ai.analysis.partners import partner_difference, partner_study\n"
        'values = partner_study(PARTNERS.split(","), deals=PARTNER_DEALS, seed=SEED, out=f"{out}/partners", progress=False)\n'
        "best, second = values[\"agent\"][:2]\n"
        'print("as a partner, %s is worth %+.1f [%+.1f, %+.1f] points per deal more than %s" % (best, *partner_difference(values, best, second), second))\n'
        "values.round(2)",
        "plots.plot_partner_values(values);",
    ],
)

MY_AGENT = '''%%writefile my_agent.py
"""A bidder and a player in numba, written against spades_ai.kernels only."""
import numba
import numpy as np

import spades_ai as sa
from spades_ai import kernels as K


@numba.njit
def bid(pub, seat, hand, legal, rules):
    """Aces, kings with a guard, and spades beyond three."""
    n = 0
    for s in range(4):
        cards = K.suit_cards(hand, s)
        length = K.count(cards)
        n += (cards >> np.uint64(13 * s + 12)) & np.uint64(1)  # the ace
        if length >= 2:
            n += (cards >> np.uint64(13 * s + 11)) & np.uint64(1)  # a guarded king
    n += max(0, K.count(hand & K.SPADES) - 3)
    return K.nearest_legal_bid(legal, max(1, np.int64(n)))


@numba.njit
def play(pub, seat, hand, legal, rules):
    """Win as cheaply as possible while the team needs tricks; otherwise throw the lowest card."""
    if K.tricks_needed(pub, seat & 1, rules) <= 0 or K.trick_len(pub) == 0:
        return K.lowest_card(legal)
    win = K.winning_card(pub)
    if K.winning_seat(pub) == (seat ^ 2):
        return K.lowest_card(legal)  # partner is winning: no need to spend a card
    best = -1
    m = legal
    while m:
        c = K.lowest_card(m)
        m &= m - np.uint64(1)
        beats = (c // 13 == win // 13 and c > win) or (c // 13 == 3 and win // 13 != 3)
        if beats and (best < 0 or c % 13 < best % 13 or (best // 13 == 3 and c // 13 != 3)):
            best = c
    return best if best >= 0 else K.lowest_card(legal)


AGENT = sa.kernel_agent("counter", bid, play)'''

mine = notebook(
    "Your own agent",
    "A bidder and a player written in numba against `spades_ai.kernels`, checked with `check_agent`, "
    "then benchmarked against the built-ins on duplicate deals: they run inside the same numba loop "
    "as the built-ins, so a large benchmark takes seconds. The agent lives in a module (`my_agent.py`, "
    "written by the first cell) so that tournaments can name it (`my_agent:AGENT`) and its compiled "
    "code is cached.",
    "# Parameters: small for CI. Full size: DEALS = 100_000\nDEALS = 2_000\nSEED = 11\nOUT = None",
    [
        MY_AGENT,
        setup("metrics", "plots"),
        "import my_agent\nfrom spades_ai.testing import check_agent\ncheck_agent(my_agent.AGENT, hands=50)\nmy_agent.AGENT",
        "## Against the built-ins, on duplicate deals",
        'run = sa.run_tournament(["my_agent:AGENT", "normal", "easy"], deals=DEALS, seed=SEED, out=f"{out}/mine", n_jobs=1, progress=False)\n'
        "df = sa.load_results(run)\n"
        'sa.summarize(df)[["agent", "opponent", "units", "diff", "diff_lo", "diff_hi", "set_rate", "bags_per_hand"]].round(2)',
        "## Bag and set rates next to the built-ins",
        "rates = metrics.agent_rates(df)\n"
        'rates[["agent", "hands", "set_rate", "set_lo", "set_hi", "bags_per_hand", "bid_error", "bid_mae"]].round(3)',
        "plots.plot_rates(rates);",
    ],
)

review = notebook(
    "Review a hand",
    "See a hand, find where an agent lost points, and share the hand as text: the pictures of a hand "
    "(`spades_ai.render`), a trick-by-trick replay, the solver's review of every card of the last six "
    "tricks (exact, every card visible; losses in points), a PBN-style record, and the loss per agent "
    "and phase over a whole results folder.",
    "# Parameters: small for CI. Full size: DEALS = 1_000\nDEALS = 4\nSEED = 8\nOUT = None",
    [
        "import tempfile\nimport pandas as pd\nimport spades_ai as sa\nfrom spades_ai import render\n"
        "from spades_ai.analysis.review import loss_table, review_hands, seat_summary, worst\n"
        "from spades_ai.table.replay import run_hands\n"
        'pd.set_option("display.width", 160)\nout = OUT or tempfile.mkdtemp(prefix="spades-nb-")',
        "## A hand in pictures",
        "hand = sa.Hand(sa.deal(SEED, 0))\nnormal = sa.make_agent(\"normal\")\nwhile hand.phase != \"over\":\n"
        "    obs = hand.observation()\n    hand.bid(normal.bid(obs)) if hand.phase == \"bidding\" else hand.play(normal.play(obs))\nhand",
        "middle = render.hand_at(hand, 30)  # the hand after 30 cards: the trick in progress in the middle\nmiddle",
        "middle.view(middle.to_act)  # what the seat to act sees: its own cards, the others counted",
        "render.replay_html(hand)  # the slider steps through the hand trick by trick",
        "## Where were points lost?",
        "df = sa.review(hand)  # the solver judges every card of tricks 8..13\n"
        "df[[\"trick\", \"seat\", \"phase\", \"action\", \"best\", \"value\", \"best_value\", \"loss\"]]",
        "seat_summary(df)",
        "render.reviewed_html(hand, df)  # costly cards marked with their loss",
        "## Share it as text",
        "text = hand.to_pbn(event=f\"deal 0 of seed {SEED}\")\nprint(text)\nsa.Hand.from_pbn(text).to_record() == hand.to_record()",
        "## A whole results folder: where does each agent lose?",
        'run = sa.run_tournament("normal,easy", deals=DEALS, seed=SEED, out=f"{out}/run", keep_plays=True, n_jobs=1, progress=False)\n'
        "every = review_hands(run_hands(run.path, table=0) + run_hands(run.path, table=1))\nloss_table(every).round(2)",
        "worst(every, 5)",
    ],
)

LINEAR_MODULE = '''MODULE = """import numpy as np
from spades_ai.learn.linear import linear_agent

_w = np.load(%r)
AGENT = linear_agent(_w["weights"], _w["bias"], name="linear")
"""'''

LEARNED_CELLS = [
    "## Your own learned model (`spades_ai.models`): a bidder and a card player fitted with numpy on the rows above, "
    "played in numba as the built-in `learned` (the shipped `default` is made the same way by `experiments/train_models.py`: on 800,000 hands it wins +12 a deal against Normal; on the few hands of the CI size it loses)",
    "from spades_ai.learn.hands import dataset_hands\n"
    "from spades_ai.models.fit import FitSettings, train_model, train_play_model\n"
    "hands = dataset_hands(f\"{out}/rows\")  # dealt again from the seed the dataset records\n"
    "model = train_model(hands, hands, settings=FitSettings(bid_hidden=16, play_hidden=8, epochs=2, seed=SEED))  # here both imitate Normal's hands\n"
    "model.with_margin(2.0).save(f\"{out}/mine.npz\")  # the network's card only where it beats Normal's by 2\n"
    "run = sa.run_tournament([f\"learned:model={out}/mine.npz\", \"normal\"], deals=DEALS, seed=SEED + 2, out=f\"{out}/mine-vs\", n_jobs=1, progress=False)\n"
    "sa.summarize(sa.load_results(run))[[\"agent\", \"opponent\", \"units\", \"diff\", \"diff_lo\", \"diff_hi\", \"set_rate\"]].round(2)",
    "## A play model for reading the play: the card network fitted on every seat of the table's hands (`train_play_model`), "
    "which Crazy weighs its worlds by with `make_agent(\"crazy\", read_play=True, play_model=...)` (the shipped `reading` is fitted on Hard's play by "
    "`experiments/train_play_model.py`). How much weight do the worlds that give the hidden honours to their true holders get, by the bids alone, "
    "under Normal's play with noise, and under the models?",
    "play_model = train_play_model(hands, hidden=8, epochs=2, seed=SEED)\n"
    "play_model.save(f\"{out}/reading-mine.npz\")\n"
    "readers = {\"bids only\": {}, \"Normal's play\": {\"play_noise\": 0.3}, \"this model\": {\"play_noise\": 0.1, \"play_model\": f\"{out}/reading-mine.npz\"},\n"
    "           \"shipped reading\": {\"play_noise\": 0.1, \"play_model\": \"reading\"}}\n"
    "normal, shares = sa.make_agent(\"normal\"), {r: [] for r in readers}\n"
    "for k in range(20):\n"
    "    hand = sa.Hand(sa.deal(SEED + 3, k))\n"
    "    while hand.phase == \"bidding\" or len(hand.plays) < 30:\n"
    "        obs = hand.observation()\n"
    "        hand.bid(normal.bid(obs)) if hand.phase == \"bidding\" else hand.play(normal.play(obs))\n"
    "    obs = hand.observation()\n"
    "    worlds = sa.sample_worlds(obs, 1000, seed=k)\n"
    "    truth = [int(hand.cards(s)) for s in range(4)]  # the cards each seat still holds\n"
    "    honours = [c for c in range(52) if c % 13 >= 10 and any((truth[s] >> c) & 1 for s in range(4) if s != obs.seat)]\n"
    "    for r, options in readers.items():\n"
    "        w = sa.world_weights(obs, worlds, **options)\n"
    "        held = [(w * ((worlds[:, s] >> np.uint64(c)) & np.uint64(1))).sum() / w.sum() for c in honours for s in range(4) if (truth[s] >> c) & 1]\n"
    "        shares[r].append(np.mean(held))\n"
    "pd.Series({r: np.mean(v) for r, v in shares.items()}, name=\"true holder's share of the hidden honours\").round(3)",
]

learn = notebook(
    "Learn from the search",
    "Decisions of our agents as training data: a dataset of Normal's plays (`spades-ai dataset`), "
    "a linear policy over the observation vector fitted with numpy, plugged back in as a kernel "
    "agent (its weights are the agent's params) and compared with Normal on duplicate deals. The "
    "same vector is what `spades_ai.learn.VectorEnv` and the PettingZoo adapter give a learner.",
    "# Parameters: small for CI. Full size: DATA_DEALS = 20_000, DEALS = 20_000\nDATA_DEALS = 300\nDEALS = 300\nSEED = 5\nOUT = None",
    [
        setup("metrics", "plots"),
        "## A dataset of Normal's decisions",
        "import numpy as np\nfrom spades_ai.learn import load_dataset, write_dataset\nfrom spades_ai.learn.linear import fit_linear\n"
        'data = load_dataset(write_dataset(f"{out}/rows", ["normal", "normal"], deals=DATA_DEALS, seed=SEED))\n'
        "{name: a.shape for name, a in data.items()}",
        "## A linear policy, fitted with numpy",
        "weights, bias = fit_linear(data)\n"
        'play = data["phase"] == 3\n'
        'scores = data["obs"][play] @ weights.T + bias\n'
        'scores[data["mask"][play][:, :52] == 0] = -np.inf\n'
        'print(f"plays Normal\'s card in {(scores.argmax(axis=1) == data[\'action\'][play]).mean():.1%} of {play.sum():,} decisions")',
        "## Back in as a kernel agent, against Normal on duplicate deals",
        'np.savez(f"{out}/linear.npz", weights=weights, bias=bias)\n'
        + LINEAR_MODULE
        + '\nopen("my_linear.py", "w").write(MODULE % f"{out}/linear.npz")\n'
        'run = sa.run_tournament(["my_linear:AGENT", "normal"], deals=DEALS, seed=SEED + 1, out=f"{out}/vs", n_jobs=1, progress=False)\n'
        "df = sa.load_results(run)\n"
        'sa.summarize(df)[["agent", "opponent", "units", "diff", "diff_lo", "diff_hi", "set_rate", "bags_per_hand"]].round(2)',
        'plots.plot_rates(metrics.agent_rates(df));',
        '## Labels from the search: Hard\'s value of every legal bid and card (`labels="hard"`, here a small Hard), the numbers its own choice is made from. At Hard\'s seats they come with its decision; at Normal\'s, Hard evaluates the same observation. How much do Normal\'s choices lose by Hard\'s reckoning?',
        'hard = sa.make_agent("hard", worlds=32)\nlabelled = load_dataset(write_dataset(f"{out}/hard-rows", [hard, "normal"], deals=4, seed=SEED, labels="hard:worlds=32"))\nvalues, rows = labelled["label_values"], np.arange(len(labelled["action"]))\nweighed = ~np.isnan(values[rows, labelled["action"]])  # decisions with more than one candidate\nloss = np.nanmax(np.where(weighed[:, None], values, 0.0), axis=1) - values[rows, labelled["action"]]  # NaN where not weighed\nnormal = (labelled["seat"] % 2 == 1) & weighed\nprint(f"Hard\'s seats: its choice is the action in {(labelled[\'label_action\'] == labelled[\'action\'])[labelled[\'seat\'] % 2 == 0].mean():.0%} of rows")\nprint(f"Normal\'s seats: same choice as Hard in {(labelled[\'label_action\'] == labelled[\'action\'])[normal].mean():.0%} of {normal.sum()} weighed decisions, "\n      f"mean loss by Hard\'s values {loss[normal].mean():.2f} points")',
        *LEARNED_CELLS,
    ],
)

for name, nb in (("bag_and_set_rates", rates), ("bidding_benchmark", bidding), ("agent_ladder", ladder), ("your_own_agent", mine),
                 ("review_a_hand", review), ("learn_from_search", learn)):
    nbf.write(nb, HERE / f"{name}.ipynb")
