#!/usr/bin/env bash
# Replays the shipped tau2 telecom runs through tau2's own Python and
# compares every call's result string, both databases' hashes (end and
# gold), db_match and every env assertion with the Go port's
# (domains/tau2/telecom) and with the recorded ones; and each task's gold
# run's hashes and db_match, by the hashes and by the port's payload.
#
# Usage: scripts/tau2-telecom-differential.sh [--hashes] [TAU2_SOURCE]
#   --hashes: print both databases' hashes, run's and gold's, of every run.
#   TAU2_SOURCE (or the TAU2_SRC environment variable): the directory that
#   holds tau2-bench's `tau2` package (src/ of a tau2-bench checkout).
set -euo pipefail
cd "$(dirname "$0")/.."
hashes=()
if [[ "${1:-}" == "--hashes" ]]; then
	hashes=(--hashes)
	shift
fi
src="${1:-${TAU2_SRC:-}}"
if [[ "$src" == "-h" || "$src" == "--help" ]]; then
	sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi
if [[ -z "$src" || ! -d "$src/tau2/domains/telecom" ]]; then
	echo "tau2-telecom-differential: no tau2 source given, or $src has no tau2/domains/telecom." >&2
	echo "  pass the directory holding tau2's python package (or set TAU2_SRC); skipped" >&2
	exit 0
fi
if ! command -v python3 >/dev/null; then
	echo "tau2-telecom-differential: python3 is not installed; skipped" >&2
	exit 0
fi
if ! python3 -c 'import pydantic, tomllib' 2>/dev/null; then
	echo "tau2-telecom-differential: python3 lacks pydantic or tomllib (Python 3.11+), which tau2's telecom data needs; skipped" >&2
	exit 0
fi
dump="$(mktemp)"
trap 'rm -f "$dump"' EXIT
TAU2_TELECOM_DUMP="$dump" go test ./domains/tau2/telecom/ -run '^TestDump$' -count=1 >/dev/null
python3 scripts/tau2_telecom_differential.py "${hashes[@]}" "$src" domains/tau2/data "$dump"
