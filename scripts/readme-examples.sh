#!/usr/bin/env bash
# Check (or regenerate) every tool output shown in README.md.
#
# A generated block is a fenced block whose line before is a marker:
#
#   <!-- example: check --all --seed 1 -->
#   <!-- example lines=1-14,$-2-$: check --all --seed 1 -->
#
# The words after "example:" are passed to ptespec, split on blanks (no
# quoting, no globbing). The block holds "$ ptespec ARGS" and then the
# command's stdout (stderr, its progress, is dropped; its exit status is
# not compared, but 2 or 3 -- bad usage, internal error -- is a broken
# example). lines= keeps only those lines of stdout: comma-separated
# ranges A-B, where A and B are line numbers, "$" (the last line) or "$-K";
# a line "..." stands between two ranges that are not adjacent.
#
# Usage: scripts/readme-examples.sh [--update] [--file FILE]
#   no option  compare each block with the tool's output: exit 0 if all
#              match, 1 with a unified diff of each that differs
#   --update   rewrite the blocks in place from the tool's output
#   --file F   the markdown file (default: README.md at the repository top)
# Exit 2 on bad usage or a malformed marker. The binary is $PTESPEC_BIN,
# default ./build/cli/ptespec (a relative path is taken from the current
# directory).
set -euo pipefail

usage() { echo "usage: $0 [--update] [--file FILE]" >&2; exit 2; }

update=0
file=
while [ $# -gt 0 ]; do
	case "$1" in
	--update) update=1 ;;
	--file) [ $# -ge 2 ] || usage; file=$2; shift ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "$0: unknown argument '$1'" >&2; usage ;;
	esac
	shift
done

top=$(cd "$(dirname "$0")/.." && pwd)
file=${file:-$top/README.md}
bin=${PTESPEC_BIN:-./build/cli/ptespec}
[ -f "$file" ] || { echo "$0: no file '$file'" >&2; exit 2; }
[ -x "$bin" ] || { echo "$0: PTESPEC_BIN '$bin' is not an executable (build first, or set PTESPEC_BIN)" >&2; exit 2; }
case "$bin" in /*) ;; *) bin=$PWD/$bin ;; esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One line per example: marker line, opening fence line, closing fence
# line, lines spec ("-" for all), args. A marker not followed by a fence,
# or a fence never closed, is a malformed file.
awk '
	function fail(msg) { print FILENAME ":" NR ": " msg > "/dev/stderr"; bad = 1; exit 2 }
	pending && !open {
		if ($0 !~ /^```/) fail("an example marker must be followed by a fence")
		open = 1; start = NR; next
	}
	open { if ($0 ~ /^```[ \t]*$/) { print mark, start, NR, spec, args; open = 0; pending = 0 } next }
	/^<!-- example/ {
		if (!match($0, /^<!-- example( lines=[0-9$,-]+)?: .+ -->$/)) fail("malformed marker: " $0)
		line = $0; sub(/^<!-- example/, "", line); sub(/ -->$/, "", line)
		spec = "-"
		if (line ~ /^ lines=/) { spec = line; sub(/^ lines=/, "", spec); sub(/:.*/, "", spec) }
		args = line; sub(/^[^:]*: /, "", args)
		mark = NR; pending = 1
	}
	END { if (!bad && pending) { print FILENAME ": example at line " mark " has no closed block" > "/dev/stderr"; exit 2 } }
' "$file" > "$tmp/list" || exit 2

# select SPEC: keep the lines of stdin that SPEC names (see the header).
select_lines() {
	awk -v spec="$1" '
		{ line[NR] = $0 }
		function num(s) { if (s == "$") return NR; if (s ~ /^\$-[0-9]+$/) return NR - substr(s, 3); return s + 0 }
		END {
			if (spec == "-") { for (i = 1; i <= NR; i++) print line[i]; exit }
			n = split(spec, r, ","); last = 0
			for (k = 1; k <= n; k++) {
				if (!match(r[k], /^([0-9]+|\$|\$-[0-9]+)-([0-9]+|\$|\$-[0-9]+)$/)) {
					print "bad lines range: " r[k] > "/dev/stderr"; exit 2
				}
				# "$-K-$": the dash after K ends the first bound.
				a = r[k]; if (a ~ /^\$-[0-9]+-/) { sub(/-[^-]*$/, "", a) } else { sub(/-.*/, "", a) }
				b = substr(r[k], length(a) + 2)
				from = num(a); to = num(b); if (from < 1) from = 1; if (to > NR) to = NR
				if (last && from > last + 1) print "..."
				for (i = from; i <= to; i++) print line[i]
				if (to > last) last = to
			}
		}'
}

status=0
i=0
while read -r mark start end spec args; do
	i=$((i + 1))
	read -r -a words <<< "$args"
	rc=0
	(cd "$top" && "$bin" "${words[@]}") > "$tmp/raw.$i" 2> "$tmp/err.$i" || rc=$?
	if [ "$rc" -eq 2 ] || [ "$rc" -eq 3 ]; then
		echo "$file:$mark: 'ptespec $args' exited $rc: $(head -n 1 "$tmp/err.$i")" >&2
		status=1
		continue
	fi
	{ echo "\$ ptespec $args"; select_lines "$spec" < "$tmp/raw.$i"; } > "$tmp/new.$i" || exit 2
	if [ "$end" -gt $((start + 1)) ]; then
		sed -n "$((start + 1)),$((end - 1))p" "$file"
	fi > "$tmp/old.$i"
	echo "$i $start $end" >> "$tmp/done"
	if ! cmp -s "$tmp/old.$i" "$tmp/new.$i"; then
		if [ "$update" -eq 1 ]; then
			echo "$file:$mark: updated 'ptespec $args'" >&2
		else
			diff -u --label "$file:$mark (in the file)" --label "ptespec $args (now)" \
				"$tmp/old.$i" "$tmp/new.$i" || true
			status=1
		fi
	fi
done < "$tmp/list"

if [ "$update" -eq 1 ] && [ -f "$tmp/done" ]; then
	# Rebuild the file: each generated block's body replaced, all else kept.
	awk -v dir="$tmp" '
		FNR == NR { from[$2] = $1; to[$1] = $3; next }
		skip && FNR == skip { skip = 0 }
		skip { next }
		{ print }
		FNR in from {
			k = from[FNR]; f = dir "/new." k
			while ((getline l < f) > 0) print l
			close(f); skip = to[k]
		}
	' "$tmp/done" "$file" > "$tmp/out"
	cat "$tmp/out" > "$file"
fi
exit "$status"
