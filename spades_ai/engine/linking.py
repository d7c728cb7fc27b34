"""Kernels compiled only to be linked into others: optimised and emitted once, in the kernel
that Python calls.

numba compiles each function into a library of its own. When the library is finished it links
in its callees' libraries, runs LLVM's whole-module optimisation over all of it and emits
machine code for it. A caller then links those callees in again and optimises and emits the
whole closure once more. A kernel's ``callee`` twin (``jit._Kernel``, ``CALLEE_SUFFIX`` in its
name) is only ever called from other kernels, never from Python. So its own module optimisation
and machine code are thrown away, and a search nested five calls deep was optimised five times.
In a cold first Hard run that was 24 of 86 s (2 loaded cores): 13.7 s optimising the twins'
modules and 10.5 s emitting them.

``Library`` finishes a twin by linking alone. Its functions were optimised one by one as numba
added them, so it emits no machine code and it is cached as bitcode. The kernel that Python
calls links it in and optimises and emits everything once. What a twin still emits is a
module holding only its functions' environment pointers (numba's ``NumbaEnv`` globals). numba
fills those in for each function it compiles, and a caller's copies resolve to the first
definition, as they do for every numba library. Nothing compiled changes meaning: the same IR
goes through the same passes, once.

``install`` puts it in place of numba's JIT library class. It uses numba internals, so it checks
for them first and leaves numba's own class where they are missing (``installed()`` says which).
A cache never mixes the two: numba drops the entries another numba version wrote, and the
kernel cache's folder changes with this file (``jit.source_hash``).
"""

from __future__ import annotations

from llvmlite import binding as ll
from numba.core import codegen
from numba.core.registry import cpu_target

#: How ``jit._twin`` names a kernel's callee twin, and how its library is told apart (numba names
#: a function's library after its qualified name).
CALLEE_SUFFIX = "__callee"
_ENV_PREFIX = "_ZN08NumbaEnv"

#: numba's internals that ``Library`` relies on, checked by ``install``.
_NEEDS = {
    codegen.CPUCodeLibrary: ("finalize", "_optimize_final_module", "_finalize_final_module", "_finalize_dynamic_globals",
                             "_get_module_for_linking", "serialize_using_object_code"),
    codegen.JITCPUCodegen: ("_create_empty_module", "_add_module", "_library_class"),
}


class Library(codegen.JITCodeLibrary):
    """numba's JIT library, finished by linking only when it holds a callee twin."""

    @property
    def link_only(self) -> bool:
        return self.name.endswith(CALLEE_SUFFIX)

    def _optimize_final_module(self):
        # numba's ``finalize`` links the callees in, then optimises: a twin stops at the link
        if not self.link_only:
            super()._optimize_final_module()

    def _finalize_final_module(self):
        if not self.link_only:
            return super()._finalize_final_module()
        self._finalize_dynamic_globals()
        self._define_environments()
        self._finalized = True

    def _define_environments(self):
        """Emit the environment pointers of this library's functions that no module defines yet,
        alone in a module, so that numba can fill them in (``set_env``) and callers share them."""
        engine = self._codegen._engine
        envs = [str(gv) for gv in self._final_module.global_variables
                if gv.name.startswith(_ENV_PREFIX) and not engine.is_symbol_defined(gv.name)]  # fmt: skip
        if envs:
            empty = str(self._codegen._create_empty_module(f"{self.name}.environments"))
            self._codegen._add_module(ll.parse_assembly("\n".join([empty, *envs, ""])))
            engine.finalize_object()

    def serialize_using_object_code(self):
        if not self.link_only:
            return super().serialize_using_object_code()
        return self.name, "bitcode", self._get_module_for_linking().as_bitcode()


def _supported() -> bool:
    return all(hasattr(cls, name) for cls, names in _NEEDS.items() for name in names)


def install() -> None:
    """Finish callee twins by linking only, where this numba has the internals it needs."""
    jit_codegen = cpu_target.target_context.codegen()
    if _supported() and isinstance(jit_codegen, codegen.JITCPUCodegen):
        jit_codegen._library_class = Library


def installed() -> bool:
    """Whether callee twins are finished by linking only in this process."""
    return cpu_target.target_context.codegen()._library_class is Library
