#!/usr/bin/env bash
# Build and run every CUDA example on a machine with an NVIDIA GPU (e.g. an H200: ARCH=sm_90).
# Each example prints deterministic output and ends with CHECK PASS; the script fails otherwise.
set -euo pipefail
cd "$(dirname "$0")"
ARCH="${ARCH:-sm_90}"
NVCC="${NVCC:-nvcc}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
status=0
for src in *.cu; do
    exe="$OUT/${src%.cu}"
    "$NVCC" -arch="$ARCH" -O3 -o "$exe" "$src"
    if output="$(timeout 60 "$exe")" && grep -q '^CHECK PASS$' <<<"$output"; then
        echo "PASS $src: $(head -1 <<<"$output")"
    else
        echo "FAIL $src:"; echo "$output"; status=1
    fi
done
exit $status
