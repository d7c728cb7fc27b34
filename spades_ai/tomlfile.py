"""Reading the TOML files users write (rules, experiments, benchmarks), with one-line errors."""

from __future__ import annotations

import tomllib
from pathlib import Path


def read_toml(path: str | Path, what: str, error: type[Exception]) -> dict:
    """The table in ``path``; a missing, unreadable or invalid file raises ``error`` with a
    message that names ``what`` the file is and the file."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise error(f"{what} {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"{what} {path} cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{what} {path} is not valid TOML: {exc}") from None
