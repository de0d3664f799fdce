"""The kiosk's colours stay apart for players with the common colour-vision deficiencies.

Each colour is simulated as a protanope, deuteranope and tritanope sees it (Machado, Oliveira and
Fernandes 2009, severity 1.0, applied to linear RGB), then compared in CIELAB (D65) by CIEDE2000
and CIE76.
"""

from __future__ import annotations

import itertools

import colour
import numpy as np
import pytest

from calibration.palette import PLAIN_RGB, PREMIUM_RGB
from display.theme import Theme
from display.view import TableState

SRGB = colour.RGB_COLOURSPACES["sRGB"]
VISIONS = (None, "Protanomaly", "Deuteranomaly", "Tritanomaly")
MIN_DE2000 = 20.0
MIN_DE76 = 20.0


def lab(rgb8: tuple[int, int, int], deficiency: str | None) -> np.ndarray:
    """CIELAB (D65) of an sRGB colour as seen with ``deficiency`` (None: normal vision)."""
    linear = colour.cctf_decoding(np.asarray(rgb8, float) / 255.0, function="sRGB")
    if deficiency is not None:
        linear = np.clip(colour.matrix_cvd_Machado2009(deficiency, 1.0) @ linear, 0.0, 1.0)
    xyz = colour.RGB_to_XYZ(linear, SRGB, illuminant=SRGB.whitepoint)
    return colour.XYZ_to_Lab(xyz, SRGB.whitepoint)


def closest(
    colours: dict[str, tuple[int, int, int]], deficiency: str | None, method: str
) -> tuple[float, str, str]:
    """The smallest difference between two of ``colours`` and which two."""
    labs = {name: lab(rgb, deficiency) for name, rgb in colours.items()}
    return min(
        (float(colour.delta_E(labs[a], labs[b], method=method)), a, b)
        for a, b in itertools.combinations(labs, 2)
    )


THEME = Theme()
GROUPS = {
    "states": {"background": THEME.background, **{s.value: THEME.state_colour(s) for s in TableState}},
    "cell fills": {
        n: getattr(THEME, n) for n in ("cell", "tile", "provisional", "blocked", "illegal", "restore")
    },
    "outlines": {n: getattr(THEME, n) for n in ("last_turn", "selected", "uncertain", "tile", "cell")},
    "premiums on paper": {**PREMIUM_RGB, "plain": PLAIN_RGB},
    "Yushino map": {**PREMIUM_RGB, **{n: getattr(THEME, n) for n in ("square", "square_tile", "background")}},
    "Super Wild map": {
        n: getattr(THEME, n) for n in ("table_tile", "wild_tile", "set_group", "run_group", "background")
    },
}


@pytest.mark.parametrize("deficiency", VISIONS, ids=["normal", "protanopia", "deuteranopia", "tritanopia"])
@pytest.mark.parametrize("group", list(GROUPS))
def test_every_pair_stays_apart(group: str, deficiency: str | None) -> None:
    de2000, a, b = closest(GROUPS[group], deficiency, "CIE 2000")
    assert de2000 >= MIN_DE2000, f"{group}: {a} and {b} only {de2000:.1f} apart (CIEDE2000)"
    de76, a, b = closest(GROUPS[group], deficiency, "CIE 1976")
    assert de76 >= MIN_DE76, f"{group}: {a} and {b} only {de76:.1f} apart (CIE76)"


def test_the_simulation_merges_red_and_green_for_a_deuteranope() -> None:
    """The check can fail: a red and a green that differ strongly for normal vision come close."""
    red, green = (200, 60, 40), (90, 150, 40)
    normal = float(colour.delta_E(lab(red, None), lab(green, None), method="CIE 2000"))
    deutan = float(colour.delta_E(lab(red, "Deuteranomaly"), lab(green, "Deuteranomaly"), method="CIE 2000"))
    assert normal > 35 and deutan < MIN_DE2000 / 2
