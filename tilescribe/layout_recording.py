"""A recording of a Yushino, Super Wild or Holominoes transcript made of its true layouts only.

Each frame of the folder carries the layout on the table (``"layout"``, the transcript's frame), the
hand flag and a tiny blank image: what tilescribe.observe.TruthObserver reads, with no camera and
no renderer. For every turn: the hand over the table, then the table still with the turn laid, then
the end-of-turn event (vision.capture.sources format; a Holominoes pass that returns a tile,
``pass 456``, ends its turn with a ``"pass"`` event whose face is that tile, as the kiosk's Pass
sends it). Optionally one turn is first laid wrong
(one digit of one new tile changed, so that the rules refuse it), its end signalled, then fixed.
It stands in for the rendered recordings (vision.sim) in the tests, the benchmark's ``--truth``
path and the demos where those cannot be made.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from display.replay import transcript_prefix, turn_count
from engine.games import TableRules
from tilescribe.settings import TableSettings

#: Frames per second of the recording.
FPS = 10.0
#: Frames with the hand over the table, then frames of the still table, per turn (a still spell of
#: 0.8 s at 10 fps outlasts the default still_seconds of 0.5).
HAND_FRAMES, STILL_FRAMES = 3, 8


def wrong_layout(rules: TableRules, before: str, after: frozenset[str]) -> frozenset[str] | None:
    """The layout ``after`` with one digit of one tile the turn laid changed so that the turn breaks a
    rule (judged by the game itself), or None when no such change is found."""
    old = rules.layout(before)
    replay = rules.replay_text(before)
    players = list(replay.settings.get("players", ()))
    player = players[len(replay.turns) % len(players)]
    for token in sorted(after - old):
        for i, ch in enumerate(token):
            if not ch.isdigit():
                continue
            for digit in "0123456789":
                changed = token[:i] + digit + token[i + 1:]
                if changed == token:
                    continue
                seen = (after - {token}) | {changed}
                try:
                    moves = rules.table_turn(before, seen)
                    line = f"{len(replay.turns) + 1}. {player}: {moves}\n" if moves else ""
                    if line and not rules.replay_text(before + line).turns[-1].legal:
                        return seen
                except ValueError:
                    continue
    return None


def write_layout_recording(rules: TableRules, text: str, out: Path, wrong_turn: int | None = None) -> Path:
    """Write the recording folder of the transcript ``text`` (module docstring).

    Args:
        rules: the game's rules (engine.games.rules_for of the transcript's Game tag).
        text: the transcript.
        out: the recording folder (created).
        wrong_turn: the 1-based turn first laid wrong (or the first turn after it that lays a tile
            whose change breaks a rule), or None.

    Returns:
        ``out``.

    Raises:
        ValueError: ``text`` does not replay, or no turn from ``wrong_turn`` on can be laid wrong.
        OSError: a file cannot be written.
    """
    out.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out / "blank.png"), np.zeros((12, 16, 3), np.uint8)):
        raise OSError(f"{out / 'blank.png'}: cannot write")
    frames: list[dict[str, object]] = []
    events: list[dict[str, object]] = []

    turns = rules.replay_text(text).turns

    def add(layout: frozenset[str], hand: bool, count: int, end_turn: int | None = None) -> None:
        for _ in range(count):
            frames.append({"file": "blank.png", "t": round(len(frames) / FPS, 4), "cells": {},
                           "hand": hand, "layout": sorted(layout)})
        if end_turn is not None:
            index = len(frames) - 1
            event = {"t": frames[index]["t"], "frame": index, "type": "end_turn", "turn": end_turn}
            report = turns[end_turn - 1]
            returned = report.moves[0].split()[1:] if report.kind == "pass" and report.moves else []
            if returned:  # a pass naming the tile it returns
                event.update(type="pass", face=returned[0])
            events.append(event)

    layout = rules.layout(transcript_prefix(text, 0))
    add(layout, False, STILL_FRAMES)
    # the turn laid wrong: the first from wrong_turn on whose tiles, one changed, break a rule
    for turn in range(1, turn_count(text) + 1):
        before = transcript_prefix(text, turn - 1)
        after = rules.layout(transcript_prefix(text, turn))
        wrong = None if wrong_turn is None or turn < wrong_turn else wrong_layout(rules, before, after)
        if wrong is not None:
            add(layout, True, HAND_FRAMES)
            add(wrong, False, STILL_FRAMES, end_turn=turn)
            wrong_turn = None
        add(after, True, HAND_FRAMES)
        add(after, False, STILL_FRAMES, end_turn=turn)
        layout = after
    if wrong_turn is not None:
        raise ValueError(f"no turn from {wrong_turn} on can be laid wrong (a tile laid that breaks a rule)")
    (out / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    settings = TableSettings.of_transcript(text).to_dict()
    doc = {"fps": FPS, "frames": frames, "settings": settings, "transcript": text}
    (out / "frames.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return out
