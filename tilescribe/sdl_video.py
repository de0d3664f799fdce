"""Which SDL video driver the kiosk needs on this screen, and which ones the installed pygame offers.

SDL draws through one video driver: ``wayland`` under a Wayland desktop (Raspberry Pi OS
Bookworm's labwc), ``x11`` under X, ``kmsdrm`` straight on the display when the machine boots to
the console (no desktop). Not every build of SDL carries every driver: the pygame wheel on PyPI
(2.6.1, SDL 2.28.4) has no KMSDRM driver, pygame-ce's wheel (2.5.8, SDL 2.32.10) and Debian's
libsdl2 have it. The kiosk's launcher (deploy/tilescribe-kiosk.sh) sets ``SDL_VIDEODRIVER`` to
what :func:`choose_driver` picks; ``tilescribe doctor`` reports the same.

Run ``python -m tilescribe.sdl_video`` to print the driver for the current environment (exit 1,
with the reason on standard error, when there is none).
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

#: The drivers that put the kiosk on a real screen, in the order they are preferred.
SCREEN_DRIVERS: tuple[str, ...] = ("wayland", "x11", "kmsdrm")


@dataclass(frozen=True, slots=True)
class PygameBuild:
    """The installed pygame and the SDL under it.

    Attributes:
        flavour: ``"pygame-ce"`` or ``"pygame"``.
        version: pygame's version ("2.5.8").
        sdl: SDL's version ("2.32.10").
        drivers: the video drivers compiled into SDL, lower case, in SDL's order; None when they
            cannot be listed (SDL's library not found among the process's mappings).
    """

    flavour: str
    version: str
    sdl: str
    drivers: tuple[str, ...] | None


class NoDriverError(RuntimeError):
    """No SDL video driver can put the kiosk on this screen; the message says why and what to do."""


def pygame_build() -> PygameBuild:
    """The installed pygame, its SDL and SDL's compiled-in video drivers.

    Raises:
        ImportError: pygame is not installed.
    """
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    flavour = "pygame-ce" if getattr(pygame, "IS_CE", False) else "pygame"
    sdl = ".".join(str(v) for v in pygame.get_sdl_version())
    return PygameBuild(flavour, pygame.version.ver, sdl, _sdl_video_drivers())


def _sdl_video_drivers() -> tuple[str, ...] | None:
    """SDL_GetVideoDriver(0..n-1) of the SDL library pygame loaded (found in /proc/self/maps)."""
    maps = Path("/proc/self/maps")
    if not maps.is_file():
        return None
    paths = {line.split()[-1] for line in maps.read_text().splitlines() if "/libSDL2" in line}
    libraries = {p for p in paths if Path(p).name.startswith(("libSDL2-2", "libSDL2.so"))}  # not _ttf etc.
    for path in sorted(libraries):
        try:
            sdl = ctypes.CDLL(path)
            sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
            sdl.SDL_GetVideoDriver.argtypes = (ctypes.c_int,)
            return tuple(
                sdl.SDL_GetVideoDriver(i).decode().lower() for i in range(sdl.SDL_GetNumVideoDrivers())
            )
        except (OSError, AttributeError):
            continue
    return None


def choose_driver(environ: Mapping[str, str], drivers: tuple[str, ...]) -> str:
    """The SDL video driver for a kiosk started with ``environ``.

    ``SDL_VIDEODRIVER`` when set; else ``wayland`` under a Wayland session (``WAYLAND_DISPLAY``),
    ``x11`` under X (``DISPLAY``), and ``kmsdrm`` with neither (the console, as the systemd unit
    starts it).

    Args:
        environ: the environment the kiosk starts in.
        drivers: the video drivers SDL offers, lower case (:func:`pygame_build`).

    Raises:
        NoDriverError: the driver this environment needs is not in ``drivers``.
    """
    offered = ", ".join(drivers) or "none"
    wanted = environ.get("SDL_VIDEODRIVER", "").strip().lower()
    if wanted:
        if wanted not in drivers:
            raise NoDriverError(f"SDL_VIDEODRIVER={wanted} but this SDL offers only {offered}")
        return wanted
    if environ.get("WAYLAND_DISPLAY") and "wayland" in drivers:
        return "wayland"
    if environ.get("DISPLAY") and "x11" in drivers:
        return "x11"
    if environ.get("WAYLAND_DISPLAY") or environ.get("DISPLAY"):
        raise NoDriverError(f"a desktop session is running but this SDL offers only {offered}")
    if "kmsdrm" not in drivers:
        raise NoDriverError(
            f"on the console SDL needs its kmsdrm driver, but this SDL offers only {offered}: "
            "install pygame-ce (pip install pygame-ce, after pip uninstall pygame)"
        )
    return "kmsdrm"


def main() -> int:
    """Print the driver for this environment; 1 with the reason on standard error if none."""
    try:
        build = pygame_build()
    except ImportError as exc:
        print(f"tilescribe: pygame is not installed ({exc}); install pygame-ce", file=sys.stderr)
        return 1
    if build.drivers is None:
        print(os.environ.get("SDL_VIDEODRIVER", ""))  # cannot tell: leave the choice to SDL
        return 0
    try:
        print(choose_driver(os.environ, build.drivers))
    except NoDriverError as exc:
        print(f"tilescribe: {build.flavour} {build.version} (SDL {build.sdl}): {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
