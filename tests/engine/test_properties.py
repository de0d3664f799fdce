"""Property-based checks of the rules against a plain re-statement of them (hypothesis, seeded)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Game
from engine.hexgrid import LINE_DIRECTIONS, Board, Hex
from engine.position import Position
from engine.randomgame import random_game, random_turn
from engine.settings import Settings
from engine.state import BoardState
from engine.tiles import Placement, Tile

# -- a deliberately plain re-statement of the rules (natural tiles), written from the rules text
# with Hex arithmetic only: no grid indices, bit masks or solver.

STEPS = list(LINE_DIRECTIONS.values())
CENTRE = Hex(0, 0)


def ref_run_through(tiles: Mapping[Hex, int], cell: Hex, step: Hex) -> list[Hex]:
    """The unbroken line of tiles through ``cell`` along ``step`` (cell must hold a tile)."""
    start = cell
    while start - step in tiles:
        start = start - step
    out = []
    c = start
    while c in tiles:
        out.append(c)
        c = c + step
    return out


def ref_linear(values: list[int], m: int) -> bool:
    return len(values) < 3 or all(
        (values[i + 1] - values[i] - values[1] + values[0]) % m == 0 for i in range(len(values) - 1)
    )


def ref_all_lines_linear(tiles: Mapping[Hex, int], m: int) -> bool:
    return all(
        ref_linear([tiles[c] for c in ref_run_through(tiles, cell, step)], m)
        for cell in tiles
        for step in STEPS
    )


def ref_points(n: int) -> int:
    return max(0, (n - 1) * (n - 2) // 2)


def ref_verdict(
    board: Board, tiles: Mapping[Hex, int], turn: list[tuple[Hex, int]], m: int
) -> tuple[bool, int]:
    """(legal, score) of a natural-only turn, from §3-2 and §3-3 read literally."""
    cells = [c for c, _ in turn]
    if not turn or len(set(cells)) != len(cells):
        return False, 0
    if any(c not in board or c in tiles or not 0 <= v < m for c, v in turn):
        return False, 0
    after = dict(tiles)
    after.update(turn)
    if len(cells) > 1:
        lines = [step for step in STEPS if all(c in ref_run_through(after, cells[0], step) for c in cells)]
        if not lines:
            return False, 0  # not one straight unbroken run
    if not tiles:
        if CENTRE not in cells:
            return False, 0
    elif not any(c + d in tiles for c in cells for d in STEPS + [Hex(-s.q, -s.r) for s in STEPS]):
        return False, 0
    runs = {tuple(ref_run_through(after, c, step)) for c in cells for step in STEPS}
    if not all(ref_linear([after[c] for c in run], m) for run in runs):
        return False, 0
    return True, sum(ref_points(len(run)) for run in runs if len(run) >= 2)


def ref_legal_values_at(tiles: Mapping[Hex, int], m: int, cell: Hex) -> set[int]:
    """Values x on empty ``cell`` that leave every line through it modular-linear."""
    ok = set()
    for x in range(m):
        after = dict(tiles)
        after[cell] = x
        if all(ref_linear([after[c] for c in ref_run_through(after, cell, step)], m) for step in STEPS):
            ok.add(x)
    return ok


def ref_legal_values(board: Board, tiles: Mapping[Hex, int], m: int) -> dict[Hex, set[int]]:
    """:func:`legal_values_at` for every empty cell of the board."""
    return {cell: ref_legal_values_at(tiles, m, cell) for cell in board.cells - set(tiles)}


MODULI = st.sampled_from([5, 6, 7, 8, 11, 12, 13])


def _values(game: Game) -> dict:
    return {c: t.value for c, t in game.position.items()}


@settings(derandomize=True, max_examples=25, deadline=None)
@given(st.integers(0, 10**6), MODULI, st.integers(2, 5))
def test_random_legal_games_keep_every_line_legal_and_scores_recount(seed, modulus, order):
    board = Board.hexagon(order)
    game, results = random_game(Settings(modulus=modulus, board=board, players=("A", "B")), 14, seed)
    assert ref_all_lines_linear(_values(game), modulus)
    # replay the plays on the reference: each is legal there and scores the same
    tiles: dict = {}
    for record in game.history:
        if record.kind != "play":
            continue
        turn = [(p.cell, p.tile.value) for p in record.placements]
        assert ref_verdict(board, tiles, turn, modulus) == (True, record.score)
        tiles.update(turn)
    assert sum(game.scores.values()) == sum(r.score for r in results)


@settings(derandomize=True, max_examples=200, deadline=None)
@given(
    st.integers(0, 10**6), MODULI, st.integers(0, 12), st.integers(1, 3), st.randoms(use_true_random=False)
)
def test_random_turns_agree_with_the_reference(seed, modulus, turns, length, rnd):
    board = Board.hexagon(4)
    game, _ = random_game(Settings(modulus=modulus, board=board, players=("A", "B")), turns, seed)
    tiles = _values(game)
    near = sorted({n for c in tiles for n in c.neighbours() if n in board and n not in tiles})
    start = rnd.choice(near or sorted(board.cells))
    step = rnd.choice(list(LINE_DIRECTIONS.values()))
    turn: list = []
    for i in range(length):
        cell = start + step.scale(i * rnd.choice([1, 1, 1, 2]))
        partial = dict(tiles) | dict(turn)
        good = sorted(ref_legal_values_at(partial, modulus, cell)) if cell not in partial else []
        value = rnd.choice(good) if good and rnd.random() < 0.8 else rnd.randrange(modulus + 1)
        turn.append((cell, value))
    placements = [Placement(c, Tile.natural(v)) for c, v in turn]
    expected = ref_verdict(board, tiles, turn, modulus)
    result = game.evaluate(placements)
    assert (result.legal, result.score) == expected, (game.position, turn, result.error)


@settings(derandomize=True, max_examples=25, deadline=None)
@given(st.integers(0, 10**6), MODULI, st.integers(1, 20))
def test_legal_values_and_blocked_cells_match_brute_force(seed, modulus, turns):
    board = Board.hexagon(4)
    game, _ = random_game(Settings(modulus=modulus, board=board, players=("A", "B")), turns, seed)
    expected = ref_legal_values(board, _values(game), modulus)
    assert {c: set(v) for c, v in game.legal_values().items()} == expected
    assert game.blocked_cells() == {c for c, v in expected.items() if not v}


@settings(derandomize=True, max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([4, 5, 6, 7]), st.integers(1, 2))
def test_wild_values_and_legal_values_match_brute_force(seed, modulus, wilds):
    board = Board.hexagon(3)
    game, _ = random_game(Settings(modulus=modulus, board=board, players=("A", "B")), 6, seed)
    rng = random.Random(seed)
    cells = sorted(game.position)
    wild_cells = rng.sample(cells, min(wilds, len(cells)))
    tiles = {c: (Tile.wild() if c in wild_cells else t) for c, t in game.position.items()}
    wild_game = Game(Settings(modulus=modulus, board=board, wild_policy="E"), Position(tiles))
    fixed = {c: t.value for c, t in tiles.items() if not t.is_wild}
    solutions = []
    for combo in itertools.product(range(modulus), repeat=len(wild_cells)):
        full = dict(fixed)
        full.update(zip(wild_cells, combo, strict=True))
        if ref_all_lines_linear(full, modulus):
            solutions.append(full)
    assert solutions  # the natural game was legal, so its own values are a solution
    expected = {c: {s[c] for s in solutions} for c in wild_cells}
    assert {c: set(v) for c, v in wild_game.wild_values().items()} == expected
    legal = wild_game.legal_values()
    near = {n for c in tiles for n in c.neighbours() if n in board and n not in tiles}
    blocked = set()
    for cell in sorted(near):
        brute = set().union(*(ref_legal_values_at(s, modulus, cell) for s in solutions))
        assert set(legal[cell]) == brute, cell
        if not brute:
            blocked.add(cell)
    assert wild_game.blocked_cells() == blocked


@settings(derandomize=True, max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([6, 8, 12, 13]), st.sampled_from([None, "E"]))
def test_blocked_cells_kept_turn_by_turn_equal_a_fresh_computation(seed, modulus, policy):
    board = Board.hexagon(4)
    settings_ = Settings(modulus=modulus, board=board, wild_policy=policy, players=("A", "B"))
    game = Game(settings_)
    rng = random.Random(seed)
    for _ in range(16):
        turn = random_turn(game, rng)
        if not turn:
            game.pass_turn()
            continue
        if policy and rng.random() < 0.4:  # a wild tile can stand for the natural it replaces
            k = rng.randrange(len(turn))
            turn[k] = Placement(turn[k].cell, Tile.wild())
        game.play(turn)
        fresh = BoardState.build(settings_, game.position)
        assert game.blocked_cells() == fresh.blocked_cells()
        assert game.wild_values() == dict(fresh.domains)
