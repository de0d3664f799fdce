"""A Holominoes pass names the pool tile it returns (games.md ``pass 456``): the camera cannot see
which, so the kiosk's Pass opens the game's keypad to pick it, on the real pygame display (dummy
driver), driven by posted finger events; the table commits ``pass 134``. A recording's "pass"
event carries the tile as its face. The keypad's screenshots are saved under out/screens/<size>/."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from display.keypad import KeyCommand
from display.kiosk import ActionKind, Kiosk, KioskAction
from display.replay import transcript_prefix
from display.theme import Theme
from tests.tilescribe.conftest import table_rules, tap
from tilescribe.game_table import GameTable
from tilescribe.journal import Journal
from tilescribe.layout_recording import write_layout_recording
from tilescribe.observe import TruthObserver
from tilescribe.session import Session
from tilescribe.settings import TableSettings
from vision.capture.sources import RecordingSource

SCREENS = Path(__file__).resolve().parents[2] / "out" / "screens"
#: A seeded random game and how many of its turns are played: then tile 134 fits nowhere (the
#: engine's legal placements), so its player may pass returning it; tile 123 is not in play yet.
SEED, TURNS, STUCK = 12, 2, "134"


def _before() -> str:
    """The transcript of the game's first TURNS turns."""
    text = table_rules("Holominoes").random_transcript(SEED, players=2, turns=TURNS + 1)
    return transcript_prefix(text, TURNS)


def _table() -> GameTable:
    text = _before()
    return GameTable(TableSettings.of_transcript(text), text)


def test_a_pass_without_its_tile_or_with_a_tile_that_fits_is_refused_with_the_rule() -> None:
    table = _table()
    assert table.pass_turn() is None and "names the pool tile" in table.alert
    on_table = sorted(table.rules.layout(table.game.text))[0].split("@")[0]
    assert table.pass_turn(on_table) is None and "on the table" in table.alert
    assert len(table.game.history) == TURNS


def test_a_pass_returning_a_tile_that_fits_nowhere_is_committed() -> None:
    table = _table()
    record = table.pass_turn(STUCK)
    assert record is not None and record.kind == "pass" and record.moves == f"pass {STUCK}"
    assert table.game.text.rstrip().endswith(f"3. Ana: pass {STUCK}")


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=["800x480", "1920x1080"])
def test_pass_on_the_kiosk_picks_the_returned_tile_and_passes(size: tuple[int, int]) -> None:
    table = _table()
    shots = SCREENS / f"{size[0]}x{size[1]}"
    shots.mkdir(parents=True, exist_ok=True)
    shot = shots / "pass-holominoes-keypad.png"
    with Kiosk(size, sound=False) as kiosk:
        kiosk.show(table.view())
        pass_button = next(rect for rect, kind in kiosk.buttons if kind is ActionKind.PASS)
        tap(kiosk, pass_button.center)
        assert kiosk.poll() == [] and kiosk.returning is not None  # the keypad, no pass yet
        kiosk.show(table.view())
        faces = {k.face: k.rect for k in kiosk.keys if k.command is KeyCommand.FACE}
        assert set(faces) == {"1", "2", "3", "4", "5", "6"}
        assert KeyCommand.REMOVE not in {k.command for k in kiosk.keys}  # a pass returns a tile
        ok = next(k.rect for k in kiosk.keys if k.command is KeyCommand.CONFIRM)
        for digit in "34":  # read clockwise from the 3: 3, 4, then 1
            tap(kiosk, faces[digit].center)
        tap(kiosk, ok.center)  # two numbers make no tile: OK sends nothing
        assert kiosk.poll() == [] and kiosk.returning is not None and kiosk.returning.tile is None
        tap(kiosk, faces["1"].center)
        assert kiosk.poll() == [] and kiosk.returning.tile == STUCK
        kiosk.show(table.view())
        kiosk.save(shot)
        picture = pygame.image.load(str(shot))
        lit = {d: tuple(picture.get_at((r.left + 4, r.centery)))[:3] == Theme().current
               for d, r in faces.items()}
        assert lit == {d: d in STUCK for d in faces}  # the numbers picked are lit, the others not
        tap(kiosk, ok.center)
        actions = kiosk.poll()
    assert actions == [KioskAction(ActionKind.PASS, face=STUCK)] and kiosk.returning is None
    record = table.pass_turn(actions[0].face or "")
    assert record is not None and record.moves == f"pass {STUCK}"


def test_the_other_games_pass_at_once_and_take_no_tile() -> None:
    for game in ("Yushino", "Super Wild"):
        text = table_rules(game).random_transcript(3, players=2, turns=1)
        table = GameTable(TableSettings.of_transcript(text), text)
        with Kiosk((800, 480), sound=False) as kiosk:
            kiosk.show(table.view())
            pass_button = next(rect for rect, kind in kiosk.buttons if kind is ActionKind.PASS)
            tap(kiosk, pass_button.center)
            assert kiosk.poll() == [KioskAction(ActionKind.PASS)] and kiosk.returning is None
        assert table.pass_turn("134") is None and "returns no tile" in table.alert


def test_a_recorded_pass_event_names_the_tile_and_the_session_records_it(tmp_path: Path) -> None:
    text = _before().rstrip("\n") + f"\n{TURNS + 1}. Ana: pass {STUCK}\n"
    recording = write_layout_recording(table_rules("Holominoes"), text, tmp_path / "rec")
    events = [line for line in (recording / "events.jsonl").read_text().splitlines() if '"pass"' in line]
    assert len(events) == 1 and f'"face": "{STUCK}"' in events[0]
    settings = TableSettings.of_transcript(text)
    source = RecordingSource(recording)
    with Journal.create(tmp_path / "games", settings) as journal:
        result = Session(source, TruthObserver(source.recording, settings.still_seconds), GameTable(settings),
                         journal).run()
    record = result.transcript.read_text(encoding="utf-8")
    assert f"{TURNS + 1}. Ana: pass {STUCK}" in record
    assert table_rules("Holominoes").replay_text(record).turns[-1].kind == "pass"
