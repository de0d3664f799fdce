"""An optional end-of-turn push button on a Raspberry Pi GPIO pin (thin; needs gpiozero).

The button connects the pin to ground (the internal pull-up holds it high). Presses are counted
in gpiozero's thread and collected by the session loop with :meth:`EndTurnButton.presses`.
"""

from __future__ import annotations

import threading
from typing import Any


class GpioError(Exception):
    """The GPIO button cannot be set up (no gpiozero, no such pin, not a Pi)."""


class EndTurnButton:
    """A push button on a BCM GPIO pin that ends the turn.

    Args:
        pin: BCM pin number (e.g. 17 for header pin 11).

    Raises:
        GpioError: gpiozero is missing or the pin cannot be used.
    """

    def __init__(self, pin: int) -> None:
        try:
            from gpiozero import Button
        except ImportError as exc:
            raise GpioError(f"GPIO {pin}: gpiozero missing (apt install python3-gpiozero)") from exc
        self._lock = threading.Lock()
        self._count = 0
        try:
            self._button: Any = Button(pin, pull_up=True, bounce_time=0.05)
        except Exception as exc:  # gpiozero raises its own families per pin factory
            raise GpioError(f"GPIO {pin}: cannot use the pin ({exc})") from exc
        self._button.when_pressed = self._pressed

    def _pressed(self) -> None:
        with self._lock:
            self._count += 1

    def presses(self) -> int:
        """Presses since the last call."""
        with self._lock:
            count, self._count = self._count, 0
        return count

    def close(self) -> None:
        """Release the pin."""
        self._button.close()
