"""MODLINSEQ's cases for the engine benchmark: one turn, every legal placement, one hint.

The position is a seeded random game of 30 turns on the order-9 board, modulus 13 (mid-game, about
70 tiles). ``cases(seed)`` gives the callables bench/bench_engine.py times; run this file for their
medians on its own: ``.venv/bin/python bench/games_modlinseq.py [--seed 1] [--repeat 50]``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bench_timing import time_cases

from engine.hexgrid import Board
from engine.modlinseq_rules import RULES, random_game_text
from engine.randomgame import random_turn
from engine.settings import Settings
from engine.tiles import Placement
from engine.transcript import parse_transcript, replay

#: Turns played before the measured position.
MID_GAME_TURNS = 30


def cases(seed: int) -> dict[str, Callable[[], object]]:
    """The benchmark callables at a mid-game order-9 position of seed ``seed``.

    Returns:
        ``"turn"``: validate and score one legal turn; ``"legal"``: every empty cell's legal
        values (blocked cells included) from scratch; ``"hint"``: the five best turns for a rack of
        six tiles, the transcript read and replayed first.
    """
    settings = Settings(modulus=13, board=Board.hexagon(9), players=("A", "B"))
    text = random_game_text(settings, seed, turns=MID_GAME_TURNS)
    game, _ = replay(parse_transcript(text)[0])
    rng = random.Random(seed)
    turn: list[Placement] = []
    while not turn:
        turn = random_turn(game, rng)
    rack = " ".join(str(rng.randrange(13)) for _ in range(6))
    state = game.state
    return {
        "turn": lambda: game.evaluate(turn),
        "legal": state.legal_values,
        "hint": lambda: RULES.hint(text, rack, 5),
    }


if __name__ == "__main__":
    time_cases(cases, __doc__)
