#!/usr/bin/env bash
# The package as a plugin author meets it: install ptespec into a scratch
# prefix, configure and build examples/plugin out of tree against it with
# find_package(ptespec), then load the module into the installed program.
#
# Usage: install_test.sh CMAKE BUILD_DIR EXAMPLE_DIR WORK_DIR GENERATOR CXX
set -euo pipefail
cmake_bin=$1 build_dir=$2 example_dir=$3 work=$4 generator=$5 cxx=$6

rm -rf "$work"
mkdir -p "$work"
"$cmake_bin" --install "$build_dir" --prefix "$work/prefix"

for f in bin/ptespec include/ptespec/model/machine.h include/ptespec/impl/plugin_api.h include/ptespec/mm/caller.h \
	include/ptespec/impl/mainline.h lib/cmake/ptespec/ptespecConfig.cmake \
	lib/cmake/ptespec/ptespecConfigVersion.cmake; do
	[[ -e $work/prefix/$f ]] || { echo "FAIL: $f was not installed"; exit 1; }
done

# Nothing from the build tree: the example sees the installed headers only.
"$cmake_bin" -S "$example_dir" -B "$work/build" -G "$generator" \
	-DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$cxx"
"$cmake_bin" --build "$work/build"

plugin=$work/build/gather_all.so
[[ -f $plugin ]] || { echo "FAIL: the example built no $plugin"; exit 1; }

listing=$("$work/prefix/bin/ptespec" --plugin "$plugin" list)
echo "$listing"
grep -q "^gather-all " <<<"$listing" || { echo "FAIL: gather-all is not listed"; exit 1; }

# The plugin's strategy really runs: the spec holds, the run folds (its
# mapping is mainline's), and ptep_get on the folded run reads the entry
# and then all CONT_PTES entries of the run.
rc=0
"$work/prefix/bin/ptespec" --plugin "$plugin" demo --strategy gather-all --seed 1 --primitives \
	>"$work/demo.txt" || rc=$?
fail() {
	cat "$work/demo.txt"
	echo "FAIL: $*"
	exit 1
}
((rc == 0)) || fail "demo of gather-all exited $rc"
grep -q "|OOOOOOOOOOOOOOOO|oooo............|" "$work/demo.txt" || fail "gather-all did not fold folio A"
reads=$(awk '/\[3\] ptep_get\(#0\)/ { on = 1; next } /\[4\]/ { on = 0 } on && $1 == "read" { n++ } END { print n + 0 }' \
	"$work/demo.txt")
((reads == 17)) || fail "ptep_get(#0) made $reads reads, expected 1 + 16"
# The example caller plugin: built beside it, listed among the callers.
caller_plugin=$work/build/run_batch.so
[[ -f $caller_plugin ]] || { echo "FAIL: the example built no $caller_plugin"; exit 1; }
callers=$("$work/prefix/bin/ptespec" --plugin "$caller_plugin" list)
grep -q "^  run-batch " <<<"$callers" || { echo "$callers"; echo "FAIL: run-batch is not listed"; exit 1; }
echo "PASS: installed, built out of tree, loaded and ran gather-all; loaded the caller run-batch"
