"""The reader stage: a tile's face from its crop, with a confidence and the likeliest alternatives.

``vision.reader.faces`` defines the faces once; ``vision.reader.crop`` cuts a tile's crop the
same way at the table and in training. The board and the table read with the glyph reader
(``vision.reader.glyph_reader``: the tile's glyph turned upright and classified).
"""
