"""The rules: pure Python, no camera, no screen, no I/O but transcripts as text (architecture.md).

Public API (MODLINSEQ, rules §1-3 and variations §7-12; section numbers cite the seeds and
shared/design/modlinseq-10-12.md):

- ``engine.hexgrid``: ``Hex``, ``parse_address``/``format_address``, ``Board.hexagon``/``truncated``,
  ``DIRECTIONS``, ``LINE_DIRECTIONS``, ``ring_cells``, ``hexagon_cells``, ``distance`` (§1-2).
- ``engine.squaregrid``: ``Square``, ``RectBoard`` (rectangular boards, wrapping or not, §12),
  ``parse_square``/``format_square`` (``C5``); ``engine.cells``: ``format_cell``, ``parse_cell``
  for either kind of cell.
- ``engine.laws``: ``Law`` (§2 linear, §10 fibonacciësque, §11 multiplicative): ``valid``,
  ``valid_loop``, ``term``, ``pairs``.
- ``engine.tiles``: ``Tile`` (natural, wild with optional declared value, modulus marker),
  ``Placement``, ``parse_placement``/``format_placement``/``parse_placements`` (``4B2``, ``#B2``,
  ``#=8B2``).
- ``engine.settings.Settings``: modulus, board, sequence law, composite moduli, wild policy, hash
  swap, marker, bonus pattern, loop bonus, tiles per value, players, game.
- ``engine.position.Position``: immutable mapping Hex -> Tile; ``apply(placements)``.
- ``engine.sequences``: ``is_modular_linear``, ``MSA``/``msa_of_values``/``all_sequences``,
  ``points`` (table 2A), ``gap_fillings``/``count_gap_fillings`` (§2-6), ``tilde``.
- ``engine.game.Game``: ``evaluate``/``play``/``pass_turn``/``freeze``/``undo``, ``scores``,
  ``current_player``, ``history``, ``is_over``, ``blocked_cells``, ``legal_values``,
  ``wild_values``, ``diff(observed) -> PositionDiff``.
- ``engine.rules``: ``TurnResult`` and ``ScoredSequence`` (the verdict on a turn).
- ``engine.errors``: ``RuleViolation``, ``IllegalTurnError``, ``TranscriptError``, ``RULE_*`` ids.
- ``engine.transcript``: ``parse_transcript``, ``format_transcript``, ``transcript_of``, ``replay``.
- ``engine.ruleset``: the ``Ruleset`` interface and ``ruleset_for(name)``.
- ``engine.randomgame``: seeded random legal games (``random_game``, ``random_turn``).
- ``engine.modlinseq_rules``: ``RULES``, MODLINSEQ behind engine.games (replay as ``score
  --json``'s turns, hints, random transcripts); ``engine.hints``: ``best_turns``.

Internals: ``grid`` (index tables of either topology), ``state`` (``BoardState``), ``legal``
(legal-value masks), ``wilds`` (the constraint solver for wild tiles), ``bonus`` (§9 patterns).
"""
