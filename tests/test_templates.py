"""Bound copies of template modules (``spades_ai.templates``): the rollout policy of Hard, Crazy
and ISMCTS (``montecarlo.binding``) and the lineup of the self-play loop (``selfplay.codegen``)
reach every kernel the docs say, a changed template fails loudly, and an edit to a user's module
(or to one it imports) makes a fresh copy."""

from __future__ import annotations

import importlib
import sys
import textwrap

import numpy as np
import pytest

import spades_ai as sa
from spades_ai import templates
from spades_ai.selfplay import codegen
from spades_ai.engine import state as st
from spades_ai.montecarlo import binding, sampling, search
from spades_ai.templates import TemplateError
from tests.test_kernel_agents import GREEDY


def _on_the_package(agent):
    """``agent`` with the same params on the package's own templates (Normal, the whole search)."""
    module = getattr(binding.bound(), agent.module.__name__.rpartition(".")[2])
    bid, play, pass_ = (getattr(module, k.py_func.__name__) if k.py_func.__module__ == agent.module.__name__ else k
                        for k in (agent.bid_kernel, agent.play_kernel, agent.pass_kernel))
    return sa.kernel_agent(agent.name, bid, play, pass_=pass_, params=agent.params)


def _same_records_bound_to_normal(name, opts, n, rules):
    bound = sa.make_agent(name, rollout="normal", **opts)
    assert bound.module.__name__.startswith("spades_ai_bound_rollout_")
    a = sa.play_hands([_on_the_package(bound), "easy"], n, seed=21, rules=rules, keep_plays=True)
    b = sa.play_hands([bound, "easy"], n, seed=21, rules=rules, keep_plays=True)
    assert a == b, (name, opts)


def test_rollout_normal_gives_the_records_of_the_default():
    """``rollout="normal"`` is a bound copy of the templates whose binding names Normal (for
    Hard's defaults, without exact finishes or weighted worlds): every decision of Hard is that
    of the package's own search (bids, cards). The other agents and rules, each a compile of
    minutes, are the slow study below."""
    _same_records_bound_to_normal("hard", {"worlds": 24}, 4, None)


@pytest.mark.slow
def test_rollout_normal_gives_the_records_of_the_default_everywhere():
    """The same for closed bidding with passing, Crazy's exact finishes, ISMCTS's search and
    bids, and the blind nil of a match."""
    rules = sa.Rules(closed_bidding=True, pass_cards=1)
    for name, opts, n, r in (("hard", {"worlds": 16}, 3, rules), ("crazy", {"worlds": 48, "rollouts": 0}, 2, None),
                             ("ismcts", {"iterations": 64, "bid_worlds": 16}, 3, None)):
        _same_records_bound_to_normal(name, opts, n, r)
    blind = sa.Rules(blind_nil=True, target_score=200)
    assert sa.play_matches([sa.make_agent("hard", worlds=16), "normal"], 1, seed=4, rules=blind) == sa.play_matches(
        [sa.make_agent("hard", worlds=16, rollout="normal"), "normal"], 1, seed=4, rules=blind)


def test_hard_compiles_only_the_parts_of_the_search_its_options_use():
    """Exact finishes and weighted worlds are most of what the search compiles: Hard's defaults
    use neither and get a copy without them (its first run compiles less than half as much);
    options that use one, and Crazy, get it."""
    plain = sa.make_agent("hard").module
    assert plain.__name__.startswith("spades_ai_bound_rollout_") and plain.rollout_play is search.rollout_play
    assert (plain.EXACT_FINISHES, plain.WEIGHTED_WORLDS) == (False, False)
    assert sa.make_agent("crazy").module is search and (search.EXACT_FINISHES, search.WEIGHTED_WORLDS) == (True, True)
    for opts, parts in (({"solver_tricks": 2}, (True, False)), ({"bid_aware": True}, (False, True)),
                        ({"read_play": True}, (False, True)), ({"rollout": "easy", "bid_aware": True}, (False, True))):
        module = sa.make_agent("hard", **opts).module
        assert (module.EXACT_FINISHES, module.WEIGHTED_WORLDS) == parts, opts
    assert sa.make_agent("hard", worlds=8).module is plain  # one copy per process


def test_a_binding_reaches_every_template_and_only_the_templates():
    """Each template of the copy calls the policy's kernels; what does not depend on the policy
    (sampling, weights, selection) is the package's own, compiled once for every binding."""
    copy = binding.bound(GREEDY)
    for name in binding.TEMPLATES:
        module = getattr(copy, name)
        assert module.__name__ == f"{copy.__name__}.{name}"
        for what in ("bid", "play"):
            fn = vars(module).get(f"rollout_{what}")
            assert fn is None or fn is getattr(GREEDY, f"{what}_kernel"), (name, what)
    assert copy.search.rollout_play is GREEDY.play_kernel and copy.tree_search.rollout_bid is GREEDY.bid_kernel
    assert copy.search.sample_worlds_kernel is sampling.sample_worlds_kernel
    assert copy.search.rollout is copy.rollouts.rollout and copy.tree_search.mc_bid is copy.search.mc_bid
    assert binding.bound(GREEDY) is copy  # one copy per process for the same kernels and params


def test_a_bound_rollout_plays_the_policy_at_every_seat():
    """The copy's ``rollout`` from the deal is the hand the policy plays at all four seats."""
    from spades_ai.simulate import deal_masks

    copy = binding.bound(GREEDY)
    rules = sa.Rules().as_array()
    masks = deal_masks(9, 0, 8)
    rec = sa.play_hands([GREEDY] * 4, 8, seed=9)
    assert rec != sa.play_hands(["normal"] * 4, 8, seed=9)  # the policy is told apart by its hands
    for i in range(8):
        pub, hands = np.array(sa.Hand(masks[i].tolist(), dealer=0).observation().public), masks[i].copy()
        copy.rollouts.rollout(pub, hands, rules)
        assert list(pub[st.P_WON : st.P_WON + 4]) == list(rec.tricks_won[i])
        assert list(pub[st.P_BIDS : st.P_BIDS + 4]) == list(rec.bids[i])


def test_the_lineup_binding_calls_each_slot():
    loop = codegen.bind("spades_ai.selfplay.loop", [sa.make_agent("normal"), GREEDY])
    assert loop.record_hand is importlib.import_module("spades_ai.selfplay.loop_kernels").record_hand
    binding_module = sys.modules[loop.__name__.rpartition(".")[0] + "._binding"]
    assert binding_module.play_0 is sa.make_agent("normal").play_kernel and binding_module.play_1 is GREEDY.play_kernel


def test_a_changed_template_fails_loudly(tmp_path, monkeypatch):
    pkg = tmp_path / "tplpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "_binding.py").write_text("x = 1\n")
    (pkg / "good.py").write_text("from ._binding import x\n")
    (pkg / "none.py").write_text("y = 2\n")
    (pkg / "twice.py").write_text("from ._binding import x\nfrom ._binding import x as z\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert templates.template_source("tplpkg", "good")[1] == ("x",)
    for name, why in (("none", "has 0"), ("twice", "has 2"), ("missing", "not found")):
        with pytest.raises(TemplateError, match=why):
            templates.template_source("tplpkg", name)
    with pytest.raises(TemplateError, match="does not define x"):
        templates.bind("tplpkg", ("good",), "w = 3\n", {}, "t")
    bound = templates.bind("tplpkg", ("good",), "x = 7\n", {}, "t")
    assert bound.good.x == 7


def _user_agent(folder, card_rule: str, helper_value: int):
    """A user's kernel agent in ``folder/user_bot.py``, importing a helper module."""
    (folder / "user_helper.py").write_text(f"LOW = {helper_value}\n")
    (folder / "user_bot.py").write_text(textwrap.dedent(f"""
        import numba
        import spades_ai as sa
        from spades_ai import kernels as K
        from user_helper import LOW

        @numba.njit
        def bid(pub, seat, hand, legal, rules):
            return K.nearest_legal_bid(legal, LOW)

        @numba.njit
        def play(pub, seat, hand, legal, rules):
            return K.{card_rule}(legal)

        AGENT = sa.kernel_agent("user", bid, play)
    """))
    for name in ("user_bot", "user_helper"):
        sys.modules.pop(name, None)
    return importlib.import_module("user_bot").AGENT


def test_editing_a_users_module_or_what_it_imports_gives_a_fresh_copy(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    first = binding.bound(_user_agent(tmp_path, "lowest_card", 2))
    again = binding.bound(_user_agent(tmp_path, "lowest_card", 2))
    other_play = binding.bound(_user_agent(tmp_path, "highest_card", 2))
    other_helper = binding.bound(_user_agent(tmp_path, "lowest_card", 3))
    assert first.__name__ == again.__name__
    assert len({first.__name__, other_play.__name__, other_helper.__name__}) == 3
    # the fresh copy runs the edited code: its rollout plays the edited module's cards
    from spades_ai.simulate import deal_masks

    masks, rules = deal_masks(2, 0, 1), sa.Rules().as_array()
    for copy, rule in ((first, "lowest_card"), (other_play, "highest_card")):
        agent = _user_agent(tmp_path, rule, 2)
        pub, hands = np.array(sa.Hand(masks[0].tolist(), dealer=0).observation().public), masks[0].copy()
        copy.rollouts.rollout(pub, hands, rules)
        assert list(pub[st.P_WON : st.P_WON + 4]) == list(sa.play_hands([agent] * 4, 1, seed=2).tricks_won[0])


def test_functions_that_cannot_be_imported_are_bound_in_memory():
    """A policy defined in a function body binds in memory: the copy's kernels compile without
    the disk cache and play the policy (its rollout from the deal is the hand it plays at all
    four seats; the rollout alone is compiled, to keep the test short)."""
    import numba

    from spades_ai import kernels as K
    from spades_ai.simulate import deal_masks

    @numba.njit
    def low_bid(pub, seat, hand, legal, rules):
        return K.nearest_legal_bid(legal, 1)

    @numba.njit
    def low_play(pub, seat, hand, legal, rules):
        return K.lowest_card(legal)

    local = sa.kernel_agent("local", low_bid, low_play)
    copy = binding.bound(local)
    assert "memory" in copy.__name__ and copy.search.rollout_play is low_play
    assert binding.bound(local) is copy
    rules = sa.Rules().as_array()
    masks = deal_masks(4, 0, 3)
    rec = sa.play_hands([local] * 4, 3, seed=4)
    for i in range(3):
        pub, hands = np.array(sa.Hand(masks[i].tolist(), dealer=0).observation().public), masks[i].copy()
        copy.rollouts.rollout(pub, hands, rules)
        assert list(pub[st.P_WON : st.P_WON + 4]) == list(rec.tricks_won[i])
    assert type(copy.rollouts.rollout._cache).__name__ == "NullCache"  # no file: compiled without the disk cache
    assert search.SearchSettings._fields == ("worlds", "rollouts", "bid_aware", "solver_tricks", "race_z", "thrift",
                                             "play_eps", "utility", "play_model", "play_model_at")
