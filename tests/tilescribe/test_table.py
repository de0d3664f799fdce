"""The table logic on observations: turns, illegal placements, out of sync, corrections, undo, auto."""

from __future__ import annotations

import pytest

from display.view import AlertLevel, CameraState
from engine.hexgrid import parse_address
from engine.settings import Settings
from tilescribe.observe import Observation, Settle
from tilescribe.settings import TableSettings
from tilescribe.table import Table, turn_text

A = parse_address


def _table(**kw: object) -> Table:
    return Table(TableSettings(game=Settings(modulus=7, players=("Ana", "Bo")), **kw))  # type: ignore[arg-type]


def _seen(i: int, cells: str, camera: CameraState = CameraState.LOCKED) -> Observation:
    """A settled reading at frame i (t = i / 10 s): ``cells`` like "4B2 6B1"."""
    faces = {A(item[-2:] if item[-2].isalpha() else item[-3:]): item[: -2 if item[-2].isalpha() else -3]
             for item in cells.split()}
    return Observation(i, i / 10, camera, faces)


def _quiet(i: int, camera: CameraState = CameraState.LOCKED) -> Observation:
    return Observation(i, i / 10, camera)


def test_turns_are_committed_on_the_signal_with_scores() -> None:
    table = _table()
    assert table.observe(_seen(1, "4B2 6B1 1A0 3M1")) is None  # no signal yet: provisional only
    view = table.view()
    assert view.provisional_points == 3 and set(view.provisional) == {A("B2"), A("B1"), A("A0"), A("M1")}
    record = table.request_end()
    assert record is not None and record.player == "Ana" and record.score == 3
    assert turn_text(record) == "4B2 ~ 6B1 ~ 1A0 ~ 3M1"
    table.observe(_seen(2, "4B2 6B1 1A0 3M1 5M2"))
    record = table.request_end()
    assert record is not None and record.player == "Bo" and record.score == 6
    assert table.game.scores == {"Ana": 3, "Bo": 6}
    assert table.view().last_turn == frozenset({A("M2")})


def test_illegal_placement_is_flagged_not_committed_then_fixed() -> None:
    table = _table()
    table.observe(_seen(1, "4B2 6B1 1A0 3M1"))
    table.request_end()
    table.observe(_seen(2, "4B2 6B1 1A0 3M1 6M2"))
    view = table.view()
    assert view.illegal == frozenset({A("M2")}) and view.alert_level is AlertLevel.ERROR
    assert "modular-linear" in view.alert
    assert table.request_end() is None and len(table.game.history) == 1
    assert "Not committed" in table.alert
    table.observe(_quiet(3, CameraState.HAND))
    table.observe(_seen(4, "4B2 6B1 1A0 3M1 5M2"))
    assert table.view().illegal == frozenset() and table.alert_level is not AlertLevel.ERROR
    assert table.request_end() is not None and table.game.scores["Bo"] == 6


def test_vanished_and_changed_tiles_put_the_board_out_of_sync() -> None:
    table = _table()
    table.observe(_seen(1, "4B2 6B1 1A0 3M1"))
    table.request_end()
    table.observe(_seen(2, "4B2 1A0 5M1 5M2"))
    view = table.view()
    assert view.restore == {A("B1"): "6", A("M1"): "3"} and "out of sync" in view.alert
    assert table.request_end() is None and len(table.game.history) == 1
    table.observe(_seen(3, "4B2 6B1 1A0 3M1"))
    assert table.view().restore == {} and table.alert_level is not AlertLevel.ERROR


def test_signal_waits_for_a_still_board_and_pauses_do_not_split_a_turn() -> None:
    table = _table()
    table.observe(_seen(1, "4B2 6B1"))  # first tiles, then a pause mid-turn: nothing commits
    table.observe(_quiet(30, CameraState.HAND))
    assert table.request_end() is None  # hand over the board: wait for the next settled reading
    assert len(table.game.history) == 0
    record = table.observe(_seen(40, "4B2 6B1 1A0 3M1"))
    assert record is not None and len(record.placements) == 4 and record.score == 3


def test_empty_turn_end_is_a_pass_and_undo_takes_it_back() -> None:
    table = _table()
    table.observe(_seen(1, "4B2 6B1 1A0 3M1"))
    table.request_end()
    record = table.request_end()  # nothing new on the board
    assert record is not None and record.kind == "pass" and table.game.current_player == "Ana"
    undone = table.undo()
    assert undone is not None and undone.kind == "pass" and table.game.current_player == "Bo"
    table.undo()
    assert table.game.history == () and set(table.view().provisional) == {A("B2"), A("B1"), A("A0"), A("M1")}
    assert table.undo() is None


def test_correction_replaces_a_misread_until_the_reading_changes() -> None:
    table = _table()
    table.observe(_seen(1, "4B2 6B1 1A0 5M1"))  # 5 is a misread of 3 (and is not legal here)
    assert table.turn is not None and not table.turn.legal
    table.correct(A("M1"), "3")
    assert table.turn is not None and table.turn.legal and table.turn.score == 3
    table.observe(_seen(2, "4B2 6B1 1A0 5M1"))  # re-read the same way: the correction still holds
    record = table.request_end()
    assert record is not None and {str(p) for p in record.placements} == {"4B2", "6B1", "1A0", "3M1"}
    table.observe(_seen(3, "4B2 6B1 1A0 5M1 5M2"))
    assert table.view().restore == {}  # the committed 3 is still read as 5: corrected, no false alarm
    with pytest.raises(ValueError, match="correction of B1"):
        table.correct(A("B1"), "x")


def test_auto_mode_ends_a_legal_turn_after_a_still_spell() -> None:
    table = _table(auto_end_seconds=4.0)
    table.observe(_seen(10, "4B2 6B1 1A0 3M1"))
    assert table.observe(_quiet(40)) is None  # 3 s still
    record = table.observe(_quiet(51))  # 4.1 s still and legal
    assert record is not None and record.score == 3 and "Undo" in table.alert
    table.observe(_seen(60, "4B2 6B1 1A0 3M1 6M2"))  # illegal: never ends by itself
    assert table.observe(_quiet(200)) is None and len(table.game.history) == 1


def test_pass_freeze_and_the_end_of_the_game() -> None:
    table = _table()
    table.freeze()
    assert table.view().players[0].is_frozen and table.game.current_player == "Bo"
    table.freeze()
    assert table.game_over and table.view().is_over


def test_settle_reads_once_per_quiet_spell() -> None:
    settle = Settle(0.5)
    times = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert [settle.update(t, True) for t in times] == [False, False, False, True, False, False]
    assert settle.update(1.1, False) is False
    assert [settle.update(t, True) for t in (1.2, 1.5, 1.7)] == [False, False, True]


def test_a_committed_misread_caught_by_a_re_read_is_amended() -> None:
    table = _table()
    table.observe(_seen(1, "2B1 6A0"))  # A0 holds a 5, read as 6: two tiles are always legal
    table.request_end()
    table.observe(_seen(2, "2B1 5A0"))  # the next turn's re-read sees the 5
    assert table.view().restore == {A("A0"): "6"} and "out of sync" in table.alert
    assert table.correct(A("A0"), "5") is True
    assert table.view().restore == {} and [str(p) for p in table.game.history[0].placements] == ["2B1", "5A0"]
    assert "amended" in table.alert
    table.observe(_seen(3, "2B1 5A0 1M1"))  # 2 ~ 5 ~ 1 is modular-linear (step 3)
    assert table.turn is not None and table.turn.legal and table.turn.score == 1


def test_unsure_readings_are_outlined_until_corrected() -> None:
    table = _table()
    faces = {A("B1"): "2", A("A0"): "6"}
    table.observe(Observation(1, 0.1, CameraState.LOCKED, faces, {A("B1"): 0.95, A("A0"): 0.3}))
    assert table.view().uncertain == frozenset({A("A0")})
    table.correct(A("A0"), "5")
    assert table.view().uncertain == frozenset()


def test_an_unreadable_new_tile_blocks_the_turn_until_corrected() -> None:
    table = _table()
    table.observe(_seen(1, "2B1 noneA0"))  # a tile on A0 but no face read
    view = table.view()
    assert A("A0") in view.uncertain and "Cannot read the tile on A0" in view.alert
    assert table.request_end() is None and table.game.history == ()
    table.correct(A("A0"), "5")
    record = table.request_end()
    assert record is not None and {str(p) for p in record.placements} == {"2B1", "5A0"}
    table.observe(_seen(2, "2B1 noneA0"))  # a committed tile read without a face: taken as unchanged
    assert table.view().restore == {}


def test_an_unsure_re_read_of_a_committed_tile_does_not_put_the_board_out_of_sync() -> None:
    table = _table()
    table.observe(_seen(1, "2B1 5A0"))
    table.request_end()
    faces = {A("B1"): "2", A("A0"): "6"}
    table.observe(Observation(2, 0.2, CameraState.LOCKED, faces, {A("B1"): 0.9, A("A0"): 0.4}))
    assert table.view().restore == {} and A("A0") in table.view().uncertain
    table.observe(Observation(3, 0.3, CameraState.LOCKED, faces, {A("B1"): 0.9, A("A0"): 0.9}))
    assert table.view().restore == {A("A0"): "5"}  # a sure re-read does


def test_a_lost_camera_is_said_and_its_return_too() -> None:
    table = _table()
    table.observe(_seen(1, "4B2 6B1"))
    table.camera_lost("frame 5 is missing")
    view = table.view()
    assert view.camera is CameraState.NO_CAMERA and "Camera lost: frame 5 is missing" in view.alert
    table.observe(_quiet(7))
    assert table.view().camera is CameraState.LOCKED and table.alert == "Camera back."
    assert table.request_end() is None  # waits for a settled reading after the camera came back
    assert table.observe(_seen(12, "4B2 6B1 1A0 3M1")) is not None  # the pending end commits


def test_a_wild_tile_shows_the_value_the_lines_give_it() -> None:
    settings = TableSettings(game=Settings(modulus=7, players=("Ana", "Bo"), wild_policy="A"))
    table = Table(settings)
    table.observe(_seen(1, "4B2 6B1 #A0"))  # §7-2 A: two adjacent naturals settle the wild tile
    record = table.request_end()
    assert record is not None and record.score == 0  # a wild tile is not counted (§7-1)
    assert table.view().tiles[A("A0")] == "#=1"
