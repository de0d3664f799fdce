"""Yushino's cases for bench/bench_engine.py: one turn, the legal placements, one hint (mid-game).

The position is a seeded random game after 20 turns (engine.yushino.randomgame). ``turn`` judges and
scores a play of two or more tiles found there by the engine's own search; ``legal`` lists the
one-tile plays of every square next to a tile and the blocked squares (the set of §6 counted); ``hint`` is one
``RULES.hint`` call on the transcript with a rack of seven drawn from the unseen tiles (replay included).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

from bench_timing import time_cases

from engine.yushino import RULES, Turn, format_transcript, legal_plays, random_game

MID_GAME_TURNS = 20


def cases(seed: int) -> dict[str, Callable[[], object]]:
    """``{"turn", "legal", "hint"}``: callables timed by the benchmark."""
    game, transcript = random_game(seed, 2, MID_GAME_TURNS)
    settings = game.settings
    plays = legal_plays(game.position, game.unseen(), 7, settings.layout, settings.direction)
    typical = next((p for p in plays if len(p.placements) >= 2), plays[0])
    text = format_transcript(transcript)
    rack = " ".join(random.Random(seed).sample(sorted(game.unseen().elements()), 7))
    return {
        "turn": partial(game.evaluate, Turn.play(typical.placements)),
        "legal": game.legal_placements,
        "hint": partial(RULES.hint, text, rack, 5),
    }


if __name__ == "__main__":
    time_cases(cases, __doc__)
