"""The package's layers (ARCHITECTURE.md): every import, at the top of a module or inside a
function, points to the module's own layer or one above it, and no modules import each other in
a circle."""

from __future__ import annotations

from pathlib import Path

import spades_ai
from spades_ai.templates import imports_of

PACKAGE = Path(spades_ai.__file__).parent

#: The layers, top first: a module may import its own layer and those before it.
LAYERS = (
    ("cards", "rules", "seats", "capabilities", "errors", "checks", "version", "tomlfile", "folders", "workers"),
    ("engine",),
    ("kernels",),
    ("game", "observation", "encoding", "scoring", "simulate", "solver", "pbn", "records"),
    ("templates",),
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
    ("testing", "conformance", "cli", "__main__", "__init__"),
)
LAYER_OF = {name: k for k, names in enumerate(LAYERS) for name in names}
#: Deprecated aliases kept for users of an old name, which import the module that now holds it:
#: ``spades_ai.agents.play_hands`` (and ``play_matches``, ``HandRecords``) moved to ``selfplay``.
DEPRECATED_ALIASES = {("spades_ai.agents", "spades_ai.selfplay")}
#: Hooks of the Python face that hand the work to a later layer, imported only when called (the
#: python-chess pattern: a board's ``_repr_svg_`` draws it with ``chess.svg``): the notebook
#: pictures (``_repr_html_``) and ``Hand.to_pbn`` / ``from_pbn``.
FACE_HOOKS = {(m, "spades_ai.render") for m in ("spades_ai.cards", "spades_ai.game", "spades_ai.observation",
                                                "spades_ai.scoring")} | {("spades_ai.game", "spades_ai.pbn")}
ALLOWED = DEPRECATED_ALIASES | FACE_HOOKS


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


def test_no_modules_import_each_other_in_a_circle():
    graph = _graph()
    for name, target in FACE_HOOKS:
        graph[name] = {t for t in graph[name] if t != target and not t.startswith(target + ".")}
    graph.pop("spades_ai")
    for deps in graph.values():
        deps.discard("spades_ai")
    state: dict[str, int] = {}
    cycles = []

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if nxt.startswith(node + "."):  # a package's __init__ showing its own submodules
                continue
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(path[path.index(nxt):] + [nxt]) if nxt in path else f"{node} -> {nxt}")
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "import circles:\n" + "\n".join(cycles)


def test_the_grammar_knows_every_builtin():
    from spades_ai.agents.grammar import BUILTIN_NAMES
    from spades_ai.agents.registry import BUILTINS

    assert tuple(BUILTINS) == BUILTIN_NAMES


def test_the_old_names_warn_and_still_work():
    import pytest

    from spades_ai import Rules
    from spades_ai.policies import agent
    from spades_ai.selfplay import play_hands

    import spades_ai.agents as agents_pkg
    import spades_ai.agents.registry as registry
    import spades_ai.tournament.schedule as schedule

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
