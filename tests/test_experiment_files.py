"""Every experiment file of ``experiments/`` is one ``experiments/run.py`` runs, and reads
without an error (a bad key or value is named when it is read, not hours into a run); each
says in its own ``[report]`` table how run.py reports it."""

import subprocess
import sys
import tomllib

import pytest
from experiment_scripts import EXPERIMENTS, experiment_script

from spades_ai.rules import Rules
from spades_ai.tournament.schedule import read_experiment

FILES = sorted(EXPERIMENTS.glob("*.toml"))


@pytest.fixture(scope="module")
def run():
    return experiment_script("run")


def test_there_are_experiment_files():
    assert len(FILES) > 20


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_experiment_file_runs_and_reads(path, run):
    assert path.stem in run.experiment_names()
    report = run.read_report(path)
    if report["kind"] == "bidding":  # the bidding benchmark's own keys
        cfg = tomllib.loads(path.read_text())
        assert "bidders" in cfg
        Rules.load(cfg.get("rules"), EXPERIMENTS)  # the table it is played at reads
    elif report["kind"] in ("pool", "paired"):  # a report of other runs: it plays nothing itself
        assert set(tomllib.loads(path.read_text())) == {"report"}
        for part in report["runs"]:
            assert run.read_report(EXPERIMENTS / f"{part}.toml")["kind"] not in ("bidding", "pool", "paired")
    else:
        settings = read_experiment(path)
        assert len(settings["agents"]) >= 2 and settings["deals"] > 0


def test_run_py_takes_every_experiment_file_by_name():
    out = subprocess.run([sys.executable, str(EXPERIMENTS / "run.py"), "--help"], capture_output=True, text=True, check=True).stdout
    for path in FILES:
        assert path.stem in out


@pytest.mark.parametrize(
    "text, words",
    [
        ('agents = ["normal", "easy"]', ["no [report] table"]),
        ('[report]\nkind = "pairz"', ["kind must be one of", "'pairz'"]),
        ('[report]\nkind = "pairs"\npaired = "x"', ["unknown [report] key", "'paired'"]),
        ('[report]\nkind = "pairs"\npaired_with = "missing"', ["'missing'", "not an experiment file"]),
        ('[report]\nkind = "paired"\nruns = ["exp"]', ["needs runs = [two run names]"]),
        ('[report]\nkind = "pool"\nruns = "exp"', ["needs runs = [two or more run names]"]),
        ('[report]\nkind = "pairs"\nruns = ["exp", "exp"]', ["runs is for a pool or paired report"]),
    ],
)
def test_a_bad_report_table_is_named(tmp_path, run, text, words):
    path = tmp_path / "exp.toml"
    path.write_text(text + "\n")
    with pytest.raises(ValueError) as err:
        run.read_report(path)
    for w in words:
        assert w in str(err.value)
    assert str(path) in str(err.value)


def test_the_index_names_every_experiment():
    index = (EXPERIMENTS / "README.md").read_text()
    scripts = [p for p in EXPERIMENTS.glob("*.py") if p.name != "run.py"]
    missing = [p.name for p in [*FILES, *scripts] if p.stem not in index]
    assert not missing, f"experiments/README.md does not list {missing}"


def test_every_command_of_the_records_names_a_file_that_exists():
    """The commands written in the RESULTS files and the index still run what they name."""
    import re

    root = EXPERIMENTS.parent
    names = {p.stem for p in FILES}
    for record in ("experiments/RESULTS.md", "experiments/README.md", "benchmarks/RESULTS.md"):
        text = (root / record).read_text()
        for name in re.findall(r"python experiments/run\.py (\w+)", text):
            assert name in names or name == "NAME", f"{record}: `run.py {name}` names no experiment file"
        for path in re.findall(r"(?:python |--config )((?:experiments|benchmarks|tools)/[\w/]+\.(?:py|toml))", text):
            assert (root / path).exists(), f"{record}: {path} does not exist"


def test_a_paired_report_names_the_runs_it_lacks(tmp_path, run, monkeypatch):
    """Run data is not in git: on a fresh checkout a paired report says which runs to play."""
    for name in ("crazy_reads_learned_paired", "crazy_reads_learned_vs_hard", "crazy_vs_hard_s83"):
        (tmp_path / f"{name}.toml").write_text((EXPERIMENTS / f"{name}.toml").read_text())
    monkeypatch.setattr(run, "HERE", tmp_path)
    wanted = "run `python experiments/run.py crazy_reads_learned_vs_hard` and `python experiments/run.py crazy_vs_hard_s83` first"
    with pytest.raises(SystemExit, match=wanted):
        run.run_paired("crazy_reads_learned_paired")
