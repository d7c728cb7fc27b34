"""Pictures of hands: HTML and SVG, pure functions of a record (a ``Hand``, or its record).

``hand_html`` / ``hand_svg`` draw the table (seat 0 South at the bottom); this module attaches
``hand_html``, ``result_html`` and ``cards_html`` as the ``_repr_html_`` of ``Hand``,
``Observation``, ``HandResult`` and ``CardSet``, the pictures of a notebook.
``replay_html`` steps through a hand trick by trick with a slider (plain JavaScript, no
widgets; without JavaScript every step shows, one under the other); ``reviewed_html`` marks
the costly decisions of a review (``spades_ai.review``). ``save`` writes a
standalone ``.html`` or ``.svg`` file. ``render.text`` holds the text of the terminal table.

>>> import spades_ai as sa
>>> hand = sa.Hand(sa.deal(seed=1))
>>> save(hand, "/tmp/hand.svg")  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from spades_ai.cards import CardSet
from spades_ai.game import Hand
from spades_ai.observation import Observation
from spades_ai.pbn import as_hand
from spades_ai.render.html import cards_html, default_names, hand_html, page, result_html, sheet_html, tricks_html
from spades_ai.render.svg import hand_svg
from spades_ai.scoring import HandResult

# The notebook pictures (python-chess's ``_repr_svg_``), attached from here so that the cards,
# the game and the score never import the pictures; ``import spades_ai`` imports this module.
CardSet._repr_html_ = cards_html
Hand._repr_html_ = hand_html
Observation._repr_html_ = hand_html
HandResult._repr_html_ = result_html


class Picture(str):
    """HTML that shows itself in a notebook (``_repr_html_``) and saves as a file."""

    def _repr_html_(self) -> str:
        return str(self)

    def save(self, path) -> None:
        Path(path).write_text(page(str(self)), encoding="utf-8")


def hand_at(hand, n_plays: int):
    """The hand as it stood after its first ``n_plays`` cards (the bids all made)."""
    record = hand.to_record()
    record["plays"] = record["plays"][:n_plays]
    return type(hand).from_record(record)


def replay_html(record, names=None, marks=None) -> Picture:
    """A hand step by step: before the first lead and after each trick (the last step is the
    finished hand), with a slider to move between the steps. ``marks`` as in ``hand_html``.

    >>> import spades_ai as sa
    >>> h = sa.Hand(sa.deal(seed=1)); [h.bid(3) for _ in range(h.rules.players)] and None
    >>> replay_html(h).count('class="sa-step"')
    1
    """
    hand = as_hand(record)
    n = hand.rules.players  # cards a trick
    steps = [hand_at(hand, n * k) for k in range(len(hand.plays) // n + 1)]
    if len(hand.plays) % n:
        steps.append(hand)
    pictures = [hand_html(h, names, marks, title=f"step {i}: {len(h.plays) // n} tricks played") for i, h in enumerate(steps)]
    key = "sa" + hashlib.sha1("".join(pictures).encode()).hexdigest()[:10]
    divs = "".join(f'<div class="sa-step" id="{key}-{i}">{p}</div>' for i, p in enumerate(pictures))
    last = len(steps) - 1
    script = (f"<script>(function(){{var s=document.getElementById('{key}-s');function show(v){{for(var i=0;i<={last};i++)"
              f"{{document.getElementById('{key}-'+i).style.display=(i==v)?'block':'none';}}}}"
              f"s.oninput=function(){{show(+s.value);}};show({last});}})();</script>")
    slider = f'<input type="range" id="{key}-s" min="0" max="{last}" value="{last}" step="1" style="width:420px">'
    return Picture(f"<div>{slider}{divs}{script}</div>")


def reviewed_html(record, review, threshold: float = 0.5) -> Picture:
    """The picture of a hand with every decision of a review (``spades_ai.review``'s frame:
    ``seat``, ``phase``, ``play_no``, ``loss``) that lost more than ``threshold`` points marked
    by its loss."""
    marks = {}
    for row in review[review.loss > threshold].itertuples():
        marks[("bid", row.seat) if row.phase == "bid" else ("play", row.play_no)] = float(row.loss)
    judge = review.attrs.get("judge", "?")
    return Picture(hand_html(as_hand(record), marks=marks, title=f"judge: {judge}; marked: losses over {threshold} points"))


def save(record, path, names=None) -> None:
    """Write the picture of a hand to ``path``: ``.svg`` (``hand_svg``) or ``.html``
    (``hand_html`` in a standalone page)."""
    path = Path(path)
    hand = as_hand(record)
    if path.suffix.lower() == ".svg":
        path.write_text(hand_svg(hand, names), encoding="utf-8")
    elif path.suffix.lower() in (".html", ".htm"):
        path.write_text(page(hand_html(hand, names)), encoding="utf-8")
    else:
        raise ValueError(f"a picture is saved as .svg or .html, not {path.suffix or 'a file without a suffix'} ({path})")


__all__ = ["Picture", "as_hand", "cards_html", "default_names", "hand_at", "hand_html", "hand_svg", "page",
           "replay_html", "result_html", "reviewed_html", "save", "sheet_html", "tricks_html"]
