"""Corrections by touch on the maps of Yushino, Super Wild and Holominoes: the table session with its
kiosk on the real pygame display (dummy driver), driven by posted finger events. A recording of a
game's true layouts has one tile of a turn misread in every frame (Super Wild's and Holominoes'
layouts in a frame turned and shifted against the transcript's, as a camera gives them); the test
taps that tile where the map draws it, picks its true face on the keypad, taps OK, and the turn is
recorded as played, the journal noting the correction. Likewise a tile the camera never sees: the
test taps its empty place and picks it. The keypad's screenshots are saved under out/screens/<size>/."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from display.keypad import MIN_KEY_PX, KeyCommand
from display.kiosk import Kiosk
from display.maps import GameMap
from display.maps.holominoes import HolominoesMap
from display.maps.superwild import SuperWildMap
from display.maps.yushino import YushinoMap
from display.replay import transcript_prefix
from display.theme import Theme
from display.view import CameraState
from engine.games import TableRules
from engine.holominoes.geometry import Cell, centre_xy
from engine.holominoes.table_turn import turned_by
from engine.holominoes.tiles import corner_placement, format_placement, parse_placement
from engine.placement import place_of
from engine.superwild.tiles import Move, Pos, Tile, format_move, parse_move
from engine.yushino.board import parse_square
from tests.tilescribe.conftest import table_rules, tap
from tilescribe.game_folder import plain_turns
from tilescribe.game_table import GameTable
from tilescribe.journal import Journal
from tilescribe.layout_recording import FPS, write_layout_recording
from tilescribe.observe import Observation, TruthObserver
from tilescribe.session import Session
from tilescribe.settings import TableSettings
from vision.capture.sources import Frame, RecordingSource

SCREENS = Path(__file__).resolve().parents[2] / "out" / "screens"
#: (game, seed of its random game of TURNS turns); the first tile laid from turn 3 on is misread.
GAMES = [("Yushino", 3), ("Super Wild", 5), ("Holominoes", 4)]
TURNS = 5
#: The kiosk's screens the tests play on.
SIZES = [(800, 480), (1920, 1080)]
#: Still frames added before the misread turn's end, so that the players have time to correct it.
HOLD_FRAMES = 12


def _misread(game: str, true: str) -> str:
    """The tile the camera reads instead of ``true``: one number off (Holominoes: the SW corner's)."""
    if game == "Holominoes":
        placed = parse_placement(true)
        e, sw, nw = placed.corners
        other = next(d for d in range(1, 7) if d not in placed.corners)
        return format_placement(corner_placement(placed.cell, (e, other, nw)))
    if game == "Super Wild":
        move = parse_move(true)
        number = move.tile.number + (1 if move.tile.number < 13 else -1)
        return format_move(Move(Tile(move.tile.colour, number), move.pos))
    return f"{(int(true[0]) + 1) % 10}{true[1:]}"


def _record_frame(game: str, token: str) -> str:
    """``token`` in the frame of the session's record: Super Wild's first turn, laid around the Super
    Wild alone, fixes it as the camera saw it (a quarter turn from the true transcript's, see
    :func:`_camera_frame`), up to the shift that keeps the Super Wild at 0,0; the other games' frame
    is the board's or the start tile's."""
    if game == "Super Wild":
        move = parse_move(token)
        return format_move(Move(move.tile, Pos(-move.pos.y, move.pos.x)))
    return token


def _camera_frame(game: str, token: str) -> str:
    """``token`` as the camera reads it: Super Wild's table a quarter turn and a shift away,
    Holominoes' a turn by a third and a shift away; Yushino's board fixes the frame."""
    if game == "Super Wild":
        move = parse_move(_record_frame(game, token))
        return format_move(Move(move.tile, Pos(move.pos.x + 4, move.pos.y - 2)))
    if game == "Holominoes":
        turned = turned_by(parse_placement(token), 1)
        return format_placement(corner_placement(Cell(turned.cell.q + 3, turned.cell.r - 1), turned.corners))
    return token


def _recording(
    tmp_path: Path, game: str, text: str, turn: int, missed: bool = False
) -> tuple[Path, str, str]:
    """The recording of ``text`` with the first tile ``turn`` lays misread in every frame (``missed``:
    not seen at all), its still spell held longer, every layout in the camera's frame; (folder,
    true tile, misread tile), the tiles in the frame of the session's record."""
    rules = table_rules(game)
    folder = write_layout_recording(rules, text, tmp_path / "rec")
    laid = rules.layout(transcript_prefix(text, turn)) - rules.layout(transcript_prefix(text, turn - 1))
    true = sorted(laid)[0]
    wrong = _misread(game, true)
    doc = json.loads((folder / "frames.json").read_text())
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    end = next(e["frame"] for e in events if e.get("turn") == turn)
    frames = doc["frames"]
    frames[end:end] = [dict(frames[end]) for _ in range(HOLD_FRAMES)]
    for i, frame in enumerate(frames):
        frame["t"] = round(i / FPS, 4)
        frame["layout"] = sorted(_camera_frame(game, wrong if t == true else t) for t in frame["layout"]
                                 if not (missed and t == true))
    for event in events:
        if event["frame"] >= end:
            event["frame"] += HOLD_FRAMES
        event["t"] = frames[event["frame"]]["t"]
    (folder / "frames.json").write_text(json.dumps(doc))
    (folder / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    return folder, _record_frame(game, true), _record_frame(game, wrong)


def _centre(game_map: GameMap, rect: pygame.Rect, shown: str) -> tuple[float, float]:
    """Where the map draws the tile ``shown`` (pixels)."""
    if isinstance(game_map, YushinoMap):
        return game_map.square_rect(rect, parse_square(place_of("Yushino", shown))).center
    if isinstance(game_map, SuperWildMap):
        return game_map.cell_rect(rect, parse_move(shown).target).center
    assert isinstance(game_map, HolominoesMap)
    return game_map.pixel(rect, centre_xy(parse_placement(shown).cell.key))


def _game(game: str, seed: int) -> tuple[TableRules, str, int]:
    """The rules, the seeded random game of TURNS turns and its first turn from 3 on that lays a tile."""
    rules = table_rules(game)
    text = rules.random_transcript(seed, players=2, turns=TURNS)
    turn = next(k for k in range(3, TURNS + 1) if rules.layout(transcript_prefix(text, k))
                - rules.layout(transcript_prefix(text, k - 1)))
    return rules, text, turn


def _played(tmp_path: Path, folder: Path, text: str, kiosk: Kiosk,
            touch: Callable[[Session, Frame], None]) -> str:
    """The journal's record of the table session that plays the recording ``folder`` of ``text``'s
    game on ``kiosk``, ``touch`` called after each frame."""
    settings = TableSettings.of_transcript(text)
    source = RecordingSource(folder)
    with kiosk, Journal.create(tmp_path / "games", settings) as journal:
        session = Session(source, TruthObserver(source.recording, settings.still_seconds),
                          GameTable(settings), journal, kiosk, on_frame=lambda frame: touch(session, frame))
        result = session.run()
    return result.transcript.read_text(encoding="utf-8")


def _presses(game: str, true: str) -> list[tuple[int, str]]:
    """The face keys (group, face) a player taps for ``true``, in order."""
    if game == "Holominoes":
        return [(0, str(d)) for d in parse_placement(true).corners]
    if game == "Super Wild":
        tile = parse_move(true).tile
        number = "6/9" if tile.number in (6, 9) else str(tile.number)
        return [(0, "W")] if tile.is_wild else [(0, number), (1, tile.colour)]
    face = true[: len(true) - len(place_of("Yushino", true))]
    return [(1, "#" + face[2:])] if face.startswith("#=") else [(0, face)]


#: Every face key each game's keypad shows.
FACES = {
    "Yushino": {str(d) for d in range(10)} | {"#"} | {f"#{d}" for d in range(10)},
    "Super Wild": {str(n) for n in (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13)} | {"6/9", "W", "K", "B", "O", "R"},
    "Holominoes": {str(d) for d in range(1, 7)},
}


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "1920x1080"])
@pytest.mark.parametrize(("game", "seed"), GAMES, ids=[g for g, _ in GAMES])
def test_a_misread_tile_corrected_by_touch_is_recorded_as_played(
        tmp_path: Path, game: str, seed: int, size: tuple[int, int]) -> None:
    rules, text, turn = _game(game, seed)
    folder, true, wrong = _recording(tmp_path, game, text, turn)
    shots = SCREENS / f"{size[0]}x{size[1]}"
    shots.mkdir(parents=True, exist_ok=True)
    shot = shots / f"touch-{game.lower().replace(' ', '')}-keypad.png"
    kiosk = Kiosk(size, sound=False)
    steps: list[str] = []

    def touch(session: Session, _frame: Frame) -> None:  # after each frame: tap the tile, its faces, then OK
        view = session.table.view()
        game_map = view.game_map
        if not steps and wrong in view.pending and kiosk.map_rect is not None and game_map is not None:
            assert view.pending_illegal or game == "Super Wild"
            tap(kiosk, _centre(game_map, kiosk.map_rect, wrong))
            steps.append("tile")
        elif len(steps) == 1 and kiosk.keys:
            faces = {(k.group, k.face): k.rect for k in kiosk.keys if k.command is KeyCommand.FACE}
            assert {face for _, face in faces} == FACES[game]
            if size == (800, 480):
                assert min(min(r.width, r.height) for r in faces.values()) >= MIN_KEY_PX
            for press in _presses(game, true):
                tap(kiosk, faces[press].center)
            steps.append("faces")
        elif len(steps) == 2:
            assert kiosk.tile is not None and kiosk.tile.true == true
            kiosk.save(shot)
            assert kiosk.map_rect is not None and game_map is not None
            picked = place_of(game, wrong)
            (ax, ay), (bx, by) = game_map.outline(kiosk.map_rect, picked)[:2]  # the tile picked, marked
            picture = pygame.image.load(str(shot))
            assert tuple(picture.get_at((round((ax + bx) / 2), round((ay + by) / 2))))[:3] == Theme().selected
            ok = next(k.rect for k in kiosk.keys if k.command is KeyCommand.CONFIRM)
            tap(kiosk, ok.center)
            steps.append("ok")
        elif len(steps) == 3:
            assert kiosk.tile is None
            steps.append(f"pending {', '.join(view.pending)}, legal {not view.pending_illegal}")

    record = _played(tmp_path, folder, text, kiosk, touch)
    assert steps[:3] == ["tile", "faces", "ok"]
    assert true in steps[3] and wrong not in steps[3] and steps[3].endswith("legal True")
    assert f"corrected: {wrong} is {true}" in record
    assert rules.layout(record) == {_record_frame(game, t) for t in rules.layout(text)}
    assert dict(rules.replay_text(record).scores) == dict(rules.replay_text(text).scores)
    if game != "Super Wild":  # Super Wild's drawn tiles are in the rack, not on the table
        assert plain_turns(record) == plain_turns(text)
    assert shot.is_file()


def test_a_correction_where_no_tile_is_read_says_so_and_changes_nothing() -> None:
    rules = table_rules("Yushino")
    text = rules.random_transcript(3, players=2, turns=3)
    table = GameTable(TableSettings.of_transcript(text), transcript_prefix(text, 2))
    seen = rules.layout(text)
    table.observe(Observation(0, 0.0, CameraState.LOCKED, layout=seen))
    pending = table.pending
    assert table.correct_shown("5A1", "6A1") is None
    assert table.alert.startswith("No tile is read on A1") and table.pending == pending
    assert table.correct_shown(pending[0], "") == pending[0]  # removed: the turn lays one tile fewer
    assert table.pending == pending[1:] and "corrected to no tile" in table.alert


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "1920x1080"])
@pytest.mark.parametrize(("game", "seed"), GAMES, ids=[g for g, _ in GAMES])
def test_a_tile_the_camera_never_sees_added_by_touch_is_recorded_as_played(
        tmp_path: Path, game: str, seed: int, size: tuple[int, int]) -> None:
    rules, text, turn = _game(game, seed)
    folder, true, _ = _recording(tmp_path, game, text, turn, missed=True)
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    held = next(e["frame"] for e in events if e.get("turn") == turn) - HOLD_FRAMES  # the turn laid, still
    shots = SCREENS / f"{size[0]}x{size[1]}"
    shots.mkdir(parents=True, exist_ok=True)
    shot = shots / f"add-{game.lower().replace(' ', '')}-keypad.png"
    kiosk = Kiosk(size, sound=False)
    steps: list[str] = []

    def touch(session: Session, frame: Frame) -> None:  # once the turn lies still: the place, faces, OK
        game_map = session.table.view().game_map
        if not steps and frame.index >= held and kiosk.map_rect is not None and game_map is not None:
            tap(kiosk, _centre(game_map, kiosk.map_rect, true))
            steps.append("place")
        elif len(steps) == 1 and kiosk.keys:
            commands = {k.command for k in kiosk.keys}
            assert KeyCommand.REMOVE not in commands and KeyCommand.CONFIRM in commands
            faces = {(k.group, k.face): k.rect for k in kiosk.keys if k.command is KeyCommand.FACE}
            for press in _presses(game, true):
                tap(kiosk, faces[press].center)
            steps.append("faces")
        elif len(steps) == 2:
            assert kiosk.tile is not None and kiosk.tile.true == true and not kiosk.tile.shown
            kiosk.save(shot)
            ok = next(k.rect for k in kiosk.keys if k.command is KeyCommand.CONFIRM)
            tap(kiosk, ok.center)
            steps.append("ok")
        elif len(steps) == 3:
            view = session.table.view()
            steps.append(f"pending {', '.join(view.pending)}, legal {not view.pending_illegal}")

    record = _played(tmp_path, folder, text, kiosk, touch)
    assert steps[:3] == ["place", "faces", "ok"]
    assert true in steps[3] and steps[3].endswith("legal True")
    assert f"added: {true} (not seen by the camera)" in record
    assert rules.layout(record) == {_record_frame(game, t) for t in rules.layout(text)}
    assert dict(rules.replay_text(record).scores) == dict(rules.replay_text(text).scores)
    assert shot.is_file()


def test_a_tile_added_where_one_is_read_is_refused_and_one_added_may_be_taken_back() -> None:
    rules = table_rules("Holominoes")
    text = rules.random_transcript(4, players=2, turns=4)
    table = GameTable(TableSettings.of_transcript(text), transcript_prefix(text, 3))
    laid = sorted(rules.layout(text) - rules.layout(transcript_prefix(text, 3)))
    seen = rules.layout(text) - {laid[0]}  # the camera misses the turn's first tile
    table.observe(Observation(0, 0.0, CameraState.LOCKED, layout=seen))
    assert laid[0] not in table.pending
    placed = sorted(rules.layout(transcript_prefix(text, 3)))[0]
    assert not table.add_shown(placed) and table.alert.startswith("A tile is read on")
    assert table.add_shown(laid[0]) and laid[0] in table.pending and not table.view().pending_illegal
    table.observe(Observation(1, 0.1, CameraState.LOCKED, layout=seen))  # still unseen: still there
    assert laid[0] in table.pending
    assert table.correct_shown(laid[0], "") == laid[0] and laid[0] not in table.pending
