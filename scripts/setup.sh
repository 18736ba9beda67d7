#!/usr/bin/env bash
# Installs what ptespec needs to build, test and plot on Debian bookworm,
# from Debian's own packages and nothing else.
#
# Idempotent and fast when there is nothing to do: apt runs only if some
# package is missing.  Runs as root, or through sudo when there is one.
set -euo pipefail

packages=(
	build-essential cmake ninja-build pkg-config g++
	libgtest-dev googletest libbenchmark-dev librapidcheck-dev libz3-dev
	libfmt-dev libcli11-dev nlohmann-json3-dev gnuplot-nox libtcmalloc-minimal4
)

missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done

if ((${#missing[@]} == 0)); then
	echo "setup: all ${#packages[@]} packages are installed"
	exit 0
fi

as_root=()
if ((EUID != 0)); then
	if ! command -v sudo >/dev/null; then
		echo "setup: root (or sudo) is needed to install: ${missing[*]}" >&2
		exit 1
	fi
	as_root=(sudo)
fi

echo "setup: installing ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
