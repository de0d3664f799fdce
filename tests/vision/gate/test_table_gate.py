"""The bare table's gate (vision.gate.table_gate) on a rendered table: still frames, a change of
light, an arm coming in from the edge."""

from __future__ import annotations

import numpy as np

from vision.gate.table_gate import TableGate
from vision.sim.hands import draw_hand, hand_strokes, random_look
from vision.sim.table_shots import random_shot


def _noisy(image: np.ndarray, rng: np.random.Generator, gain: float = 1.0) -> np.ndarray:
    return np.clip(image * gain + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)


def test_still_light_and_hand() -> None:
    rng = np.random.default_rng(0)
    table = random_shot("superwild", 3, "train", size=(640, 480)).image
    gate = TableGate()
    states = [gate.update(_noisy(table, rng)) for _ in range(3)]
    assert states[0].motion == 1.0 and not states[0].still and states[-1].is_ready
    gate.accept()
    dimmer = [gate.update(_noisy(table, rng, 0.8)) for _ in range(3)]  # a lamp turned down
    assert not any(s.hand for s in dimmer) and dimmer[-1].is_ready
    arm, look = table.copy(), random_look(rng)
    draw_hand(arm, hand_strokes((320.0, 900.0), (320.0, 240.0), 1.2, look), look)  # an arm from the bottom
    covered = [gate.update(_noisy(arm, rng)) for _ in range(4)]
    assert all(s.hand for s in covered) and not covered[0].still and covered[-1].still
    assert not any(s.is_ready for s in covered)
    back = [gate.update(_noisy(table, rng)) for _ in range(3)]
    assert not back[0].hand and not back[0].still and back[-1].is_ready
