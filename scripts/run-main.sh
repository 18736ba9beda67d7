#!/usr/bin/env bash
# Configure, build and run the main job: `ptespec test --all`.  Arguments go
# to it (default: --seed 1 --cases 2000, the run docs/thread.md's table shows).
# PTESPEC_BUILD_DIR picks the build directory (default: build).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${PTESPEC_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja
cmake --build "$build" --target ptespec
if [ "$#" -eq 0 ]; then
	set -- --seed 1 --cases 2000
fi
exec "./$build/cli/ptespec" test --all "$@"
