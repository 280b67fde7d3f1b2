#!/usr/bin/env bash
# Installs the kiosk as a hardened systemd service on Debian or Raspberry Pi OS (see README, "Deploying").
#
#   sudo ./install.sh                      on Debian: build the package (./package.sh) and install it with apt
#   sudo ./install.sh --prefix /usr/local  build, install the files under the prefix, create the kiosk user,
#                                          enable and start (again: an upgrade restarts the running kiosk)
#   sudo ./install.sh --uninstall          stop, disable and remove everything it installed (the package, or the
#                                          files, the drop-ins of `systemctl edit`, the state and the user)
#
# Options: --prefix DIR installs files instead of the package; --destdir DIR stages the files under DIR and
# touches nothing else (tests); --binary PATH installs that kiosk binary instead of building one; --no-start
# enables the service without starting it now.
set -euo pipefail
cd "$(dirname "$0")"

prefix=""
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
        -h | --help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
system=1
[ -n "$destdir" ] && system=0
if [ "$system" = 1 ] && [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root (sudo ./install.sh), or stage with --destdir DIR" >&2
    exit 1
fi
# The package, where this is Debian and no prefix was asked for.
package=0
if [ "$system" = 1 ] && [ -z "$prefix" ] && command -v dpkg-deb >/dev/null && command -v apt-get >/dev/null; then
    package=1
fi
[ -n "$prefix" ] || prefix=/usr/local

unit="$destdir/etc/systemd/system/kiosk.service"
share="$destdir$prefix/share/kiosk"
bin="$destdir$prefix/bin/kiosk"

# What an install from source leaves: the files under the prefix, the unit and its drop-ins (`systemctl edit`),
# which a later install would otherwise silently inherit.
remove_files() {
    if [ "$system" = 1 ] && [ -d /run/systemd/system ]; then
        systemctl disable --now kiosk.service 2>/dev/null || true
    fi
    for tool in calibrate touch-test; do
        rm -rf "$(dirname "$unit")/kiosk-$tool.service" "$(dirname "$unit")/kiosk-$tool.service.d"
    done
    rm -f "$unit" "$bin"
    rm -rf "$share" "$unit.d"
}

if [ "$uninstall" = 1 ]; then
    if [ "$system" = 1 ] && dpkg-query -W -f '${Status}' kiosk 2>/dev/null | grep -q "ok installed"; then
        DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq kiosk
    fi
    remove_files
    if [ "$system" = 1 ]; then
        [ -d /run/systemd/system ] && systemctl daemon-reload
        if id kiosk >/dev/null 2>&1; then userdel kiosk; fi
        rm -rf /var/lib/kiosk /var/cache/kiosk
    fi
    echo "install.sh: the kiosk is uninstalled"
    exit 0
fi

if [ "$package" = 1 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsdl2-dev libsdl2-image-dev libpng-dev libjpeg-dev dpkg-dev
    args=()
    [ -n "$binary" ] && args=(--binary "$binary")
    deb="$(./package.sh "${args[@]}" | tail -n1)"
    # A unit installed from source in /etc would hide the package's: an earlier source install goes first.
    if [ -e "$unit" ]; then
        echo "install.sh: removing the earlier install under /usr/local (its drop-ins too)"
        remove_files
        systemctl daemon-reload 2>/dev/null || true
    fi
    # An upgrade stops the kiosk before its files change and starts the new binary (the package's scripts).
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "./$deb"
    echo "install.sh: installed $deb; logs: journalctl -u kiosk -f"
    exit 0
fi

if [ "$system" = 1 ]; then
    # The runtime libraries, including those SDL dlopens (EGL, GLES, udev), and what the build needs.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        libsdl2-2.0-0 libsdl2-image-2.0-0 libegl1 libgles2 libudev1 libegl-mesa0 libgbm1 libgl1-mesa-dri \
        libsdl2-dev libsdl2-image-dev libpng-dev libjpeg-dev
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

# The content is copied beside the old one, and swapped while the kiosk is stopped: never replaced under it.
next="$share.new"
rm -rf "$next"
mkdir -p "$next/deepzoom"
cp -r Assets/kiosk.json Assets/images Assets/media Assets/directory.csv Assets/LICENSES.md "$next/"
cp "$demo" "$next/deepzoom/demo.dzi"
cp -r "${demo%.dzi}_files" "$next/deepzoom/demo_files"
install -m 0644 README.md "$next/README.md"
# The drop-in that runs the kiosk under cage (docs/deploying.md, "Under a compositor"), with this prefix's paths.
sed -e "s|/usr/local/bin/kiosk|$prefix/bin/kiosk|g" -e "s|/usr/local/share/kiosk|$prefix/share/kiosk|g" \
    kiosk-cage.conf > "$next/kiosk-cage.conf"
running=0
if [ "$system" = 1 ] && [ -d /run/systemd/system ] && systemctl --quiet is-active kiosk.service; then
    running=1
    systemctl stop kiosk.service
fi
install -D -m 0755 "$binary" "$bin"
rm -rf "$share.old"
[ -d "$share" ] && mv "$share" "$share.old"
mv "$next" "$share"
rm -rf "$share.old"
mkdir -p "$(dirname "$unit")"
prefix_paths() { sed -e "s|/usr/local/bin/kiosk|$prefix/bin/kiosk|g" -e "s|/usr/local/share/kiosk|$prefix/share/kiosk|g"; }
prefix_paths < kiosk.service > "$unit"
chmod 0644 "$unit"
# The installer's tools, beside it (units.sh): `systemctl start kiosk-calibrate`, `kiosk-touch-test`.
for tool in calibrate touch-test; do
    ./units.sh "$tool" /usr/local/bin/kiosk | prefix_paths > "$(dirname "$unit")/kiosk-$tool.service"
    chmod 0644 "$(dirname "$unit")/kiosk-$tool.service"
done

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
    systemctl enable kiosk.service
    # `enable --now` leaves a running kiosk on its old binary: it was stopped above, and starts anew.
    if [ "$start" = 1 ] || [ "$running" = 1 ]; then
        systemctl restart kiosk.service
    fi
    echo "install.sh: installed under $prefix; logs: journalctl -u kiosk -f"
else
    echo "install.sh: staged under $destdir$prefix and $destdir/etc"
fi
