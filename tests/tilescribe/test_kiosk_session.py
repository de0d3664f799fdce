"""The table session with its kiosk on the real pygame display (dummy driver), driven by posted
touch and key events: a correction by touch, the final standings held until a tap, the rematch."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from display.keypad import KeyCommand
from display.kiosk import Kiosk
from display.theme import Theme
from engine.hexgrid import parse_address
from engine.transcript import parse_transcript
from tests.tilescribe.conftest import tap
from tilescribe.cli import main
from tilescribe.demo import GamePlan
from tilescribe.game_folder import JournalError, game_folders, read_game
from tilescribe.journal import Journal
from tilescribe.observe import TruthObserver
from tilescribe.session import Session
from tilescribe.table import Table
from vision.capture.sources import RecordingSource

SCREENS = Path(__file__).resolve().parents[2] / "out" / "screens" / "800x480"


def _finished_games(games: Path) -> int:
    """The games under ``games`` whose Result is written (one being made is not yet a game)."""
    count = 0
    for folder in game_folders(games):
        try:
            count += read_game(folder).is_finished
        except JournalError:
            continue
    return count


def _session(folder: Path, plan: GamePlan, games: Path, kiosk: Kiosk, **kw: object) -> Session:
    settings = plan.settings
    source = RecordingSource(folder)
    observer = TruthObserver(source.recording, settings.still_seconds)
    return Session(source, observer, Table(settings), Journal.create(games, settings), kiosk, **kw)  # type: ignore[arg-type]


def _turns(path: Path) -> list[tuple[str | None, str, frozenset[str]]]:
    transcript, errors = parse_transcript(path.read_text())
    assert errors == []
    return [(t.player, t.kind, frozenset(str(p) for p in t.placements)) for t in transcript.turns]


def test_a_misread_corrected_by_touch_changes_the_position_and_the_record(
    tmp_path: Path,
    truth_recording: tuple[Path, GamePlan],
    misread: Callable[[Path, GamePlan, bool], tuple[str, str, str]],
) -> None:
    folder, plan = truth_recording
    copy = shutil.copytree(folder, tmp_path / "rec")
    address, true_face, wrong_face = misread(copy, plan, False)
    cell = parse_address(address)
    kiosk = Kiosk((800, 480), screenshots=tmp_path / "shots", sound=False)
    steps: list[str] = []

    def touch(_frame: object) -> None:  # after each frame: tap the cell, then the face and OK
        view = session.table.view()
        if not steps and view.provisional.get(cell) == wrong_face:
            assert kiosk.layout is not None
            tap(kiosk, kiosk.layout.hex_to_pixel(cell))
            steps.append("cell")
        elif len(steps) == 1 and kiosk.keys:
            kiosk.save(SCREENS / "session-keypad.png")
            keys = {k.face or k.command.value: k.rect for k in kiosk.keys}
            tap(kiosk, keys[true_face].center)
            tap(kiosk, keys[KeyCommand.CONFIRM.value].center)
            steps.append("face, ok")
        elif len(steps) == 2:
            steps.append(f"corrected: {view.provisional.get(cell)}")

    SCREENS.mkdir(parents=True, exist_ok=True)
    with kiosk:
        session = _session(copy, plan, tmp_path / "games", kiosk, on_frame=touch)
        result = session.run()
    assert steps == ["cell", "face, ok", f"corrected: {true_face}"]
    true_tile = plan.history[1].placements[0].tile
    assert session.table.game.position[cell].same_face(true_tile)
    turn_two = _turns(result.transcript)[1]
    assert f"{true_face}{address}" in turn_two[2] and f"{wrong_face}{address}" not in turn_two[2]
    assert _turns(result.transcript) == _turns_of(plan)


def _turns_of(plan: GamePlan) -> list[tuple[str | None, str, frozenset[str]]]:
    transcript, _ = parse_transcript(plan.transcript())
    return [(t.player, t.kind, frozenset(str(p) for p in t.placements)) for t in transcript.turns]


def test_the_standings_stay_until_a_tap_and_rematch_starts_a_new_game(
    tmp_path: Path, truth_recording: tuple[Path, GamePlan]
) -> None:
    folder, plan = truth_recording
    games = tmp_path / "games"
    kiosk = Kiosk((800, 480), screenshots=tmp_path / "shots", sound=False)
    seen: dict[str, object] = {}
    returned = threading.Event()

    def wait_for(what: Callable[[], bool], seconds: float = 60.0) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not returned.is_set():
            if what():
                return True
            time.sleep(0.02)
        return False

    def players() -> None:  # the people at the table, while the session runs
        try:
            if not wait_for(lambda: kiosk.standings is not None):
                return
            time.sleep(0.5)  # half a second later the standings are still there
            seen["held"] = not returned.is_set() and kiosk.standings is not None
            seen["shot"] = kiosk.saved[-1]
            buttons = kiosk.standings
            assert buttons is not None
            tap(kiosk, buttons.rematch.center)
            # the rematch: a second journal; the recording has ended, so that game ends at once
            if wait_for(lambda: _finished_games(games) == 2):
                time.sleep(0.3)
                seen["held again"] = not returned.is_set()
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, unicode="q", mod=0))
        finally:
            if not returned.is_set():  # never leave the session waiting
                pygame.event.post(pygame.event.Event(pygame.QUIT))

    with kiosk:
        session = _session(folder, plan, games, kiosk, rematch=lambda s: Journal.create(games, s))
        helper = threading.Thread(target=players)
        helper.start()
        try:
            result = session.run()
        finally:
            returned.set()
            helper.join()
    assert seen.get("held") is True, "the session closed with the game"
    standings = pygame.image.load(str(seen["shot"]))
    assert standings.get_at((797, 3))[:3] == kiosk.theme.game_over  # the game-over banner
    shutil.copy(seen["shot"], SCREENS / "session-standings.png")
    first, second = sorted(p.parent for p in games.glob("*/transcript.txt"))
    assert _turns(first / "transcript.txt") == _turns_of(plan)
    assert seen.get("held again") is True
    assert result.journal == second and result.turns == 0 and not result.new_game
    assert read_game(second).settings == plan.settings  # same players and settings
    assert session.table.game.players == plan.settings.game.players and session.table.game.history == ()


@pytest.mark.parametrize("key", ["n", "x"])
def test_new_game_or_any_other_key_ends_the_session(
    tmp_path: Path, truth_recording: tuple[Path, GamePlan], key: str
) -> None:
    folder, plan = truth_recording
    kiosk = Kiosk((800, 480), sound=False)

    def at_the_last_frame(frame: object) -> None:  # queued now, read once the standings are up
        if getattr(frame, "index", -1) == len(session.source) - 1:  # type: ignore[arg-type]
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=ord(key), unicode=key, mod=0))

    with kiosk:
        session = _session(
            folder,
            plan,
            tmp_path / "games",
            kiosk,
            on_frame=at_the_last_frame,
            rematch=lambda s: Journal.create(tmp_path / "games", s),
        )
        result = session.run()
    assert result.is_finished and result.new_game is (key == "n")
    assert len(game_folders(tmp_path / "games")) == 1


def test_run_on_a_screen_goes_from_the_standings_to_the_start_screen(
    tmp_path: Path, truth_recording: tuple[Path, GamePlan], capsys: pytest.CaptureFixture[str]
) -> None:
    """``tilescribe run`` with a display (the dummy one, not --headless): New game on the standings
    opens the start screen; leaving it ends the run."""
    folder, plan = truth_recording
    games, shots = tmp_path / "games", tmp_path / "shots"
    done = threading.Event()
    seen: dict[str, object] = {}

    def players() -> None:
        try:
            deadline = time.monotonic() + 60
            while (
                not _finished_games(games) and time.monotonic() < deadline and not done.is_set()
            ):
                time.sleep(0.02)
            time.sleep(0.3)
            before = len(list(shots.glob("*.png")))
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, unicode="n", mod=0))
            while (
                len(list(shots.glob("*.png"))) == before and time.monotonic() < deadline and not done.is_set()
            ):
                time.sleep(0.02)
            time.sleep(0.2)
            seen["start screen"] = max(shots.glob("*.png"))
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="", mod=0))
        finally:
            time.sleep(1.0)
            if not done.is_set():
                pygame.event.post(pygame.event.Event(pygame.QUIT))

    helper = threading.Thread(target=players)
    helper.start()
    try:
        args = [
            "run",
            "--source",
            str(folder),
            "--truth",
            "--no-sound",
            "--games",
            str(games),
            "--resume",
            "no",
        ]
        status = main([*args, "--speed", "50", "--screenshots", str(shots)])
    finally:
        done.set()
        helper.join()
    assert status == 0 and "scores final" in capsys.readouterr().out
    start = pygame.image.load(str(seen["start screen"]))
    theme = Theme()
    assert start.get_at((10, 10))[:3] == theme.panel  # the start screen, not the standings' banner
    assert start.get_at((800 - 60, 480 - 40))[:3] == theme.ok  # its Start button
    assert len(game_folders(games)) == 1  # leaving the start screen started no game
