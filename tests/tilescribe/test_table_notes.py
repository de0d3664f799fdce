"""The journal's notes of tiles added and corrected by hand, read back as a resumed game needs them."""

from __future__ import annotations

import pytest

from tilescribe.table_notes import added_note, corrected_note, table_notes


def _noted(*notes: str) -> str:
    lines = ['[Game "Super Wild"]', "", "1. Ana: R3@0,-1 {+2} {[%time 20:14:03]}"]
    return "\n".join([*lines, *(f"{{[%time 20:15:{i:02d}] {n}}}" for i, n in enumerate(notes))]) + "\n"


def test_additions_corrected_and_taken_back_leave_what_lies_on_the_table() -> None:
    text = _noted(added_note("R7@3,1"), added_note("B2@5,0"), corrected_note("R7@3,1", "R8@3,1"),
                  corrected_note("B2@5,0", ""), corrected_note("K4@-1,0", "K5@-1,0"),
                  "corrected: 2. Bo: K4@-1,0 +2 [%time 20:12:55]")
    assert table_notes("Super Wild", text).added == {"3,1": "R8@3,1"}
    assert table_notes("Super Wild", _noted()).added == {}


def test_corrections_of_tiles_read_are_followed_to_their_end() -> None:
    text = _noted(added_note("R7@3,1"), corrected_note("R7@3,1", "R8@3,1"),
                  corrected_note("K4@-1,0", "K5@-1,0"), corrected_note("K5@-1,0", "K6@-1,0"),
                  corrected_note("B1@0,2", ""))
    corrected = {"K4@-1,0": "K6@-1,0", "K5@-1,0": "K6@-1,0", "B1@0,2": ""}
    assert table_notes("Super Wild", text).corrected == corrected


def test_a_note_that_names_no_placement_is_refused_with_it_quoted() -> None:
    with pytest.raises(ValueError, match="3-1"):
        table_notes("Super Wild", _noted(added_note("R7@3-1")))
