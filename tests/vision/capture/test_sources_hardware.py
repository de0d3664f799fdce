"""Hardware-only checks: the Pi camera and the GPIO end-of-turn button (skipped where absent)."""

from __future__ import annotations

import importlib.util

import pytest

from tilescribe.gpio import EndTurnButton, GpioError
from vision.capture.sources import PiCameraSource, SourceError

pytestmark = pytest.mark.hardware


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is None,
                    reason="picamera2 is not installed (Raspberry Pi OS: apt install python3-picamera2)")
def test_pi_camera_delivers_bgr_frames() -> None:
    with PiCameraSource(640, 480) as source:
        try:
            frames = [source.read() for _ in range(3)]
        except SourceError as exc:
            pytest.skip(f"no Pi camera connected: {exc}")
    assert all(f is not None and f.image.shape == (480, 640, 3) for f in frames)
    assert frames[0] is not None and frames[2] is not None and frames[2].t > frames[0].t


@pytest.mark.skipif(importlib.util.find_spec("gpiozero") is None,
                    reason="gpiozero is not installed (Raspberry Pi OS: apt install python3-gpiozero)")
def test_gpio_button_counts_nothing_unpressed() -> None:
    try:
        button = EndTurnButton(17)
    except GpioError as exc:
        pytest.skip(f"no usable GPIO here: {exc}")
    try:
        assert button.presses() == 0
    finally:
        button.close()
