"""Property checks of Yushino against a plain re-statement of games.md's rules (hypothesis, seeded).

The re-statement works on (column, row) pairs and plain dicts, read from the rules text: no Square,
no search, no cached readings.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.yushino import (
    RULES,
    Game,
    GameSettings,
    Turn,
    classic_layout,
    evaluate_play,
    format_transcript,
    legal_placements,
    legal_plays,
    parse_transcript,
    parse_turn,
    random_game,
)
from engine.yushino.board import SIZE, Square
from engine.yushino.tiles import Placement, Tile

PREMIUMS = {(s.col, s.row): kind for s, kind in classic_layout().premiums.items()}
CENTRE = (7, 7)


def ref_valid(values: list[int]) -> bool:
    if len(values) == 2:
        return abs(values[0] - values[1]) in (1, 9)
    return all(values[i] == (values[i - 1] + values[i - 2]) % 10 for i in range(2, len(values)))


def ref_line(board: dict, cell: tuple[int, int], step: tuple[int, int]) -> list[tuple[int, int]]:
    c, r = cell
    while (c - step[0], r - step[1]) in board:
        c, r = c - step[0], r - step[1]
    line = []
    while (c, r) in board:
        line.append((c, r))
        c, r = c + step[0], r + step[1]
    return line


def ref_verdict(board: dict, play: list[tuple[tuple[int, int], int, bool]]) -> tuple[bool, int]:
    """(legal, score) of a play; board: cell -> (value, blank); play: (cell, value, blank)."""
    cells = [c for c, _, _ in play]
    if len(set(cells)) != len(cells) or any(
        c in board or not (0 <= c[0] < SIZE and 0 <= c[1] < SIZE) for c in cells
    ):
        return False, 0
    after = dict(board)
    after.update({c: (v, b) for c, v, b in play})
    if len({c for c, _ in cells}) > 1 and len({r for _, r in cells}) > 1:
        return False, 0
    step = (1, 0) if len({r for _, r in cells}) == 1 else (0, 1)
    if not all(c in ref_line(after, cells[0], step) for c in cells):
        return False, 0
    if not board and (len(cells) < 2 or CENTRE not in cells):
        return False, 0
    if board and not any(
        (c + dc, r + dr) in board for c, r in cells for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
    ):
        return False, 0
    lines = {tuple(ref_line(after, c, s)) for c in cells for s in ((1, 0), (0, 1))}
    lines = {line for line in lines if len(line) >= 2}
    total = 0
    for line in lines:
        if not ref_valid([after[c][0] for c in line]):
            return False, 0
        points, factor = 0, 1
        for c in line:
            v = 0 if after[c][1] else after[c][0]
            kind = PREMIUMS.get(c) if c in cells else None
            points += v * {"2*": 2, "3*": 3}.get(kind, 1)
            factor *= {"2X": 2, "3X": 3}.get(kind, 1)
        total += points * factor
    return True, total + (100 if len(cells) == 7 else 0)


def as_ref(position) -> dict:
    return {(s.col, s.row): (t.value, t.blank) for s, t in position.tiles.items()}


@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), turns=st.none() | st.integers(1, 24), players=st.integers(2, 4))
def test_random_games_replay_legal_with_their_written_scores(
    seed: int, turns: int | None, players: int
) -> None:
    text = RULES.random_transcript(seed, players, turns)
    result = RULES.replay_text(text)
    assert result.is_legal and not result.errors
    transcript, _ = parse_transcript(text)
    written = [int(t.comment[1:]) if t.comment else 0 for t in transcript.turns]
    assert [t.score for t in result.turns] == written
    if turns is None:  # played to the end: the racks are written and the transfer applied
        assert result.final["over"] and result.final["racks"] is not None
        assert sum(result.scores.values()) == sum(result.final["before"].values()) + sum(
            result.final["adjustments"].values()
        )


def test_random_games_are_seeded() -> None:
    assert RULES.random_transcript(5, 3, 8) == RULES.random_transcript(5, 3, 8)
    assert RULES.random_transcript(5, 3, 8) != RULES.random_transcript(6, 3, 8)


@settings(max_examples=10, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 20))
def test_engine_verdicts_match_the_plain_rules(seed: int, turns: int) -> None:
    game, _ = random_game(seed, 2, turns)
    position = game.position
    board = as_ref(position)
    rng = random.Random(seed)
    near = sorted({(c + dc, r + dr) for c, r in board for dc in (-1, 0, 1) for dr in (-1, 0, 1)} or {CENTRE})
    for _ in range(60):
        c, r = rng.choice(near)
        horizontal = rng.random() < 0.5
        count = rng.randint(1, 3)
        cells = [(c + i, r) if horizontal else (c, r + i) for i in range(count)]
        play = [(cell, rng.randrange(10), rng.random() < 0.1) for cell in cells]
        if any(not (0 <= x < SIZE and 0 <= y < SIZE) for (x, y), _, _ in play):
            continue
        placements = [Placement(Square(x, y), Tile(v, b)) for (x, y), v, b in play]
        result = evaluate_play(position, placements)
        assert (result.legal, result.score) == ref_verdict(board, play), placements
    found = legal_plays(position, game.unseen(), 7, game.settings.layout, game.settings.direction)
    for play_result in rng.sample(found, min(40, len(found))):  # legal plays of every shape
        play = [((p.square.col, p.square.row), p.value, p.tile.blank) for p in play_result.placements]
        assert ref_verdict(board, play) == (True, play_result.score), play_result.placements
    replay = Game(GameSettings(game.players))
    for played in game.history:
        if played.turn.placements:
            play = [((p.square.col, p.square.row), p.value, p.tile.blank) for p in played.turn.placements]
            assert ref_verdict(as_ref(replay.position), play) == (True, played.score)
        replay.play(played.turn)


@settings(max_examples=10, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), turns=st.integers(1, 20))
def test_legal_placements_are_exactly_the_legal_one_tile_plays(seed: int, turns: int) -> None:
    game, _ = random_game(seed, 2, turns)
    legal = legal_placements(game.position)
    for square in set(legal.values) | legal.blocked:
        ok = {v for v in range(10) if evaluate_play(game.position, [Placement(square, Tile(v))]).legal}
        assert ok == set(legal.values.get(square, ())), square
        assert (square in legal.blocked) == (not ok)


@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 16))
def test_hints_are_legal_best_first_and_use_the_rack(seed: int, turns: int) -> None:
    game, transcript = random_game(seed, 2, turns)
    if game.is_over:
        return
    text = format_transcript(transcript)
    rng = random.Random(seed)
    rack = rng.sample(sorted(game.unseen().elements()), 7)
    hints = RULES.hint(text, " ".join(rack), 5)
    scores = [h.score for h in hints]
    assert scores == sorted(scores, reverse=True)
    every = legal_plays(game.position, Counter(rack), 7, game.settings.layout, game.settings.direction)
    assert bool(hints) == bool(every)
    for hint in hints:
        verdict = Game(GameSettings(game.players))
        for played in game.history:
            verdict.play(played.turn)
        result = verdict.evaluate(parse_turn(hint.moves))
        assert result.legal and result.score == hint.score
        used = Counter("#" if p.tile.blank else str(p.value) for p in result.turn.placements)
        assert not used - Counter(rack)
    if every:
        assert hints[0].score == every[0].score


def test_hint_without_a_rack_draws_on_every_unseen_tile() -> None:
    text = '[Game "Yushino"]\n[Players "Ana, Bo"]\n'
    hints = RULES.hint(text, None, 3)
    # the best opening: seven tiles through H8; every hint lays one tile on H8
    assert all(re.search(r"H8\b", h.moves) for h in hints)
    assert hints[0].score >= 100 and len(hints) == 3


OPENED = '[Game "Yushino"]\n[Players "Ana, Bo"]\n1. Ana: 8G8, 7H8, 5I8\n'


def test_hint_hand_worked() -> None:
    hints = RULES.hint(OPENED, "2 1 1 0 0 0 0", 3)
    # column J 0 1 1 2 (J6 is 3*: 0 + 3 + 1 + 2 = 6) and row 8 8 7 5 2 (22): 28
    assert [(h.moves, h.score) for h in hints] == [
        ("0J5, 1J6, 1J7, 2J8", 28),
        ("1J6, 1J7, 2J8", 28),
        ("1J7, 2J8", 25),
    ]
    assert hints[0].to_json()["sequences"][0]["premiums"] == ["J6 3*"]


def test_no_legal_play_gives_no_hint() -> None:
    assert RULES.hint(OPENED, "5", 3) == []  # next to 8 7 5 a lone tile must be 2, 4, 6, 7, 8 or 9


def test_bad_hint_requests_are_named() -> None:
    with pytest.raises(ValueError, match="not a rack tile: 'x'"):
        RULES.hint(OPENED, "1 x", 3)
    with pytest.raises(ValueError, match="at most 7"):
        RULES.hint(OPENED, "1 1 1 1 1 1 1 1", 3)
    with pytest.raises(ValueError, match="no more '#' tiles"):
        RULES.hint(OPENED.replace("8G8", "#=8G8").replace("7H8", "#=7H8"), "#", 3)
    assert RULES.hint(OPENED + "2. Bo: pass\n3. Ana: pass\n4. Bo: pass\n", None, 3) == []  # game over


@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), turns=st.integers(20, 40))
def test_game_legal_placements_also_count_the_set(seed: int, turns: int) -> None:
    game, _ = random_game(seed, 2, turns)
    if game.is_over:
        return
    legal = game.legal_placements()
    board_only = legal_placements(game.position)
    assert set(legal.values) | legal.blocked == set(board_only.values) | board_only.blocked
    for square in set(legal.values) | legal.blocked:
        ok = {
            v
            for v in range(10)
            if any(
                game.evaluate(Turn.play([Placement(square, Tile(v, blank))])).legal for blank in (False, True)
            )
        }
        assert ok == set(legal.values.get(square, ())), square
