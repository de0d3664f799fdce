"""The pygame kiosk: scoreboard, board map, alerts."""
