"""The gate: is the board still and free of hands, and which cells changed since the last read.

The gate compares each frame with those before it, so its entry is a stateful
:meth:`BoardGate.update` (a frame and its board location -> a :class:`GateState`); a
:class:`BoardWatcher` runs locate, gate and read for the table session. Errors: :class:`GateError`
(VisionError). A bare table (no board) has its own gate, :class:`TableGate`.
"""

from vision.gate.errors import GateError
from vision.gate.gate import BoardGate, GateConfig, GateState
from vision.gate.table_gate import TableGate, TableGateConfig, TableGateState
from vision.gate.watcher import BoardWatcher, WatchResult

__all__ = [
    "BoardGate", "BoardWatcher", "GateConfig", "GateError", "GateState", "TableGate", "TableGateConfig",
    "TableGateState", "WatchResult",
]
