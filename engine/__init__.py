"""The rules: pure Python, no camera, no screen (see architecture.md)."""
