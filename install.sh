#!/usr/bin/env bash
# Installs the kiosk as a hardened systemd service on Debian or Raspberry Pi OS (see README, "Deploying").
#
#   sudo ./install.sh                      build, install under /usr/local, create the kiosk user, enable and start
#   sudo ./install.sh --uninstall          stop, disable and remove everything it installed (and the user)
#
# Options: --prefix DIR (default /usr/local); --destdir DIR stages the files under DIR and touches nothing
# else (packaging, tests); --binary PATH installs that kiosk binary instead of building one; --no-start
# enables the service without starting it now.
set -euo pipefail
cd "$(dirname "$0")"

prefix=/usr/local
destdir=""
binary=""
uninstall=0
start=1
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix="$2"; shift 2 ;;
        --destdir) destdir="$2"; shift 2 ;;
        --binary) binary="$2"; shift 2 ;;
        --uninstall) uninstall=1; shift ;;
        --no-start) start=0; shift ;;
        -h | --help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
system=1
[ -n "$destdir" ] && system=0
if [ "$system" = 1 ] && [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root (sudo ./install.sh), or stage with --destdir DIR" >&2
    exit 1
fi

unit="$destdir/etc/systemd/system/kiosk.service"
share="$destdir$prefix/share/kiosk"
bin="$destdir$prefix/bin/kiosk"

if [ "$uninstall" = 1 ]; then
    if [ "$system" = 1 ]; then
        systemctl disable --now kiosk.service 2>/dev/null || true
    fi
    rm -f "$unit" "$bin"
    rm -rf "$share"
    if [ "$system" = 1 ]; then
        [ -d /run/systemd/system ] && systemctl daemon-reload
        id kiosk >/dev/null 2>&1 && userdel kiosk
        rm -rf /var/lib/kiosk /var/cache/kiosk
    fi
    echo "install.sh: the kiosk is uninstalled"
    exit 0
fi

if [ "$system" = 1 ]; then
    # The runtime libraries, including those SDL dlopens (EGL, GLES, udev), and what the build needs.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        libsdl2-2.0-0 libsdl2-image-2.0-0 libegl1 libgles2 libudev1 libsdl2-dev libsdl2-image-dev
fi

if [ -z "$binary" ]; then
    # Swift's runtime and Foundation are linked in: the kiosk machine needs no Swift toolchain.
    swift build -c release --product kiosk --static-swift-stdlib
    binary=.build/release/kiosk
fi
# The deep-zoom demo is drawn, not committed ($KIOSK_DEEPZOOM_DEMO names another .dzi to install in its place).
demo="${KIOSK_DEEPZOOM_DEMO:-Assets/deepzoom/demo.dzi}"
if [ ! -f "$demo" ]; then
    swift run -c release kiosk-deepzoom-demo --out "$demo"
fi

install -D -m 0755 "$binary" "$bin"
mkdir -p "$share/deepzoom"
cp -r Assets/kiosk.json Assets/images Assets/LICENSES.md "$share/"
cp "$demo" "$share/deepzoom/demo.dzi"
rm -rf "$share/deepzoom/demo_files"
cp -r "${demo%.dzi}_files" "$share/deepzoom/demo_files"
install -m 0644 README.md "$share/README.md"
mkdir -p "$(dirname "$unit")"
sed -e "s|/usr/local/bin/kiosk|$prefix/bin/kiosk|g" -e "s|/usr/local/share/kiosk|$prefix/share/kiosk|g" \
    kiosk.service > "$unit"
chmod 0644 "$unit"

if [ "$system" = 1 ]; then
    # udev normally makes these groups; a minimal system may lack them.
    for group in video input render; do
        getent group "$group" >/dev/null || groupadd --system "$group"
    done
    if ! id kiosk >/dev/null 2>&1; then
        useradd --system --no-create-home --home-dir /var/lib/kiosk --shell /usr/sbin/nologin \
            --groups video,input,render kiosk
    fi
    if [ ! -d /run/systemd/system ]; then
        echo "install.sh: installed under $prefix, but systemd is not running here (a container or a chroot?);"
        echo "install.sh: on the kiosk itself enable it with: systemctl daemon-reload && systemctl enable --now kiosk.service"
        exit 0
    fi
    systemctl daemon-reload
    if [ "$start" = 1 ]; then
        systemctl enable --now kiosk.service
    else
        systemctl enable kiosk.service
    fi
    echo "install.sh: installed under $prefix; logs: journalctl -u kiosk -f"
else
    echo "install.sh: staged under $destdir$prefix and $destdir/etc"
fi
