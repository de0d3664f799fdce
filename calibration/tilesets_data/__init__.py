"""Built-in tile-set profiles (TOML), read by calibration.tilesets."""
