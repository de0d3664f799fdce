"""Whole Yushino, Super Wild and Holominoes games through the table session, read from recordings of
their true layouts (tilescribe.layout_recording, TruthObserver): the session logic, not the vision."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from display.kiosk import ActionKind, KioskAction
from display.replay import transcript_prefix
from display.view import CameraState
from engine.games import TableRules
from engine.placement import place_of
from tests.tilescribe.conftest import HEADLESS, REPO, table_rules, turn_lines
from tilescribe.game_folder import game_folders, plain_turns, read_game
from tilescribe.game_table import GameTable
from tilescribe.journal import Journal
from tilescribe.layout_recording import write_layout_recording
from tilescribe.observe import Observation, TruthObserver
from tilescribe.session import Session
from tilescribe.settings import TableSettings
from vision.capture.sources import Frame, RecordingSource

#: (game, seed of its random game): Super Wild's seed rearranges the table (turn 10).
GAMES = [("Yushino", 3), ("Super Wild", 5), ("Holominoes", 4)]
TURNS = 12
WRONG_TURN = 4


def _truth(game: str, seed: int, turns: int = TURNS) -> str:
    return table_rules(game).random_transcript(seed, players=2, turns=turns)


def _play(tmp_path: Path, recording: Path, text: str) -> tuple[Path, list[str]]:
    """Play ``recording`` through a session; the transcript written and every alert shown."""
    settings = TableSettings.of_transcript(text)
    source = RecordingSource(recording)
    table = GameTable(settings)
    alerts: list[str] = []

    def seen(_frame: Frame) -> None:
        if not alerts or alerts[-1] != table.alert:
            alerts.append(table.alert)

    with Journal.create(tmp_path / "games", settings) as journal:
        result = Session(source, TruthObserver(source.recording, settings.still_seconds), table, journal,
                         on_frame=seen).run()
    assert result.is_finished
    return result.transcript, alerts


@pytest.mark.parametrize(("game", "seed"), GAMES)
def test_a_whole_game_is_recorded_as_played_and_the_illegal_turn_is_not(
        tmp_path: Path, game: str, seed: int) -> None:
    rules = table_rules(game)
    text = _truth(game, seed)
    recording = write_layout_recording(rules, text, tmp_path / "rec", wrong_turn=WRONG_TURN)
    written, alerts = _play(tmp_path, recording, text)
    record = written.read_text(encoding="utf-8")
    true, got = rules.replay_text(text), rules.replay_text(record)
    assert got.is_legal and not got.errors
    assert dict(got.scores) == dict(true.scores)
    assert rules.layout(record) == rules.layout(text)
    assert len(got.turns) == len(true.turns)
    if game != "Super Wild":  # Super Wild's drawn tiles are in the rack, not on the table
        assert plain_turns(record) == plain_turns(text)
    refused = [a for a in alerts if a.startswith("Not committed:")]
    assert refused and all("(" in a and a.endswith(")") for a in refused)  # the rule named, in words
    assert read_game(written.parent).is_finished


def test_super_wild_rearrangement_is_a_move(tmp_path: Path) -> None:
    rules = table_rules("Super Wild")
    text = _truth("Super Wild", 5)
    recording = write_layout_recording(rules, text, tmp_path / "rec")
    written, _ = _play(tmp_path, recording, text)
    moved = [line for line in plain_turns(written.read_text(encoding="utf-8")) if ">" in line]
    assert moved == [line.split(" {")[0] + " {+1}" for line in plain_turns(text) if ">" in line]


@pytest.mark.parametrize(("game", "seed"), GAMES)
def test_undo_takes_the_turn_back_and_it_is_committed_again(tmp_path: Path, game: str, seed: int) -> None:
    rules = table_rules(game)
    text = _truth(game, seed, turns=4)
    recording = write_layout_recording(rules, text, tmp_path / "rec")
    events = [json.loads(line) for line in (recording / "events.jsonl").read_text().splitlines()]
    third = next(e for e in events if e["turn"] == 3)
    end = third["frame"]  # the table stays still: turn 3 is ended, undone, and ended again
    third["frame"] = end - 2
    events[events.index(third) + 1:events.index(third) + 1] = [
        {"t": 0, "frame": end - 1, "type": "undo"}, {"t": 0, "frame": end, "type": "end_turn", "turn": 3}]
    (recording / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    written, alerts = _play(tmp_path, recording, text)
    record = written.read_text(encoding="utf-8")
    assert any(a.startswith("Undone: turn 3") for a in alerts)
    assert "undone: 3. " in record
    assert dict(rules.replay_text(record).scores) == dict(rules.replay_text(text).scores)


def test_a_layout_no_turn_leads_to_is_out_of_sync_and_not_committed(tmp_path: Path) -> None:
    rules = table_rules("Super Wild")  # tiles move on its table, so one gone is out of sync
    text = _truth("Super Wild", 5, turns=3)
    table = GameTable(TableSettings.of_transcript(text), transcript_prefix(text, 2))

    placed = sorted(rules.layout(transcript_prefix(text, 2)))
    taken = next(t for t in placed if not t.startswith("W@"))
    gone = set(placed) - {taken}  # a tile taken away
    assert table.observe(Observation(0, 0.0, CameraState.LOCKED, layout=frozenset(gone))) is None
    assert table.request_end() is None
    assert table.alert.startswith("Table out of sync:") and "is no longer on the table" in table.alert
    assert len(table.game.history) == 2


@pytest.mark.parametrize(("game", "seed"), GAMES)
def test_sigkill_mid_game_then_resume(tmp_path: Path, game: str, seed: int,
                                      killed_mid_game: Callable[[list[str], Path], list[str]]) -> None:
    rules = table_rules(game)
    text = _truth(game, seed)
    recording = write_layout_recording(rules, text, tmp_path / "rec")
    games = tmp_path / "games"
    cmd = [sys.executable, "-m", "tilescribe.cli", "run", "--source", str(recording), "--truth", "--headless",
           "--no-sound", "--games", str(games), "--resume", "yes"]
    committed = killed_mid_game([*cmd, "--speed", "2"], games)  # paced: still running after 3 turns
    folder, = game_folders(games)
    assert not read_game(folder).is_finished
    before = turn_lines((folder / "transcript.txt").read_text())
    assert len(before) >= 3 and before[: len(committed)] == committed
    resumed = subprocess.run(cmd, cwd=REPO, env=HEADLESS, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"after turn {len(before)}" in resumed.stdout
    assert game_folders(games) == [folder]
    record = (folder / "transcript.txt").read_text()
    assert turn_lines(record)[: len(before)] == before
    assert dict(rules.replay_text(record).scores) == dict(rules.replay_text(text).scores)
    assert read_game(folder).is_finished


def test_an_end_turn_with_nothing_new_is_the_games_own_pass() -> None:
    for game, seed in GAMES:
        text = _truth(game, seed, turns=1)
        table = GameTable(TableSettings.of_transcript(text), text)
        record = table.pass_turn()
        if game == "Holominoes":  # a pass names the pool tile it returns, picked on the kiosk's keypad
            assert record is None and "pass names the pool tile" in table.alert
        else:
            assert record is not None and record.moves == {"Yushino": "pass", "Super Wild": "draw"}[game]


def test_a_pass_is_refused_while_the_table_is_out_of_sync_or_holds_a_turn() -> None:
    rules = table_rules("Super Wild")
    text = _truth("Super Wild", 5, turns=3)
    table = GameTable(TableSettings.of_transcript(text), transcript_prefix(text, 2))
    placed = rules.layout(transcript_prefix(text, 2))
    gone = placed - {next(t for t in sorted(placed) if not t.startswith("W@"))}  # a tile taken away
    table.observe(Observation(0, 0.0, CameraState.LOCKED, layout=gone))
    assert table.pass_turn() is None and table.alert.startswith("Table out of sync:")
    table.observe(Observation(1, 0.1, CameraState.LOCKED, layout=rules.layout(text)))  # the third turn laid
    assert table.pass_turn() is None and "take it back to draw" in table.alert
    assert len(table.game.history) == 2
    table.observe(Observation(2, 0.2, CameraState.LOCKED, layout=placed))  # taken back: the draw is taken
    record = table.pass_turn()
    assert record is not None and record.moves == "draw" and len(table.game.history) == 3


def test_freeze_is_refused_in_words() -> None:
    text = _truth("Yushino", 3, turns=1)
    table = GameTable(TableSettings.of_transcript(text), text)
    table.freeze()
    assert not table.game_over and len(table.game.history) == 1 and "no freeze" in table.alert


def test_auto_mode_ends_a_legal_turn_after_the_table_stays_still() -> None:
    rules = table_rules("Yushino")
    text = _truth("Yushino", 3, turns=2)
    auto = {**TableSettings.of_transcript(text).to_dict(), "auto_end_seconds": 2.0}
    settings = TableSettings.from_dict(auto)
    table = GameTable(settings, transcript_prefix(text, 1))
    seen = rules.layout(text)
    assert table.observe(Observation(0, 10.0, CameraState.LOCKED, layout=seen)) is None
    assert table.turn is not None and table.turn.legal and table.view().provisional_points == table.turn.score
    table.camera_lost("no frames")
    assert table.view().alert.startswith("Camera lost")
    assert table.observe(Observation(1, 11.0, CameraState.LOCKED)) is None  # the camera is back
    assert table.alert == "Camera back."
    record = table.observe(Observation(2, 12.5, CameraState.LOCKED, layout=seen))
    assert record is None  # read again at 12.5: still 2 s to wait
    record = table.observe(Observation(3, 14.6, CameraState.LOCKED))
    assert record is not None and record.number == 2 and "ended automatically" in table.alert
    assert plain_turns(table.game.text) == plain_turns(text)


def _misread(recording: Path, rules: TableRules, text: str, turn: int,
            missed: bool = False) -> tuple[str, str]:
    """Misread one tile that ``turn`` lays (one digit of its tile changed, the first that gives
    another tile of the game, as a reader's misreads do; ``missed``: not seen at all) in every
    frame that shows it; (the true placement, the misread one or "")."""
    before = rules.layout(transcript_prefix(text, turn - 1))
    laid = sorted(rules.layout(transcript_prefix(text, turn)) - before)
    true = laid[0]
    tile = true.split("@")[0] if "@" in true else true[:-2]  # Yushino's 7H8: the tile before the square
    misreads = (true[:at] + str((int(true[at]) + k) % 10) + true[at + 1:]
                for at, ch in enumerate(tile) if ch.isdigit() for k in range(1, 10))
    wrong = "" if missed else next(w for w in misreads if _is_placement(rules, w))
    doc = json.loads((recording / "frames.json").read_text())
    for frame in doc["frames"]:
        frame["layout"] = sorted(wrong if t == true else t for t in frame["layout"] if wrong or t != true)
    (recording / "frames.json").write_text(json.dumps(doc))
    return true, wrong


@pytest.mark.parametrize(("game", "seed"), GAMES)
def test_a_misread_tile_corrected_is_recorded_right(tmp_path: Path, game: str, seed: int) -> None:
    rules = table_rules(game)
    text = _truth(game, seed, turns=5)
    turn = next(k for k in range(3, 6) if rules.layout(transcript_prefix(text, k))
                != rules.layout(transcript_prefix(text, k - 1)))  # a turn that lays a tile
    uncorrected = write_layout_recording(rules, text, tmp_path / "misread")
    _misread(uncorrected, rules, text, turn)
    written, _ = _play(tmp_path / "a", uncorrected, text)
    assert plain_turns(written.read_text()) != plain_turns(text)  # the misread changes the record
    recording = write_layout_recording(rules, text, tmp_path / "corrected")
    true, wrong = _misread(recording, rules, text, turn)
    _scripted(recording, turn, {"type": "correct_tile", "cell": wrong, "face": true})
    written, alerts = _play(tmp_path / "b", recording, text)
    record = written.read_text()
    assert plain_turns(record) == plain_turns(text) or game == "Super Wild"
    assert rules.layout(record) == rules.layout(text)
    assert dict(rules.replay_text(record).scores) == dict(rules.replay_text(text).scores)
    assert f"corrected: {wrong} is {true}" in record


def _is_placement(rules: TableRules, word: str) -> bool:
    try:
        place_of(rules.name, word)
    except ValueError:
        return False
    return True


def _scripted(recording: Path, turn: int, event: dict[str, str]) -> None:
    """Insert ``event`` into the recording's events just before the end of ``turn``."""
    events = [json.loads(line) for line in (recording / "events.jsonl").read_text().splitlines()]
    end = next(e for e in events if e["turn"] == turn)
    events.insert(events.index(end), {"t": end["t"], "frame": end["frame"], **event})
    (recording / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))


@pytest.mark.parametrize(("game", "seed"), GAMES)
def test_a_tile_the_camera_never_sees_added_by_a_recording_event_is_recorded_right(
        tmp_path: Path, game: str, seed: int) -> None:
    rules = table_rules(game)
    text = _truth(game, seed, turns=5)
    turn = next(k for k in range(3, 6) if rules.layout(transcript_prefix(text, k))
                != rules.layout(transcript_prefix(text, k - 1)))  # a turn that lays a tile
    unseen = write_layout_recording(rules, text, tmp_path / "unseen")
    true, _ = _misread(unseen, rules, text, turn, missed=True)
    written, _ = _play(tmp_path / "a", unseen, text)
    assert true not in rules.layout(written.read_text())  # the tile never seen is not recorded
    recording = write_layout_recording(rules, text, tmp_path / "added")
    _misread(recording, rules, text, turn, missed=True)
    _scripted(recording, turn, {"type": "add_tile", "face": true})
    written, _ = _play(tmp_path / "b", recording, text)
    record = written.read_text()
    assert rules.layout(record) == rules.layout(text)
    assert dict(rules.replay_text(record).scores) == dict(rules.replay_text(text).scores)
    assert f"added: {true} (not seen by the camera)" in record


@pytest.mark.parametrize("missed", [True, False], ids=["added", "corrected"])
def test_a_tile_put_right_by_hand_stays_right_when_the_game_resumes(tmp_path: Path, missed: bool) -> None:
    # on Super Wild's open table a committed tile gone or changed puts the table out of sync: the
    # resumed game must take the players' addition or correction again, or the turns after it stall
    game = "Super Wild"
    rules = table_rules(game)
    text = _truth(game, 8, turns=6)  # lays tiles in turns 3, 4 and 5
    turn = 3
    added = write_layout_recording(rules, text, tmp_path / "added")
    true, wrong = _misread(added, rules, text, turn, missed=missed)
    _scripted(added, turn, {"type": "add_tile", "face": true} if missed
              else {"type": "correct_tile", "cell": wrong, "face": true})
    settings = TableSettings.of_transcript(text)
    source = RecordingSource(added)

    def quit_after_the_turn(_frame: Frame) -> None:
        if len(session.table.game.history) >= turn:
            session.act(KioskAction(ActionKind.QUIT))

    with Journal.create(tmp_path / "games", settings) as journal:
        observer = TruthObserver(source.recording, settings.still_seconds)
        session = Session(source, observer, GameTable(settings), journal, on_frame=quit_after_the_turn)
        first = session.run()
    assert not first.is_finished and first.turns == turn and true in rules.layout(journal.text())
    # the camera goes on (the recording without the event, from its start) and still misreads the tile
    unseen = write_layout_recording(rules, text, tmp_path / "unseen")
    _misread(unseen, rules, text, turn, missed=missed)
    source = RecordingSource(unseen)
    with Journal.open(first.journal) as journal:
        resumed = Session(source, TruthObserver(source.recording, settings.still_seconds),
                          GameTable(settings, journal.text()), journal).run()
    record = resumed.transcript.read_text()
    assert resumed.is_finished and rules.layout(record) == rules.layout(text)
    assert dict(rules.replay_text(record).scores) == dict(rules.replay_text(text).scores)
