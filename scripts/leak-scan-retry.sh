#!/usr/bin/env bash
# Runs a sanitized test binary ("$@") and, when the run ended only because
# LeakSanitizer's own scan at exit failed -- its tracer thread, which stops
# the process to look for leaks, crashed ("LeakSanitizer has encountered a
# fatal error") -- runs it again, up to twice.  Such a run says nothing of
# the program.  A leak the scan finds ("detected memory leaks"), an
# AddressSanitizer or UndefinedBehaviorSanitizer report, or a test that
# failed are never run again: the exit status is the run's own.
# CMake sets this as the sanitized test binaries' CROSSCOMPILING_EMULATOR,
# so CTest runs every sanitized test through it.
set -uo pipefail

log=$(mktemp /tmp/ptespec-test-XXXXXX)
trap 'rm -f "$log"' EXIT
for attempt in 1 2 3; do
	"$@" 2>&1 | tee "$log"
	status=${PIPESTATUS[0]}
	if [ "$status" -eq 0 ] || [ "$attempt" -eq 3 ] ||
		! grep -q "LeakSanitizer has encountered a fatal error" "$log" ||
		grep -q -e "detected memory leaks" -e "ERROR: AddressSanitizer" -e "runtime error:" \
			-e "^\[  FAILED  \]" "$log"; then
		exit "$status"
	fi
	echo "== the leak scan at exit failed by itself (its tracer crashed); running again"
done
