"""The figures block of a model card: the part of the card a training script rewrites."""

from __future__ import annotations

import re
from pathlib import Path

FIGURES_END = "<!-- /figures -->"


def figures_start(script: str) -> str:
    """The mark that opens the block ``script`` (a path such as "bench/train_reader.py") writes."""
    return f"<!-- figures: written by {script} -->"


def write_figures(card: Path, text: str, script: str) -> None:
    """Replace the figures block of ``card`` with ``text`` (the block is appended where the card
    has none; a missing card is created with a title)."""
    start = figures_start(script)
    block = f"{start}\n{text}\n{FIGURES_END}"
    old = card.read_text(encoding="utf-8") if card.exists() else f"# {card.stem}\n"
    if start not in old:
        old += f"\n{start}\n{FIGURES_END}\n"
    pattern = re.escape(start) + ".*?" + re.escape(FIGURES_END)
    card.write_text(re.sub(pattern, lambda _: block, old, flags=re.S), encoding="utf-8")
