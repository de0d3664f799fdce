"""Super Wild's benchmark cases for bench/bench_engine.py: a turn, the legal placements and a hint
at a mid-game position of a seeded random round.

The position is the table before the last turn of a seeded random round that lays tiles and
rearranges none, about 45-50 tiles (the game has 53, so a table of 60 cannot occur).
"turn" judges that turn with the line cache emptied first (the lines through the moved and laid
tiles split afresh); "turn_cached" judges it as a live table does, those lines already known;
"table" judges every line of the table from an empty cache (what a reading from the camera costs).
Run alone: ``PYTHONPATH=. .venv/bin/python bench/games_superwild.py [--seed N] [--repeat N]``.
"""

from __future__ import annotations

from collections.abc import Callable

from bench_timing import time_cases

from engine.superwild import Game, hints, legal_placements, random_round, split_line


def mid_game(seed: int) -> tuple[Game, object]:
    """A seeded round rewound to before its last turn that lays tiles, and that turn."""
    for attempt in range(seed, seed + 50):
        _, lines, game = random_round(attempt, 2)
        plays = [k for k, (_, turn, _) in enumerate(lines) if turn.lays and not turn.draw]
        if plays and len(game.table) >= 40:
            last = plays[-1]
            while len(game.history) > last:
                game.undo()
            return game, lines[last][1]
    raise ValueError(f"no seed from {seed} gives a table of 40 tiles")


def cases(seed: int) -> dict[str, Callable[[], object]]:
    """The timed calls: "turn", "turn_cached", "table", "legal", "hint"."""
    game, turn = mid_game(seed)
    rack = list(game.rack(game.current_player).known)

    def cold_turn() -> object:
        split_line.cache_clear()
        return game.evaluate(turn)  # type: ignore[arg-type]

    def cold_table() -> object:
        split_line.cache_clear()
        return game.table.problem()

    return {
        "turn": cold_turn,
        "table": cold_table,
        "turn_cached": lambda: game.evaluate(turn),  # type: ignore[arg-type]
        "legal": lambda: legal_placements(game.table, rack),
        "hint": lambda: hints(game.table, rack, 3),
    }


if __name__ == "__main__":
    time_cases(cases, __doc__)
