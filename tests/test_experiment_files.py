"""Every experiment file of ``experiments/`` is one ``experiments/run.py`` runs, and reads
without an error (a bad key or value is named when it is read, not hours into a run)."""

import tomllib

import pytest

from spades_ai.tournament.schedule import read_experiment
from experiment_scripts import EXPERIMENTS, experiment_script

FILES = sorted(EXPERIMENTS.glob("*.toml"))


@pytest.fixture(scope="module")
def kinds():
    return experiment_script("run").KINDS


def test_there_are_experiment_files():
    assert len(FILES) > 20


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_experiment_file_runs_and_reads(path, kinds):
    assert path.stem in kinds, f"{path.name} is not in experiments/run.py's KINDS"
    if kinds[path.stem] == "bidding":  # the bidding benchmark's own keys
        assert "bidders" in tomllib.loads(path.read_text())
    else:
        settings = read_experiment(path)
        assert len(settings["agents"]) >= 2 and settings["deals"] > 0
