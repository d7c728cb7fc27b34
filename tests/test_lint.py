"""ruff's pyflakes rules (unused imports and variables, undefined names) pass on the whole
repository: the package, tests, benchmarks, experiments, examples and the notebooks."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_pyflakes_rules_pass():
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", str(ROOT)],
                         capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    assert "No module named ruff" not in run.stderr, "ruff is missing: pip install -e '.[test]'"
    assert run.returncode == 0, run.stdout + run.stderr
