"""Simulated game recordings for the demo, the tests and the benchmark; the bundled demo games.

With no source, ``tilescribe run`` plays a recording of a complete
MODLINSEQ game, made by the scene simulator (vision.sim) on first use and cached: hands, pauses
mid-turn, tiles cut from the real Rummikub photos, and one illegal placement that is then fixed.
``tilescribe run --game NAME`` plays the demo of Yushino, Super Wild or Holominoes: a seeded random
game of two players (:func:`demo_transcript`; Super Wild's has a rearrangement) with one illegal
placement that is then fixed, rendered by the game's simulator where it is installed, else its true
layouts alone (tilescribe.layout_recording, read with the recorded truth). Every demo is made once
and cached (:func:`cached_recording`).

The simulator places tiles but never takes one away, so the illegal placement is made by joining two
simulations of the same game that differ in one tile (the last tile of one turn): the frames of the
wrong game up to a moment after that turn's end-of-turn signal (the session rejects the turn), then
the frames of the right game from the moment the hand is back over that cell (it lifts off the
right tile). Both simulations share the seed and timeline, so everything else is identical.
"""

from __future__ import annotations

import importlib
import json
import random
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import cv2

from calibration.board_print import SheetSpec, print_board
from calibration.geometry import BoardGeometry
from engine.game import Game, TurnRecord
from engine.games import TableRules, canonical_name, rules_for
from engine.hexgrid import Board, format_address
from engine.randomgame import random_game
from engine.record import game_tag
from engine.settings import Settings
from engine.tiles import Placement, Tile
from engine.transcript import format_transcript, transcript_of
from tilescribe.layout_recording import write_layout_recording
from tilescribe.settings import TableSettings
from vision.sim.recording import SimFrame, SimOptions, Simulation
from vision.sim.timeline import Detour, Pacing, SimPlacement
from vision.sim.transcripts import face_of

#: Bump when the demo's game or look changes, so that old caches are rebuilt.
DEMO_VERSION = 4


@dataclass(frozen=True, slots=True)
class GamePlan:
    """A game to simulate.

    Attributes:
        settings: the table settings the session must be started with.
        history: the true turns (plays and passes), as the engine commits them.
        wrong: (turn number, the wrong placement) for the illegal placement that is then fixed: the
            turn's last tile is first put down with a wrong value; None for no such turn.
        detours: take-backs and knocks the players make besides their turns (the tiles of a
            take-back are laid and lifted again; see vision.sim.timeline.Detour).
    """

    settings: TableSettings
    history: tuple[TurnRecord, ...]
    wrong: tuple[int, Placement] | None = None
    detours: tuple[Detour, ...] = ()

    def __post_init__(self) -> None:
        if self.wrong is not None and not 1 <= self.wrong[0] <= len(self.history):
            raise ValueError(f"wrong turn {self.wrong[0]} is not one of the {len(self.history)} turns")

    def transcript(self) -> str:
        """The true transcript (engine format), for comparison with what a session writes."""
        game = Game(self.settings.game)
        for record in self.history:
            if record.kind == "play":
                game.play(sorted(record.placements))
            else:
                game.pass_turn()
        return format_transcript(transcript_of(game))

    def scores(self) -> dict[str, int]:
        """The true final scores."""
        scores = dict.fromkeys(self.settings.game.players, 0)
        for record in self.history:
            scores[record.player] += record.score
        return scores


def plan_game(settings: TableSettings, turns: int, seed: int, wrong_turn: int | None = None,
              max_tiles: int = 3) -> GamePlan:
    """A seeded random legal game (engine.randomgame), optionally with one wrong tile to fix.

    Args:
        settings: the table settings (natural tiles only are played).
        turns: the number of turns.
        seed: the game's seed.
        wrong_turn: the 1-based play whose last tile is first put down wrong, or None.
        max_tiles: the most tiles per turn.

    Raises:
        ValueError: ``wrong_turn`` is not a play, or no wrong value makes it illegal.
    """
    game, _ = random_game(settings.game, turns, seed, max_tiles)
    history = game.history
    if wrong_turn is None:
        return GamePlan(settings, history)
    record = history[wrong_turn - 1]
    if record.kind != "play":
        raise ValueError(f"turn {wrong_turn} is a {record.kind}, not a play")
    before = Game(settings.game)
    for earlier in history[: wrong_turn - 1]:
        before.play(earlier.placements) if earlier.kind == "play" else before.pass_turn()
    *rest, last = record.placements
    m = settings.game.modulus
    if last.tile.value is None:
        raise ValueError(f"turn {wrong_turn}: the last tile is an undeclared wild tile")
    for delta in random.Random(seed).sample(range(1, m), m - 1):
        wrong = Placement(last.cell, Tile.natural((last.tile.value + delta) % m))
        if not before.evaluate([*rest, wrong]).legal:
            return GamePlan(settings, history, (wrong_turn, wrong))
    raise ValueError(f"turn {wrong_turn}: every value on {format_address(last.cell)} is legal")


def _sim_turns(plan: GamePlan, wrong: bool) -> list[list[SimPlacement]]:
    s = plan.settings
    turns = []
    for record in plan.history:
        placements = list(record.placements)
        if wrong and plan.wrong is not None and record.number == plan.wrong[0]:
            placements[-1] = plan.wrong[1]
        turns.append([SimPlacement(format_address(p.cell), face_of(p.tile, s.game.modulus, s.tileset))
                      for p in placements])
    return turns


def _frames(plan: GamePlan, board: BoardGeometry, options: SimOptions) -> tuple[Iterator[SimFrame], int]:
    """The frames of the game, joined around the wrong tile (module docstring); and their count."""
    right = Simulation(_sim_turns(plan, wrong=False), board, options, detours=plan.detours)
    if plan.wrong is None:
        return right.frames(), right.frame_count
    wrong = Simulation(_sim_turns(plan, wrong=True), board, options, detours=plan.detours)
    number, placement = plan.wrong
    if [e.t for e in wrong.timeline.turn_ends] != [e.t for e in right.timeline.turn_ends]:
        raise ValueError("the wrong and right simulations do not share one timeline")
    end = next(e.t for e in wrong.timeline.turn_ends if e.turn == number)
    address = format_address(placement.cell)
    landing = next(x.t for x in right.timeline.landings
                   if x.turn == number and x.placement.address == address)
    fps = options.fps
    cut_wrong = int((end + 0.6) * fps)  # the players see the flag, the turn is rejected
    cut_right = int((landing - 0.3) * fps)  # the hand is back over the cell
    shift = cut_wrong + 1 - cut_right

    def joined() -> Iterator[SimFrame]:
        for frame in wrong.frames():
            if frame.index > cut_wrong:
                break
            yield frame
        for frame in right.frames():
            if frame.index >= cut_right:
                index = frame.index + shift
                yield replace(frame, index=index, t=round(index / fps, 4))

    return joined(), cut_wrong + 1 + right.frame_count - cut_right


def write_recording(plan: GamePlan, board_path: Path, out: Path, options: SimOptions,
                    on_frame: Callable[[int, int], None] | None = None) -> Path:
    """Simulate the game and write a recording folder (vision.capture.sources.RecordingSource format).

    Args:
        plan: the game.
        board_path: the board.json of the printed board (copied into the folder, named in
            frames.json).
        out: the recording folder (created).
        options: simulation options (seed, size, hands, pacing...).
        on_frame: called with (frames done, frames in all) after each frame.

    Returns:
        ``out``.

    Raises:
        ValueError: the game cannot be simulated on this board (see vision.sim.recording).
        OSError: a file cannot be written.
    """
    board = BoardGeometry.load(board_path)
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(board_path, out / "board.json")  # a self-contained folder: it can move or be copied
    frames, total = _frames(plan, board, options)
    entries, events = [], []
    for done, frame in enumerate(frames, start=1):
        name = f"{frame.index:06d}.jpg"
        if not cv2.imwrite(str(out / name), frame.image, [cv2.IMWRITE_JPEG_QUALITY, options.jpeg_quality]):
            raise OSError(f"{out / name}: cannot write frame")
        entries.append({"file": name, "t": frame.t, "cells": dict(frame.cells), "hand": frame.hand})
        events += [{"t": frame.t, "frame": frame.index, "type": "end_turn", "turn": e.turn}
                   for e in frame.turn_ends]
        if on_frame is not None:
            on_frame(done, total)
    (out / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    doc = {"board": "board.json", "fps": options.fps, "frames": entries,
           "settings": plan.settings.to_dict(), "transcript": plan.transcript()}
    (out / "frames.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return out


def demo_plan() -> GamePlan:
    """The bundled demo game: two players, modulus 13, an order-5 board, Rummikub tiles."""
    settings = TableSettings(
        game=Settings(modulus=13, board=Board.hexagon(5), players=("Ana", "Bo"), tiles_per_value=None),
        tileset="rummikub",
    )
    return plan_game(settings, turns=10, seed=2026, wrong_turn=4)


def demo_options() -> SimOptions:
    """How the demo is filmed: 1280x960 at 10 fps, hands, pauses mid-turn, real Rummikub crops."""
    return SimOptions(seed=7, size=(1280, 960), fps=10.0, players=2, hands=True,
                      pacing=Pacing(lead_in=3.0, pause_chance=0.5), shapes=("photo",))


def cached_recording(cache_dir: Path, name: str, make: Callable[[Path], object]) -> Path:
    """A recording folder made once by ``make(folder)`` and cached as ``cache_dir/name/recording``
    (made in a ``recording.partial`` folder, then renamed: a killed run leaves no half recording).

    Raises:
        OSError: the cache cannot be written.
    """
    folder = cache_dir / name
    recording = folder / "recording"
    if (recording / "frames.json").is_file():
        return recording
    tmp = folder / "recording.partial"
    if tmp.exists():
        shutil.rmtree(tmp)
    folder.mkdir(parents=True, exist_ok=True)
    make(tmp)
    tmp.replace(recording)
    return recording


def demo_recording(cache_dir: Path, on_frame: Callable[[int, int], None] | None = None,
                   plan: GamePlan | None = None, options: SimOptions | None = None) -> Path:
    """The demo recording folder, made and cached on first use.

    Args:
        cache_dir: the cache folder (``tilescribe.paths.cache_dir()`` for the command line).
        on_frame: progress callback while the recording is made (see :func:`write_recording`).
        plan, options: another game or filming than the bundled demo (tests).

    Returns:
        The recording folder (``cache_dir/demo-v<N>/recording``).

    Raises:
        OSError: the cache cannot be written.
    """
    folder = cache_dir / f"demo-v{DEMO_VERSION}"

    def make(tmp: Path) -> None:
        print_board(SheetSpec(order=5), folder / "board")
        write_recording(plan or demo_plan(), folder / "board" / "board.json", tmp,
                        options or demo_options(), on_frame)

    return cached_recording(cache_dir, folder.name, make)


#: Seeds of the bundled demos of the other games, 12 turns of two players each (Super Wild's seed
#: is one whose random game rearranges the table; the turn laid wrong first is the 5th).
DEMO_SEEDS = {"Yushino": 2026, "Super Wild": 5, "Holominoes": 2026}
DEMO_TURNS, DEMO_WRONG_TURN = 12, 5
#: The demos' tiles are drawn in the training type designs: the tiles a table gets from
#: ``tilescribe tiles print`` are set in DejaVu, one of them (the held-out designs are for figures).
DEMO_STYLES = "train"


def demo_transcript(game: str) -> str:
    """The true transcript of the demo of ``game`` (Yushino, Super Wild or Holominoes)."""
    return rules_for(game).random_transcript(DEMO_SEEDS[game], players=2, turns=DEMO_TURNS)


def game_demo_recording(game: str, cache_dir: Path) -> Path:
    """The demo recording of ``game`` (module docstring), made and cached on first use.

    Raises:
        ValueError: not Yushino, Super Wild or Holominoes.
        OSError: the cache cannot be written.
    """
    name = canonical_name(game)
    if name not in DEMO_SEEDS:
        raise ValueError(f"no bundled demo of {name}: the demos are of {', '.join(DEMO_SEEDS)}")
    rules: TableRules = rules_for(name)  # type: ignore[assignment]
    slug = name.lower().replace(" ", "")
    text = demo_transcript(name)
    render = game_renderer(name)
    if render is not None:
        return cached_recording(cache_dir, f"demo-{slug}-v{DEMO_VERSION}",
                                lambda tmp: render(text, tmp, DEMO_SEEDS[name], styles=DEMO_STYLES))
    return cached_recording(cache_dir, f"demo-{slug}-truth-v{DEMO_VERSION}",
                            lambda tmp: write_layout_recording(rules, text, tmp, DEMO_WRONG_TURN))


#: Where each game's scene simulator writes a recording of a transcript:
#: ``f(text, out, seed, styles="held_out", **options) -> Path``.
GAME_RENDERERS = {
    "Yushino": ("vision.sim.recording", "record_yushino_game"),
    "Super Wild": ("vision.sim.table_recording", "record_table_game"),
    "Holominoes": ("vision.sim.table_recording", "record_table_game"),
}


def game_renderer(game: str) -> Callable[..., Path] | None:
    """The scene simulator's recording function of ``game`` (:data:`GAME_RENDERERS`), None where this
    installation has none."""
    module, name = GAME_RENDERERS[game]
    try:
        found: Callable[..., Path] | None = getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None
    return found


def recording_settings(folder: Path) -> TableSettings | None:
    """The table settings stored in a recording written by :func:`write_recording` (or
    tilescribe.layout_recording); for a recording that stores only the true transcript of a Yushino,
    Super Wild or Holominoes game, that game's settings (TableSettings.of_transcript); else None.

    Raises:
        SettingsError: the stored settings are malformed.
    """
    doc = json.loads((folder / "frames.json").read_text(encoding="utf-8"))
    if "settings" in doc:
        return TableSettings.from_dict(doc["settings"], str(folder / "frames.json"))
    text = doc.get("transcript")
    if isinstance(text, str) and game_tag(text).lower() not in ("", "modlinseq"):
        return TableSettings.of_transcript(text)
    return None
