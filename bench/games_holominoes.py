"""Holominoes speed cases for bench/bench_engine.py: a turn, the legal placements, a hint.

Each case works on a mid-game position of a seeded random game (20 turns, two players, about 21
tiles on the table). Targets: a turn <= 0.2 ms, a hint <= 1 s.
Run alone: ``PYTHONPATH=. .venv/bin/python bench/games_holominoes.py [--seed N] [--repeat N]``.
"""

from __future__ import annotations

from collections.abc import Callable

from bench_timing import time_cases

from engine.holominoes import RULES, Play, random_game, transcript_of

MID_GAME_TURNS = 20


def cases(seed: int) -> dict[str, Callable[[], object]]:
    """``{"turn", "legal", "hint"}``: callables timed by the benchmark, on seed ``seed``'s game.

    "turn" validates and scores the best-scoring legal placement of the player's pool (a hole
    closer where there is one), "legal" lists every legal placement of the tiles off the table,
    "hint" replays the transcript and ranks every placement (``tilescribe hint FILE``).
    """
    game, pools = random_game(seed, 2, MID_GAME_TURNS)
    text = transcript_of(game)
    pool = pools[game.players.index(game.current_player)]
    moves = [Play(p) for p in game.legal_placements(pool)] or [Play(p) for p in game.legal_placements()]
    move = max(moves, key=lambda m: game.evaluate(m).score)
    return {
        "turn": lambda: game.evaluate(move),
        "legal": game.legal_placements,
        "hint": lambda: RULES.hint(text, None, 5),
    }


if __name__ == "__main__":
    time_cases(cases, __doc__)
