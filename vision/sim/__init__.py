"""Scene simulator and tile rendering: synthetic camera frames of the printed board."""
