"""Tournaments: duplicate-deal schedules, parallel resumable runs, Parquet results.

>>> from spades_ai.tournament import run_tournament, load_results
>>> run = run_tournament("normal,easy", deals=20, n_jobs=1, progress=False)
>>> df = load_results(run)
>>> sorted(df.agent.unique())
['easy', 'normal']
"""

from spades_ai.agents.spec import AgentSpec, parse_agent, parse_agents
from spades_ai.errors import TournamentError
from spades_ai.tournament.results import COLUMNS_DOC, CodeChangedError, ResultsError, load_results, read_config, read_sprt, sprt_rows
from spades_ai.tournament.runner import RunInfo, play_chunk, run_tournament
from spades_ai.tournament.schedule import Chunk, Tournament, plan_chunks, read_experiment
from spades_ai.tournament.stopping import SPRT, SPRTError, SPRTResult, sprt_decide, sprt_llr, sprt_test

__all__ = [
    "COLUMNS_DOC",
    "SPRT",
    "AgentSpec",
    "Chunk",
    "CodeChangedError",
    "ResultsError",
    "RunInfo",
    "SPRTError",
    "SPRTResult",
    "Tournament",
    "TournamentError",
    "load_results",
    "parse_agent",
    "parse_agents",
    "plan_chunks",
    "play_chunk",
    "read_config",
    "read_experiment",
    "read_sprt",
    "run_tournament",
    "sprt_decide",
    "sprt_llr",
    "sprt_rows",
    "sprt_test",
]
