"""``tilescribe run``: the table session. With no source, the bundled demo game.

    tilescribe run                                   # the demo recording (made on first use)
    tilescribe run --game superwild                  # the Super Wild demo (also yushino, holominoes)
    tilescribe run --game yushino --source rec/ --truth   # a Yushino recording's recorded truth
    tilescribe run --source pi --board board.json --players "Ana,Bo" --modulus 13 --fullscreen
    tilescribe run --source 0 --board board.json     # a USB webcam
    tilescribe run --source game.mp4 --board board.json
    tilescribe run --source recording/               # a `tilescribe simulate` recording

Every game is journalled under ``--games``; after a crash ``run`` offers to resume the unfinished
game (``--resume yes`` does so without asking, as the Pi's systemd unit does).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.limits import MAX_MODULUS, MAX_ORDER
from tilescribe.options import (
    GPIO_PINS,
    MAX_SPEED,
    float_in,
    folder,
    int_in,
    player_names,
    printable,
    size_in,
)
from tilescribe.paths import cache_dir, games_dir, settings_file
from tilescribe.settings import MAX_WAIT_SECONDS

if TYPE_CHECKING:
    from display.kiosk import Kiosk
    from tilescribe.journal import Journal
    from tilescribe.observe import Observer
    from tilescribe.session import SessionTable
    from tilescribe.settings import TableSettings
    from vision.capture.sources import FrameSource


def add_games_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--games DIR`` option (shared with ``tilescribe games``)."""
    parser.add_argument("--games", type=folder, default=games_dir(),
                        help=f"folder of the game journals (default {games_dir()})")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``run`` sub-command."""
    p = subparsers.add_parser("run", help="the table session (with no source: the bundled demo game)",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", type=_game_name, help="modlinseq (default), yushino, superwild or holominoes")
    p.add_argument("--source", type=printable,
                   help="pi, a camera index, a stream URL, a video file or a recording folder "
                        "(default: the bundled demo recording); pi:WIDTHxHEIGHT or INDEX:WIDTHxHEIGHT "
                        "sets a camera's frame size (default 1280x960, enough up to order 13; "
                        "pi:2560x1920 for order 18)")
    p.add_argument("--board", type=Path, help="board.json of the printed board (recordings name their own)")
    p.add_argument("--settings", type=Path,
                   help=f"TOML settings file (default: {settings_file()}, if it exists)")
    p.add_argument("--players", type=player_names, help="player names in turn order, comma-separated")
    p.add_argument("--modulus", type=int_in(1, MAX_MODULUS), help=f"the modulus (§1-3, 1 to {MAX_MODULUS})")
    p.add_argument("--order", type=int_in(0, MAX_ORDER), dest="board_order",
                   help=f"board order (§1-2, 0 to {MAX_ORDER}; must match --board's)")
    p.add_argument("--wild", choices=list("ABCDE"), help="wild tiles with this §7-2 policy")
    p.add_argument("--hash-swap", action="store_const", const=True, help="allow the hash swap (§7-4)")
    p.add_argument("--marker", action="store_const", const=True, help="modulus marker on A0 (§8)")
    p.add_argument("--bonus", choices=["9A", "9B"], help="bonus (and malus) cells (§9)")
    p.add_argument("--tileset", help="tile-set profile: modlinseq (default) or rummikub")
    p.add_argument("--still", type=float_in(0.0, MAX_WAIT_SECONDS), dest="still_seconds",
                   help="seconds the board must be still (0.5)")
    p.add_argument("--auto", type=float_in(0.0, MAX_WAIT_SECONDS, above_low=True), nargs="?", const=4.0,
                   dest="auto_end_seconds", metavar="SECONDS",
                   help="auto mode: end a legal turn after the board is still this long (4 s)")
    add_games_argument(p)
    p.add_argument("--cache", type=Path, default=cache_dir(), help=f"demo cache (default {cache_dir()})")
    p.add_argument("--resume", choices=["ask", "yes", "no"], default="ask",
                   help="resume the last unfinished game (default: ask on the terminal)")
    p.add_argument("--start-screen", action="store_true",
                   help="choose players, modulus and variations on the kiosk before a new game")
    p.add_argument("--headless", action="store_true", help="no window (SDL dummy driver)")
    p.add_argument("--fullscreen", action="store_true", help="full-screen kiosk")
    p.add_argument("--size", type=size_in(480, 1920), default=(800, 480),
                   help="kiosk size, 800x480 .. 1920x1080")
    p.add_argument("--screenshots", type=Path, help="save a screenshot of every change into this folder")
    p.add_argument("--speed", type=float_in(0.0, MAX_SPEED, above_low=True), nargs="?", const=1.0,
                   metavar="FACTOR",
                   help="play a recording at its own pace (or FACTOR times faster); default: at its "
                        "own pace on a screen, at once when headless")
    p.add_argument("--truth", action="store_true",
                   help="read a recording's true cells instead of its images (no vision; for testing)")
    p.add_argument("--gpio", type=int_in(*GPIO_PINS), metavar="PIN",
                   help="end-of-turn push button on this BCM pin (0 to 27)")
    p.add_argument("--no-sound", action="store_true", help="no beep on an illegal placement")
    p.set_defaults(func=run)


def _game_name(text: str) -> str:
    """A game's registered name from any spelling games.md allows (argparse type)."""
    from engine.games import canonical_name

    try:
        return canonical_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _board_shape(board: Path) -> dict[str, Any]:
    """The board order and dropped cells of a printed board (board.json), as settings keys."""
    from calibration.geometry import BoardGeometry
    from engine.hexgrid import Board, format_address, parse_address

    cells = {parse_address(a) for a in BoardGeometry.load(board).cells}
    order = max(c.ring() for c in cells)
    dropped = [format_address(c) for c in Board.hexagon(order) if c not in cells]
    return {"order": order, "dropped": dropped}


def _settings(args: argparse.Namespace, recorded: TableSettings | None, board: Path | None) -> TableSettings:
    """The game's settings: the recording's or the settings file's, the command line on top.

    Raises:
        SettingsError: a bad value, or ``--order`` other than the printed board's.
    """
    from tilescribe.settings import SettingsError, TableSettings, load_settings

    overrides: dict[str, Any] = {
        key: getattr(args, key)
        for key in ("modulus", "wild", "hash_swap", "marker", "bonus", "tileset", "still_seconds",
                    "auto_end_seconds", "players", "game")
    }
    overrides["order"] = args.board_order
    if board is not None:  # the printed board decides the cells
        shape = _board_shape(board)
        if args.board_order not in (None, shape["order"]):
            raise SettingsError(f"--order {args.board_order}: the printed board {str(board)!r} has order "
                                f"{shape['order']} (leave --order out, or print a board of that order)")
        overrides.update(shape)
    if recorded is not None and args.settings is None:
        base = recorded.to_dict()
        base.update({k: v for k, v in overrides.items() if v is not None})
        return TableSettings.from_dict(base, "the recording's settings (or the command line)")
    default = settings_file()
    return load_settings(args.settings or (default if default.is_file() else None), overrides)


def _resumed(args: argparse.Namespace) -> Journal | None:
    """Repair the games folder (saying what was done), then the unfinished game's journal, locked, when
    the players resume it (a game of the kind asked for), else None.

    Raises:
        GameInUseError: another session holds the game to resume.
        JournalError: the games folder cannot be repaired.
    """
    from tilescribe.game_folder import latest_unfinished
    from tilescribe.journal import Journal
    from tilescribe.recovery import recover

    games = args.games.expanduser()
    for line in recover(games):
        print(f"tilescribe run: {line}", file=sys.stderr)
    unfinished = latest_unfinished(games)
    if unfinished is not None:
        resume = args.resume == "yes"
        if args.resume == "ask":
            if sys.stdin.isatty():
                answer = input(f"Resume the unfinished game in {unfinished}? [Y/n] ")
                resume = answer.strip().lower() in ("", "y", "yes")
            else:
                print(f"An unfinished game is in {unfinished}; --resume yes continues it.")
        if resume:
            journal = Journal.open(unfinished)
            wanted = None if args.game in (None, "MODLINSEQ") else args.game
            if not journal.is_finished and journal.settings.table_game == wanted:
                return journal  # (another session may have ended it since)
            journal.close()
    return None


def observer_for(game: str | None, source: FrameSource, settings: TableSettings,
                 board: Path | None) -> Observer | None:
    """The observer of a Yushino, Super Wild or Holominoes table (``game``), None for MODLINSEQ's
    (see :func:`_observer`): the game's camera observer (Yushino: tilescribe.yushino_observer on the
    printed square board, ``board`` or the recording's own board.json; Super Wild and Holominoes:
    tilescribe.table_observer on the bare table).

    Raises:
        SourceError: a Yushino table with no board.json, or the vision pipeline cannot start (its
            models or the board file missing or damaged).
    """
    from vision.capture.sources import RecordingSource, SourceError
    from vision.errors import VisionError

    if game is None:
        return None
    try:
        if game == "Yushino":
            from tilescribe.yushino_observer import YushinoObserver

            if board is None and isinstance(source, RecordingSource):
                board = source.recording.board
            if board is None:
                raise SourceError(f"{source.name}: --board board.json is needed to find the square board "
                                  "(tilescribe board print --game yushino)")
            return YushinoObserver(board, None, settings.still_seconds)
        from tilescribe.table_observer import TableObserver

        return TableObserver(game, None, settings.still_seconds)
    except SourceError:
        raise
    except (ValueError, OSError, VisionError) as exc:
        raise SourceError(f"the vision pipeline cannot start: {exc}") from exc


def _observer(args: argparse.Namespace, source: FrameSource, settings: TableSettings,
              table: Callable[[], SessionTable]) -> Observer:
    from tilescribe.faces import FaceMap
    from tilescribe.observe import TruthObserver
    from tilescribe.table import Table
    from vision.capture.sources import RecordingSource, SourceError
    from vision.errors import VisionError

    if args.truth:
        if not isinstance(source, RecordingSource):
            raise SourceError("--truth needs a recording folder as the source")
        return TruthObserver(source.recording, settings.still_seconds)
    layout_observer = observer_for(settings.table_game, source, settings, args.board)
    if layout_observer is not None:
        return layout_observer

    def legal_values() -> Any:
        current = table()
        assert isinstance(current, Table)  # MODLINSEQ's table: the only one read cell by cell
        return current.game.legal_values()
    board = args.board
    if board is None and isinstance(source, RecordingSource):
        board = source.recording.board
    if board is None:
        raise SourceError(f"{source.name}: --board board.json is needed to find the board")
    faces = FaceMap(settings.tileset, settings.game.modulus)
    try:
        from tilescribe.vision_observer import VisionObserver  # the vision stack loads its models here

        return VisionObserver(board, faces, settings.still_seconds, legal_values,
                              warn=lambda line: print(f"tilescribe run: {line}", file=sys.stderr))
    except (ImportError, ValueError, OSError, VisionError) as exc:
        if args.source is not None or not isinstance(source, RecordingSource):
            raise SourceError(f"the vision pipeline cannot start: {exc}") from exc
        print(f"tilescribe run: the vision pipeline cannot start ({exc}); the demo goes on with the "
              "recording's recorded truth instead of reading its images (as with --truth)", file=sys.stderr)
        args.truth = True
        return TruthObserver(source.recording, settings.still_seconds)


def _start_screen(kiosk: Kiosk, settings: TableSettings) -> TableSettings | None:
    """The settings chosen on the kiosk's start screen (asked again, with the reason as the heading,
    while the choice is not allowed); None when the players leave it."""
    from display.start_screen import choose
    from tilescribe.settings import SettingsError
    from tilescribe.start import chosen_settings, start_choices

    title = "New game"
    while True:
        chosen = choose(kiosk, start_choices(settings), title)
        if chosen is None:
            return None
        try:
            return chosen_settings(settings, chosen)
        except SettingsError as exc:
            title = str(exc)


def _game(args: argparse.Namespace, source: FrameSource, settings: TableSettings, resumed: Journal | None,
          tags: tuple[tuple[str, str], ...]) -> tuple[SessionTable, Journal, Observer]:
    """The table, journal and observer of a game: the resumed one, or a new one with ``settings``."""
    from tilescribe.journal import Journal

    tables: list[SessionTable] = []
    observer = _observer(args, source, settings, lambda: tables[0])
    if resumed is not None:
        journal = resumed
        tables.append(_table(settings, journal))
        print(f"Resuming {journal.folder} after turn {len(tables[0].game.history)}.")
    else:
        journal = Journal.create(args.games.expanduser(), settings, tags)
        tables.append(_table(settings, None))
    if args.truth:
        tables[0].note = "recorded truth, no vision"
    return tables[0], journal, observer


def _table(settings: TableSettings, resumed: Journal | None) -> SessionTable:
    """The table of a new game with ``settings``, or of the resumed game of a journal: MODLINSEQ's
    (tilescribe.table) or a layout-read game's (tilescribe.game_table).

    Raises:
        ValueError: the resumed transcript does not replay.
    """
    from tilescribe.game_table import GameTable
    from tilescribe.table import Table

    if settings.table_game is not None:
        return GameTable(settings, None if resumed is None else resumed.text())
    return Table(settings, None if resumed is None else resumed.restore())


def _no_screen(exc: Exception) -> str:
    """The error line of a kiosk window that SDL cannot open (no such display, a driver missing)."""
    driver = os.environ.get("SDL_VIDEODRIVER") or "not set"
    return (f"tilescribe run: the kiosk's window cannot be opened ({exc}; SDL_VIDEODRIVER {driver}): "
            "`tilescribe doctor` says which driver this screen needs")


def run(args: argparse.Namespace) -> int:
    """Run the session; prints the transcript path and the final scores. Returns the exit status."""
    import pygame

    from display.kiosk import Kiosk
    from tilescribe.demo import demo_recording, game_demo_recording, recording_settings
    from tilescribe.game_folder import JournalError
    from tilescribe.gpio import EndTurnButton, GpioError
    from tilescribe.journal import GameInUseError, Journal
    from tilescribe.progress import progress
    from tilescribe.session import Session
    from tilescribe.settings import SettingsError
    from vision.capture.sources import RecordingSource, SourceError, open_source

    no_screen = not any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"))
    if no_screen and not args.headless:
        print("tilescribe run: no display here (no DISPLAY, WAYLAND_DISPLAY or SDL_VIDEODRIVER): "
              "running the kiosk headless (--screenshots DIR saves what it shows)", file=sys.stderr)
        args.headless = True
    if args.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        spec = args.source
        if spec is None:
            bar = progress(desc="making the demo recording (first use only)", unit="frame", leave=False)

            def made(done: int, total: int) -> None:
                bar.total = total
                bar.update(done - bar.n)

            if args.game in (None, "MODLINSEQ"):
                spec = str(demo_recording(args.cache.expanduser(), made))
            else:
                spec = str(game_demo_recording(args.game, args.cache.expanduser()))
            bar.close()
        source = open_source(spec)
        if args.speed is not None and not source.finite:
            raise SourceError(f"--speed {args.speed:g}: {source.name} is live; --speed paces a recording "
                              "or a video file")
        recorded = None
        if isinstance(source, RecordingSource):
            recorded = recording_settings(source.recording.folder)
            if recorded is not None:
                game = recorded.table_game or "MODLINSEQ"
                if args.game not in (None, game):
                    raise SourceError(f"{source.name} is a recording of {game}, not {args.game}")
                args.game = recorded.table_game  # the recording's game (None: MODLINSEQ)
        resumed = _resumed(args)
        board = args.board or (source.recording.board if isinstance(source, RecordingSource) else None)
        hex_board = board if args.game in (None, "MODLINSEQ") else None  # Yushino's board has no order
        settings = resumed.settings if resumed is not None else _settings(args, recorded, hex_board)
        if resumed is not None and isinstance(source, RecordingSource):
            source = RecordingSource(source.recording.folder, start=resumed.last_frame() + 1)
        kiosk = Kiosk(args.size, args.fullscreen, args.screenshots, sound=not args.no_sound)
        if resumed is None and args.start_screen:
            chosen = _start_screen(kiosk, settings)
            if chosen is None:
                kiosk.close()
                print("no game started")
                return 0
            settings = chosen
        tags = (("Source", spec),)
        table, journal, observer = _game(args, source, settings, resumed, tags)
        button = None
        if args.gpio is not None:
            try:
                button = EndTurnButton(args.gpio)
            except GpioError as exc:  # the button is optional: keys and touch still end turns
                print(f"tilescribe run: no end-of-turn button: {exc}", file=sys.stderr)
    except GameInUseError as exc:
        print(f"tilescribe run: {exc}; not starting a second session on it", file=sys.stderr)
        return 1
    except pygame.error as exc:  # the start screen opens the window
        print(_no_screen(exc), file=sys.stderr)
        return 1
    except (SourceError, SettingsError, JournalError, ValueError, OSError) as exc:
        print(f"tilescribe run: {exc}", file=sys.stderr)
        return 2
    total = len(source) if isinstance(source, RecordingSource) else None
    if args.speed is None and not args.headless and source.finite:
        args.speed = 1.0  # on a screen, a recording plays at its own pace, to be watched
    # on a screen the final standings stay until a tap or key (Rematch, New game); headless, the
    # session ends with the game
    games = args.games.expanduser()
    rematch = None if args.headless else (lambda s: Journal.create(games, s, tags))
    bar = progress(total=total, unit="frame", desc="table session", quiet=total is None)
    try:
        with kiosk, source:
            while True:
                result = Session(source, observer, table, journal, kiosk, button, speed=args.speed,
                                 on_frame=lambda _f: bar.update(), rematch=rematch).run()
                chosen = _start_screen(kiosk, table.settings) if result.new_game else None
                if chosen is None:
                    break
                journal.close()
                table, journal, observer = _game(args, source, chosen, None, tags)
    except (SourceError, JournalError) as exc:
        print(f"tilescribe run: {exc}", file=sys.stderr)
        return 1
    except pygame.error as exc:
        print(_no_screen(exc), file=sys.stderr)
        return 1
    finally:
        bar.close()
        journal.close()
        if button is not None:
            button.close()
    print(f"transcript: {result.transcript}")
    state = "final" if result.is_finished else "so far (game unfinished; run again to resume)"
    print(f"scores {state}: " + ", ".join(f"{p} {s}" for p, s in result.scores.items()))
    return 0
