#!/bin/sh
# Start the tilescribe kiosk with the SDL video driver this screen needs: wayland under the desktop
# (labwc), x11 under X, kmsdrm on the console (no desktop); arguments are those of `tilescribe run`.
# deploy/install-pi.sh fills in @PREFIX@ and installs this as @PREFIX@/bin/tilescribe-kiosk; the
# systemd unit and the desktop autostart both run it. When the installed pygame cannot drive the
# screen it says so (and `tilescribe doctor` says what to install) instead of failing silently.
set -eu
VENV=@PREFIX@/venv
if ! driver=$("$VENV/bin/python" -m tilescribe.sdl_video); then
    echo "tilescribe-kiosk: no SDL video driver for this screen (see above; run $VENV/bin/tilescribe doctor)" >&2
    exit 1
fi
if [ -n "$driver" ]; then
    export SDL_VIDEODRIVER="$driver"
    echo "tilescribe-kiosk: SDL_VIDEODRIVER=$driver" >&2
fi
exec "$VENV/bin/tilescribe" run "$@"
