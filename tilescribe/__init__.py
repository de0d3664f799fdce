"""tilescribe: a table companion for numbered-tile board games."""
