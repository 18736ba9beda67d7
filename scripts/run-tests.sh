#!/usr/bin/env bash
# Configure, build and run every test.  Extra arguments go to the CMake
# configure step (e.g. -DPTESPEC_SANITIZE=ON).  PTESPEC_BUILD_DIR picks the
# build directory (default: build).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${PTESPEC_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja "$@"
cmake --build "$build"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
