"""The adapters play four players in two partnerships and refuse every other table by name
(issue 34, item 7); the learning environments play every table, with the table's vector (issue 44)."""

from __future__ import annotations

import pytest

from spades_ai import Rules, TableError

OTHER_TABLES = [Rules.preset("cutthroat"), Rules.preset("solo"), Rules(players=5), Rules(players=4, teams="solo")]


@pytest.mark.parametrize("rules", OTHER_TABLES, ids=lambda r: f"{r.players}-{r.teams}")
def test_the_learning_environments_play_other_tables(rules):
    from spades_ai.encoding import observation_layout
    from spades_ai.learn import SpadesEnv, VectorEnv

    size = observation_layout(rules).size
    assert VectorEnv(2, rules=rules).layout.size == SpadesEnv(rules=rules).observation_space.shape[0] == size != 567


@pytest.mark.parametrize("rules", OTHER_TABLES, ids=lambda r: f"{r.players}-{r.teams}")
def test_the_pettingzoo_environment_refuses_other_tables(rules):
    pytest.importorskip("pettingzoo")
    from spades_ai.interop.pettingzoo import env

    with pytest.raises(TableError, match="the OpenSpiel and PettingZoo adapters play 4 players in pairs"):
        env(rules=rules)


def test_the_openspiel_game_refuses_other_tables():
    pytest.importorskip("pyspiel")
    from spades_ai.interop.openspiel import params_from_rules, rules_from_params

    with pytest.raises(TableError, match="the OpenSpiel and PettingZoo adapters play 4 players in pairs, not 3 players solo"):
        rules_from_params({"players": 3})
    with pytest.raises(TableError, match="not 4 players solo"):
        rules_from_params(params_from_rules(Rules.preset("solo")))
    assert rules_from_params({})[0] == Rules()
