"""OpenSpiel on our game: the cost of ``resample_from_infostate`` and OpenSpiel's ISMCTS speed.

    python benchmarks/bench_openspiel_ismcts.py [--hands 8] [--resamples 20] [--simulations 50 200]

Resampling: at every decision point of ``--hands`` hands of Normal self-play through the
OpenSpiel game (deals of seed 5), ``--resamples`` calls for the player to act, CPU time of the
calling thread each (``time.thread_time``), split by how far the hand has gone; beside it the
world draw alone (``sampled_deal``: the sampler Hard uses) and a plain ``clone()``, so the
replay of the hand's history on the new deal shows as the difference. Then the same at the
third hand of a match episode (the earlier hands are not replayed).

ISMCTS: OpenSpiel's Python ``ISMCTSBot`` (UCT c = 2, one random rollout per leaf, unlimited
world samples) with each ``--simulations`` budget a move at seat 0 against Normal at seats 1..3,
for ``--hands`` hands (one-hand episodes) and for ``--match-moves`` moves of a match episode
(rollouts to the end of the match). Moves with a single legal action return at once; they are
counted apart.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from spades_ai.interop import openspiel as sos
from spades_ai.simulate import deal_masks


def dealt(game, masks):
    state = game.new_initial_state()
    for card in sos.dealing_order(masks, state.table.dealer):
        state.apply_action(card)
    return state


def cpu(fn, n: int) -> float:
    """Median CPU seconds of ``n`` calls of ``fn``."""
    times = []
    for _ in range(n):
        t0 = time.thread_time()
        fn()
        times.append(time.thread_time() - t0)
    return float(np.median(times))


def resample_costs(state, n: int, sampler) -> tuple[float, float, float]:
    """(resample, world draw alone, clone) median CPU seconds for the player to act."""
    player = state.current_player()
    obs = state.table.view(player)
    key = np.uint64(12345)
    return (
        cpu(lambda: state.resample_from_infostate(player, sampler), n),
        cpu(lambda: sos.sampled_deal(obs, True, key), n),
        cpu(state.clone, n),
    )


def bench_resample(hands: int, n: int) -> None:
    game = pyspiel.load_game("spades_ai")
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    normal = sos.SpadesBot("normal")
    by_stage: dict[str, list] = {"bidding": [], "tricks 1-4": [], "tricks 5-9": [], "tricks 10-13": []}
    warm = dealt(game, deal_masks(5, 0, 1)[0])
    resample_costs(warm, 2, sampler)
    for i in range(hands):
        state = dealt(game, deal_masks(5, i, 1)[0])
        while not state.is_terminal():
            t = state.table
            tricks = t.hand.trick_no if t.hand.phase == "playing" else -1
            stage = "bidding" if tricks < 0 else "tricks 1-4" if tricks < 4 else "tricks 5-9" if tricks < 9 else "tricks 10-13"
            by_stage[stage].append(resample_costs(state, n, sampler))
            state.apply_action(normal.step(state))
    print(f"resample_from_infostate, {hands} hands of Normal self-play, {n} calls at each decision (CPU, medians)")
    print("| point of the hand | resample | world draw alone | clone | decisions |")
    print("|---|---|---|---|---|")
    for stage, rows in [*by_stage.items(), ("all", sum(by_stage.values(), []))]:
        a = np.array(rows) * 1e3
        print(f"| {stage} | {np.median(a[:, 0]):.2f} ms | {np.median(a[:, 1]):.3f} ms | {np.median(a[:, 2]):.3f} ms | {len(a)} |")
    match = pyspiel.load_game("spades_ai", {"episode": "match", "target_score": 1000, "loss_threshold": 0})
    state = match.new_initial_state()
    rng = np.random.default_rng(0)
    while state.table.hands_played < 2 or len(state.table.actions) < 4 + 24:
        if state.is_chance_node():
            state.apply_action(int(rng.choice([c for c, _ in state.chance_outcomes()])))
        else:
            state.apply_action(normal.step(state))
    a = np.array(resample_costs(state, n, sampler)) * 1e3
    print(f"| match episode, hand 3, trick 7 ({len(state.history())} actions in the history) "
          f"| {a[0]:.2f} ms | {a[1]:.3f} ms | {a[2]:.3f} ms | 1 |")


def ismcts_bot(game, simulations: int, seed: int):
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=np.random.RandomState(seed))


def play(state, bot, normal, moves_left: float) -> tuple[list[float], int]:
    """Play on with ``bot`` at seat 0 and Normal elsewhere: the CPU seconds of each searched
    move of seat 0, and its moves with one legal action."""
    searched, forced = [], 0
    rng = np.random.default_rng(1)
    while not state.is_terminal() and len(searched) + forced < moves_left:
        if state.is_chance_node():
            state.apply_action(int(rng.choice([c for c, _ in state.chance_outcomes()])))
            continue
        if state.current_player() != 0:
            state.apply_action(normal.step(state))
            continue
        t0 = time.thread_time()
        action = bot.step(state)
        if len(state.legal_actions()) == 1:
            forced += 1
        else:
            searched.append(time.thread_time() - t0)
        state.apply_action(int(action))
    return searched, forced


def bench_ismcts(hands: int, simulations: int, match_moves: int) -> None:
    """One budget: the rows of the ISMCTS table."""
    normal = sos.SpadesBot("normal")
    game = pyspiel.load_game("spades_ai")
    bot = ismcts_bot(game, simulations, 0)
    times, forced = [], 0
    for i in range(hands):
        s, f = play(dealt(game, deal_masks(5, i, 1)[0]), bot, normal, float("inf"))
        times += s
        forced += f
    t = np.array(times)
    print(f"| {simulations} | hand ({hands} hands) | {len(t)} | {len(t) / t.sum():.2f} | {np.median(t) * 1e3:.0f} ms "
          f"| {np.median(t) / simulations * 1e3:.2f} ms | {forced} |")
    match = pyspiel.load_game("spades_ai", {"episode": "match"})
    s, f = play(match.new_initial_state(), ismcts_bot(match, simulations, 0), normal, match_moves)
    t = np.array(s)
    print(f"| {simulations} | match (first {match_moves} moves, rollouts to the match's end) | {len(t)} | {len(t) / t.sum():.2f} "
          f"| {np.median(t) * 1e3:.0f} ms | {np.median(t) / simulations * 1e3:.2f} ms | {f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=8)
    ap.add_argument("--resamples", type=int, default=20, help="calls timed at each decision point")
    ap.add_argument("--simulations", type=int, nargs="+", default=[50, 200], help="ISMCTS simulations a move")
    ap.add_argument("--match-moves", type=int, default=6, help="moves of seat 0 timed in a match episode")
    ap.add_argument("--smoke", action="store_true", help="seconds of work, to check that the script runs (tests/test_benchmarks.py)")
    args = ap.parse_args()
    if args.smoke:
        args.hands, args.resamples, args.simulations, args.match_moves = 1, 2, [5], 1
    bench_resample(args.hands, args.resamples)
    print("\nOpenSpiel ISMCTSBot at seat 0 against Normal (CPU)")
    print("| simulations | episode | searched moves | moves/s | median per move | per simulation | forced moves |")
    print("|---|---|---|---|---|---|---|")
    for simulations in args.simulations:
        bench_ismcts(args.hands, simulations, args.match_moves)


if __name__ == "__main__":
    main()
