"""The browser table: ``spades-ai serve``, a page to play the bots (you South, at a table of 3 to
12 players: in pairs with the seat across as your partner, or solo against every other seat),
with an optional turn timer (docs/rules.md), as online card tables have.

``server`` is the HTTP server (the standard library's ``ThreadingHTTPServer``: the page's
requests are small JSON messages, and the bots' thinking is numba code, so a framework would
add a dependency and nothing to the speed), ``store`` keeps the matches (unguessable ids, a
save file each in the format of ``spades-ai play --save``, bounded in number), ``view`` says
what the page is sent (your own view of the hand, through the engine), ``settings`` the form
before PLAY, and ``static/`` holds the page itself (plain HTML, CSS and JavaScript; nothing is
downloaded). The rules are the engine's: ``table.TableMatch`` acts, refuses and saves.

>>> import tempfile
>>> server = make_server(tempfile.mkdtemp(), port=0)  # serve_forever() to run it
>>> server.server_close()
"""

from spades_ai.web.server import TableServer, make_server
from spades_ai.web.store import MatchStore
from spades_ai.web.view import BrowserMatch, match_view

__all__ = ["BrowserMatch", "MatchStore", "TableServer", "make_server", "match_view"]
