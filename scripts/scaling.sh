#!/usr/bin/env bash
# Issue 31's targets 2 and 3 on the machine it runs on: first the
# commands that read no run (`tasks validate --domain D`, a BFCL entry's
# replay, `domain list`) on one core and on CORES; then `bench --format json` of
# every domain, once on one core (GOMAXPROCS=1) and REPEAT times (default
# 3) on CORES (default 16), every output byte-identical (sha256), and per
# domain one line: the one-core wall time, the CORES-core median [min–max]
# and their ratio, then the CPU time of each (user+sys: the CORES-core
# run's beside the one-core run's says how much more work it did) and
# the cores it kept busy on average (CPU ÷ wall); then one run on half
# the cores and one on all of them with GOGC=400 (GOGC_TRY), the garbage
# collector running a quarter as often (EXTRA=0 leaves both out).
#
# It needs a built binary and nothing else: no Go toolchain, no network,
# no checkout (the domains' runs are in the binary). BFCL multi-turn is
# benched too when a BFCL result file is given (its runs are not shipped),
# e.g. /work/shared/realworld/bfcl/runs/gpt-oss-120b-2025-11-12-main-multi_turn_base_result.json.gz.
#
# Before the domains, the machine's own ceiling for this work: CORES
# one-core processes of `bench --domain tau2-retail` side by side, against
# one alone (CEILING=0 leaves it out). Their throughput ratio is what
# CORES cores give work that shares nothing, so a domain's ratio below it
# is the program's, and the gap from CORES to it the machine's (shared
# cores, clocks that drop as more cores run, memory bandwidth).
#
# A step that would start past BUDGET_S seconds (default 480) is left out
# and said so, so that the script ends within about 9 minutes.
#
# Usage: scripts/scaling.sh BINARY [BFCL_RESULT_FILE]
# Env: CORES (16), REPEAT (3), BUDGET_S (480), CEILING (1), EXTRA (1),
# GOGC_TRY (400), NOFILE_RUNS (10), KEEP=DIR keeps every output and
# stderr there.
# Exit: 0 every output identical; 1 an output differs or a run failed;
# 2 bad usage.
set -uo pipefail
if [ "${1:-}" = "" ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
	sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	[ "${1:-}" = "" ] && exit 2
	exit 0
fi
bin="$1"
bfcl="${2:-}"
cores="${CORES:-16}"
gogc_try="${GOGC_TRY:-400}"
repeat="${REPEAT:-3}"
budget="${BUDGET_S:-480}"
if [ ! -x "$bin" ]; then
	echo "scaling.sh: $bin is not an executable file" >&2
	exit 2
fi
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
if [ -n "$bfcl" ] && [ ! -r "$bfcl" ]; then
	echo "scaling.sh: cannot read the BFCL result file $bfcl" >&2
	exit 2
fi
case "$bfcl" in /* | "") ;; *) bfcl="$PWD/$bfcl" ;; esac # the benches run elsewhere
dir="${KEEP:-}"
if [ -z "$dir" ]; then
	dir="$(mktemp -d)"
	trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
cd "$dir" || exit 2

t0=$(date +%s)
elapsed() { echo $(($(date +%s) - t0)); }
status=0

echo "machine: $(nproc) CPUs online; $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
if command -v lscpu >/dev/null; then
	lscpu | grep -E '^(Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)|CPU max MHz|L3 cache):' | sed 's/  */ /g; s/^/  /'
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "binary: $bin; $cores cores, $repeat runs each on them; budget ${budget} s"
echo

# timed LABEL PROCS ARGS…: runs the binary on PROCS cores, its stdout to
# LABEL.out, its stderr to LABEL.err; prints its wall time and its CPU
# time (user+sys), in ms.
timed() {
	local label="$1" procs="$2"
	shift 2
	local TIMEFORMAT='%R %U %S' rc
	if [ -n "${gogc:-}" ]; then
		{ time GOGC="$gogc" GOMAXPROCS="$procs" "$bin" "$@" >"$label.out" 2>"$label.err"; } 2>"$label.time"
	else
		{ time GOMAXPROCS="$procs" "$bin" "$@" >"$label.out" 2>"$label.err"; } 2>"$label.time"
	fi
	rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "scaling.sh: $label exited $rc: $(tail -n 3 "$label.err" | tr '\n' ' ')" >&2
		return 1
	fi
	awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }' "$label.time"
}

sec() { awk -v ms="$1" 'BEGIN { printf "%.2f", ms / 1000 }'; }

if [ "${CEILING:-1}" != "0" ]; then
	one=$(timed ceiling-1 1 bench --domain tau2-retail --format json) || status=1
	if [ -n "${one:-}" ]; then
		s=$(date +%s%N)
		pids=()
		for k in $(seq "$cores"); do
			GOMAXPROCS=1 "$bin" bench --domain tau2-retail --format json >"ceiling-x$k.out" 2>/dev/null &
			pids+=($!)
		done
		for p in "${pids[@]}"; do wait "$p" || status=1; done
		e=$(date +%s%N)
		many=$(((e - s) / 1000000))
		w1=${one% *}
		echo "ceiling: $cores one-core processes of tau2-retail side by side $(sec "$many") s, one alone $(sec "$w1") s: throughput $(awk -v n="$cores" -v a="$w1" -v b="$many" 'BEGIN { printf "%.1f", n * a / b }')x of $cores"
		for k in $(seq "$cores"); do
			cmp -s ceiling-1.out "ceiling-x$k.out" || { echo "ceiling: process $k's output differs" >&2; status=1; }
		done
		rm -f ceiling-x*.out
		echo
	fi
fi

# Target 3 on this machine: commands that read no run, whole process,
# NOFILE_RUNS times (default 10) on one core and on CORES cores, each its
# median [min–max] in seconds, against 0.15 s.
nofile() { # NAME ARGS…
	local name="$1" procs line=""
	shift
	for procs in 1 "$cores"; do
		local walls=() k r
		for k in $(seq "${NOFILE_RUNS:-10}"); do
			r=$(timed "$name-p$procs" "$procs" "$@") || { status=1; return; }
			walls+=("${r% *}")
		done
		line+=$(printf '%s\n' "${walls[@]}" | sort -n | awk -v p="$procs" '{ v[NR] = $1 / 1000 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "   %2d core(s) %.3f [%.3f–%.3f]%s", p, m, v[1], v[NR], (m < 0.15) ? " <0.15" : " OVER" }')
	done
	printf '%-28s%s\n' "$name" "$line"
}
echo "commands that read no run, whole process, median of ${NOFILE_RUNS:-10} [min–max] s (target 3: under 0.15 s)"
for d in tau-airline tau2-airline tau2-retail tau2-telecom bfcl-multi-turn; do
	nofile "validate $d" tasks validate --domain "$d"
done
nofile "replay multi_turn_base_0" replay --task multi_turn_base_0 --trajectory gold
nofile "domain list" domain list
echo

half=$((cores / 2))
printf '%-16s %9s %26s %7s %9s %9s %6s %15s %13s  %s\n' domain "1-core s" "$cores-core s median [min–max]" ratio "1c CPU s" "${cores}c CPU s" busy "$half-core s (ratio)" "GOGC=$gogc_try s" output
bench_domain() { # NAME ARGS…
	local name="$1"
	shift
	if [ "$(elapsed)" -ge "$budget" ]; then
		echo "$name: left out, $(elapsed) s spent of the ${budget} s budget"
		return
	fi
	local one w1 c1 walls=() cpus=() k r sums
	one=$(timed "$name-1" 1 "$@") || { status=1; return; }
	w1=${one% *}
	c1=${one#* }
	for k in $(seq "$repeat"); do
		if [ "$k" -gt 1 ] && [ "$(elapsed)" -ge "$budget" ]; then
			break
		fi
		r=$(timed "$name-$cores-$k" "$cores" "$@") || { status=1; return; }
		walls+=("${r% *}")
		cpus+=("${r#* }")
	done
	# Beside them, once each: half the cores (where the curve bends), and
	# all of them with the collector running less often.
	local wh="-" wg="-" runs=$((${#walls[@]} + 1))
	if [ "${EXTRA:-1}" != "0" ] && [ "$(elapsed)" -lt "$budget" ]; then
		r=$(timed "$name-$half" "$half" "$@") || { status=1; return; }
		wh="$(sec "${r% *}") ($(awk -v a="$w1" -v b="${r% *}" 'BEGIN { printf "%.1f", a / b }')x)"
		r=$(gogc="$gogc_try" timed "$name-gogc" "$cores" "$@") || { status=1; return; }
		wg=$(sec "${r% *}")
		runs=$((runs + 2))
	fi
	sums=$(sha256sum "$name"-*.out | awk '{print $1}' | sort -u | wc -l)
	local same="identical ($runs runs)"
	if [ "$sums" -ne 1 ]; then
		same="DIFFERS: $(sha256sum "$name"-*.out | tr '\n' ' ')"
		status=1
	fi
	printf '%s\n' "${walls[@]}" | sort -n >"$name.walls"
	local n med lo hi cmed
	n=${#walls[@]}
	lo=$(head -n 1 "$name.walls")
	hi=$(tail -n 1 "$name.walls")
	med=$(awk -v n="$n" '{ v[NR] = $1 } END { if (n % 2) print v[(n + 1) / 2]; else print (v[n / 2] + v[n / 2 + 1]) / 2 }' "$name.walls")
	cmed=$(printf '%s\n' "${cpus[@]}" | sort -n | awk -v n="$n" '{ v[NR] = $1 } END { if (n % 2) print v[(n + 1) / 2]; else print (v[n / 2] + v[n / 2 + 1]) / 2 }')
	printf '%-16s %9s %26s %6sx %9s %9s %6s %15s %13s  %s\n' "$name" "$(sec "$w1")" "$(sec "$med") [$(sec "$lo")–$(sec "$hi")]" \
		"$(awk -v a="$w1" -v b="$med" 'BEGIN { printf "%.1f", a / b }')" "$(sec "$c1")" "$(sec "$cmed")" \
		"$(awk -v c="$cmed" -v w="$med" 'BEGIN { printf "%.1f", c / w }')" "$wh" "$wg" "$same"
}

bench_domain suite bench --format json
for d in tau-airline tau2-airline tau2-retail tau2-telecom; do
	bench_domain "$d" bench --domain "$d" --format json
done
if [ -n "$bfcl" ]; then
	bench_domain bfcl-multi-turn bench --domain bfcl-multi-turn --runs "$bfcl" --format json
fi
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); $(elapsed) s in all"
exit "$status"
