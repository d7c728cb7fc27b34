"""Learning from the engine and the search: the batched environment (``VectorEnv``), its
single-table gymnasium view (``SpadesEnv``, needs ``pip install "spades-ai[learn]"``), the
datasets of decisions (``write_dataset``, ``load_dataset``, ``iter_dataset`` chunk by chunk) and
their hands dealt again from the seed they record (``dataset_hands``, ``iter_dataset_hands``: what
``spades_ai.models`` fits on), a linear policy (``fit_linear``, ``linear_agent``) and the
observation and action layout they share with the adapters (``spades_ai.learn.encoding``,
defined in ``spades_ai.encoding``).

Every name is imported on first use, so the layout is read without loading pyarrow (the
datasets) or gymnasium (``SpadesEnv``).
"""

import importlib

_WHERE = {
    "VectorEnv": "spades_ai.learn.env",
    "check_rules": "spades_ai.encoding",
    "SpadesEnv": "spades_ai.learn.gym_env",
    "with_spaces": "spades_ai.learn.gym_env",
    "iter_dataset": "spades_ai.learn.dataset",
    "load_dataset": "spades_ai.learn.dataset",
    "rows_from_hands": "spades_ai.learn.dataset",
    "rows_from_records": "spades_ai.learn.dataset",
    "write_dataset": "spades_ai.learn.dataset",
    "dataset_hands": "spades_ai.learn.hands",
    "iter_dataset_hands": "spades_ai.learn.hands",
    "fit_linear": "spades_ai.learn.linear",
    "linear_agent": "spades_ai.learn.linear",
}

__all__ = ["SpadesEnv", "VectorEnv", "check_rules", "dataset_hands", "fit_linear", "iter_dataset", "iter_dataset_hands", "linear_agent",
           "load_dataset", "rows_from_hands", "rows_from_records", "with_spaces", "write_dataset"]  # fmt: skip


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'spades_ai.learn' has no attribute {name!r}")
