"""Analysis of tournament results: the summary table, intervals and ratings."""

from spades_ai.analysis.summary import (
    bags_at_cost,
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
    "bags_at_cost",
    "bootstrap_ratio_interval",
    "format_summary",
    "mean_interval",
    "outcomes",
    "ratings",
    "summarize",
    "unit_differences",
    "wilson_interval",
]
