"""The journal's notes of the players' tile corrections and additions on a Yushino, Super Wild or
Holominoes table, in the transcript's frame: written by the session, read back when a game resumes.

A note is a transcript comment (tilescribe.journal.Journal.note), e.g.
``{[%time 20:14:03] added: R7@3,1 (not seen by the camera)}`` for a tile the camera does not see,
and ``{[%time 20:15:10] corrected: R7@3,1 is R8@3,1}`` (``... is no tile``: taken back).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.placement import place_of

#: What a correction to no tile says.
NO_TILE = "no tile"
_ADDED = " (not seen by the camera)"
_NOTE = re.compile(r"\{\[%time [0-9:]+\] (?:added: (\S+)" + re.escape(_ADDED)
                   + r"|corrected: (\S+) is (\S+|" + NO_TILE + r"))\}")


def added_note(tile: str) -> str:
    """The note of ``tile`` (a placement, ``R7@3,1``) added by the players where the camera sees none."""
    return f"added: {tile}{_ADDED}"


def corrected_note(seen: str, true: str) -> str:
    """The note of the tile ``seen`` (a placement) corrected to ``true`` (``""``: no tile there)."""
    return f"corrected: {seen} is {true or NO_TILE}"


@dataclass(frozen=True, slots=True)
class TableNotes:
    """What a transcript's notes leave standing, in the transcript's frame.

    Attributes:
        added: the tiles added by the players that lie on the table, by place (``{"3,1": "R8@3,1"}``):
            each addition, as later corrected, less those taken back.
        corrected: each tile the camera misread -> what truly lies there (``{"R1@2,0": "R7@2,0"}``;
            ``""``: no tile), a correction of a correction followed to its end.
    """

    added: dict[str, str]
    corrected: dict[str, str]


def table_notes(game: str, text: str) -> TableNotes:
    """Read back the players' additions and corrections from a transcript's notes.

    Args:
        game: "Yushino", "Super Wild" or "Holominoes".
        text: the transcript with its notes (tilescribe.journal).

    Raises:
        ValueError: a note names no placement of ``game`` (the message quotes the note).
    """
    added: dict[str, str] = {}
    corrected: dict[str, str] = {}
    for found in _NOTE.finditer(text):
        tile, seen, true = found.groups()
        named = [word for word in (tile, seen, true) if word not in (None, NO_TILE)]
        try:
            place, *_ = [place_of(game, word) for word in named]  # each checked, the first's place
        except ValueError as exc:
            raise ValueError(f"the note {found.group(0)}: {exc}") from None
        if tile is not None:
            added[place] = tile
            continue
        true = "" if true == NO_TILE else true
        if place in added and not true:
            del added[place]
        elif place in added:
            added[place] = true
        else:
            corrected = {was: true if now == seen else now for was, now in corrected.items()}
            corrected[seen] = true
    return TableNotes(added, corrected)
