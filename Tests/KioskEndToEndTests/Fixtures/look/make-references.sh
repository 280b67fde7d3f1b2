#!/usr/bin/env bash
# Draws the reference screenshots of every look replay in every rotation with the kiosk binary given.
#   Tests/KioskEndToEndTests/Fixtures/look/make-references.sh .build/release/kiosk
set -euo pipefail
kiosk=$(realpath "$1")
cd "$(dirname "$0")"
mkdir -p references
while read -r log scene times; do
    for r in 0 90 180 270; do
        shots=()
        for t in $times; do shots+=(--screenshot "$t:references/${log%.jsonl}-r$r-$t.png"); done
        "$kiosk" --headless 400x240 --rotate "$r" --config kiosk.json --scene "$scene" --replay "$log" "${shots[@]}"
    done
done < shots.txt
