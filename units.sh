#!/usr/bin/env bash
# Prints the unit of one of the kiosk's installer tools, made from kiosk.service so that it has the same sandbox,
# user, devices and state folder (package.sh and install.sh install them beside kiosk.service).
#
#   ./units.sh calibrate|touch-test BINARY    e.g. ./units.sh calibrate /usr/bin/kiosk > kiosk-calibrate.service
#
# Starting one stops the kiosk first (Conflicts= and After=: the tool takes tty1 only once the kiosk has let go of
# it); when it ends, however it ends, the kiosk starts again.
set -euo pipefail
cd "$(dirname "$0")"
tool="$1"
binary="$2"
case "$tool" in
    calibrate) what="calibrate the touchscreen (five targets)" ;;
    touch-test) what="touch test (every finger shown where it lands)" ;;
    *) echo "units.sh: no tool $tool (calibrate, touch-test)" >&2; exit 2 ;;
esac
sed -e "s|^Description=.*|Description=Touch kiosk: $what|" \
    -e "s|^Conflicts=getty@tty1.service|Conflicts=getty@tty1.service kiosk.service\nOnSuccess=kiosk.service\nOnFailure=kiosk.service|" \
    -e "s|^After=getty@tty1.service|After=kiosk.service getty@tty1.service|" \
    -e "s|^ExecStart=.*|ExecStart=$binary --$tool|" \
    -e "s|^Restart=always|Restart=no|" \
    -e "/^StartLimitIntervalSec=/d" -e "/^StartLimitBurst=/d" -e "/^# A broken display must not become a restart loop/d" \
    -e "/^RestartSec=/d" -e "/^RestartPreventExitStatus=/d" \
    -e "/^# systemctl reload kiosk:/,/^ExecReload=/d" \
    -e "/^# Exit 3 is a configuration error/,/^# instead of failing the same way five times./d" \
    -e "/^\[Install\]/,\$d" \
    -e "1s|.*|# The kiosk's $tool tool (made by units.sh from kiosk.service): sudo systemctl start kiosk-$tool|" \
    kiosk.service
