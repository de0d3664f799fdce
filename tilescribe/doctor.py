"""``tilescribe doctor``'s checks: is this machine ready for the table session?

Each check is a small function returning one :class:`Check` (OK, WARN or FAIL, with what was
found and, when not OK, what to do). The camera: picamera2, /dev/video*, the source opening and
giving a frame. The display: the installed pygame (pygame-ce or pygame) and its SDL's video
drivers, the driver the systemd unit (console: kmsdrm) and the desktop autostart (wayland or x11)
will get (tilescribe.sdl_video). The kiosk's fonts, tesseract (the opt-in second reader), the shipped
models (each loaded as the readers load it), the games folder (free space, writable), the
settings file (it parses), and the kiosk's systemd service: when systemd has stopped restarting it
(StartLimitBurst), why, from its last logged error.
"""

from __future__ import annotations

import importlib
import importlib.util
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Literal

from tilescribe.sdl_video import SCREEN_DRIVERS, NoDriverError, PygameBuild, choose_driver, pygame_build

Status = Literal["OK", "WARN", "FAIL"]
STATUSES: tuple[Status, ...] = ("OK", "WARN", "FAIL")

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")  # display/theme.py draws with DejaVu Sans
KIOSK_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
MIN_FREE_MB = 100  # below: FAIL (a game's photos take a few MB)
LOW_FREE_MB = 1024  # below: WARN


@dataclass(frozen=True, slots=True)
class Check:
    """The outcome of one check.

    Attributes:
        name: what was checked ("camera: picamera2", "display: console driver", ...).
        status: OK, WARN (works, with a limit) or FAIL (something the kiosk needs is broken).
        message: what was found, and for WARN and FAIL what to do.
    """

    name: str
    status: Status
    message: str

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"check {self.name!r}: status must be one of {STATUSES}, got {self.status!r}")

    def format(self) -> str:
        """One line: ``STATUS name: message``."""
        return f"{self.status:<4} {self.name}: {self.message}"


def check_settings(path: Path, given: bool) -> Check:
    """The settings file parses (tilescribe.settings); a missing default file is fine."""
    from tilescribe.settings import SettingsError, load_settings

    name = "settings"
    if not given and not path.exists():
        return Check(name, "OK", f"no settings file at {path}; the defaults apply")
    try:
        settings = load_settings(path, {})
    except SettingsError as exc:
        return Check(
            name, "FAIL", f"{exc}; fix the file (see deploy/settings.toml) or point --settings elsewhere"
        )
    players = ", ".join(settings.game.players)
    return Check(
        name,
        "OK",
        f"{path}: modulus {settings.game.modulus}, board order "
        f"{settings.game.board.order}, players {players}",
    )


def check_picamera2() -> Check:
    """picamera2 imports (the Pi camera source needs it)."""
    try:
        importlib.import_module("picamera2")
    except ImportError as exc:
        return Check(
            "camera: picamera2",
            "WARN",
            f"not importable ({exc}); the Pi camera needs it: "
            "apt install python3-picamera2 and a venv made with --system-site-packages",
        )
    except Exception as exc:  # noqa: BLE001 - a broken system package raises anything (numpy ABI, ...)
        return Check(
            "camera: picamera2",
            "FAIL",
            f"import fails: {type(exc).__name__}: {exc}; "
            "numpy 2 in the venv breaks the system picamera2: pip install 'numpy<2'",
        )
    return Check("camera: picamera2", "OK", "importable")


def video_devices(dev: Path = Path("/dev")) -> list[Path]:
    """The V4L2 devices, /dev/video0, /dev/video1, ..."""
    return sorted(dev.glob("video[0-9]*"), key=lambda p: int(p.name[5:]))


def check_video_devices(dev: Path = Path("/dev")) -> Check:
    """/dev/video* exists (USB webcams; on the Pi, also the camera's ISP nodes)."""
    devices = video_devices(dev)
    if not devices:
        return Check(
            "camera: devices",
            "WARN",
            f"no {dev}/video*: no USB webcam or Pi camera is attached "
            "(or the user is not in the group video)",
        )
    return Check("camera: devices", "OK", ", ".join(str(d) for d in devices))


def check_source(spec: str) -> Check:
    """The source opens and gives a frame (vision.capture.sources.open_source)."""
    from vision.capture.sources import SourceError, open_source

    name = f"camera: source {spec!r}"
    try:
        with open_source(spec) as source:
            frame = source.read()
    except SourceError as exc:
        return Check(name, "FAIL", f"{exc}; check the cable and that no other program holds the camera")
    if frame is None:
        return Check(name, "FAIL", "opened but gave no frame")
    h, w = frame.image.shape[:2]
    return Check(name, "OK", f"a {w}x{h} frame")


def default_source(dev: Path = Path("/dev")) -> str | None:
    """The source to try when none is given: the Pi camera, else the first webcam, else None."""
    if importlib.util.find_spec("picamera2") is not None:
        return "pi"
    devices = video_devices(dev)
    return devices[0].name[5:] if devices else None


def check_pygame(build: PygameBuild) -> Check:
    """Which pygame is installed and which video drivers its SDL carries."""
    what = f"{build.flavour} {build.version}, SDL {build.sdl}"
    if build.drivers is None:
        return Check("display: pygame", "WARN", f"{what}; its SDL's video drivers cannot be listed here")
    return Check("display: pygame", "OK", f"{what}; video drivers {', '.join(build.drivers)}")


def check_console_driver(build: PygameBuild) -> Check:
    """The driver the systemd unit gets (no desktop: kmsdrm) is in this SDL."""
    return _driver_check("display: console (systemd unit)", build, {})


def check_desktop_driver(build: PygameBuild) -> Check:
    """The driver the desktop autostart gets under labwc (wayland, else x11 through Xwayland)."""
    check = _driver_check(
        "display: desktop (autostart)", build, {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}
    )
    return check if check.status == "OK" else Check(check.name, "WARN", check.message)


def _driver_check(name: str, build: PygameBuild, environ: dict[str, str]) -> Check:
    if build.drivers is None:
        return Check(name, "WARN", "cannot tell: SDL's drivers cannot be listed here")
    try:
        driver = choose_driver(environ, build.drivers)
    except NoDriverError as exc:
        return Check(name, "FAIL", str(exc))
    missing = [d for d in SCREEN_DRIVERS if d not in build.drivers]
    note = f" ({', '.join(missing)} not in this SDL)" if missing else ""
    return Check(name, "OK", f"SDL_VIDEODRIVER={driver}{note}")


def check_fonts(font_dir: Path = FONT_DIR) -> Check:
    """The kiosk's DejaVu fonts are installed."""
    missing = [f for f in KIOSK_FONTS if not (font_dir / f).is_file()]
    if missing:
        return Check(
            "fonts",
            "WARN",
            f"{', '.join(missing)} missing in {font_dir}; the kiosk falls back to "
            "pygame's own font: apt install fonts-dejavu-core",
        )
    return Check("fonts", "OK", f"{', '.join(KIOSK_FONTS)} in {font_dir}")


def check_tesseract() -> Check:
    """tesseract runs and has English (the opt-in second reader, ``--ocr tesseract``): WARN when
    not, since only that option needs it."""
    exe = shutil.which("tesseract")
    if exe is None:
        return Check("tesseract", "WARN", "not on PATH (only --ocr tesseract needs it): "
                                          "apt install tesseract-ocr tesseract-ocr-eng")
    try:
        langs = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, timeout=20, check=True)
    except (OSError, subprocess.SubprocessError) as exc:
        return Check("tesseract", "WARN", f"{exe} does not run ({exc}; only --ocr tesseract needs it): "
                                          "reinstall tesseract-ocr")
    if "eng" not in langs.stdout.split():
        return Check("tesseract", "WARN", f"{exe} has no English data (only --ocr tesseract needs it): "
                                          "apt install tesseract-ocr-eng")
    return Check("tesseract", "OK", f"{exe}, English data (for --ocr tesseract)")


def check_tile_reader() -> Check:
    """The glyph classifier (cv2.ml.ANN_MLP, tile_reader.yml.gz) and its classes (tile_reader.json)."""
    from vision.reader.glyph_reader import TileReader
    from vision.reader.glyphs import TileReaderError

    try:
        TileReader()
    except TileReaderError as exc:
        return Check("model: tile reader", "FAIL", f"{exc}; reinstall tilescribe")
    return Check("model: tile reader", "OK", "tile_reader.yml.gz and tile_reader.json load")


def check_learned_reader(face_model: Path | None = None, up_model: Path | None = None) -> Check:
    """The learned reader's two ONNX networks (by default the shipped vision/reader/tile_reader.onnx
    and tile_up.onnx) load and run in cv2.dnn."""
    from vision.reader.model import MODEL_PATH, UP_MODEL_PATH, ReaderError, TileReader

    try:
        TileReader(face_model or MODEL_PATH, up_model or UP_MODEL_PATH)
    except ReaderError as exc:
        return Check("model: learned reader", "FAIL", f"{exc}; reinstall tilescribe")
    return Check("model: learned reader", "OK", "tile_reader.onnx and tile_up.onnx run in cv2.dnn")


def check_tile_finder(model: Path | None = None) -> Check:
    """The tile finder's ONNX network (by default the shipped vision/table/tile_finder.onnx) loads
    and runs in cv2.dnn."""
    from vision.table.finder import FINDER_PATH, FinderError, TileFinder

    try:
        TileFinder(model or FINDER_PATH)
    except FinderError as exc:
        return Check("model: tile finder", "FAIL", f"{exc}; reinstall tilescribe")
    return Check("model: tile finder", "OK", "tile_finder.onnx runs in cv2.dnn")


def check_presence_model() -> Check:
    """The presence model (presence_model.json)."""
    from vision.board.presence import PresenceModelError, load_model

    try:
        load_model(None)
    except PresenceModelError as exc:
        return Check("model: presence", "FAIL", f"{exc}; reinstall tilescribe")
    return Check("model: presence", "OK", "presence_model.json loads")


def check_npz_model(file: str, keys: tuple[str, ...], models: Path | None = None) -> Check:
    """A shipped numpy model (``models``/FILE, by default vision/models/FILE) loads and holds ``keys``."""
    import numpy as np

    path = Path(str(resources.files("vision") / "models")) / file if models is None else models / file
    try:
        with np.load(path) as data:
            missing = [k for k in keys if k not in data.files]
            if not missing:
                sizes = ", ".join(f"{k} {data[k].shape}" for k in keys)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:  # a truncated copy: BadZipFile
        return Check(f"model: {file}", "FAIL", f"{path} does not load ({exc}); reinstall tilescribe")
    if missing:
        return Check(f"model: {file}", "FAIL", f"{path} lacks {missing}; reinstall tilescribe")
    return Check(f"model: {file}", "OK", sizes)


def existing_parent(folder: Path) -> Path:
    """``folder`` or its nearest ancestor that exists."""
    folder = folder.absolute()
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def check_games_space(folder: Path) -> Check:
    """Free space where the games are written (a photo of the board at every turn)."""
    free_mb = shutil.disk_usage(existing_parent(folder)).free / 2**20
    status: Status = "FAIL" if free_mb < MIN_FREE_MB else "WARN" if free_mb < LOW_FREE_MB else "OK"
    advice = "" if status == "OK" else f"; free some space (at least {LOW_FREE_MB} MB advised)"
    return Check("games: disk space", status, f"{free_mb:,.0f} MB free for {folder}{advice}")


def check_games_writable(folder: Path) -> Check:
    """The games folder (or, before the first game, the folder it will be made in) is writable."""
    name = "games: writable"
    if folder.exists() and not folder.is_dir():
        return Check(name, "FAIL", f"{folder} is a file, not a folder; move it or give --games")
    target = existing_parent(folder)
    try:
        with tempfile.TemporaryFile(dir=target):
            pass
    except OSError as exc:
        return Check(
            name,
            "FAIL",
            f"cannot write in {target} ({exc.strerror}); give the kiosk's user the "
            f"folder (chown) or point --games elsewhere",
        )
    made = "" if target == folder.absolute() else f" (made at the first game, in {target})"
    return Check(name, "OK", f"{folder}{made}")


SERVICE = "tilescribe.service"


def systemctl_show(unit: str = SERVICE) -> str | None:
    """``systemctl show`` of the unit's state (``Key=value`` lines), or None where systemd is not
    running or not installed."""
    if shutil.which("systemctl") is None:
        return None
    props = "--property=LoadState,ActiveState,SubState,Result,NRestarts"
    try:
        done = subprocess.run(["systemctl", "show", unit, props], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def last_logged_error(unit: str = SERVICE) -> str:
    """The unit's last non-empty log line (journalctl), or "" when there is none to read."""
    if shutil.which("journalctl") is None:
        return ""
    try:
        done = subprocess.run(
            ["journalctl", "-u", unit, "-n", "20", "-o", "cat", "--no-pager"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    return lines[-1] if done.returncode == 0 and lines else ""


def check_service(shown: str | None, last_error: Callable[[], str] = last_logged_error) -> Check:
    """The kiosk's systemd service, from ``systemctl show``'s output (:func:`systemctl_show`).

    A unit that failed, or that systemd stopped restarting after StartLimitBurst failed starts, is a
    FAIL naming its last logged error and how to start it again.
    """
    name = "service: tilescribe.service"
    if shown is None:
        return Check(name, "OK", "systemd is not running here: the kiosk service is not used")
    state = dict(line.split("=", 1) for line in shown.splitlines() if "=" in line)
    if state.get("LoadState") == "not-found":
        return Check(name, "OK", "not installed (deploy/install-pi.sh installs it)")
    active, result = state.get("ActiveState", "?"), state.get("Result", "?")
    restarts = state.get("NRestarts", "0")
    if active == "failed" or state.get("SubState") == "auto-restart":
        error = last_error()
        why = f"; its last logged error: {error}" if error else "; see journalctl -u tilescribe"
        if result == "start-limit-hit":
            return Check(
                name,
                "FAIL",
                f"systemd stopped restarting it after {restarts} failed starts in a row{why}. "
                "Fix that, then: sudo systemctl reset-failed tilescribe && sudo systemctl start tilescribe",
            )
        status: Status = "FAIL" if active == "failed" else "WARN"
        return Check(name, status, f"{active} ({result}, {restarts} restarts){why}")
    return Check(name, "OK", f"{active} ({state.get('SubState', '?')})")


def run_checks(settings: Path, settings_given: bool, games: Path, source: str | None) -> list[Check]:
    """Every check, in the order ``tilescribe doctor`` prints them."""
    checks: list[Callable[[], Check]] = [
        lambda: check_settings(settings, settings_given),
        check_picamera2,
        check_video_devices,
    ]
    spec = source or default_source()
    if spec is not None:
        checks.append(lambda: check_source(spec))
    results = [c() for c in checks]
    try:
        build = pygame_build()
    except ImportError as exc:
        results.append(Check("display: pygame", "FAIL", f"not installed ({exc}): pip install pygame-ce"))
    else:
        results += [check_pygame(build), check_console_driver(build), check_desktop_driver(build)]
    results += [
        check_fonts(),
        check_tesseract(),
        check_tile_reader(),
        check_learned_reader(),
        check_tile_finder(),
        check_presence_model(),
        check_npz_model("ink_hues.npz", ("colours", "mean", "inverse", "logdet")),
        check_games_space(games),
        check_games_writable(games),
        check_service(systemctl_show()),
    ]
    return results
