"""Package data of the simulator: real Rummikub tile crops (rummikub/, CC BY 4.0, see ATTRIBUTION.txt)."""
