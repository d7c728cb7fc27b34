"""Analysis of tournament results: the summary table, intervals and ratings."""

from spades_ai.analysis.summary import (
    bootstrap_ratio_interval,
    format_summary,
    mean_interval,
    outcomes,
    ratings,
    summarize,
    unit_differences,
    wilson_interval,
)

__all__ = [
    "bootstrap_ratio_interval",
    "format_summary",
    "mean_interval",
    "outcomes",
    "ratings",
    "summarize",
    "unit_differences",
    "wilson_interval",
]
