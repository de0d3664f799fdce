"""Package data of the simulator: real Rummikub tile crops (*.jpg, index.json).

CC BY 4.0: see ATTRIBUTION.txt.
"""
