#!/usr/bin/env bash
# Scores every tau2 witness parthack's bench writes with tau2-bench's own
# Python (strict Environment.set_state and evaluate_simulation) and holds
# parthack's claims to it: each reward and component, and whether the
# witness ends in H's state, gold's, or elsewhere.
#
# Usage: scripts/tau2-witness-differential.sh [TAU2_SRC] [DIR...]
#   TAU2_SRC (or the TAU2_SRC environment variable): the src/ folder of a
#   tau2-bench checkout (a2c0247). DIR: folders bench --witnesses wrote;
#   none: bench is run here on the three tau2 domains into a temporary one.
set -euo pipefail
cd "$(dirname "$0")/.."
src="${1:-${TAU2_SRC:-}}"
if [[ "$src" == "-h" || "$src" == "--help" ]]; then
	sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
fi
if [[ -z "$src" || ! -f "$src/tau2/evaluator/evaluator.py" ]]; then
	echo "tau2-witness-differential: no tau2 source given, or $src has no tau2/evaluator/evaluator.py." >&2
	echo "  pass the src/ folder of a tau2-bench checkout (or set TAU2_SRC); skipped" >&2
	exit 0
fi
if ! command -v python3 >/dev/null || ! python3 -c 'import pydantic, tomllib' 2>/dev/null; then
	echo "tau2-witness-differential: needs python3 (3.11+) with pydantic, which tau2's data model needs; skipped" >&2
	exit 0
fi
shift || true
dirs=("$@")
if [[ ${#dirs[@]} -eq 0 ]]; then
	tmp="$(mktemp -d)"
	trap 'rm -rf "$tmp"' EXIT
	go build -o "$tmp/parthack" .
	for d in tau2-airline tau2-retail tau2-telecom; do
		echo "== bench --domain $d --witnesses" >&2
		"$tmp/parthack" bench --domain "$d" --witnesses "$tmp/$d" >/dev/null
		dirs+=("$tmp/$d")
	done
fi
python3 scripts/tau2_witness_differential.py "$src" "${dirs[@]}"
