#!/usr/bin/env bash
# Configure, build and run the main job: `ptespec demo`.  Arguments go to
# the demo (e.g. --seed 42 --granule 16k --strategy simple --per-entry).
# PTESPEC_BUILD_DIR picks the build directory (default: build).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${PTESPEC_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja
cmake --build "$build" --target ptespec
exec "./$build/cli/ptespec" demo "$@"
