"""glibc keeps the memory the process frees (tilescribe/allocator.py): fresh photo-sized arrays
are not faulted in from the kernel again."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

#: Ten times fills six fresh 8 MB arrays held at once, as a photo's pipeline holds its maps, and
#: frees them; prints the minor page faults of the last nine times.
_FILL = """
import resource, sys
import numpy as np
if sys.argv[1] == "keep":
    from tilescribe.allocator import keep_freed_memory
    assert keep_freed_memory()
for time in range(10):
    if time == 1:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    maps = [np.ones(2_000_000, np.float32) for _ in range(6)]
    del maps
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(mode: str) -> int:
    out = subprocess.run([sys.executable, "-c", _FILL, mode], capture_output=True, text=True, check=True)
    return int(out.stdout)


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                    reason="mallopt is glibc's")
def test_freed_arrays_are_not_faulted_in_again() -> None:
    # glibc's defaults: the freed top of the heap goes back to the kernel, and comes in again
    # (here 27,019 faults of the 105,468 pages; with transparent huge pages always on, fewer)
    default, kept = _faults("default"), _faults("keep")
    assert default > 20 * (kept + 1), (default, kept)
