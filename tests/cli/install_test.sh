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

for f in bin/ptespec include/ptespec/model/machine.h include/ptespec/impl/plugin_api.h \
	include/ptespec/impl/mainline.h lib/cmake/ptespec/ptespecConfig.cmake \
	lib/cmake/ptespec/ptespecConfigVersion.cmake; do
	[[ -e $work/prefix/$f ]] || { echo "FAIL: $f was not installed"; exit 1; }
done

# Nothing from the build tree: the example sees the installed headers only.
"$cmake_bin" -S "$example_dir" -B "$work/build" -G "$generator" \
	-DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$cxx"
"$cmake_bin" --build "$work/build"

plugin=$work/build/no_cont.so
[[ -f $plugin ]] || { echo "FAIL: the example built no $plugin"; exit 1; }

listing=$("$work/prefix/bin/ptespec" --plugin "$plugin" list)
echo "$listing"
grep -q "^no-cont " <<<"$listing" || { echo "FAIL: no-cont is not listed"; exit 1; }

# The plugin's strategy really runs: never folds, and the spec holds.
rc=0
"$work/prefix/bin/ptespec" --plugin "$plugin" demo --strategy no-cont --seed 1 >"$work/demo.txt" || rc=$?
if ((rc != 0)); then
	cat "$work/demo.txt"
	echo "FAIL: demo of no-cont exited $rc"
	exit 1
fi
grep -q "|oooooooooooooooo|oooo............|" "$work/demo.txt" || {
	cat "$work/demo.txt"
	echo "FAIL: no-cont mapped folio A with CONT"
	exit 1
}
echo "PASS: installed, built out of tree, loaded and ran no-cont"
