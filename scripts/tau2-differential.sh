#!/usr/bin/env bash
# Replays the shipped tau2 retail and airline runs through tau2's own
# Python and compares every call's result string and every DB hash with
# the Go port's (domains/tau2/retail, domains/tau2/airline: its Python
# replay's call digests and hashes against the ones in its testdata,
# which the port's tests hold it to).
#
# Usage: scripts/tau2-differential.sh [TAU2_SOURCE]
#   TAU2_SOURCE (or the TAU2_SRC environment variable): the directory that
#   holds tau2-bench's `tau2` package (src/ of a tau2-bench checkout).
set -euo pipefail
cd "$(dirname "$0")/.."
src="${1:-${TAU2_SRC:-}}"
if [[ "$src" == "-h" || "$src" == "--help" ]]; then
	sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi
if [[ -z "$src" || ! -d "$src/tau2/domains/retail" ]]; then
	echo "tau2-differential: no tau2 source given, or $src has no tau2/domains/retail." >&2
	echo "  pass the directory holding tau2's python package (or set TAU2_SRC); skipped" >&2
	exit 0
fi
if ! command -v python3 >/dev/null; then
	echo "tau2-differential: python3 is not installed; skipped" >&2
	exit 0
fi
if ! python3 -c 'import pydantic' 2>/dev/null; then
	echo "tau2-differential: python3 lacks pydantic, which tau2's data model needs; skipped" >&2
	exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
TAU2_DUMP="$tmp/dump" go test ./domains/tau2/retail/ -run '^TestDump$' -count=1 >/dev/null
echo "== retail"
python3 scripts/tau2_differential.py "$src" "$tmp/dump" domains/tau2/data
echo "== airline"
python3 domains/tau2/airline/testdata/python_hashes.py "$src" "$tmp"
for f in python-hashes.json python-outputs.json; do
	if ! cmp -s "$tmp/$f" "domains/tau2/airline/testdata/$f"; then
		echo "tau2-differential: airline: tau2's Python gives another $f than the one the port is held to" >&2
		exit 1
	fi
done
echo "airline: every call's tool message and every run's end-state hash equal to the ones the port is held to (domains/tau2/airline/testdata)"
