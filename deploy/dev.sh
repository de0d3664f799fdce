#!/usr/bin/env bash
# One entry point that sets everything up on a fresh Debian / Raspberry Pi OS machine, then acts.
#   deploy/dev.sh run [tilescribe run options]   the table session (with no source: the demo game;
#                                                --game yushino|superwild|holominoes: that game's demo)
#   deploy/dev.sh test [pytest options]          the test suite
#   deploy/dev.sh tilescribe ARGS...             any other tilescribe command
#   deploy/dev.sh train [train_reader options]   retrain the tile reader with the shipped seed
#                                                (installs the train extra: PyTorch CPU, onnx)
#   deploy/dev.sh train-finder [train_finder options]  retrain the tile finder the same way
# Set-up (idempotent): Debian packages (tesseract-ocr, SDL/GL runtime, fonts), a virtual
# environment in .venv, and the package with its dev extra.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(python3-venv python3-pip tesseract-ocr tesseract-ocr-eng libgl1 libglib2.0-0
              fonts-dejavu-core fonts-dejavu-extra fonts-freefont-ttf fonts-liberation2 fonts-urw-base35
              fonts-noto-core poppler-utils)

# Install the Debian packages given that are missing (through sudo when not root).
apt_install() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "Installing system packages: ${missing[*]}"
        local SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
    fi
}
apt_install "${APT_PACKAGES[@]}"

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    echo "Creating the virtual environment .venv"
    "$PY" -m venv .venv
fi
if [ ! -f .venv/.setup-stamp ] || [ pyproject.toml -nt .venv/.setup-stamp ]; then
    echo "Installing tilescribe and its Python dependencies into .venv"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip uninstall -q -y pygame 2>/dev/null || true  # pygame-ce replaces it (same module)
    .venv/bin/python -m pip install -q -e ".[dev]"
    touch .venv/.setup-stamp
fi

cmd=${1:-run}
shift || true
case "$cmd" in
    run) exec .venv/bin/tilescribe run "$@" ;;
    test) exec .venv/bin/python -m pytest "$@" ;;
    tilescribe) exec .venv/bin/tilescribe "$@" ;;
    train|train-finder)
        .venv/bin/python -m pip install -q --extra-index-url https://download.pytorch.org/whl/cpu -e ".[dev,train]"
        script=bench/train_reader.py
        [ "$cmd" = train-finder ] && script=bench/train_finder.py
        PYTHONPATH=. exec .venv/bin/python "$script" "$@" ;;
    *) echo "usage: deploy/dev.sh run|test|tilescribe|train|train-finder [ARGS...]" >&2; exit 2 ;;
esac
