"""Trained model files of the tile reader (see ATTRIBUTION.md); data only."""
