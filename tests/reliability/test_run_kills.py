"""Real ``tilescribe run`` sessions killed at write points of the journal, then resumed; two sessions
started at once on one unfinished game: the second refuses, naming the game and the first's pid."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.reliability.harness import check, complete, recorded_game, start_run
from tilescribe.game_folder import game_folders


@pytest.mark.parametrize("point", [6, 40])  # the new game's settings; a turn in the middle
def test_a_killed_session_resumes_and_loses_nothing(tmp_path: Path, recording: Path, point: int) -> None:
    target = recorded_game(recording)
    killed = start_run(recording, tmp_path, kill_at=point)
    killed.communicate(timeout=120)
    assert killed.returncode == 137, f"the session was not killed at write point {point}"
    resumed = start_run(recording, tmp_path)
    out, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    assert check(tmp_path, target, len(target)).sound and complete(tmp_path, target)


def test_a_second_session_on_the_same_game_refuses(tmp_path: Path, recording: Path) -> None:
    target = recorded_game(recording)
    start_run(recording, tmp_path, kill_at=40).communicate(timeout=120)  # an unfinished game
    first, second = (start_run(recording, tmp_path, speed=10) for _ in range(2))
    results = [(p, *p.communicate(timeout=120)) for p in (first, second)]
    refused = [(p, err) for p, _, err in results if p.returncode == 1]
    assert len(refused) == 1 and sorted(p.returncode for p, _, _ in results) == [0, 1]
    other = first if refused[0][0] is second else second
    line = refused[0][1].strip().splitlines()[-1]
    assert re.fullmatch(
        rf"tilescribe run: game \S+ \(.*\) is in use by process {other.pid}; not starting a "
        r"second session on it",
        line,
    ), line
    assert check(tmp_path, target, len(target)).sound and complete(tmp_path, target)


def test_an_unreadable_game_is_moved_aside_and_a_new_one_starts(tmp_path: Path, recording: Path) -> None:
    target = recorded_game(recording)
    start_run(recording, tmp_path, kill_at=40).communicate(timeout=120)  # an unfinished game...
    (folder,) = game_folders(tmp_path)
    with (folder / "transcript.txt").open("ab") as f:
        f.write(b"{caf\xe9}\n")  # ...that is no longer UTF-8
    session = start_run(recording, tmp_path)
    _, err = session.communicate(timeout=120)
    assert session.returncode == 0, err
    said = [line for line in err.splitlines() if "damaged" in line]
    assert len(said) == 1 and str(folder) in said[0] and "not UTF-8 text (byte 0xe9" in said[0]
    assert (tmp_path / "damaged" / folder.name / "transcript.txt").is_file()
    assert complete(tmp_path, target)  # the new game, played whole
