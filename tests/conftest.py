"""How the suite is spread over pytest-xdist's workers (``-n auto --dist loadfile``, pyproject).

With ``loadfile`` a test file runs whole on one worker, so the kernels its tests share compile
once in that process (and reach the other workers through the disk cache). The scheduler below
keeps that and changes two things:

- **Longest first.** xdist hands the files out most tests first, so a long file with few tests
  (the benchmarks, the notebooks) started last and bounded the wall clock with the other workers
  idle. The files of ``COLD_SECONDS`` (long from an empty kernel cache, by ``--durations``) go
  first, longest first, then the rest, most tests first as before.
- **Files spread test by test.** The tests of a file in ``SPREAD`` share no compile (each runs
  a script or a notebook in a process of its own), so each test is a unit of its own; they
  fill the workers at the end, when the kernels they load are in the disk cache.
"""

from __future__ import annotations


#: Files to start first, with the seconds of their longest tests from an empty kernel cache
#: on 2 quiet cores (``--durations``, the suite of 2026-12-07 at 851 s: Crazy's and Hard's
#: first compiles under the house rules). A file left out, or renamed, only starts later; add
#: a file whose time is long against the suite's, but not two that compile the same agent
#: (they would compile it at once on two workers, where one after the other loads it from
#: the disk cache).
COLD_SECONDS = {"tests/test_house_rules.py": 99}

#: Files whose tests are independent units of work (see the module's docstring).
SPREAD = frozenset({"tests/test_benchmarks.py", "tests/test_notebooks.py"})


def _file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _scope(nodeid: str) -> str:
    """The unit a worker gets: the test's file, or the test itself in a file of ``SPREAD``."""
    return nodeid if _file(nodeid) in SPREAD else _file(nodeid)


def longest_first(nodeids: list[str]) -> list[str]:
    """``nodeids`` by unit, the units of ``COLD_SECONDS`` first (longest first), then the rest
    with the most tests first; the order within a unit kept."""
    units: dict[str, list[str]] = {}
    for nodeid in nodeids:
        units.setdefault(_scope(nodeid), []).append(nodeid)
    order = sorted(units, key=lambda unit: (-COLD_SECONDS.get(unit, 0), -len(units[unit])))
    return [nodeid for unit in order for nodeid in units[unit]]


def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None  # any other --dist is xdist's own
    from xdist.scheduler import LoadFileScheduling

    class LongestFirst(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _scope(nodeid)

        def schedule(self) -> None:
            collections = list(self.registered_collections.values())
            if self.collection is None and len({tuple(c) for c in collections}) == 1:
                ordered = longest_first(collections[0])
                self.registered_collections = {node: list(ordered) for node in self.registered_collections}
                self.config.option.loadscopereorder = False  # our order, not xdist's most-tests-first
            super().schedule()

    return LongestFirst(config, log)
