"""The text of a table, kept at its old import path: the functions live in
``spades_ai.render.text`` beside the HTML and SVG pictures of a hand."""

from spades_ai.render.text import *  # noqa: F401,F403 -- the old path re-exports every public name
