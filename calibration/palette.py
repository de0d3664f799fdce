"""The premium squares' colours, shared by the printed Yushino board and the kiosk's map.

Each premium kind keeps a CIEDE2000 difference of at least 20 from the others and from a plain
square under normal vision and simulated protanopia, deuteranopia and tritanopia
(tests/display/test_palette.py); each square also carries its label (``2*``, ``3*``, ``2X``,
``3X``), so colour is never the only cue. Colours are RGB.
"""

from __future__ import annotations

Colour = tuple[int, int, int]

#: Premium kind -> fill (RGB): the classic board's hues (sequence x3 red, x2 rose, number x3 dark
#: blue, x2 light blue), each moved until the colour-vision test above passed.
PREMIUM_RGB: dict[str, Colour] = {
    "3X": (190, 40, 30),
    "2X": (245, 150, 140),
    "3*": (0, 70, 160),
    "2*": (120, 185, 235),
}
#: A square without a premium on paper.
PLAIN_RGB: Colour = (255, 255, 255)


def ink_on(fill: Colour) -> Colour:
    """Black or white text, whichever reads better on ``fill`` (RGB; relative luminance above
    0.18: black)."""
    lin = [(c / 255) / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in fill]
    luminance = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return (0, 0, 0) if luminance > 0.18 else (255, 255, 255)
