#!/usr/bin/env bash
# Install tilescribe as a kiosk on Raspberry Pi OS (Bookworm), from a clone of the repository:
#   sudo deploy/install-pi.sh [--user tilescribe] [--prefix /opt/tilescribe] [--no-service] [--desktop] [--dry-run]
# Installs the system packages (python3-picamera2, tesseract-ocr, SDL runtime, fonts), creates an
# unprivileged user, a virtual environment that sees the system picamera2, the package (pygame-ce,
# whose SDL drives the console through KMS/DRM), a settings file, the launcher PREFIX/bin/tilescribe-kiosk
# and a systemd unit that starts the kiosk at boot on the console and restarts it on failure; with
# --desktop, a desktop autostart entry (Wayland, labwc) instead of the unit. --dry-run checks the
# options and prints what would be installed, changing nothing.
set -euo pipefail

KIOSK_USER=tilescribe
PREFIX=/opt/tilescribe
SERVICE=1
DESKTOP=0
DRY_RUN=0
while [ $# -gt 0 ]; do
    case "$1" in
        --user|--prefix)
            [ $# -ge 2 ] || { echo "install-pi.sh: $1 needs a value" >&2; exit 2; }
            if [ "$1" = --user ]; then KIOSK_USER=$2; else PREFIX=$2; fi
            shift 2 ;;
        --no-service) SERVICE=0; shift ;;
        --desktop) DESKTOP=1; SERVICE=0; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "install-pi.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

# Both values go into sed, the unit file and paths: checked before anything is done.
# A user name as systemd and Debian accept it: lower case, digits, '_' and '-', at most 32.
if ! [[ "$KIOSK_USER" =~ ^[a-z_][a-z0-9_-]{0,31}$ ]]; then
    echo "install-pi.sh: --user '$KIOSK_USER': a user name is a lower-case letter or '_', then up to" \
         "31 lower-case letters, digits, '_' or '-'" >&2
    exit 2
fi
# An absolute folder of letters, digits, '.', '_', '-' and '/', without '..' and not / itself.
if ! [[ "$PREFIX" =~ ^(/[A-Za-z0-9._-]+)+/?$ ]] || [[ "$PREFIX" =~ (^|/)\.\.?(/|$) ]]; then
    echo "install-pi.sh: --prefix '$PREFIX': an absolute folder of letters, digits, '.', '_', '-' and" \
         "'/', without '.' or '..' parts (e.g. /opt/tilescribe)" >&2
    exit 2
fi
PREFIX=${PREFIX%/}
if [ "$DRY_RUN" -eq 1 ]; then
    echo "would install: user $KIOSK_USER, virtual environment $PREFIX/venv, games in /var/lib/$KIOSK_USER/games," \
         "systemd unit: $([ "$SERVICE" -eq 1 ] && echo yes || echo no)," \
         "desktop autostart: $([ "$DESKTOP" -eq 1 ] && echo yes || echo no)"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "install-pi.sh: run as root (sudo $0)" >&2
    exit 1
fi
SRC=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=/dev/null  # the running system's, read for its codename
. /etc/os-release
if [ "${VERSION_CODENAME:-}" != "bookworm" ]; then
    echo "warning: written for Raspberry Pi OS Bookworm, this is ${PRETTY_NAME:-unknown}" >&2
fi

# pygame-ce's wheel brings its own SDL, which loads the display libraries at run time: libdrm, gbm,
# EGL and GLES for kmsdrm (console), the wayland client libraries for the desktop. Debian's
# libsdl2-2.0-0 depends on exactly those, so it is installed for them.
APT_PACKAGES=(python3-venv python3-pip python3-picamera2 python3-libcamera python3-gpiozero
              tesseract-ocr tesseract-ocr-eng libsdl2-2.0-0 libdrm2 libgbm1 libegl1 libgles2
              libgl1 libglib2.0-0 fonts-dejavu-core)
echo "== system packages: ${APT_PACKAGES[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${APT_PACKAGES[@]}"

echo "== user $KIOSK_USER (camera, screen, touch, keypad, GPIO, sound)"
if ! id "$KIOSK_USER" >/dev/null 2>&1; then
    useradd --system --create-home --home-dir "/var/lib/$KIOSK_USER" --shell /usr/sbin/nologin "$KIOSK_USER"
fi
for group in video render input gpio audio tty; do
    getent group "$group" >/dev/null && usermod -aG "$group" "$KIOSK_USER"
done

echo "== virtual environment in $PREFIX/venv (sees the system picamera2)"
mkdir -p "$PREFIX"
python3 -m venv --system-site-packages "$PREFIX/venv"
"$PREFIX/venv/bin/python" -m pip install -q --upgrade pip
# The system picamera2 uses the system simplejpeg, built against numpy 1.x: a numpy 2 in the venv
# breaks "import picamera2" (numpy.dtype size changed; raspberrypi/picamera2 issues 1088, 1211).
# Hence numpy < 2, and an OpenCV wheel that still runs on numpy 1.x (4.12 needs numpy 2); OpenCV
# comes from PyPI because Bookworm's python3-opencv (4.6) lacks cv2.aruco.ArucoDetector.
# pygame-ce, not pygame: the pygame wheel's SDL has no KMSDRM driver and cannot open the console.
"$PREFIX/venv/bin/python" -m pip uninstall -q -y pygame 2>/dev/null || true
"$PREFIX/venv/bin/python" -m pip install -q "numpy<2" "opencv-python<4.12" "$SRC"
"$PREFIX/venv/bin/python" -c "import picamera2" 2>/dev/null \
    || echo "warning: picamera2 not importable from the venv; the Pi camera source will not work" >&2

echo "== launcher $PREFIX/bin/tilescribe-kiosk (SDL video driver: kmsdrm on the console, wayland on the desktop)"
mkdir -p "$PREFIX/bin"
sed -e "s|@PREFIX@|$PREFIX|g" "$SRC/deploy/tilescribe-kiosk.sh" > "$PREFIX/bin/tilescribe-kiosk"
chmod 0755 "$PREFIX/bin/tilescribe-kiosk"
env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$PREFIX/venv/bin/python" -m tilescribe.sdl_video >/dev/null \
    || echo "warning: the kiosk cannot open the console (see above)" >&2

echo "== settings in /etc/tilescribe/settings.toml (edit players, modulus, variations)"
mkdir -p /etc/tilescribe
[ -f /etc/tilescribe/settings.toml ] || install -m 0644 "$SRC/deploy/settings.toml" /etc/tilescribe/settings.toml

echo "== the printed board in /etc/tilescribe/board (print board.pdf; keep board.json with the kiosk)"
if [ ! -f /etc/tilescribe/board/board.json ]; then
    "$PREFIX/venv/bin/tilescribe" board print --order 9 --out /etc/tilescribe/board
fi

if [ "$SERVICE" -eq 1 ]; then
    echo "== systemd unit tilescribe.service"
    sed -e "s|@USER@|$KIOSK_USER|g" -e "s|@PREFIX@|$PREFIX|g" "$SRC/deploy/tilescribe.service" \
        > /etc/systemd/system/tilescribe.service
    systemctl daemon-reload
    systemctl enable tilescribe.service
    echo "The kiosk starts at the next boot (or now: sudo systemctl start tilescribe)."
fi
if [ "$DESKTOP" -eq 1 ]; then
    echo "== desktop autostart /etc/xdg/autostart/tilescribe-kiosk.desktop (starts at every desktop login)"
    sed -e "s|/opt/tilescribe|$PREFIX|g" "$SRC/deploy/tilescribe-kiosk.desktop" > /etc/xdg/autostart/tilescribe-kiosk.desktop
fi
echo "== tilescribe doctor (as $KIOSK_USER)"
runuser -u "$KIOSK_USER" -- "$PREFIX/venv/bin/tilescribe" doctor --settings /etc/tilescribe/settings.toml \
    --games "/var/lib/$KIOSK_USER/games" || echo "warning: fix what tilescribe doctor reports above" >&2
echo "Done. Games are kept in /var/lib/$KIOSK_USER/games (private to $KIOSK_USER); list them with:" \
     "sudo -u $KIOSK_USER $PREFIX/venv/bin/tilescribe games --games /var/lib/$KIOSK_USER/games"
