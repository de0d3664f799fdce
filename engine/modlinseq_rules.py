"""MODLINSEQ behind the games' common interface (engine.games): replay, hints, random transcripts.

:data:`RULES` is what ``tilescribe score`` and ``tilescribe hint`` reach through
``engine.games.rules_for("MODLINSEQ")``. A replayed turn's JSON (``TurnReport.to_json``) has the
shape ``tilescribe score --json`` has always printed for MODLINSEQ: number, player, kind,
placements, legal, error (rule, cells, message), score, then the details ``sequences`` (cells,
values, msa, length, points, primary, wild; and ``loop``: true for a loop of §12, absent
otherwise), ``blocked`` (addresses) and ``warnings``. :func:`turn_details` and :func:`sequence_json`
build them, for any caller that has a :class:`engine.transcript.ReplayedTurn`.

A rack for :meth:`ModlinseqRules.hint` lists tile values, ``#`` for a wild tile: ``"3 7 7 11 #"``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from engine.cells import Cell, format_cell
from engine.errors import TranscriptError
from engine.game import Game
from engine.games import MAX_RACK, Hint, Replay, TurnReport, Violation
from engine.hints import WILD, best_turns
from engine.limits import parse_bounded_int
from engine.randomgame import random_turn
from engine.rules import ScoredSequence
from engine.settings import Settings
from engine.tiles import format_placement
from engine.transcript import ReplayedTurn, format_transcript, parse_transcript, replay, transcript_of

#: Most turns of a random game played "to the end".
MAX_RANDOM_TURNS = 400


def _address_key(address: str) -> tuple[int, str, int]:
    """Sort key of an address: its letters (shorter first), then its number (``B2`` before ``B12``)."""
    letters = address.rstrip("0123456789")
    return (len(letters), letters, int(address[len(letters) :]))


def sorted_addresses(cells: Iterable[Cell]) -> list[str]:
    """The cells' addresses sorted by letters, then number (as ``score`` prints blocked cells)."""
    return sorted((format_cell(c) for c in cells), key=_address_key)


def sequence_json(seq: ScoredSequence) -> dict[str, Any]:
    """One scored sequence in ``score --json``'s shape (``loop`` only for a loop, §12)."""
    out: dict[str, Any] = {
        "cells": seq.addresses,
        "values": list(seq.values),
        "msa": seq.msa,
        "length": seq.length,
        "points": seq.points,
        "primary": seq.primary,
        "wild": list(seq.wild),
    }
    if seq.loop:
        out["loop"] = True
    return out


def turn_details(item: ReplayedTurn) -> dict[str, Any]:
    """The MODLINSEQ extras of a replayed turn: sequences, blocked cells, warnings."""
    result = item.result
    if result is None:
        return {"sequences": [], "blocked": [], "warnings": []}
    return {
        "sequences": [sequence_json(s) for s in result.sequences],
        "blocked": sorted_addresses(result.blocked),
        "warnings": list(result.warnings),
    }


def turn_report(item: ReplayedTurn) -> TurnReport:
    """A replayed turn as the games' common :class:`TurnReport`."""
    error = item.error
    return TurnReport(
        number=item.turn.number,
        player=item.player,
        kind=item.turn.kind,
        moves=tuple(format_placement(p) for p in item.turn.placements),
        legal=error is None,
        error=None if error is None else Violation(error.rule, tuple(error.addresses), error.message),
        score=item.result.score if item.result is not None and error is None else 0,
        details=turn_details(item),
    )


def parse_rack(text: str, game: Game) -> Counter[int]:
    """A rack of tile values (``"3 7 7 11 #"``; commas allowed) as value -> count, ``#`` as WILD.

    Raises:
        ValueError: a token that is not a value of the set or ``#``, a wild tile in a game without
            them, or more than MAX_RACK tiles.
    """
    law = game.settings.law
    tokens = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    if len(tokens) > MAX_RACK:
        raise ValueError(f"rack {text!r}: {len(tokens)} tiles, at most {MAX_RACK}")
    rack: Counter[int] = Counter()
    for position, token in enumerate(tokens, start=1):
        if token == "#":
            if game.settings.wild_policy is None:
                raise ValueError(f"rack tile {position} {token!r}: this game has no wild tiles")
            rack[WILD] += 1
            continue
        try:
            rack[parse_bounded_int(token, "value", law.lowest, law.modulus - 1)] += 1
        except ValueError:
            message = f"expected a value {law.lowest}..{law.modulus - 1} or #"
            raise ValueError(f"rack tile {position} {token!r}: {message}") from None
    return rack


def random_game_text(settings: Settings, seed: int, turns: int | None = None) -> str:
    """A seeded random legal game under ``settings`` as a transcript, each play's comment its score.

    With ``turns`` None the game goes on until a whole round passes, then every player freezes
    (at most MAX_RANDOM_TURNS turns).
    """
    rng = random.Random(seed)
    game = Game(settings)
    passes = 0
    limit = MAX_RANDOM_TURNS if turns is None else turns
    while len(game.history) < limit and not game.is_over:
        if turns is None and passes >= len(settings.players):
            game.freeze()
            continue
        placements = random_turn(game, rng)
        if placements:
            game.play(placements)
            passes = 0
        else:
            game.pass_turn()
            passes += 1
    return format_transcript(transcript_of(game))


class ModlinseqRules:
    """MODLINSEQ (§1-3, §7-12) as an engine.games.GameRules."""

    name = "MODLINSEQ"

    def replay_text(self, text: str, folder: Path | None = None) -> Replay:
        """Read and replay a transcript; syntax errors are collected in the result (``folder`` is
        not used: MODLINSEQ's tags name no files)."""
        transcript, errors = parse_transcript(text)
        game, turns = replay(transcript)
        over = game.is_over
        winners = game.winners() if over else []
        return Replay(
            settings=transcript.settings.to_dict(),
            turns=tuple(turn_report(t) for t in turns),
            scores=game.scores,
            errors=tuple(errors),
            final={"over": over, "winner": winners[0] if len(winners) == 1 else None},
        )

    def hint(self, text: str, rack: str | None, top: int, folder: Path | None = None) -> list[Hint]:
        """The ``top`` best turns for the player to move (engine.hints), best first (``folder`` is
        not used).

        Raises:
            ValueError: a transcript with syntax errors (the first named by line and column) or an
                unreadable rack.
        """
        transcript, errors = parse_transcript(text)
        if errors:
            first: TranscriptError = errors[0]
            raise ValueError(f"line {first.line}, column {first.column}: {first.message}")
        game, _ = replay(transcript)
        counts = None if rack is None else parse_rack(rack, game)
        return [
            Hint(
                ", ".join(format_placement(p) for p in s.placements),
                s.result.score,
                {"sequences": [sequence_json(q) for q in s.result.sequences]},
            )
            for s in best_turns(game, counts, top)
        ]

    def random_transcript(self, seed: int, players: int = 2, turns: int | None = None) -> str:
        """A seeded random legal game with the default settings (modulus 13, order 9)."""
        if not 1 <= players <= 8:
            raise ValueError(f"players must be 1..8, got {players}")
        settings = Settings(players=tuple(f"Player {n}" for n in range(1, players + 1)))
        return random_game_text(settings, seed, turns)


#: The MODLINSEQ rules object registered in engine.games.GAME_MODULES.
RULES = ModlinseqRules()
