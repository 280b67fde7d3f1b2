#!/usr/bin/env bash
# Installs what is missing on a Debian machine, builds the kiosk and runs it.
#   ./run.sh [kiosk options]    e.g. ./run.sh --windowed 1280x800
# Without a display the kiosk says so in one line and exits; it does not crash.
set -euo pipefail
cd "$(dirname "$0")"

# The Debian packages the build, the kiosk and the tests need: the README's table ("Dependencies") says what each
# is for. SDL dlopens EGL, GLES and udev, and on kmsdrm draws through Mesa's EGL, GBM and DRI drivers, which
# Debian's SDL package does not pull in; the tests write their films with libavformat and libavcodec.
packages=(libsdl2-dev libsdl2-image-dev libpng-dev libjpeg-dev libsdl2-ttf-dev libfontconfig-dev fonts-noto-core libegl1 libgles2 libudev1
    libegl-mesa0 libgbm1 libgl1-mesa-dri espeak-ng libavformat-dev libavcodec-dev libswresample-dev)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "run.sh: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}"
fi

if ! command -v swift >/dev/null 2>&1; then
    echo "run.sh: the Swift 6 toolchain is not on PATH; install it from swift.org (see README) and run again" >&2
    exit 1
fi

swift build -c release --product kiosk
# The deep-zoom demo (16384 x 16384, about 50 MB of tiles) is drawn here rather than committed.
if [ ! -f Assets/deepzoom/demo.dzi ]; then
    swift run -c release kiosk-deepzoom-demo
fi

# On a desktop (X11 or Wayland) show a window unless told otherwise; on a kiosk, fullscreen.
mode=()
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    case " $* " in
        *" --windowed "* | *" --headless "* | *" --help "* | *" --version "*) ;;
        *) mode=(--windowed 1280x800) ;;
    esac
fi
exec .build/release/kiosk "${mode[@]}" "$@"
