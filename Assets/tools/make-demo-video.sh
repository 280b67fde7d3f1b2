#!/usr/bin/env bash
# The demo's film (Assets/media/opening.mp4, CC0 like the rest of the demo): eight seconds of FFmpeg's slowly
# turning colour gradients at 960x540, 30 frames a second, H.264 in MP4, the museum's colours. Its captions
# (opening.*.vtt) are written by hand beside it; its poster is images/opening-poster.jpg. Needs Debian's ffmpeg; run from the repository's root:
#   bash Assets/tools/make-demo-video.sh
set -euo pipefail
cd "$(dirname "$0")/../media"
ffmpeg -v error -y -f lavfi \
    -i "gradients=s=960x540:r=30:d=8:speed=0.012:n=4:c0=0x2c5f4f:c1=0xe9c46a:c2=0xf4a261:c3=0x264653:seed=42" \
    -pix_fmt yuv420p -c:v libx264 -preset slow -crf 30 -g 60 -movflags +faststart opening.mp4
# Its poster (shown until the first frame, and where the film cannot play): the film's frame at 1 s.
ffmpeg -v error -y -ss 1 -i opening.mp4 -frames:v 1 -q:v 4 ../images/opening-poster.jpg
ls -l opening.mp4 ../images/opening-poster.jpg
