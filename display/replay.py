"""Show a Yushino, Super Wild or Holominoes game on the kiosk from its transcript, no camera needed.

:func:`replay_views` replays the transcript turn by turn with the engine (display.maps.read_game)
and gives one :class:`KioskView` per position: the game's own map, the scores, whose turn, the
history, and at the end the final standings with the game's winner (Yushino's tie-breaks, §4).
:func:`show_replay` puts them on the kiosk one after the other. Run it on a file::

    SDL_VIDEODRIVER=dummy python -m display.replay GAME.txt --size 800x480 --screenshots shots/
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from display.kiosk import ActionKind, Kiosk
from display.maps import read_game
from display.view import CameraState, HistoryLine, KioskView, PlayerLine
from engine.games import Replay

_TURN_LINE = re.compile(r"\s*\d+\.")


def transcript_prefix(text: str, turns: int) -> str:
    """The transcript's tags and its first ``turns`` turn lines (``N. Name: ...``)."""
    out, seen = [], 0
    for line in text.splitlines():
        if _TURN_LINE.match(line):
            seen += 1
            if seen > turns:
                continue
        out.append(line)
    return "\n".join(out) + "\n"


def turn_count(text: str) -> int:
    """How many turn lines the transcript has."""
    return sum(1 for line in text.splitlines() if _TURN_LINE.match(line))


def view_of(text: str) -> KioskView:
    """The kiosk's view of the table after the transcript ``text``.

    Raises:
        ValueError: an unknown game, MODLINSEQ, or tags that make no game.
    """
    game_map, replay = read_game(text)
    players: list[str] = list(replay.settings.get("players", ()))
    final: Mapping[str, Any] = replay.final
    over = bool(final.get("over"))
    current = players[len(replay.turns) % len(players)] if players and not over else None
    lines = tuple(
        PlayerLine(name, int(replay.scores.get(name, 0)), is_current=name == current) for name in players
    )
    history = tuple(
        HistoryLine(t.number, t.player, ", ".join(t.moves) or t.kind, t.score)
        for t in replay.turns
        if t.legal
    )
    illegal = [t for t in replay.turns if not t.legal]
    alert = f"turn {illegal[-1].number} not applied: {illegal[-1].error}" if illegal else ""
    winner = final.get("winner") if over and isinstance(final.get("winner"), str) else None
    return KioskView(
        cells=frozenset(), players=lines, history=history, camera=CameraState.REPLAY, alert=alert,
        title=f"{replay.settings.get('game', '')}  turn {len(replay.turns)}", is_over=over,
        game_map=game_map, winner=winner, tie_break=final.get("tie_break") if winner else None,
        end_notes=_end_notes(replay) if over else (),
    )


def _end_notes(replay: Replay) -> tuple[str, ...]:
    """The end of the game in words: why it ended and the rack transfer (Yushino §4)."""
    notes = []
    if replay.final.get("reason"):
        notes.append(f"The game ended: {replay.final['reason']}.")
    adjustments = replay.final.get("adjustments") or {}
    if adjustments:
        notes.append("Racks: " + ", ".join(f"{p} {v:+d}" for p, v in adjustments.items()) + ".")
    return tuple(notes)


def replay_views(text: str) -> list[KioskView]:
    """One view per position of the transcript: before any turn, then after each turn.

    Raises:
        ValueError: an unknown game, MODLINSEQ, or tags that make no game.
    """
    return [view_of(transcript_prefix(text, n)) for n in range(turn_count(text) + 1)]


def show_replay(kiosk: Kiosk, views: list[KioskView], pause_s: float = 0.0) -> None:
    """Show ``views`` in turn on ``kiosk`` (``pause_s`` seconds each); stops early on q / Escape."""
    for view in views:
        kiosk.show(view)
        end = time.monotonic() + pause_s
        while time.monotonic() < end:
            if any(a.kind is ActionKind.QUIT for a in kiosk.poll()):
                return
            time.sleep(0.05)


def _size(text: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` in pixels (argparse type; the kiosk checks the range)."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT, e.g. 800x480")
    return int(parts[0]), int(parts[1])


def main(argv: list[str] | None = None) -> int:
    """``python -m display.replay FILE [--size WxH] [--screenshots DIR] [--pause S]``."""
    parser = argparse.ArgumentParser(prog="python -m display.replay", description=__doc__.splitlines()[0])
    parser.add_argument("transcript", type=Path)
    parser.add_argument("--size", type=_size, default=(800, 480),
                        help="window WIDTHxHEIGHT, 800x480 to 1920x1080")
    parser.add_argument("--screenshots", type=Path, help="folder for a PNG of every position")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds per position (default 1)")
    args = parser.parse_args(argv)
    try:
        views = replay_views(args.transcript.read_text(encoding="utf-8"))
        with Kiosk(args.size, screenshots=args.screenshots, sound=False) as kiosk:
            show_replay(kiosk, views, args.pause)
    except (ValueError, OSError) as exc:
        print(f"display.replay: {args.transcript}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
