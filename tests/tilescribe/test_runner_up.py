"""The reader's runner-ups as the rules' prior (tilescribe.game_table.GameTable): a new tile misread
so that its turn is illegal is taken as its likely other reading (or as no tile); a confident one
is not."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from display.replay import transcript_prefix
from display.view import AlertLevel, CameraState
from engine.games import TableRules, rules_for
from engine.holominoes.tiles import Placement, format_placement, parse_placement, tile_set
from engine.superwild.tiles import COLOURS, TOP, Move, Tile, format_move, parse_move
from engine.yushino.board import SIZE, Square, format_square, parse_square
from tilescribe.game_table import RUNNER_UP_FLOOR, GameTable
from tilescribe.observe import Observation
from tilescribe.settings import TableSettings

#: (game, seed of its random game) as the session tests play them.
GAMES = [("Super Wild", 5), ("Holominoes", 4)]


def _rules(game: str) -> TableRules:
    rules: TableRules = rules_for(game)  # type: ignore[assignment]
    return rules


def _others(game: str, token: str) -> Iterator[str]:
    """Every other tile on the same place as ``token`` (Super Wild: any number and colour;
    Holominoes: any tile of the set with its first number on the same corner)."""
    if game == "Super Wild":
        move = parse_move(token)
        for colour in COLOURS:
            for number in range(1, TOP + 1):
                if Tile(colour, number) != move.tile:
                    yield format_move(Move(Tile(colour, number), move.pos))
    else:
        placed = parse_placement(token)
        for tile in tile_set():
            if tile != placed.tile:
                yield format_placement(Placement(tile, placed.cell, placed.first))


def _misread_turn(game: str, seed: int) -> tuple[str, int, frozenset[str], str, str]:
    """(the transcript, a turn k that lays tiles, the layout after it with one laid tile misread, the
    true placement, the misread one) where the misread makes turn k illegal or out of sync."""
    rules = _rules(game)
    text = rules.random_transcript(seed, players=2, turns=8)
    for k in range(2, 9):
        before, after = rules.layout(transcript_prefix(text, k - 1)), rules.layout(transcript_prefix(text, k))
        for true in sorted(after - before):
            if true.startswith("W@"):
                continue
            for wrong in _others(game, true):
                if wrong in after:
                    continue
                table = GameTable(TableSettings.of_transcript(text), transcript_prefix(text, k - 1))
                seen = after - {true} | {wrong}
                table.observe(Observation(0, 0.0, CameraState.LOCKED, layout=seen))
                if table.alert_level is AlertLevel.ERROR:
                    return text, k, seen, true, wrong
    raise AssertionError(f"no misread makes a turn of {game} seed {seed} illegal")


@pytest.mark.parametrize(("game", "seed"), GAMES)
def test_a_misread_new_tile_is_taken_as_its_likely_runner_up(game: str, seed: int) -> None:
    text, k, seen, true, wrong = _misread_turn(game, seed)
    table = GameTable(TableSettings.of_transcript(text), transcript_prefix(text, k - 1))
    others = {wrong: ((true, 2 * RUNNER_UP_FLOOR),)}
    table.observe(Observation(0, 0.0, CameraState.LOCKED, layout=seen, alternatives=others))
    assert table.turn is not None and table.turn.legal
    assert table.alert_level is AlertLevel.INFO and f"read {wrong} as {true}".lower() in table.alert.lower()
    record = table.end_turn()
    assert record is not None
    assert _rules(game).layout(table.game.text) == _rules(game).layout(transcript_prefix(text, k))
    table.observe(Observation(1, 1.0, CameraState.LOCKED, layout=seen))  # read the same, no runner-ups
    assert table.turn is None and table.alert_level is not AlertLevel.ERROR  # the tile taken stands


@pytest.mark.parametrize(("game", "seed"), GAMES)
def test_a_confident_misread_stays_illegal(game: str, seed: int) -> None:
    """A tile the reader is sure of is not overridden: a placement the rules refuse stays flagged."""
    text, k, seen, true, wrong = _misread_turn(game, seed)
    table = GameTable(TableSettings.of_transcript(text), transcript_prefix(text, k - 1))
    others = {wrong: ((true, RUNNER_UP_FLOOR / 2),)}
    table.observe(Observation(0, 0.0, CameraState.LOCKED, layout=seen, alternatives=others))
    assert table.alert_level is AlertLevel.ERROR
    assert table.end_turn() is None and len(table.game.history) == k - 1


def test_the_likelier_of_two_legal_runner_ups_is_taken() -> None:
    game, seed = GAMES[0]
    text, k, seen, true, wrong = _misread_turn(game, seed)
    table = GameTable(TableSettings.of_transcript(text), transcript_prefix(text, k - 1))
    unplayable = next(t for t in _others(game, true) if t not in seen and t != wrong)
    others = {wrong: ((unplayable, 0.9), (true, 0.5))}  # the likelier one breaks the rules
    table.observe(Observation(0, 0.0, CameraState.LOCKED, layout=seen, alternatives=others))
    assert table.turn is not None and table.turn.legal and f"as {true}" in table.alert


def test_two_misread_tiles_are_taken_together() -> None:
    game, seed = GAMES[0]
    rules = _rules(game)
    text, k, seen, true, wrong = _misread_turn(game, seed)
    committed = sorted(t for t in rules.layout(transcript_prefix(text, k - 1)) if not t.startswith("W@"))
    other_true = committed[0]
    other_wrong = next(t for t in _others(game, other_true) if t not in seen)
    both = seen - {other_true} | {other_wrong}
    table = GameTable(TableSettings.of_transcript(text), transcript_prefix(text, k - 1))
    table.observe(Observation(0, 0.0, CameraState.LOCKED, layout=both, alternatives={
        wrong: ((true, 0.3),), other_wrong: ((other_true, 0.2),)}))
    assert table.turn is not None and table.turn.legal
    assert f"read {wrong} as {true}".lower() in table.alert.lower()
    assert f"read {other_wrong} as {other_true}" in table.alert


def _phantom_turn(seed: int) -> tuple[str, int, frozenset[str], str]:
    """(a Yushino transcript, a turn k that lays tiles, the layout after it with a tile read on a
    square beside the new ones where none lies, that phantom tile) where the phantom makes turn k
    illegal."""
    rules = _rules("Yushino")
    text = rules.random_transcript(seed, players=2, turns=8)
    for k in range(2, 9):
        after = rules.layout(transcript_prefix(text, k))
        new = sorted(after - rules.layout(transcript_prefix(text, k - 1)))
        taken = {parse_square(t.lstrip("#0123456789")) for t in after}
        for token in new:
            square = parse_square(token.lstrip("#0123456789"))
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                beside = Square(square.row + dr, square.col + dc)
                if not (0 <= beside.row < SIZE and 0 <= beside.col < SIZE) or beside in taken:
                    continue
                for digit in "0123456789":
                    phantom = digit + format_square(beside)
                    table = GameTable(TableSettings.of_transcript(text), transcript_prefix(text, k - 1))
                    table.observe(Observation(0, 0.0, CameraState.LOCKED, layout=after | {phantom}))
                    if table.alert_level is AlertLevel.ERROR:
                        return text, k, after | {phantom}, phantom
    raise AssertionError(f"no phantom tile makes a turn of Yushino seed {seed} illegal")


def test_a_tile_read_where_none_lies_is_left_out_when_the_reader_was_unsure_of_it() -> None:
    """A Yushino square read as a tile with "no tile" as a likely runner-up (a premium square's
    print under a shadow): the turn is taken without it, and the alert says so."""
    text, k, seen, phantom = _phantom_turn(seed=3)
    table = GameTable(TableSettings.of_transcript(text), transcript_prefix(text, k - 1))
    table.observe(Observation(0, 0.0, CameraState.LOCKED, layout=seen, alternatives={phantom: (("", 0.9),)}))
    assert table.turn is not None and table.turn.legal
    assert table.alert_level is AlertLevel.INFO
    assert f"read {phantom} as no tile".lower() in table.alert.lower()
    assert table.end_turn() is not None
    rules = _rules("Yushino")
    assert rules.layout(table.game.text) == rules.layout(transcript_prefix(text, k))
    table.observe(Observation(1, 1.0, CameraState.LOCKED, layout=seen - {phantom}))  # read right now
    assert table.turn is None and table.alert_level is not AlertLevel.ERROR
    # without the runner-up the phantom stays flagged and nothing is committed
    table = GameTable(TableSettings.of_transcript(text), transcript_prefix(text, k - 1))
    table.observe(Observation(0, 0.0, CameraState.LOCKED, layout=seen))
    assert table.alert_level is AlertLevel.ERROR and table.end_turn() is None
