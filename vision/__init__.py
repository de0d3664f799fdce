"""Vision: frames in, a BoardReading out."""
