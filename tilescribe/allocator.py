"""Keep the memory the process frees for its next photo (glibc's malloc settings).

Every photo or frame, the vision pipeline makes and frees photo-sized arrays (the tile finder's maps,
every tile's views, masks the size of the photo). By default glibc serves blocks
that big straight from the kernel (``mmap``) and gives back freed memory at the top of its heap
(``trim``), so every new array is faulted in again, page by page, and zeroed by the kernel: on one
core here that was an eighth of the time of a Holominoes table
(bench/bench_table.py --tables 40 with and without ``--glibc-defaults``: median 307 against
266 ms a table; Super Wild tables and board frames gain nothing measurable). With
:func:`keep_freed_memory` such blocks come from the heap and freed ones stay there, ready for
the next photo; the process keeps its peak memory instead of handing it back between photos.

The application's entry point (tilescribe/cli.py) and the benchmarks call it once at start.
"""

from __future__ import annotations

import ctypes
import ctypes.util

#: glibc's mallopt parameters (malloc.h).
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3

#: Blocks up to this size come from the heap: glibc's largest allowed mmap threshold
#: (4 MiB times the size of a C long: 32 MiB on a 64-bit system, 16 MiB on a 32-bit one).
HEAP_BLOCK_MAX = 4 * 1024 * 1024 * ctypes.sizeof(ctypes.c_long)

#: Free memory at the top of the heap is given back to the kernel only beyond this (bytes).
KEEP_FREE = 1 << 30


def keep_freed_memory() -> bool:
    """Make glibc serve blocks up to ``HEAP_BLOCK_MAX`` from its heap and keep up to
    ``KEEP_FREE`` bytes of freed heap (``mallopt`` M_MMAP_THRESHOLD and M_TRIM_THRESHOLD).

    Process-wide and lasting; calling it again changes nothing.

    Returns:
        whether both settings took: False under a C library without ``mallopt`` (musl, macOS),
        where nothing changes and nothing is raised.
    """
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, HEAP_BLOCK_MAX)) & bool(mallopt(M_TRIM_THRESHOLD, KEEP_FREE))
