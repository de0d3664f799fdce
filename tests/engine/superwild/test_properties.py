"""Property checks of Super Wild against a plain re-statement of its rules (hypothesis, seeded).

The re-statement works on tile names only: it tries every value of the Super Wild and every
reading of each 6/9 tile, and every way to cut the line into groups sharing their end tiles, and
asks whether each piece is a set or a run. No dynamic programme, no cache, no engine types.
"""

from __future__ import annotations

import itertools
import re
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.superwild import RULES, Move, Pos, Table, format_transcript, parse_tile, random_round, split_line

COLOURS = "KBOR"


def ref_values(tile: str) -> list[tuple[str, int]]:
    if tile == "W":
        return [(c, n) for c in COLOURS for n in range(1, 14)]
    colour, number = tile[0], int(tile[1:])
    return [(colour, 6), (colour, 9)] if number in (6, 9) else [(colour, number)]


def ref_is_group(tiles: list[str], vals: list[tuple[str, int]]) -> bool:
    k = len(vals)
    if k < 3:
        return False
    sixnines = [t[0] for t in tiles if t != "W" and int(t[1:]) in (6, 9)]
    if len(sixnines) != len(set(sixnines)):
        return False
    colours = [c for c, _ in vals]
    numbers = [n for _, n in vals]
    is_set = k <= 4 and len(set(numbers)) == 1 and len(set(colours)) == k
    up = all((numbers[i + 1] - numbers[i]) % 13 == 1 for i in range(k - 1))
    down = all((numbers[i] - numbers[i + 1]) % 13 == 1 for i in range(k - 1))
    is_run = k <= 13 and len(set(colours)) == 1 and (up or down)
    return is_set or is_run


@cache
def ref_splits(n: int) -> list[list[tuple[int, int]]]:
    """Every chain of pieces (i, j), j - i >= 2, from 0 to n - 1, each starting where the last ended."""
    out = []

    def extend(start: int, chain: list[tuple[int, int]]) -> None:
        for end in range(start + 2, n):
            if end == n - 1:
                out.append([*chain, (start, end)])
            else:
                extend(end, [*chain, (start, end)])

    extend(0, [])
    return out


def ref_legal(tiles: list[str]) -> bool:
    for vals in itertools.product(*(ref_values(t) for t in tiles)):
        for chain in ref_splits(len(tiles)):
            if all(ref_is_group(tiles[i : j + 1], list(vals[i : j + 1])) for i, j in chain):
                return True
    return False


def ref_lines(table: list[dict]) -> list[list[str]]:
    """Maximal rows and columns of two or more tiles, as tile names."""
    cells = {(t["x"], t["y"]): t["tile"] for t in table}
    out = []
    for dx, dy in ((1, 0), (0, 1)):
        for x, y in cells:
            if (x - dx, y - dy) in cells:
                continue
            run = []
            while (x, y) in cells:
                run.append(cells[(x, y)])
                x, y = x + dx, y + dy
            if len(run) >= 2:
                out.append(run)
    return out


def engine_legal(tiles: list[str]) -> bool:
    return split_line(tuple(parse_tile(t) for t in tiles)) is not None


@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4))
def test_random_rounds_replay_legal_with_their_scores(seed: int, players: int) -> None:
    text = RULES.random_transcript(seed, players=players, turns=45)
    replay = RULES.replay_text(text)
    assert not replay.errors and replay.is_legal, [t.error for t in replay.turns if not t.legal]
    written = [re.search(r"\{\+(\d+)\}", line) for line in text.splitlines() if re.match(r"\d+\.", line)]
    assert [int(m.group(1)) if m else 0 for m in written] == [t.score for t in replay.turns]
    assert sum(replay.scores.values()) == sum(t.score for t in replay.turns)
    for turn in replay.turns[::10] + replay.turns[-1:]:
        table = turn.details["table"]
        lines = ref_lines(table)
        assert all(ref_legal(line) for line in lines)
        in_lines = {(t["x"], t["y"]) for t in table if any(_in_line(t, table, d) for d in ((1, 0), (0, 1)))}
        assert all(t["tile"] == "W" or (t["x"], t["y"]) in in_lines for t in table)
        assert len(table) == 1 + sum(t.score for t in replay.turns[: turn.number])


def _in_line(tile: dict, table: list[dict], step: tuple[int, int]) -> bool:
    cells = {(t["x"], t["y"]) for t in table}
    x, y = tile["x"], tile["y"]
    return (x + step[0], y + step[1]) in cells or (x - step[0], y - step[1]) in cells


@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6))
def test_random_rounds_with_diagonals_replay_legal(seed: int) -> None:
    config, lines, game = random_round(seed, players=2, turns=30, diagonals=True)
    text = format_transcript(config, lines)
    assert '[Diagonals "yes"]' in text
    replay = RULES.replay_text(text)
    assert replay.is_legal and replay.scores == game.scores


@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_line_verdicts_match_the_restatement(seed: int, data: st.DataObject) -> None:
    # lines of a random round, each also with one tile changed: legal and illegal lines alike
    replay = RULES.replay_text(RULES.random_transcript(seed, turns=30))
    lines = ref_lines(replay.turns[-1].details["table"])
    pool = [f"{c}{n}" for c in COLOURS for n in range(1, 14)]
    for line in lines:
        assert engine_legal(line) == ref_legal(line) is True
        k = data.draw(st.integers(0, len(line) - 1))
        if line[k] == "W":
            continue
        changed = [*line[:k], data.draw(st.sampled_from(pool)), *line[k + 1 :]]
        assert engine_legal(changed) == ref_legal(changed), changed


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    tiles=st.lists(
        st.sampled_from(["K4", "K5", "K6", "K9", "B5", "B6", "O5", "R5", "R7", "K7", "K8"]),
        min_size=2,
        max_size=7,
    ),
    wild=st.one_of(st.none(), st.integers(0, 7)),
)
def test_small_lines_match_the_restatement(tiles: list[str], wild: int | None) -> None:
    if wild is not None:
        tiles = [*tiles[:wild], "W", *tiles[wild:]]
    assert engine_legal(tiles) == ref_legal(tiles), tiles


@cache
def _short_round(seed: int) -> str:
    """A 12-turn random round (mangled many times over)."""
    return RULES.random_transcript(seed, turns=12)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.integers(0, 50), data=st.data())
def test_mangled_transcripts_are_reported_not_raised(seed: int, data: st.DataObject) -> None:
    # a random round with some characters of its turn lines replaced: every problem is a reported
    # syntax error or an illegal turn, never an exception
    head, _, body = _short_round(seed).partition("1. ")
    body = list("1. " + body)
    for _ in range(data.draw(st.integers(1, 6))):
        k = data.draw(st.integers(0, len(body) - 1))
        if body[k] != "\n":
            body[k] = data.draw(st.sampled_from(list("0123456789-,@>W KBOR9drawx{}")))
    replay = RULES.replay_text(head + "".join(body))
    assert all(t.legal == (t.error is None) for t in replay.turns)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), diagonals=st.booleans(), data=st.data())
def test_judging_near_the_moves_agrees_with_judging_the_whole_table(
    seed: int, diagonals: bool, data: st.DataObject
) -> None:
    # random moves of table tiles (the Wild included) to random free places near the table
    _, _, game = random_round(seed, players=2, turns=data.draw(st.integers(4, 40)), diagonals=diagonals)
    table = game.table
    positions = sorted(table.tiles, key=lambda p: (p.y, p.x))
    for _ in range(8):
        picked = data.draw(st.lists(st.sampled_from(positions), min_size=1, max_size=3, unique=True))
        moves = []
        taken = set(table.tiles) - set(picked)
        for pos in picked:
            dest = Pos(pos.x + data.draw(st.integers(-3, 3)), pos.y + data.draw(st.integers(-3, 3)))
            if dest in taken or dest == pos:
                continue
            taken.add(dest)
            moves.append(Move(table.tiles[pos], pos, dest))
        after = table.apply(moves)
        if not isinstance(after, Table):
            continue
        near = after.problem(near=table.around(moves))
        assert (near is None) == (after.problem() is None), [str(m) for m in moves]
