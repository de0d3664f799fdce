"""Sub-commands of the tilescribe command line (see tilescribe.cli)."""
