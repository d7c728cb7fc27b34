"""The deprecated aliases of the public names that changed with the tables of 3 to 5 players
(issue 34) and, in the same span, the card network over the observation vector (issue 36): each
warns with a ``DeprecationWarning`` naming the new name and gives what the new name gives. The
list of every changed name, with the reason where no alias can exist, is in
docs/design/tables.md ("Names changed by the tables of 3 to 5 players")."""

import warnings
from pathlib import Path

import pandas as pd
import pytest

import spades_ai.encoding as encoding
import spades_ai.learn.vectors as vectors
from spades_ai.tournament import load_results, run_tournament
from spades_ai.tournament.results import SCHEMA_3_RENAMES

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="module")
def cutthroat_run(tmp_path_factory):
    """A schema-4 folder at 3 players: three sides, three rotations."""
    out = tmp_path_factory.mktemp("deprecated") / "run"
    return run_tournament("random,easy", deals=4, rules="cutthroat", n_jobs=1, progress=False, out=out)


@pytest.fixture(params=["schema 4, 3 players", "schema3_hands", "schema3_matches"])
def results(request, cutthroat_run):
    return cutthroat_run if request.param.startswith("schema 4") else DATA / request.param


# -- results columns: table -> rotation, team -> side (schema 4) ---------------------------------
def test_schema_3_column_names_read_rotation_and_side_under_the_old_names(results):
    with pytest.warns(DeprecationWarning, match="'table' is 'rotation', 'team' is 'side'.*deprecated"):
        old = load_results(results, columns=["points", "table", "team"])
    new = load_results(results, columns=["points", "rotation", "side"])
    assert list(old.columns) == ["points", "table", "team"]
    pd.testing.assert_frame_equal(old.rename(columns=SCHEMA_3_RENAMES), new)


def test_the_warning_points_at_the_caller(cutthroat_run):
    with pytest.warns(DeprecationWarning) as caught:
        load_results(cutthroat_run, columns=["team"])
    assert [Path(w.filename).name for w in caught if w.category is DeprecationWarning] == [Path(__file__).name]


def test_this_schemas_names_do_not_warn(cutthroat_run):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        df = load_results(cutthroat_run, columns=["rotation", "side", "players"])
    assert sorted(df["side"].unique()) == [0, 1, 2] and df["players"].eq(3).all()


# -- spades_ai.learn.vectors: the observation vector's kernel moved to spades_ai.encoding --------
@pytest.mark.parametrize("name", ["write_observation", "OBSERVATION_SIZE"])
def test_learn_vectors_names_are_encodings(name):
    with pytest.warns(DeprecationWarning, match=f"spades_ai.learn.vectors.{name} is spades_ai.encoding.{name}"):
        value = getattr(vectors, name)
    assert value is getattr(encoding, name)


def test_learn_vectors_has_no_other_new_attribute():
    with pytest.raises(AttributeError, match="'spades_ai.learn.vectors' has no attribute 'observation'"):
        vectors.observation  # noqa: B018


def test_an_unknown_column_is_named_not_called_damage(cutthroat_run):
    from spades_ai.tournament.results import ResultsError

    with pytest.raises(ResultsError, match="no column 'foo' in these results; the columns are pairing, deal_no"):
        load_results(cutthroat_run, columns=["side", "foo"])
