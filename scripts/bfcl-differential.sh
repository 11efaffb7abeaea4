#!/usr/bin/env bash
# Scores BFCL multi-turn result files with BFCL's own Python checker and
# holds parthack's verdicts to it: each entry's valid, error_type and turn
# checks; replays each inference_log with BFCL's execution; holds the
# claims of bench's witnesses to BFCL's checks.
#
# Usage: scripts/bfcl-differential.sh [--sum312] [FILE|DIR...]
#   FILE: a result file in BFCL's format (one entry a line, gzipped or not);
#   DIR: a folder of them (*_result.json[.gz], *.jsonl, *.bfcl.json), such
#   as bench --witnesses' folder (each witness's RUN.TARGET.bfcl.json is
#   one BFCL result entry). None: the runs next to BFCL's source.
#   BFCL_SRC: the folder holding BFCL's multi_turn_checker.py,
#   multi_turn_utils.py and func_source_code/ (default: the nearest
#   shared/realworld/bfcl/source above the repository).
#   --sum312: BFCL's math_api.py gets Python 3.12's float sum(), the runs'.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
	sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi
flags=()
if [[ "${1:-}" == "--sum312" ]]; then
	flags+=(--sum312)
	shift
fi
src="${BFCL_SRC:-}"
if [[ -z "$src" ]]; then
	d="$PWD"
	while [[ "$d" != "/" ]]; do
		if [[ -f "$d/shared/realworld/bfcl/source/multi_turn_checker.py" ]]; then
			src="$d/shared/realworld/bfcl/source"
			break
		fi
		d="$(dirname "$d")"
	done
fi
if [[ -z "$src" || ! -f "$src/multi_turn_checker.py" ]]; then
	echo "bfcl-differential: no BFCL source (set BFCL_SRC to the folder holding multi_turn_checker.py); skipped" >&2
	exit 0
fi
if ! command -v python3 >/dev/null || ! python3 -c 'import mpmath' 2>/dev/null; then
	echo "bfcl-differential: needs python3 with mpmath, which BFCL's MathAPI imports; skipped" >&2
	exit 0
fi
files=("$@")
if [[ ${#files[@]} -eq 0 ]]; then
	for f in "$src"/../runs/*_result.json.gz; do
		[[ -e "$f" ]] && files+=("$f")
	done
	if [[ ${#files[@]} -eq 0 ]]; then
		echo "bfcl-differential: no result files given and none in $src/../runs" >&2
		exit 2
	fi
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go run ./domains/bfcl/bfclverdicts "${files[@]}" >"$tmp/verdicts.jsonl"
python3 scripts/bfcl_differential.py "${flags[@]}" "$src" domains/bfcl/data "$tmp/verdicts.jsonl" "${files[@]}"
