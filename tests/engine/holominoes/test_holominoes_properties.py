"""Random Holominoes games (seeded) replayed against a plain re-statement of the rules written with
pixel coordinates only: corners are points on the picture, two corners coincide when they lie
at the same place, a hole is a bite point touched by three tiles, and its numbers are the numbered
points one tile radius away from it."""

from __future__ import annotations

import math
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.holominoes import RULES, format_placement, format_tile, random_game, replay, transcript_of

NUMBERED_ANGLES = {"E": 0, "SW": 120, "NW": 240}  # y down: clockwise is increasing angle
BITE_ANGLES = (60, 180, 300)
ALL_TILES = [
    f"{a}{b}{c}" for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) if a < b and a < c and b != c
]


def centre(q: int, r: int) -> tuple[float, float]:
    return 1.5 * q, math.sqrt(3) * (r + q / 2)


def spot(x: float, y: float) -> tuple[int, int]:
    return round(x * 1000), round(y * 1000)


def corner(q: int, r: int, angle: float) -> tuple[int, int]:
    x, y = centre(q, r)
    return spot(x + math.cos(math.radians(angle)), y + math.sin(math.radians(angle)))


def numbers_on_corners(tile: str, q: int, r: int, first: str) -> dict[tuple[int, int], int]:
    """The tile's numbers at their points: clockwise from the first one's corner."""
    start = NUMBERED_ANGLES[first]
    return {corner(q, r, start + 120 * i): int(ch) for i, ch in enumerate(tile)}


class Table:
    """The re-statement: numbers at points, and which tiles touch each bite point."""

    def __init__(self) -> None:
        self.cells: set[tuple[int, int]] = set()
        self.numbers: dict[tuple[int, int], int] = {}

    def fits(self, tile: str, q: int, r: int, first: str) -> bool:
        if (q, r) in self.cells:
            return False
        cx, cy = centre(q, r)
        if self.cells and not any(
            math.isclose(math.dist((cx, cy), centre(*c)), math.sqrt(3)) for c in self.cells
        ):
            return False
        mine = numbers_on_corners(tile, q, r, first)
        return all(self.numbers.get(p, n) == n for p, n in mine.items())

    def touching(self, point: tuple[int, int]) -> int:
        return sum(
            1
            for c in self.cells
            if math.isclose(math.dist(centre(*c), (point[0] / 1000, point[1] / 1000)), 1, abs_tol=0.01)
        )

    def place(self, tile: str, q: int, r: int, first: str, scoring: str) -> tuple[int, list[int]]:
        self.cells.add((q, r))
        self.numbers.update(numbers_on_corners(tile, q, r, first))
        sums = []
        for angle in BITE_ANGLES:
            bite = corner(q, r, angle)
            if self.touching(bite) == 3:
                around = [
                    n
                    for p, n in self.numbers.items()
                    if math.isclose(math.dist(p, bite) / 1000, 1, abs_tol=0.01)
                ]
                assert len(around) == 3
                sums.append(sum(around))
        if not sums:
            return 0, sums
        if scoring == "sum":
            return sum(sums) * len(sums), sums
        return math.prod(sums), sums

    def empty_near(self) -> set[tuple[int, int]]:
        """Empty cells whose centre is one cell width (sqrt 3) from a tile's."""
        out = set()
        for q, r in self.cells:
            for q2 in range(q - 1, q + 2):
                for r2 in range(r - 1, r + 2):
                    if math.isclose(math.dist(centre(q, r), centre(q2, r2)), math.sqrt(3)):
                        out.add((q2, r2))
        return out - self.cells

    def blocked(self, remaining: list[str]) -> set[str]:
        return {
            f"{q},{r}"
            for q, r in self.empty_near()
            if not any(self.fits(t, q, r, f) for t in remaining for f in NUMBERED_ANGLES)
        }


PLACEMENT = re.compile(r"(\d{3})@(-?\d+),(-?\d+)/(E|SW|NW)")


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4), sum_scoring=st.booleans())
def test_random_games_replay_legal_with_the_plain_scores(seed: int, players: int, sum_scoring: bool) -> None:
    text = RULES.random_transcript(seed, players)
    scoring = "sum" if sum_scoring else "product"
    if sum_scoring:
        text = text.replace('[Digits "6"]', '[Digits "6"]\n[Scoring "sum"]')
    rep = RULES.replay_text(text)
    assert rep.is_legal and not rep.errors
    assert rep.final["over"]
    start = re.search(r'\[Start "([^"]+)"\]', text)
    assert start is not None
    table = Table()
    tile, q, r, first = PLACEMENT.fullmatch(start.group(1)).groups()  # type: ignore[union-attr]
    table.place(tile, int(q), int(r), first, scoring)
    on_table = {tile}
    totals = dict.fromkeys(rep.scores, 0)
    comments = re.findall(r"^\d+\. \w+: (\S+(?: \d{3})?)(?: \{\+(\d+)\})?$", text, re.M)
    assert len(comments) == len(rep.turns)
    for turn, (move, written) in zip(rep.turns, comments, strict=True):
        m = PLACEMENT.fullmatch(move)
        if m is None:
            assert turn.kind == "pass" and turn.score == 0
            returned = move.split()[1]
            assert returned not in on_table
            assert not any(
                table.fits(returned, q2, r2, f) for q2, r2 in table.empty_near() for f in NUMBERED_ANGLES
            )
        else:
            tile, q, r, first = m.groups()
            assert tile not in on_table and table.fits(tile, int(q), int(r), first)
            score, sums = table.place(tile, int(q), int(r), first, scoring)
            on_table.add(tile)
            if not sum_scoring:
                assert int(written) == score
            assert turn.score == score
            assert sorted(h["points"] for h in turn.details["holes"]) == sorted(sums)
        totals[turn.player] += turn.score
        assert set(turn.details["blocked"]) == table.blocked([t for t in ALL_TILES if t not in on_table])
    assert totals == rep.scores


@settings(max_examples=20, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 5), turns=st.integers(0, 45))
def test_transcripts_round_trip_and_tiles_are_conserved(seed: int, players: int, turns: int) -> None:
    game, pools = random_game(seed, players, turns)
    text = transcript_of(game, (("Seed", str(seed)),))
    assert text == RULES.random_transcript(seed, players, turns)
    again, rep = replay(text)
    assert transcript_of(again, (("Seed", str(seed)),)) == text
    assert rep.scores == game.scores and again.position == game.position
    assert [len(p) for p in pools] == list(game.pools.values())
    assert len(game.position) + sum(game.pools.values()) + game.sack == 40
    for pool in pools:
        assert not set(pool) & game.position.tiles
    # every legal placement the engine lists is legal to the re-statement, and none is missed
    table = Table()
    for p in game.position.placements:
        table.cells.add((p.cell.q, p.cell.r))
        table.numbers.update(numbers_on_corners(format_tile(p.tile), p.cell.q, p.cell.r, p.first))
    listed = {format_placement(p) for p in game.legal_placements()}
    on_table = {format_tile(p.tile) for p in game.position.placements}
    plain = {
        f"{t}@{q},{r}/{f}"
        for t in ALL_TILES
        if t not in on_table
        for q, r in table.empty_near()
        for f in NUMBERED_ANGLES
        if table.fits(t, q, r, f)
    }
    assert listed == plain
