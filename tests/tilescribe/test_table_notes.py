"""The journal's notes of tiles added and corrected by hand, read back as a resumed game needs them."""

from __future__ import annotations

import pytest

from tilescribe.table_notes import added_note, added_tiles, corrected_note


def _noted(*notes: str) -> str:
    lines = ['[Game "Super Wild"]', "", "1. Ana: R3@0,-1 {+2} {[%time 20:14:03]}"]
    return "\n".join([*lines, *(f"{{[%time 20:15:{i:02d}] {n}}}" for i, n in enumerate(notes))]) + "\n"


def test_additions_corrected_and_taken_back_leave_what_lies_on_the_table() -> None:
    text = _noted(added_note("R7@3,1"), added_note("B2@5,0"), corrected_note("R7@3,1", "R8@3,1"),
                  corrected_note("B2@5,0", ""), corrected_note("K4@-1,0", "K5@-1,0"),
                  "corrected: 2. Bo: K4@-1,0 +2 [%time 20:12:55]")
    assert added_tiles("Super Wild", text) == {"3,1": "R8@3,1"}
    assert added_tiles("Super Wild", _noted()) == {}


def test_a_note_that_names_no_placement_is_refused_with_it_quoted() -> None:
    with pytest.raises(ValueError, match="3-1"):
        added_tiles("Super Wild", _noted(added_note("R7@3-1")))
