#!/usr/bin/env bash
# Differential test of the tau-bench airline port against tau-bench's own
# Python tools, on the call sequences the search attacker builds
# (domains/tauair/differential_test.go). Needs python3 (standard library
# only) and a tau-bench checkout: give its path, or let this clone the
# pinned commit into a temporary directory. Nothing of tau-bench is
# committed to this repository.
# Usage: scripts/tau-differential.sh [TAU_BENCH_DIR]
set -euo pipefail
case "${1:-}" in -h | --help)
	sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac
cd "$(dirname "$0")/.."
commit=59a200c6d575d595120f1cb70fea53cef0632f6b
dir="${1:-}"
if [ -z "$dir" ]; then
	dir="$(mktemp -d)"
	trap 'rm -rf "$dir"' EXIT
	git clone -q https://github.com/sierra-research/tau-bench "$dir"
	git -C "$dir" checkout -q "$commit"
fi
if [ ! -f "$dir/tau_bench/envs/airline/tools/__init__.py" ]; then
	echo "tau-differential: $dir is not a tau-bench checkout (no tau_bench/envs/airline/tools/__init__.py)" >&2
	exit 2
fi
TAU_BENCH_DIR="$(cd "$dir" && pwd)" go test ./domains/tauair -run TestDifferential -count=1 -timeout 20m -v
