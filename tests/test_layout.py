"""The package's layers (ARCHITECTURE.md): every import, at the top of a module or inside a
function, points to the module's own layer or one above it, no modules import each other in a
circle (lazy imports inside functions included), and no private name (``_x``) is used outside
its module."""

from __future__ import annotations

import ast
from pathlib import Path

import spades_ai
from spades_ai.templates import imports_of

PACKAGE = Path(spades_ai.__file__).parent

#: The layers, top first: a module may import its own layer and those before it.
LAYERS = (
    ("cards", "rules", "seats", "capabilities", "errors", "checks", "version", "tomlfile", "folders", "workers"),
    ("engine", "templates"),
    ("kernels",),
    ("game", "observation", "encoding", "scoring", "simulate", "solver", "pbn", "records"),
    ("policies",),
    ("models",),
    ("montecarlo",),
    ("agents",),
    ("selfplay",),
    ("learn",),
    ("tournament",),
    ("render",),
    ("analysis",),
    ("table", "web"),
    ("interop",),
    ("testing", "cli", "__main__", "__init__"),
)
LAYER_OF = {name: k for k, names in enumerate(LAYERS) for name in names}
#: Deprecated aliases kept for users of an old name, which import the module that now holds it:
#: ``spades_ai.agents.play_hands`` (and ``play_matches``, ``HandRecords``) moved to ``selfplay``.
DEPRECATED_ALIASES = {("spades_ai.agents", "spades_ai.selfplay")}
ALLOWED = DEPRECATED_ALIASES


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(("spades_ai", *parts))
        out[name.removesuffix(".__init__")] = path
    return out


def _imports(name: str, path: Path) -> set[str]:
    """Every module of the package that ``name`` imports, anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return {m for m in imports_of(path.read_text(), package) if m.startswith("spades_ai")}


def _layer(module: str) -> int:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "__init__"
    assert top in LAYER_OF, f"{module}: its top-level name {top!r} is in no layer of tests/test_layout.py"
    return LAYER_OF[top]


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: {m for m in _imports(name, path) if m in modules and m != name} for name, path in modules.items()}


def test_every_import_points_up_the_layers():
    wrong = []
    for name, targets in _graph().items():
        if name == "spades_ai":  # the package's face re-exports every layer
            continue
        for target in targets:
            if target != "spades_ai" and _layer(target) > _layer(name) and (name, target) not in ALLOWED:
                wrong.append(f"{name} imports {target}")
    assert not wrong, "imports that point down the layers:\n" + "\n".join(sorted(wrong))


def circles(graph: dict[str, set[str]]) -> list[str]:
    """Every circle of imports in ``graph`` (module -> the modules it imports), as ``a -> b -> a``."""
    state: dict[str, int] = {}
    found = []

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if nxt.startswith(node + "."):  # a package's __init__ showing its own submodules
                continue
            if state.get(nxt) == 1:
                found.append(" -> ".join(path[path.index(nxt):] + [nxt]) if nxt in path else f"{node} -> {nxt}")
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def test_no_modules_import_each_other_in_a_circle():
    graph = _graph()  # every import, those inside functions included
    graph.pop("spades_ai")
    for deps in graph.values():
        deps.discard("spades_ai")
    found = circles(graph)
    assert not found, "import circles:\n" + "\n".join(found)


def test_the_circle_check_sees_an_import_inside_a_function():
    """The notebook hook of ``cards.py`` once imported ``render`` lazily, inside a function: a
    circle that only the function-level import shows."""
    lazy = "import numpy\n\ndef _repr_html_(self):\n    from spades_ai.render import cards_html\n    return ''\n"
    assert "spades_ai.render" in imports_of(lazy, "spades_ai")
    graph = {"spades_ai.cards": {m for m in imports_of(lazy, "spades_ai") if m.startswith("spades_ai")},
             "spades_ai.render": {"spades_ai.cards"}, "spades_ai.render.cards_html": set()}
    assert circles(graph) == ["spades_ai.cards -> spades_ai.render -> spades_ai.cards"]
    graph["spades_ai.cards"] = set()
    assert circles(graph) == []


def _is_private(name: str) -> bool:
    """``_x`` is private; ``__x__`` and the protocol names ``_x_`` (``_repr_html_``) are not."""
    return name.startswith("_") and not name.endswith("_")


def _resolve(node: ast.ImportFrom, package: str) -> str:
    base = node.module or ""
    if node.level:
        root = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
        base = f"{root}.{base}" if base else root
    return base


def _names_used(tree: ast.AST, package: str) -> list[tuple[int, str]]:
    """(line, dotted name) of every name of the package the module imports or reads an
    attribute of through an imported name (``mod._x``, ``Class._x``)."""
    bound, used = {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                bound[a.asname or a.name.partition(".")[0]] = a.name if a.asname else a.name.partition(".")[0]
                used.append((node.lineno, a.name))
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node, package)
            for a in node.names:
                if a.name != "*":
                    bound[a.asname or a.name] = f"{base}.{a.name}"
                    used.append((node.lineno, f"{base}.{a.name}"))
    for node in ast.walk(tree):
        chain = []
        while isinstance(node, ast.Attribute):
            chain.append(node.attr)
            node = node.value
        if chain and isinstance(node, ast.Name) and node.id in bound:
            used.append((node.lineno, ".".join([bound[node.id], *reversed(chain)])))
    return [(line, name) for line, name in used if name.startswith("spades_ai.")]


def private_uses(text: str, name: str, package: str, modules) -> list[str]:
    """Every private name of another module that the source ``text`` of module ``name`` (in
    ``package``) imports or reads: a name ``a.b._c`` belongs to the module holding ``a.b`` (a
    package's private module to the package and the modules under it)."""
    wrong = []
    for line, dotted in _names_used(ast.parse(text), package):
        parts = dotted.split(".")
        first = next((k for k, part in enumerate(parts) if _is_private(part)), None)
        if first is None:
            continue
        owner = ".".join(parts[:first])
        while owner not in modules and "." in owner:
            owner = owner.rpartition(".")[0]
        if name != owner and not name.startswith(owner + "."):
            wrong.append(f"{name}:{line} uses {dotted}")
    return wrong


def test_no_private_name_is_used_outside_its_module():
    modules = _modules()
    wrong = []
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        wrong += private_uses(path.read_text(), name, package, modules)
    assert not wrong, "private names used outside their module:\n" + "\n".join(sorted(wrong))


def test_the_private_name_check_finds_every_form():
    modules = {"spades_ai.render.text", "spades_ai.selfplay", "spades_ai.selfplay._binding", "spades_ai.cards",
               "spades_ai.selfplay.loop", "spades_ai.table.render"}
    text = ("from spades_ai.render.text import _signed\nfrom spades_ai.selfplay._binding import seat_bid\n"
            "import spades_ai.render.text as t\nfrom spades_ai.cards import CardSet\nt._signed(1)\n"
            "CardSet._same\nCardSet._repr_html_ = None\nt.__name__\n")
    found = private_uses(text, "spades_ai.table.render", "spades_ai.table", modules)
    assert sorted(f.partition(" uses ")[2] for f in found) == [
        "spades_ai.cards.CardSet._same", "spades_ai.render.text._signed", "spades_ai.render.text._signed",
        "spades_ai.selfplay._binding.seat_bid"]
    assert not private_uses("from ._binding import seat_bid\n", "spades_ai.selfplay.loop", "spades_ai.selfplay", modules)


def test_a_notebook_shows_the_python_face_as_pictures():
    """``import spades_ai`` attaches the pictures (``spades_ai.render``) and the PBN methods
    (``spades_ai.pbn``) that the cards, the game and the score no longer import."""
    import spades_ai as sa

    hand = sa.Hand(sa.deal(seed=1))
    assert 'class="sa-hand"' in hand._repr_html_() and 'class="sa-hand"' in hand.cards(0)._repr_html_()
    assert 'class="sa-hand"' in hand.observation()._repr_html_()
    assert 'class="sa-hand"' in sa.score_hand([4, 3, 0, 2], [5, 3, 1, 4])._repr_html_()
    assert sa.Hand.from_pbn(hand.to_pbn(event="e")).to_record() == hand.to_record()


def test_the_grammar_knows_every_builtin():
    from spades_ai.agents.grammar import BUILTIN_NAMES
    from spades_ai.agents.registry import BUILTINS

    assert tuple(BUILTINS) == BUILTIN_NAMES


def test_the_old_names_warn_and_still_work():
    import pytest

    import spades_ai.agents as agents_pkg
    import spades_ai.agents.registry as registry
    import spades_ai.tournament.schedule as schedule
    from spades_ai import Rules
    from spades_ai.policies import agent
    from spades_ai.selfplay import play_hands

    with pytest.warns(DeprecationWarning, match="spades_ai.selfplay.play_hands"):
        assert agents_pkg.play_hands is play_hands
    with pytest.warns(DeprecationWarning, match="policies.agent.default_pass"):
        assert registry.default_pass is agent.default_pass
    with pytest.warns(DeprecationWarning, match="Rules.load"):
        assert schedule.load_rules({"loss_threshold": "off"}) == Rules(loss_threshold=None)
    with pytest.raises(AttributeError):
        registry.no_such_name  # noqa: B018


def test_the_encoding_is_one_layout_below_the_models():
    """``spades_ai.encoding`` holds the layout; ``spades_ai.learn.encoding`` and the adapters'
    ``interop.encoding`` re-export the very same objects, and the models read it there."""
    import spades_ai.encoding as enc
    import spades_ai.interop.encoding as interop_enc
    import spades_ai.learn.encoding as learn_enc

    for name in ("SLICES", "FIELDS", "PHASES", "OBSERVATION_SIZE", "BID_OFFSET", "action_to_string"):
        assert getattr(learn_enc, name) is getattr(enc, name) and getattr(interop_enc, name) is getattr(enc, name)
    assert LAYER_OF["encoding"] < LAYER_OF["models"]
    assert "spades_ai.encoding" in _graph()["spades_ai.models.rows"]
