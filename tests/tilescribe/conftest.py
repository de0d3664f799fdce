"""Simulated game recordings shared by the session tests (made once per test run)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from calibration.board_print import SheetSpec, print_board
from display.kiosk import Kiosk
from engine.games import TableRules, rules_for
from engine.hexgrid import Board, format_address
from engine.settings import Settings
from tilescribe.demo import GamePlan, plan_game, write_recording
from tilescribe.settings import TableSettings
from vision.sim.recording import SimOptions
from vision.sim.timeline import Pacing
from vision.sim.transcripts import face_of


def small_plan() -> GamePlan:
    """Seven turns, two players, modulus 13 on an order-4 board, turn 3's last tile first wrong."""
    settings = TableSettings(
        game=Settings(modulus=13, board=Board.hexagon(4), players=("Ana", "Bo"), tiles_per_value=None),
        still_seconds=0.5,
    )
    return plan_game(settings, turns=7, seed=11, wrong_turn=3)


REPO = Path(__file__).resolve().parents[2]
#: The environment of a headless ``tilescribe run`` in a subprocess.
HEADLESS = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def tap(kiosk: Kiosk, xy: tuple[float, float]) -> None:
    """A finger down at ``xy`` (screen pixels), as the touch screen sends it."""
    pygame.event.post(
        pygame.event.Event(
            pygame.FINGERDOWN,
            x=xy[0] / kiosk.size[0],
            y=xy[1] / kiosk.size[1],
            touch_id=1,
            finger_id=0,
            dx=0.0,
            dy=0.0,
            pressure=1.0,
        )
    )


def table_rules(game: str) -> TableRules:
    """The rules of a game read as a layout (Yushino, Super Wild, Holominoes)."""
    rules: TableRules = rules_for(game)  # type: ignore[assignment]
    return rules


def turn_lines(text: str) -> list[str]:
    """A record's committed turn lines, as written (with their clock comments)."""
    return [line for line in text.splitlines() if line[:1].isdigit()]


@pytest.fixture
def killed_mid_game() -> Callable[[list[str], Path], list[str]]:
    """Run a ``tilescribe run`` command line in a subprocess and SIGKILL it once three turns are
    committed under the games folder given; the committed turn lines last seen before the kill."""

    def run(cmd: list[str], games: Path) -> list[str]:
        proc = subprocess.Popen(cmd, cwd=REPO, env=HEADLESS, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        committed: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            found = list(games.glob("*/transcript.txt"))
            if found and len(committed := turn_lines(found[0].read_text())) >= 3:
                break
            time.sleep(0.005)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL, "the session ended before it could be killed mid-game"
        return committed

    return run


@pytest.fixture(scope="session")
def board_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """board.json of a printed order-4 board."""
    out = tmp_path_factory.mktemp("board")
    print_board(SheetSpec(order=4), out)
    return out / "board.json"


@pytest.fixture(scope="session")
def truth_recording(tmp_path_factory: pytest.TempPathFactory, board_json: Path) -> tuple[Path, GamePlan]:
    """A small (320x240) recording of :func:`small_plan` with hands and pauses mid-turn."""
    plan = small_plan()
    options = SimOptions(seed=5, size=(320, 240), fps=10.0, hands=True, pacing=Pacing(pause_chance=0.6))
    folder = write_recording(plan, board_json, tmp_path_factory.mktemp("rec") / "recording", options)
    return folder, plan


@pytest.fixture(scope="session")
def camera_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GamePlan]:
    """A 1280x960 recording of five turns with real Rummikub tile crops, hands, pauses mid-turn and
    the last tile of turn 3 first put down wrong (then fixed), for the vision stack."""
    out = tmp_path_factory.mktemp("camera-game")
    print_board(SheetSpec(order=4), out / "board")
    settings = TableSettings(
        game=Settings(modulus=13, board=Board.hexagon(4), players=("Ana", "Bo"), tiles_per_value=None),
        tileset="rummikub",
    )
    plan = plan_game(settings, turns=5, seed=2, wrong_turn=3)
    options = SimOptions(seed=2, size=(1280, 960), pacing=Pacing(lead_in=3.0, pause_chance=0.5),
                         shapes=("photo",))
    return write_recording(plan, out / "board" / "board.json", out / "recording", options), plan


def _misread(folder: Path, plan: GamePlan, with_correction: bool) -> tuple[str, str, str]:
    """Make the recording's reading of turn 2's first tile wrong from its landing on; optionally
    script a kiosk correction at turn 2's end-of-turn signal. Returns the cell's address, its true
    face and the face misread there."""
    doc = json.loads((folder / "frames.json").read_text())
    placement = plan.history[1].placements[0]
    address = format_address(placement.cell)
    m = plan.settings.game.modulus
    true_face = face_of(placement.tile, m, plan.settings.tileset)
    wrong_face = str(((placement.tile.value or 0) + 5) % m)
    for frame in doc["frames"]:
        if frame["cells"].get(address) == true_face:
            frame["cells"][address] = wrong_face
    (folder / "frames.json").write_text(json.dumps(doc))
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    end = next(e for e in events if e["turn"] == 2)
    if with_correction:
        correction = {"t": end["t"], "frame": end["frame"], "type": "correct", "cell": address,
                      "face": true_face}
        events.insert(events.index(end), correction)
    (folder / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    return address, true_face, wrong_face


@pytest.fixture
def misread() -> Callable[[Path, GamePlan, bool], tuple[str, str, str]]:
    """Spoils a copy of a recording with a misread (see :func:`_misread`)."""
    return _misread
