"""Bound copies of template modules: how kernel agents run inside compiled loops as fast as the built-ins.

numba inlines and optimises a call only when the callee is fixed at compile time, and it can
cache on disk only functions whose module it can import again. So a module whose kernels call
an agent's functions is written as a *template*: it gets every agent-specific function through
one relative import of its package's *binding module*, ``from ._binding import ...``, and the
package's own ``_binding.py`` is the default binding (Normal, for the Monte Carlo templates).
``bind`` makes a *bound copy*: a package in the kernel cache folder
(``engine.jit.cache_dir()/generated``) holding the template files verbatim beside a generated
``_binding.py`` that names other functions, and imports it. It is compiled once and then loaded
from numba's cache like any other module; only the templates are compiled again, since
everything they import by absolute name is shared with the package.

The copy's name holds a hash of the templates' text, the binding's text and the source of every
module the bound functions come from and of the modules those import (outside the standard
library, numpy, numba and this package, whose own sources name the cache folder), so an edit to
a user's module, or to one it imports, makes a fresh copy rather than reusing stale code.

Functions that cannot be imported again (defined in ``__main__``, a notebook or a function
body) get the same copy built in memory: the binding holds the functions themselves, the
templates run from their text, and their kernels, having no source file, compile without the
disk cache (``engine.jit``). It works the same, and compiles once per process.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import inspect
import itertools
import os
import shutil
import sys
import sysconfig
import types
from collections.abc import Mapping, Sequence
from pathlib import Path

from spades_ai.engine.jit import cache_dir
from spades_ai.folders import temporary_path

GENERATED = "generated"
BINDING = "_binding"
#: Top-level packages whose sources do not enter a copy's name (see the module docstring).
_SHARED = {"numpy", "numba", "llvmlite", "spades_ai"}
_IN_MEMORY = itertools.count()


class TemplateError(RuntimeError):
    """A template module that cannot be bound: missing, or without its one binding import."""


def importable(fn) -> tuple[str, str] | None:
    """``(module, name)`` if the kernel ``fn`` can be imported again by that name, else None."""
    py = getattr(fn, "py_func", fn)
    module, name = getattr(py, "__module__", None), getattr(py, "__qualname__", "")
    if not module or module == "__main__" or "." in name or "<" in name:
        return None
    try:
        found = getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None
    return (module, name) if found is fn else None


def template_source(package: str, name: str) -> tuple[str, tuple[str, ...]]:
    """The text of template ``package.name`` and the names it imports from its binding.

    Raises ``TemplateError`` when the module does not exist or does not import from
    ``._binding`` in exactly one statement: a template changed so that a binding would no
    longer reach it must fail here, not bind nothing."""
    spec = importlib.util.find_spec(f"{package}.{name}")
    if spec is None or not spec.origin or not os.path.isfile(spec.origin):
        raise TemplateError(f"template {package}.{name} not found")
    text = Path(spec.origin).read_text()
    names = [
        tuple(alias.asname or alias.name for alias in node.names)
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module == BINDING
    ]
    if len(names) != 1:
        raise TemplateError(
            f"template {package}.{name} must import its bound functions in one 'from .{BINDING} import ...' "
            f"statement; it has {len(names)}"
        )
    return text, names[0]


def module_digests(modules: set[str]) -> list[tuple[str, str]]:
    """``(module, hash of its file)`` for ``modules`` (loaded ones) and every module they reach
    through their globals (imported modules, and the modules of imported functions and classes)
    or their source's imports, leaving out the standard library and ``_SHARED``: what a bound
    copy's name holds, and a tournament's record of a user agent's code
    (``agents.spec.AgentSpec.fingerprint``). Files are read from disk as they are now."""
    stdlib = {Path(sysconfig.get_paths()[k]).resolve() for k in ("stdlib", "platstdlib")}
    seen: dict[str, str] = {}
    todo = sorted(modules)
    while todo and len(seen) < 500:
        name = todo.pop()
        module = sys.modules.get(name)
        if name in seen or module is None or name.partition(".")[0] in _SHARED:
            continue
        try:
            path = Path(inspect.getsourcefile(module) or "").resolve()
        except TypeError:  # a built-in module
            continue
        if not path.is_file() or any(root in path.parents for root in stdlib):
            continue
        text = path.read_bytes()
        seen[name] = hashlib.sha256(text).hexdigest()[:16]
        todo += [m for m in _imported_names(text, module) if m not in seen]
        for value in vars(module).values():
            other = value.__name__ if isinstance(value, types.ModuleType) else getattr(
                getattr(value, "py_func", value), "__module__", None)
            if isinstance(other, str) and other not in seen:
                todo.append(other)
    return sorted(seen.items())


def imports_of(text: str | bytes, package: str) -> list[str]:
    """Every module name the Python source ``text`` imports (relative imports resolved against
    ``package``, the package a module of that text sits in), at any depth of the text."""
    names = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                root = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{root}.{base}" if base else root
            names.append(base)
            names += [f"{base}.{a.name}" for a in node.names]
    return names


def _imported_names(text: bytes, module: types.ModuleType) -> list[str]:
    """The loaded modules the source ``text`` of ``module`` imports (a constant imported by
    name leaves no trace in the module's globals, so the text is read)."""
    package = module.__name__ if hasattr(module, "__path__") else module.__name__.rpartition(".")[0]
    try:
        return [n for n in imports_of(text, package) if n in sys.modules]
    except SyntaxError:
        return []


def bind(package: str, templates: Sequence[str], binding: str, functions: Mapping, tag: str) -> types.ModuleType:
    """A copy of ``package``'s ``templates`` (module names, in the order they import each other)
    bound to ``binding``: the text of a binding module that defines every name the templates
    import from ``._binding``, in which each name of ``functions`` is that function (a kernel).

    Returns the copy's package; its templates are attributes (``bind(...).search``)."""
    texts = {t: template_source(package, t) for t in templates}
    needed = sorted({n for _, names in texts.values() for n in names})
    where = {name: importable(fn) for name, fn in functions.items()}
    if not all(where.values()):
        return _bind_in_memory(package, texts, binding, functions, tag, needed)
    imports = "".join(f"from {mod} import {attr} as {name}\n" for name, (mod, attr) in where.items())
    binding_text = f'"""Generated by spades_ai.templates for {package}; do not edit."""\n\n' + imports + binding
    _check_defines(binding_text, needed, package)
    key = hashlib.sha256(binding_text.encode())
    for t in templates:
        key.update(texts[t][0].encode())
    for mod, digest in module_digests({mod for mod, _ in where.values()}):
        key.update(f"{mod}:{digest}".encode())
    name = f"spades_ai_bound_{tag}_{key.hexdigest()[:16]}"
    if name not in sys.modules:
        folder = _write_copy(name, {BINDING: binding_text, **{t: texts[t][0] for t in templates}})
        spec = importlib.util.spec_from_file_location(name, folder / "__init__.py", submodule_search_locations=[str(folder)])
        pkg = importlib.util.module_from_spec(spec)
        sys.modules[name] = pkg
        spec.loader.exec_module(pkg)
        for t in templates:
            setattr(pkg, t, importlib.import_module(f"{name}.{t}"))
    return sys.modules[name]


def _check_defines(binding_text: str, needed: Sequence[str], package: str) -> None:
    tree = ast.parse(binding_text)
    defined = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.Assign):
            defined.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom):
            defined.update(a.asname or a.name for a in node.names)
    missing = [n for n in needed if n not in defined]
    if missing:
        raise TemplateError(f"a binding of {package} does not define {', '.join(missing)}, which its templates import")


def _write_copy(name: str, files: dict[str, str]) -> Path:
    """The copy's folder, written once (rewriting would change its time stamps and so numba's
    cache), atomically: a process that loses the race to write it uses the winner's."""
    folder = cache_dir() / GENERATED / name
    if folder.is_dir():
        return folder
    tmp = temporary_path(folder)
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    (tmp / "__init__.py").write_text('"""A bound copy of template modules (spades_ai.templates); do not edit."""\n')
    for module, text in files.items():
        (tmp / f"{module}.py").write_text(text)
    try:
        os.replace(tmp, folder)
    except OSError:  # another process wrote it first
        shutil.rmtree(tmp, ignore_errors=True)
    return folder


def _bind_in_memory(package: str, texts: dict, binding: str, functions: Mapping, tag: str, needed) -> types.ModuleType:
    """``bind`` for functions that cannot be imported by name: the same copy, without files."""
    _check_defines("".join(f"{n} = None\n" for n in functions) + binding, needed, package)
    name = f"spades_ai_bound_{tag}_memory{next(_IN_MEMORY)}"
    pkg = types.ModuleType(name)
    pkg.__path__ = []
    sys.modules[name] = pkg
    for module, text, extra in ((BINDING, binding, functions), *((t, texts[t][0], {}) for t in texts)):
        mod = types.ModuleType(f"{name}.{module}")
        mod.__package__ = name
        mod.__dict__.update(extra)
        sys.modules[mod.__name__] = mod
        exec(compile(text, f"<spades_ai bound {package}.{module}>", "exec"), mod.__dict__)
        setattr(pkg, module, mod)
    return pkg
