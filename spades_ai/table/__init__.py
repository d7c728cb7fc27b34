"""A human at the table, and the replay of recorded hands.

``TableMatch`` (``game``) is one match of ``spades-ai play``: you at seat 0 at a table of 3 to
5 players (with a partner against two agents at four in pairs, else solo against every other
seat), saved as JSON lines and resumed from them; ``play_session`` drives it from
lines of input. ``replay`` prints a hand trick by trick from a saved match, a ``Hand`` record
or a tournament run made with ``keep_plays``. ``render`` holds the pure text functions both use.
"""

from spades_ai.table.game import LEVELS, SaveFileError, TableMatch, table_agents
from spades_ai.table.replay import ReplayError, replay_lines, replay_source
from spades_ai.table.session import play_session

__all__ = [
    "LEVELS",
    "ReplayError",
    "SaveFileError",
    "TableMatch",
    "play_session",
    "replay_lines",
    "replay_source",
    "table_agents",
]
