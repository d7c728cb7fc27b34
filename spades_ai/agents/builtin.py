"""``BuiltinAgent``: a kernel agent made by ``make_agent``, labelled by the options it was given."""

from __future__ import annotations

import numpy as np

from spades_ai.policies.kernel_agent import KernelAgent


def seed_param(seed: int) -> int:
    """A uint64 seed in an int64 params slot (the full range, bit for bit)."""
    return int(np.uint64(seed).view(np.int64))


class BuiltinAgent(KernelAgent):
    """A built-in agent: a kernel agent made by ``make_agent``, shown with its options (its
    label names those that differ from ``defaults``)."""

    def __init__(self, name: str, bid, play, params, options: dict, defaults: dict, pass_=None, tables_part=None):
        if tables_part is not None:
            self.tables_part = tables_part
        extra = {k: v for k, v in options.items() if v != defaults[k]}
        shown = {k: (v.label if isinstance(v, KernelAgent) else v) for k, v in extra.items()}
        label = name + (f"({', '.join(f'{k}={v}' for k, v in shown.items())})" if shown else "")
        super().__init__(name, bid, play, pass_=pass_, params=params, options=options, label=label)

    def __repr__(self) -> str:
        return f"make_agent({self.name!r}, {', '.join(f'{k}={v!r}' for k, v in self.options.items())})"
