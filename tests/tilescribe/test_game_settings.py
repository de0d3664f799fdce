"""Settings of the games read as a layout: the game, its players and its own tags, from the settings
file and the command line; bad values named in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.games import rules_for
from tilescribe.cli import main
from tilescribe.demo import recording_settings
from tilescribe.layout_recording import write_layout_recording
from tilescribe.settings import SettingsError, TableSettings, load_settings


def test_the_settings_file_names_the_game_and_its_own_tags(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('game = "holominoes"\nplayers = ["Ana", "Bo", "Cy"]\n[tags]\nPool = 4\nScoring = "sum"\n')
    settings = load_settings(path, {"players": ["Xu", "Yo"]})
    assert settings.table_game == "Holominoes"
    assert settings.header_tags == (("Game", "Holominoes"), ("Players", "Xu, Yo"), ("Pool", "4"),
                                    ("Scoring", "sum"))
    assert TableSettings.from_dict(settings.to_dict()) == settings  # as the journal stores it


@pytest.mark.parametrize(("text", "message"), [
    ('game = "superwild"\n[tags]\nLayout = "classic"\n', "Super Wild has no tag 'Layout'"),
    ('game = "yushino"\n[tags]\nDirection = "sideways"\n', "Direction"),
    ('game = "holominoes"\ntags = 3\n', "tags must be a table"),
])
def test_a_bad_game_tag_is_named(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(text)
    with pytest.raises(SettingsError, match=message) as caught:
        load_settings(path, {})
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_modlinseq_settings_are_unchanged_by_the_other_games() -> None:
    settings = TableSettings()
    assert settings.table_game is None and settings.header_tags == ()
    assert "tags" not in settings.to_dict() and settings.to_dict()["game"] == "MODLINSEQ"


def test_run_refuses_an_unknown_game_and_a_square_board_camera_without_its_board(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["run", "--game", "chess", "--headless"])
    assert stopped.value.code == 2 and "unknown game 'chess'" in capsys.readouterr().err
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    status = main(["run", "--game", "yushino", "--source", "0", "--headless", "--games", str(tmp_path),
                   "--resume", "no"])
    err = capsys.readouterr().err
    assert status == 2 and "--board board.json is needed to find the square board" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_recording_with_only_its_true_transcript_names_its_game(tmp_path: Path) -> None:
    rules = rules_for("Holominoes")
    text = rules.random_transcript(2, players=3, turns=2)
    folder = write_layout_recording(rules, text, tmp_path / "rec")  # type: ignore[arg-type]
    doc = json.loads((folder / "frames.json").read_text())
    stored = recording_settings(folder)
    del doc["settings"]  # as a simulator that writes the transcript alone
    (folder / "frames.json").write_text(json.dumps(doc))
    assert recording_settings(folder) == stored == TableSettings.of_transcript(text)
    assert stored is not None and stored.game.players == ("Ana", "Bo", "Cy")


def test_run_refuses_a_recording_of_another_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = rules_for("Yushino")
    folder = write_layout_recording(rules, rules.random_transcript(1, 2, 2), tmp_path / "rec")  # type: ignore[arg-type]
    status = main(["run", "--game", "superwild", "--source", str(folder), "--truth", "--headless",
                   "--games", str(tmp_path / "games"), "--resume", "no"])
    err = capsys.readouterr().err
    assert status == 2 and "is a recording of Yushino, not Super Wild" in err and "Traceback" not in err
