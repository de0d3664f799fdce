"""Printable boards, board/camera calibration, tile-set profiles."""
