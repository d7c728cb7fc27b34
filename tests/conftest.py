"""How the suite is spread over pytest-xdist's workers (``-n auto --dist loadfile``, pyproject).

With ``loadfile`` a test file runs whole on one worker, so the kernels its tests share compile
once in that process (and reach the other workers through the disk cache). The scheduler below
keeps that and changes two things:

- **Longest first.** xdist hands the files out most tests first, so a long file with few tests
  (the benchmarks and the notebooks, when each was one unit) started last and bounded the wall
  clock with the other workers idle. The units of ``FIRST`` (long from an empty kernel cache, by
  ``--durations``) go first, then the rest, most tests first as before.
- **Files spread test by test.** The tests of a file in ``SPREAD`` share no compile (each runs
  a script, a notebook or the JIT-off suite in a process of its own), so each test is a unit
  of its own. They come after every other file, so that the kernels their processes load are
  in the disk cache by then: among the files of few tests they started while the tests that
  compile those kernels still ran, and their processes compiled them again (about 120 s of CPU
  in the benchmarks' and notebooks' processes of a cold run, 2026-12-08).
"""

from __future__ import annotations


#: The units to start first, in this order, for their time from an empty kernel cache
#: (``--durations``, 2026-12-07): the house rules compile Crazy and Hard (99 s in their first
#: two tests, 2 quiet cores) while the other worker runs the tests marked ``nojit`` with the JIT
#: off in a subprocess, which compiles nothing, then the JIT-off workload against the compiled
#: one (151 s and 256 s loaded, load 6-12; as a file of 3 tests xdist left them to the end).
#: A unit left out, or renamed, only starts later; add one whose time is long against the
#: suite's, but not two that compile the same agent (they would compile it at once on two
#: workers, where one after the other loads it from the disk cache).
FIRST = (
    "tests/test_house_rules.py",
    "tests/test_nojit.py::test_marked_tests_pass_with_the_jit_off",
    "tests/test_nojit.py::test_results_equal_with_and_without_the_jit",
)

#: Files whose tests are independent units of work (see the module's docstring).
SPREAD = frozenset({"tests/test_benchmarks.py", "tests/test_notebooks.py", "tests/test_nojit.py"})


def _file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _scope(nodeid: str) -> str:
    """The unit a worker gets: the test's file, or the test itself in a file of ``SPREAD``."""
    return nodeid if _file(nodeid) in SPREAD else _file(nodeid)


def longest_first(nodeids: list[str]) -> list[str]:
    """``nodeids`` by unit: the units of ``FIRST`` first (in its order), then the other files with
    the most tests first, then the tests of ``SPREAD``; the order within a unit kept."""
    units: dict[str, list[str]] = {}
    for nodeid in nodeids:
        units.setdefault(_scope(nodeid), []).append(nodeid)
    rank = {unit: k for k, unit in enumerate(FIRST)}
    order = sorted(units, key=lambda unit: (rank.get(unit, len(FIRST)), _file(unit) in SPREAD, -len(units[unit])))
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
