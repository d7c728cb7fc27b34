"""Learning from the engine and the search: the batched environment (``VectorEnv``), its
single-table gymnasium view (``SpadesEnv``, needs ``pip install "spades-ai[learn]"``), the
datasets of decisions (``write_dataset``, ``load_dataset``) and the
observation and action layout they share with the adapters (``spades_ai.learn.encoding``).
"""

from spades_ai.learn.dataset import load_dataset, rows_from_hands, rows_from_records, write_dataset
from spades_ai.learn.env import VectorEnv, check_rules
from spades_ai.learn.linear import fit_linear, linear_agent

__all__ = ["SpadesEnv", "VectorEnv", "check_rules", "fit_linear", "linear_agent", "load_dataset", "rows_from_hands", "rows_from_records", "write_dataset"]


def __getattr__(name: str):
    # gymnasium is optional: imported only when SpadesEnv is asked for
    if name == "SpadesEnv":
        from spades_ai.learn.gym_env import SpadesEnv

        return SpadesEnv
    raise AttributeError(f"module 'spades_ai.learn' has no attribute {name!r}")
