"""Simulated camera recordings of games where players take tiles back, knock tiles off and bump the
board, read from the images through ``tilescribe run``: every turn right, in auto mode and with
turns ended by key."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from calibration.board_print import SheetSpec, print_board
from engine.game import Game
from engine.hexgrid import Board, format_address
from engine.settings import Settings
from engine.tiles import Placement, Tile
from tilescribe.cli import main
from tilescribe.demo import GamePlan, plan_game, write_recording
from tilescribe.game_folder import plain_turns
from tilescribe.settings import TableSettings
from vision.sim.recording import SimOptions
from vision.sim.timeline import Detour, Pacing, SimPlacement
from vision.sim.transcripts import face_of

TILESET = "rummikub"


def _sim(placements: tuple[Placement, ...] | list[Placement], modulus: int) -> tuple[SimPlacement, ...]:
    return tuple(SimPlacement(format_address(p.cell), face_of(p.tile, modulus, TILESET)) for p in placements)


def _another_turn(plan: GamePlan, number: int) -> list[Placement]:
    """A legal one-tile turn at turn ``number`` that is not part of the real turn."""
    game = Game(plan.settings.game)
    for record in plan.history[: number - 1]:
        game.play(record.placements) if record.kind == "play" else game.pass_turn()
    real = set(plan.history[number - 1].placements)
    for cell, values in sorted(game.legal_values().items()):
        for value in sorted(values):
            placement = Placement(cell, Tile.natural(value))
            if placement not in real and game.evaluate([placement]).legal:
                return [placement]
    raise AssertionError(f"no other legal turn at turn {number}")


def _plan(signal: bool) -> GamePlan:
    """Six turns; before turn 3 its player lays another legal tile, leaves it, lifts it again; after
    turn 4 a tile of turn 2 is knocked off and put back; after turn 5 that whole turn is."""
    settings = TableSettings(
        game=Settings(modulus=13, board=Board.hexagon(4), players=("Ana", "Bo"), tiles_per_value=None),
        tileset=TILESET,
    )
    plan = plan_game(settings, turns=6, seed=4)
    assert all(r.kind == "play" for r in plan.history[1:5])
    m = settings.game.modulus
    detours = (
        Detour(3, "take_back", _sim(_another_turn(plan, 3), m), wait=4.0, signal=signal),
        Detour(4, "knock", _sim(plan.history[1].placements[:1], m), wait=2.5),
        Detour(5, "knock", _sim(plan.history[4].placements, m), wait=2.5),
    )
    return replace(plan, detours=detours)


@pytest.fixture(scope="module")
def board_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("board")
    print_board(SheetSpec(order=4), out)
    return out / "board.json"


def _options() -> SimOptions:
    return SimOptions(seed=3, size=(1280, 960), pacing=Pacing(lead_in=3.0, after=3.0), shapes=("photo",),
                      bumps=1)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["key", "auto"])
def test_take_back_knock_and_bump_keep_every_turn(tmp_path: Path, board_json: Path, mode: str) -> None:
    plan = _plan(signal=mode == "key")
    folder = write_recording(plan, board_json, tmp_path / "recording", _options())
    extra: list[str] = []
    if mode == "auto":
        (folder / "events.jsonl").write_text("", encoding="utf-8")  # no key is pressed
        extra = ["--auto", "1.0"]
    games = tmp_path / "games"
    code = main(["run", "--source", str(folder), "--headless", "--no-sound", "--games", str(games),
                 "--resume", "no", *extra])
    assert code == 0
    transcript = next(games.glob("*/transcript.txt")).read_text(encoding="utf-8")
    assert plain_turns(transcript) == plain_turns(plan.transcript())
    assert "] taken back (tiles lifted): " in transcript  # the turn taken back stays in the record
