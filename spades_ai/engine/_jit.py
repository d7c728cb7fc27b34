"""The one decorator policy of the engine.

Every kernel is compiled ahead of its first call, cached beside the code (``cache=True``) and
releases the GIL so that callers may run kernels from threads. ``error_model="numpy"`` drops
Python's zero-division checks from integer code: the kernels never divide by a runtime value
that can be zero.
"""

from numba import njit

kernel = njit(cache=True, nogil=True, error_model="numpy")
