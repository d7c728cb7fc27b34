"""``play_session``: a ``TableMatch`` driven by lines of input, one action a line.

Input comes from any text stream (a terminal, a pipe, a file): a bid (``3``, ``nil``, ``blind
nil``), a card (``AS``, ``10d``, ``Q♥``), ``look`` when asked about a blind nil, or ``quit``.
A refused line gets one line saying why and the same question again. End of input, like
``quit``, saves the match (when there is a save file) and ends the session normally.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

from spades_ai.table.game import TableMatch

QUIT_WORDS = ("quit", "exit")


def play_session(
    match: TableMatch,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    save: str | os.PathLike | None = None,
    echo: bool | None = None,
) -> TableMatch:
    """Play ``match`` from the lines of ``stdin`` until the match ends or the input does,
    writing the table to ``stdout`` and the match to ``save`` (if given) after every action.

    ``echo`` writes each line read after its question (default: when ``stdin`` is not a
    terminal, so that a transcript of a scripted game reads like the game). Returns the match.
    """
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    if echo is None:
        echo = not _isatty(stdin)

    def write(lines) -> None:
        for line in lines:
            stdout.write(line + "\n")
        stdout.flush()

    def keep() -> None:
        if save is not None:
            match.save(save)

    write(match.advance())
    keep()
    while not match.over:
        write(match.view())
        while True:
            stdout.write(match.question() + " ")
            stdout.flush()
            line = stdin.readline()
            if not line:  # end of input
                stdout.write("\n")
                _stop(match, save, write, "end of input")
                return match
            line = line.rstrip("\r\n")
            if echo:
                stdout.write(line + "\n")
            if line.strip().lower() in QUIT_WORDS:
                _stop(match, save, write, "quit")
                return match
            ok, lines = match.answer(line)
            write(lines)
            if ok:
                break
        write(match.advance())
        keep()
    keep()
    return match


def _stop(match: TableMatch, save, write, why: str) -> None:
    if save is not None:
        match.save(save)
        write([f"{why}: the match is saved in {save}; continue it with: spades-ai play --resume {save}"])
    else:
        write([f"{why}: the match is not saved (play with --save FILE to keep it)"])


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
