#!/usr/bin/env bash
# Builds the Debian package of the kiosk (see README, "Installing from the package").
#
#   ./package.sh                  a static release build, then .build/deb/kiosk_<version>_<arch>.deb
#   ./package.sh --arch arm64     the same for a Raspberry Pi (arm64, Debian 13): as root, built by Debian 13's
#                                 Swift 6.0.3 in roots of its own under .build/arm64 (.ci/arm64-build)
#
# Options: --out DIR (default .build/deb); --binary PATH packages that kiosk binary instead of building one;
# --version V names the package V instead of what `kiosk --version` prints (test builds of a bumped version);
# --test-binary PATH packages a binary linked to the Swift toolchain's libraries (tests on a build machine
# only: such a package runs nowhere else); --arch arm64 with --binary takes an arm64 kiosk built by .ci/arm64-build
# (its roots' folder in KIOSK_ARM64_WORK, default .build/arm64).
set -euo pipefail
cd "$(dirname "$0")"

out=.build/deb
binary=""
version=""
arch="$(dpkg --print-architecture)"
toolchain_libs=0
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shift 2 ;;
        --binary) binary="$2"; shift 2 ;;
        --test-binary) binary="$2"; toolchain_libs=1; shift 2 ;;
        --version) version="$2"; shift 2 ;;
        --arch) arch="$2"; shift 2 ;;
        -h | --help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "package.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

# sysroot_depends BINARY: what dpkg-shlibdeps says, for a binary of the sysroot's architecture, whose packages are
# unpacked there, never installed (no dpkg database to ask): for each library the binary needs, the package in
# the sysroot's archives that holds it, at the version its shlibs file asks for (else the one built against).
sysroot_depends() {
    local archives="$sysroot/var/cache/apt/archives" index deb soname name number line deps=()
    index="$(for deb in "$archives"/*.deb; do
        dpkg-deb -c "$deb" | awk -v deb="$deb" '$6 ~ /\.so/ {n = split($6, p, "/"); print p[n], deb}'
    done)"
    for soname in $(readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        deb="$(awk -v s="$soname" '$1 == s {print $2; exit}' <<<"$index")"
        [ -n "$deb" ] || { echo "package.sh: no package in $archives holds $soname" >&2; exit 1; }
        name="${soname%%.so*}"
        number="${soname#*.so}"
        number="${number#.}"
        line="$(dpkg-deb -I "$deb" shlibs 2>/dev/null | awk -v n="$name" -v v="$number" '$1 == n && $2 == v {$1 = $2 = ""; print; exit}')"
        [ -n "$line" ] || line="$(dpkg-deb -f "$deb" Package) (>= $(dpkg-deb -f "$deb" Version | sed 's/-[^-]*$//'))"
        deps+=("$(echo $line)")
    done
    printf '%s\n' "${deps[@]}" | sort -u | paste -sd, | sed 's/,/, /g'
}
# run_kiosk ARGS: the binary packaged, run here (an arm64 one by qemu-user, its libraries from the sysroot).
run_kiosk() { "$binary" "$@"; }
if [ "$arch" = arm64 ] && [ "$(dpkg --print-architecture)" != arm64 ]; then
    arm64_work="${KIOSK_ARM64_WORK:-.build/arm64}"
    if [ -z "$binary" ]; then
        [ "$(id -u)" = 0 ] || {
            echo "package.sh: --arch arm64 builds in Debian 13 roots of its own, made as root: sudo ./package.sh --arch arm64" >&2
            exit 1
        }
        binary="$(.ci/arm64-build "$arm64_work")"
    fi
    sysroot="$arm64_work/sysroot"
    command -v qemu-aarch64-static >/dev/null || {
        echo "package.sh: --arch arm64 runs the arm64 kiosk for its version: sudo apt install qemu-user-static" >&2
        exit 1
    }
    run_kiosk() { qemu-aarch64-static -L "$sysroot" "$binary" "$@"; }
    # Debian ships no static Swift runtime: the binary links trixie's libswiftlang, found by its run path.
    if ! readelf -d "$binary" | grep -q 'runpath: .*/usr/libexec/swift/lib/swift/linux'; then
        echo "package.sh: $binary does not look for the Swift runtime in /usr/libexec/swift/lib/swift/linux" >&2
        exit 1
    fi
elif [ "$arch" != "$(dpkg --print-architecture)" ]; then
    echo "package.sh: --arch $arch: only arm64 is built here (from $(dpkg --print-architecture))" >&2
    exit 2
else
    if [ -z "$binary" ]; then
        # Swift's runtime and Foundation are linked in: the kiosk machine needs no Swift toolchain.
        swift build -c release --product kiosk --static-swift-stdlib
        binary=.build/release/kiosk
    fi
    if [ "$toolchain_libs" = 0 ] && ldd "$binary" | grep -q libswift; then
        echo "package.sh: $binary is linked to the Swift toolchain's libraries; build it with --static-swift-stdlib" >&2
        exit 1
    fi
fi
# The one version: what the program says it is.
[ -n "$version" ] || version="$(run_kiosk --version | awk '{print $2}')"
maintainer="${KIOSK_MAINTAINER:-Touch kiosk maintainers <kiosk@example.org>}"
# The installer's tools that get a unit of their own.
tools="calibrate touch-test"
demo="${KIOSK_DEEPZOOM_DEMO:-Assets/deepzoom/demo.dzi}"
if [ ! -f "$demo" ]; then
    swift run -c release kiosk-deepzoom-demo --out "$demo"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/kiosk_${version}_${arch}"
share="$root/usr/share/kiosk"
doc="$root/usr/share/doc/kiosk"

install -D -m 0755 "$binary" "$root/usr/bin/kiosk"
# (an arm64 binary comes stripped by its linker: .ci/arm64-build)
[ "$toolchain_libs" = 1 ] || [ -n "${sysroot:-}" ] || strip --strip-unneeded "$root/usr/bin/kiosk"
# The demo content is the package's; an operator's content lives in /srv/kiosk, which dpkg never touches.
mkdir -p "$share/deepzoom"
cp -r Assets/kiosk.json Assets/images Assets/media "$share/"
# A row's thumbnail is relative to the manifest's folder, which is /etc/kiosk for the package's manifest.
sed -e 's|,images/|,/usr/share/kiosk/images/|g' Assets/directory.csv > "$share/directory.csv"
cp "$demo" "$share/deepzoom/demo.dzi"
cp -r "${demo%.dzi}_files" "$share/deepzoom/demo_files"
# The operator's manifest: a conffile, kept across upgrades. It starts as the demo, by absolute paths.
install -d "$root/etc/kiosk"
sed -e 's|"images/|"/usr/share/kiosk/images/|g' -e 's|"media/|"/usr/share/kiosk/media/|g' -e 's|"deepzoom/|"/usr/share/kiosk/deepzoom/|g' \
    -e 's|"rows": "\([^/"]*\)"|"rows": "/usr/share/kiosk/\1"|g' \
    Assets/kiosk.json > "$root/etc/kiosk/kiosk.json"
# The units, with the package's paths: the kiosk, and the installer's tools beside it (units.sh).
install -d "$root/lib/systemd/system"
package_paths() {
    sed -e "s|/usr/local/bin/kiosk|/usr/bin/kiosk|g" \
        -e "s|KIOSK_CONFIG=/usr/local/share/kiosk/kiosk.json|KIOSK_CONFIG=/etc/kiosk/kiosk.json|" \
        -e "s|file:///usr/local/share/kiosk/README.md|file:///usr/share/doc/kiosk/README.md|"
}
package_paths < kiosk.service > "$root/lib/systemd/system/kiosk.service"
# The drop-in that runs the kiosk under cage instead (docs/deploying.md, "Under a compositor").
package_paths < kiosk-cage.conf | sed -e "s|/usr/local/share/kiosk/|/usr/share/kiosk/|" > "$share/kiosk-cage.conf"
for tool in $tools; do
    ./units.sh "$tool" /usr/bin/kiosk | package_paths > "$root/lib/systemd/system/kiosk-$tool.service"
done
# The system user, and the groups of the display, touch and GPU devices (made if the machine has none).
install -d "$root/usr/lib/sysusers.d"
cat > "$root/usr/lib/sysusers.d/kiosk.conf" <<'EOF'
u kiosk - "Touch kiosk" /var/lib/kiosk /usr/sbin/nologin
m kiosk video
m kiosk input
m kiosk render
EOF
install -d "$doc"
install -m 0644 README.md "$doc/README.md"
cat > "$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: kiosk

Files: *
Copyright: 2026 the touch kiosk's authors
License: MIT

Files: usr/share/kiosk/*
Copyright: 2026 the touch kiosk's authors
License: MIT
Comment: the demo content; see /usr/share/kiosk/LICENSES.md.

License: MIT
$(tail -n +5 LICENSE | sed -e 's/^$/./' -e 's/^/ /')
EOF
install -m 0644 Assets/LICENSES.md "$share/LICENSES.md"
if [ -n "${sysroot:-}" ]; then
    # Debian's Swift runtime (libswiftlang) is in a folder of its own, which the dynamic linker is not told of: the
    # binary's run path names it, as Debian's own Swift programs do.
    install -d "$root/usr/share/lintian/overrides"
    printf '# The Swift runtime of libswiftlang is found by this run path alone.
kiosk: custom-library-search-path RUNPATH /usr/libexec/swift/lib/swift/linux [usr/bin/kiosk]
' \
        >"$root/usr/share/lintian/overrides/kiosk"
fi
date="$(git log -1 --format=%aD 2>/dev/null || date -R)"
printf 'kiosk (%s) stable; urgency=medium\n\n  * Built from %s.\n\n -- %s  %s\n' \
    "$version" "$(git rev-parse --short HEAD 2>/dev/null || echo source)" "$maintainer" "$date" | gzip -9n > "$doc/changelog.gz"
# A manual page: what `kiosk --help` says.
install -d "$root/usr/share/man/man1"
{
    printf '.TH KIOSK 1 "" "kiosk %s" "User Commands"\n.SH NAME\nkiosk \\- touch kiosk with iPhone-like scrolling\n' "$version"
    printf '.SH DESCRIPTION\n.nf\n'
    run_kiosk --help | sed -e 's/\\/\\e/g' -e 's/^\./\\\&./'
    printf '.fi\n.SH SEE ALSO\n/usr/share/doc/kiosk/README.md\n'
} | gzip -9n > "$root/usr/share/man/man1/kiosk.1.gz"
find "$root" -type d -exec chmod 0755 {} +
find "$root/usr/share" "$root/etc" "$root/lib" "$root/usr/lib" -type f -exec chmod 0644 {} +
# (MAINTAINER is the operator's to set: KIOSK_MAINTAINER="Name <address>" ./package.sh)

# Depends: the libraries the binary links (dpkg-shlibdeps), what SDL dlopens at run time, procps for the
# unit's ExecReload (/bin/kill), and the Noto fonts the demo's words are drawn in (found with fontconfig).
# Recommends: espeak-ng, the speech of audio mode (docs/accessibility.md), run as a separate program; without
# it the kiosk runs and says once that it does not speak.
# libavformat, libavcodec and libswresample (their Debian names from the versions the kiosk was built against),
# which the kiosk loads at its first film (docs/video.md); without them a film shows its poster and one line says why.
# Suggests: node_exporter, which serves the kiosk's metrics file to Prometheus (docs/operations.md); VA-API's
# drivers, with which Intel and AMD graphics decode films (docs/video.md); cage, seatd and Xwayland, to run the
# kiosk under a compositor with kiosk-cage.conf (docs/deploying.md).
mkdir -p "$work/debian" "$root/DEBIAN"
printf 'Source: kiosk\n\nPackage: kiosk\nArchitecture: any\n' > "$work/debian/control"
ignore=()
[ "$toolchain_libs" = 1 ] && ignore=(--ignore-missing-info)
if [ -n "${sysroot:-}" ]; then
    shlibs="$(sysroot_depends "$root/usr/bin/kiosk")"
    pkg_config() { PKG_CONFIG_SYSROOT_DIR="$sysroot" PKG_CONFIG_LIBDIR="$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig" pkg-config "$@"; }
else
    shlibs="$(cd "$work" && dpkg-shlibdeps -O "${ignore[@]}" "$root/usr/bin/kiosk" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
    pkg_config() { pkg-config "$@"; }
fi
size="$(du -sk --exclude=DEBIAN "$root" | cut -f1)"
video="libavformat$(pkg_config --modversion libavformat | cut -d. -f1), libavcodec$(pkg_config --modversion libavcodec | cut -d. -f1), libswresample$(pkg_config --modversion libswresample | cut -d. -f1)"
cat > "$root/DEBIAN/control" <<EOF
Package: kiosk
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $shlibs, libegl1, libgles2, libegl-mesa0, libgbm1, libgl1-mesa-dri, libudev1, systemd, procps, fonts-noto-core
Recommends: espeak-ng, $video
Suggests: prometheus-node-exporter, va-driver-all, cage, seatd, xwayland
Section: misc
Priority: optional
Description: touch kiosk with iPhone-like scrolling, fullscreen on the display
 Turns a Linux machine with a touchscreen into a kiosk whose content scrolls,
 flings, bounces, pages and zooms as people expect from an iPhone. It runs
 fullscreen on kmsdrm (no X) as a hardened systemd service, from a manifest
 in /etc/kiosk/kiosk.json.
 .
 Its health is written for prometheus-node-exporter's textfile collector to
 /var/lib/kiosk/kiosk.prom: add the user prometheus to the group kiosk and
 give node_exporter --collector.textfile.directory=/var/lib/kiosk (see
 /usr/share/doc/kiosk/README.md, "Many kiosks").
EOF
echo /etc/kiosk/kiosk.json > "$root/DEBIAN/conffiles"
# The maintainer scripts, in Debian's way (deb-systemd-helper and deb-systemd-invoke, as debhelper writes them).
# An upgrade stops the kiosk before its files are replaced (never while it reads them) and starts the new
# binary after, if it was running; remove stops it; purge takes the state, the cache, the overrides and the user.
cat > "$root/DEBIAN/prerm" <<'SCRIPT'
#!/bin/sh
set -e
if [ -d /run/systemd/system ] && { [ "$1" = upgrade ] || [ "$1" = remove ]; }; then
    if [ "$1" = upgrade ] && systemctl --quiet is-active kiosk.service; then
        touch /run/kiosk.restart-after-upgrade
    fi
    deb-systemd-invoke stop kiosk.service kiosk-calibrate.service kiosk-touch-test.service >/dev/null || true
fi
SCRIPT
cat > "$root/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = configure ] || [ "$1" = abort-upgrade ] || [ "$1" = abort-deconfigure ] || [ "$1" = abort-remove ]; then
    systemd-sysusers kiosk.conf
    deb-systemd-helper unmask kiosk.service >/dev/null || true
    # was-enabled is true on a first install; an operator's disable is kept across upgrades.
    if deb-systemd-helper --quiet was-enabled kiosk.service; then
        deb-systemd-helper enable kiosk.service >/dev/null || true
    else
        deb-systemd-helper update-state kiosk.service >/dev/null || true
    fi
    if [ -d /run/systemd/system ]; then
        systemctl --system daemon-reload >/dev/null || true
        if [ -z "$2" ] || [ -e /run/kiosk.restart-after-upgrade ]; then
            rm -f /run/kiosk.restart-after-upgrade
            deb-systemd-invoke restart kiosk.service >/dev/null || true
        fi
    fi
fi
SCRIPT
cat > "$root/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
if [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null || true
fi
if [ "$1" = remove ]; then
    deb-systemd-helper mask kiosk.service >/dev/null || true
fi
if [ "$1" = purge ]; then
    deb-systemd-helper purge kiosk.service >/dev/null || true
    deb-systemd-helper unmask kiosk.service >/dev/null || true
    rm -rf /var/lib/kiosk /var/cache/kiosk /etc/systemd/system/kiosk.service.d \
        /etc/systemd/system/kiosk-calibrate.service.d /etc/systemd/system/kiosk-touch-test.service.d
    rmdir /etc/kiosk 2>/dev/null || true
    if getent passwd kiosk >/dev/null; then userdel kiosk || true; fi
fi
SCRIPT
chmod 0755 "$root/DEBIAN/prerm" "$root/DEBIAN/postinst" "$root/DEBIAN/postrm"

mkdir -p "$out"
deb="$out/kiosk_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
