"""Property checks of §10-12 against a plain re-statement of the rules (hypothesis, seeded).

The reference below walks lines with cell arithmetic (no index tables, masks or solver) and calls a
line legal when the law's own recipe generates it (§2: a + i d; §10: each term the sum of the two
before; §11: a f^i), read in the board's reading direction, round and round for a loop (§12).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cells import Cell
from engine.game import Game
from engine.hexgrid import Board, Hex
from engine.modlinseq_rules import RULES, random_game_text
from engine.position import Position
from engine.randomgame import random_game
from engine.settings import Settings
from engine.squaregrid import RectBoard, Square
from engine.tiles import Placement, Tile

# -- the reference


def generated(kind: str, values: list[int], m: int) -> bool:
    """True when some start pair makes the law's recipe produce ``values``."""
    for a in range(m):
        for b in range(m):
            out, x, y = [], a, b
            for i in range(len(values)):
                if kind == "linear":
                    out.append((a + i * b) % m)
                elif kind == "multiplicative":
                    out.append(x)
                    x = x * b % m
                else:
                    out.append(x)
                    x, y = y, (x + y) % m
            if out == values:
                return True
    return False


class Model:
    """A board as plain geometry: cells, line steps, reading directions, centre."""

    def __init__(self, board: Board | RectBoard) -> None:
        self.board = board
        if isinstance(board, RectBoard):
            self.steps = [(1, 0), (0, 1), (1, 1), (1, -1)][: 4 if board.diagonals else 2]
            self.forward_reading = [True] * len(self.steps)
            self.centre: Cell = Square(board.width // 2, board.height // 2)
        else:
            self.steps = [(1, 0), (1, -1), (0, 1)]
            self.forward_reading = [True, False, False]  # §10: left to right, NE to SW, SE to NW
            self.centre = Hex(0, 0)

    def move(self, cell: Cell, step: tuple[int, int], sign: int) -> Cell | None:
        board = self.board
        if isinstance(board, RectBoard):
            col, row = cell.col + sign * step[0], cell.row + sign * step[1]  # type: ignore[union-attr]
            if board.wrap:
                return Square(col % board.width, row % board.height)
            return Square(col, row) if 0 <= col < board.width and 0 <= row < board.height else None
        nxt = Hex(cell.q + sign * step[0], cell.r + sign * step[1])  # type: ignore[union-attr]
        return nxt if nxt in board else None

    def line(self, tiles: Mapping[Cell, int], cell: Cell, step: tuple[int, int]) -> tuple[list[Cell], bool]:
        """The unbroken line of tiles through ``cell`` (in ``tiles``) along ``step``; True for a loop."""
        start = cell
        while True:
            prev = self.move(start, step, -1)
            if prev is None or prev not in tiles:
                break
            if prev == cell:
                return self._round(cell, step), True
            start = prev
        out = [start]
        nxt = self.move(start, step, +1)
        while nxt is not None and nxt in tiles:
            out.append(nxt)
            nxt = self.move(nxt, step, +1)
        return out, False

    def _round(self, cell: Cell, step: tuple[int, int]) -> list[Cell]:
        out = [cell]
        nxt = self.move(cell, step, +1)
        while nxt != cell:
            out.append(nxt)  # type: ignore[arg-type]
            nxt = self.move(nxt, step, +1)  # type: ignore[arg-type]
        return out

    def line_ok(self, tiles: Mapping[Cell, int], cell: Cell, k: int, kind: str, m: int) -> bool:
        cells, loop = self.line(tiles, cell, self.steps[k])
        values = [tiles[c] for c in cells]
        prime = m > 1 and all(m % p for p in range(2, m))
        directed = kind == "fibonacci" or (kind == "multiplicative" and not prime)
        if directed and not self.forward_reading[k]:
            values = values[::-1]
        return generated(kind, values * 3 if loop else values, m)


def ref_verdict(
    model: Model, tiles: dict, turn: list, kind: str, m: int, loop_bonus: int = 0
) -> tuple[bool, int]:
    """(legal, score) of a natural-only turn, from §3-2, §3-3 and §10-12 read literally."""
    cells = [c for c, _ in turn]
    lowest = 1 if kind == "multiplicative" else 0
    if not turn or len(set(cells)) != len(cells):
        return False, 0
    if any(c not in model.board or c in tiles or not lowest <= v < m for c, v in turn):
        return False, 0
    after = dict(tiles)
    after.update(turn)
    if len(cells) > 1 and not any(
        all(c in model.line(after, cells[0], step)[0] for c in cells) for step in model.steps
    ):
        return False, 0
    if not tiles:
        if model.centre not in cells:
            return False, 0
    elif not any(model.move(c, s, sign) in tiles for c in cells for s in model.steps for sign in (1, -1)):
        return False, 0
    total, seen = 0, set()
    for c in cells:
        for k, step in enumerate(model.steps):
            run, loop = model.line(after, c, step)
            if not model.line_ok(after, c, k, kind, m):
                return False, 0
            key = (k, frozenset(run))
            if key in seen or len(run) < 2:
                continue
            seen.add(key)
            n = len(run)
            total += max(0, (n - 1) * (n - 2) // 2) + (loop_bonus if loop else 0)
    return True, total


def ref_legal_values_at(model: Model, tiles: dict, cell: Cell, kind: str, m: int) -> set[int]:
    lowest = 1 if kind == "multiplicative" else 0
    ok = set()
    for x in range(lowest, m):
        after = dict(tiles)
        after[cell] = x
        if all(model.line_ok(after, cell, k, kind, m) for k in range(len(model.steps))):
            ok.add(x)
    return ok


# -- the settings under test

VARIANTS: list[tuple[str, Callable[[], Settings]]] = [
    ("fibonacci hex", lambda: Settings(modulus=12, sequence="fibonacci", board=Board.hexagon(3))),
    ("fibonacci mod 7", lambda: Settings(modulus=7, sequence="fibonacci", board=Board.hexagon(3))),
    (
        "multiplicative mod 13",
        lambda: Settings(modulus=13, sequence="multiplicative", board=Board.hexagon(3)),
    ),
    (
        "multiplicative mod 10",
        lambda: Settings(modulus=10, sequence="multiplicative", composite=True, board=Board.hexagon(3)),
    ),
    ("wrap linear", lambda: Settings(modulus=12, board=RectBoard(6, 5, wrap=True))),
    ("wrap diagonals", lambda: Settings(modulus=9, board=RectBoard(5, 5, wrap=True, diagonals=True))),
    ("wrap fibonacci", lambda: Settings(modulus=8, sequence="fibonacci", board=RectBoard(6, 4, wrap=True))),
    ("rect plain", lambda: Settings(modulus=13, board=RectBoard(7, 5))),
    ("loop bonus", lambda: Settings(modulus=6, board=RectBoard(3, 4, wrap=True), loop_bonus=4)),
]
NAMES = st.sampled_from([name for name, _ in VARIANTS])


def _settings(name: str) -> Settings:
    return dict(VARIANTS)[name]()


def _model_values(game: Game) -> dict:
    return {c: t.value for c, t in game.position.items()}


@settings(derandomize=True, max_examples=30, deadline=None)
@given(NAMES, st.integers(0, 10**6))
def test_random_games_replay_with_their_claimed_scores(name, seed):
    text = random_game_text(_settings(name), seed, turns=12)
    replayed = RULES.replay_text(text)
    assert replayed.errors == () and replayed.is_legal
    claimed = [int(line.rsplit("{+", 1)[1].rstrip("}")) for line in text.splitlines() if "{+" in line]
    assert [t.score for t in replayed.turns if t.kind == "play"] == claimed
    assert sum(replayed.scores.values()) == sum(claimed)


@settings(derandomize=True, max_examples=30, deadline=None)
@given(NAMES, st.integers(0, 10**6))
def test_random_games_agree_with_the_reference_turn_by_turn(name, seed):
    game_settings = _settings(name)
    game, _ = random_game(game_settings, 10, seed)
    model = Model(game_settings.board)
    tiles: dict = {}
    for record in game.history:
        if record.kind != "play":
            continue
        turn = [(p.cell, p.tile.value) for p in record.placements]
        assert ref_verdict(
            model, tiles, turn, game_settings.sequence, game_settings.modulus, game_settings.loop_bonus
        ) == (
            True,
            record.score,
        ), (name, turn)
        tiles.update(turn)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(NAMES, st.integers(0, 10**6), st.integers(0, 8), st.integers(1, 3), st.randoms(use_true_random=False))
def test_random_turns_agree_with_the_reference(name, seed, turns, length, rnd):
    game_settings = _settings(name)
    m, kind = game_settings.modulus, game_settings.sequence
    game, _ = random_game(game_settings, turns, seed)
    model = Model(game_settings.board)
    tiles = _model_values(game)
    cells = sorted(game_settings.board.cells)
    near = sorted(
        {model.move(c, s, g) for c in tiles for s in model.steps for g in (1, -1)} - set(tiles) - {None}
    )
    start = rnd.choice(near or [model.centre])
    step = rnd.choice(model.steps)
    turn: list = []
    cell = start
    for _ in range(length):
        partial = dict(tiles) | dict(turn)
        good = sorted(ref_legal_values_at(model, partial, cell, kind, m)) if cell not in partial else []
        value = rnd.choice(good) if good and rnd.random() < 0.8 else rnd.randrange(m + 1)
        turn.append((cell, value))
        nxt = model.move(cell, step, rnd.choice([1, 1, 1, -1]))
        cell = nxt if nxt is not None else rnd.choice(cells)
    expected = ref_verdict(model, tiles, turn, kind, m, game_settings.loop_bonus)
    result = game.evaluate([Placement(c, Tile.natural(v)) for c, v in turn])
    assert (result.legal, result.score) == expected, (name, turn, result.error)


@settings(derandomize=True, max_examples=25, deadline=None)
@given(NAMES, st.integers(0, 10**6), st.integers(1, 14))
def test_legal_values_and_blocked_cells_match_brute_force(name, seed, turns):
    game_settings = _settings(name)
    game, _ = random_game(game_settings, turns, seed)
    model = Model(game_settings.board)
    tiles = _model_values(game)
    kind, m = game_settings.sequence, game_settings.modulus
    expected = {
        c: ref_legal_values_at(model, tiles, c, kind, m) for c in game_settings.board.cells - set(tiles)
    }
    assert {c: set(v) for c, v in game.legal_values().items()} == expected
    assert game.blocked_cells() == {c for c, v in expected.items() if not v}


@settings(derandomize=True, max_examples=15, deadline=None)
@given(st.sampled_from(["fibonacci hex", "multiplicative mod 13", "wrap linear"]), st.integers(0, 10**6))
def test_wild_values_match_brute_force(name, seed):
    base = _settings(name)
    game, _ = random_game(base, 6, seed)
    rng = random.Random(seed)
    cells = sorted(game.position)
    wild_cell = rng.choice(cells)
    tiles = {c: (Tile.wild() if c == wild_cell else t) for c, t in game.position.items()}
    wild_game = Game(replace(base, wild_policy="E"), Position(tiles))
    model = Model(base.board)
    fixed = {c: t.value for c, t in tiles.items() if not t.is_wild}
    lowest = base.law.lowest
    expected = set()
    for v in range(lowest, base.modulus):
        full = dict(fixed)
        full[wild_cell] = v
        if all(
            model.line_ok(full, c, k, base.sequence, base.modulus)
            for c in full
            for k in range(len(model.steps))
        ):
            expected.add(v)
    assert set(wild_game.wild_values()[wild_cell]) == expected
