#!/usr/bin/env bash
# Reproduce the README's speed figures: every benchmark 10 times (COUNT to
# change), reported as the median with the min–max over the runs, then
# the wall time and peak memory (RSS) of whole commands, 10 times each:
# `parthack import tau-bench` on all 200 GPT-4o runs and on a 200 MB file
# that repeats them 62 times (skipping the repeated names, and saving them
# all with --rename), `parthack import tau2 --dry-run` on the shipped tau2
# files (and on one core against Python's json.load of the same files),
# `parthack import tau2` and `parthack import tau-bench` of a file with
# one 200 MB message (dry and saved), `parthack certify`, `parthack replay` (text
# and --json), `parthack payload` and `parthack score` (plain, --json and
# --steps) on a 1,000,000-step file, interleaved run by run so that each
# sees the machine as certify does, `parthack bench --domain` for
# tau-airline and the three tau2 domains,
# `parthack bench` and `parthack bench --edits 3`, and the commands that
# need no run: `parthack domain list`, `parthack tasks` (and --json), and
# for every domain `parthack domain tasks` (and --json), `parthack tasks
# validate --domain`, and `replay --trajectory gold` and `tasks validate`
# of one of its tasks, each of these also on one core (GOMAXPROCS=1,
# issue 31's bound of 0.15 s is for one core).
# Usage: scripts/bench.sh [go test -bench pattern]   (default: all)
# A pattern no benchmark matches (NoSuchBenchmark) times the whole
# commands only; SKIP_TAU_BENCH=1 (the domain benches) and SKIP_EDITS3=1
# leave out the slowest of them. TAU2_SRC=DIR (tau2's Python source) also
# times tau2's own replay of the seven airline and retail files.
set -euo pipefail
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
fi
cd "$(dirname "$0")/.."
count="${COUNT:-10}"
pattern="${1:-.}"
pkgs=(./pbcste ./certifier ./evaluators ./attacker ./model ./tui ./domains/tauair ./domains/tau2/airline ./domains/tau2/retail ./domains/tau2/telecom ./domains/bfcl)

summarize() { # stdin: go test -bench output → "name  unit  median [min–max]"
	awk '
	/^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name)
		for (i = 3; i < NF; i += 2) { key = name "\t" $(i+1); vals[key] = vals[key] " " $i; if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
	}
	END {
		for (k = 1; k <= n; k++) {
			key = order[k]; m = split(substr(vals[key], 2), v, " ")
			for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
			med = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
			printf "%-60s %-14s median %-12g [%g – %g]  (%d runs)\n", substr(key, 1, index(key, "\t") - 1), substr(key, index(key, "\t") + 1), med, v[1], v[m], m
		}
	}'
}

for cpu in 1 2; do
	echo "== go test -bench '$pattern' -cpu $cpu -count $count"
	go test -run XXX -bench "$pattern" -cpu "$cpu" -count "$count" "${pkgs[@]}" | summarize
done

bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/parthack" .
"$bin/parthack" domain export --domain tau-airline "$bin/gpt-4o-airline.json" 2>/dev/null
wall() { # wall time and peak RSS of a command, count times: median [min–max]; VERDICT=1: its exit 1 is a verdict, not a failure
	local label="$1"; shift
	for _ in $(seq "$count"); do
		/usr/bin/time -f "%e %M" -o "$bin/time" "$@" >/dev/null 2>&1 || { rc=$?; [ "$rc" -eq 1 ] && [ -n "${VERDICT:-}" ]; }
		tail -n 1 "$bin/time" | awk -v l="$label" '{ printf "BenchmarkWall/%s 1 %s s %.0f MB-peak-RSS\n", l, $1, $2 / 1024 }'
	done | summarize
}
echo "== wall time, $count runs each"
# Commands that need no run: domain list prints the counts each domain
# states, domain tasks the rows each states (domains.Lister); a command
# about one task derives that one alone where the domain can
# (domains.Finder: BFCL), else the domain's tasks (a tau2 domain's are
# read from its run files' heads); tasks validate --domain derives and
# validates every task.
wall domain-list "$bin/parthack" domain list
wall tasks "$bin/parthack" tasks
wall tasks-json "$bin/parthack" tasks --json
for d in tau-airline tau2-airline tau2-retail tau2-telecom bfcl-multi-turn; do
	wall "domain-tasks-$d" "$bin/parthack" domain tasks --domain "$d"
	wall "domain-tasks-json-$d" "$bin/parthack" domain tasks --domain "$d" --json
	# Exit 1 where a task breaks a property (the verdict): bfcl-multi-turn's
	# multi_turn_base_4 today.
	VERDICT=1 wall "tasks-validate-$d" "$bin/parthack" tasks validate --domain "$d"
	VERDICT=1 wall "tasks-validate-1core-$d" env GOMAXPROCS=1 "$bin/parthack" tasks validate --domain "$d"
done
for t in TAU-A04 T2A-7 T2R-7 'T2T-[mobile_data_issue]data_saver_mode_on|user_abroad_roaming_enabled_off[PERSONA:Easy]' multi_turn_base_0; do
	label="${t%%-*}"
	[ "$t" = multi_turn_base_0 ] && label=bfcl
	wall "replay-gold-$label" "$bin/parthack" replay --task "$t" --trajectory gold
	wall "tasks-validate-one-$label" "$bin/parthack" tasks validate "$t"
	wall "replay-gold-1core-$label" env GOMAXPROCS=1 "$bin/parthack" replay --task "$t" --trajectory gold
	wall "tasks-validate-one-1core-$label" env GOMAXPROCS=1 "$bin/parthack" tasks validate "$t"
done
wall import-200-tau-runs "$bin/parthack" import tau-bench "$bin/gpt-4o-airline.json" --dry-run
# tau2: the seven airline and retail Results files (3,396 calls) and the
# three telecom ones (1,530), each run certified and held to what tau2
# recorded.
wall import-tau2-airline-retail "$bin/parthack" import tau2 --dry-run domains/tau2/data/runs/airline-*.json.gz domains/tau2/data/runs/retail-*.json.gz
wall import-tau2-telecom "$bin/parthack" import tau2 --dry-run domains/tau2/data/runs/telecom-*.json.gz
# The same seven files on one core (GOMAXPROCS=1) against Python's
# json.load of them (gzip.open, as they are shipped), interleaved run by
# run, COUNT runs (at least 10): each one's wall time, median [min–max],
# and their ratio, the medians' with the min–max of the runs' own.
tau2=(domains/tau2/data/runs/airline-*.json.gz domains/tau2/data/runs/retail-*.json.gz)
echo "== import tau2 --dry-run (GOMAXPROCS=1) against python3 json.load of the same ${#tau2[@]} files, $((count < 10 ? 10 : count)) runs interleaved"
for _ in $(seq "$((count < 10 ? 10 : count))"); do
	/usr/bin/time -f "%e" -o "$bin/time" env GOMAXPROCS=1 "$bin/parthack" import tau2 --dry-run "${tau2[@]}" >/dev/null 2>&1
	ph=$(tail -n 1 "$bin/time")
	/usr/bin/time -f "%e" -o "$bin/time" python3 -c 'import gzip, json, sys
for f in sys.argv[1:]:
    json.load(gzip.open(f))' "${tau2[@]}"
	echo "$ph $(tail -n 1 "$bin/time")"
done | awk '
	function median(v, m,   i, j, t) {
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
	}
	{ n++; g[n] = $1; p[n] = $2; r[n] = ($2 > 0) ? $1 / $2 : 0 }
	END {
		mg = median(g, n); mp = median(p, n); median(r, n)
		printf "parthack %g s [%g – %g], python3 json.load %g s [%g – %g]: %.2fx [%.2f – %.2f] (%d runs)\n", mg, g[1], g[n], mp, p[1], p[n], mg / mp, r[1], r[n], n
	}'
# A tau2 file of one run whose user message is 200 MB (issue 28): its peak
# RSS on a dry run, and saved into a new store each time.
PARTHACK_TAU2_BIG_FILE="$bin/tau2-big.json" go test ./domains/tau2 -run TestWriteBigMessageFile -count=1 >/dev/null
wall import-tau2-200mb-message "$bin/parthack" import tau2 --dry-run "$bin/tau2-big.json"
for _ in $(seq "$count"); do
	rm -f "$bin/big.db"
	/usr/bin/time -f "%e %M" -o "$bin/time" "$bin/parthack" --db "$bin/big.db" import tau2 "$bin/tau2-big.json" >/dev/null 2>&1
	tail -n 1 "$bin/time" | awk '{ printf "BenchmarkWall/import-tau2-200mb-message-saved 1 %s s %.0f MB-peak-RSS\n", $1, $2 / 1024 }'
done | summarize
rm -f "$bin/tau2-big.json" "$bin/big.db"
# The same of a tau-bench file of one run whose user message is 200 MB.
PARTHACK_TAU_BIG_FILE="$bin/tau-big.json" go test ./domains/tauair -run TestWriteBigMessageFile -count=1 >/dev/null
wall import-tau-bench-200mb-message "$bin/parthack" import tau-bench --dry-run "$bin/tau-big.json"
for _ in $(seq "$count"); do
	rm -f "$bin/big.db"
	/usr/bin/time -f "%e %M" -o "$bin/time" "$bin/parthack" --db "$bin/big.db" import tau-bench "$bin/tau-big.json" >/dev/null 2>&1
	tail -n 1 "$bin/time" | awk '{ printf "BenchmarkWall/import-tau-bench-200mb-message-saved 1 %s s %.0f MB-peak-RSS\n", $1, $2 / 1024 }'
done | summarize
rm -f "$bin/tau-big.json" "$bin/big.db"
# tau2's own Python replaying the same seven files (scripts/tau2-differential.sh
# replays retail, then airline, and says how long each replay took), when
# TAU2_SRC names tau2's source; PY_COUNT runs (default 3: it takes minutes).
if [ -n "${TAU2_SRC:-}" ]; then
	echo "== tau2's Python replay of the seven airline and retail files, ${PY_COUNT:-3} runs"
	for _ in $(seq "${PY_COUNT:-3}"); do
		scripts/tau2-differential.sh "$TAU2_SRC" 2>/dev/null |
			awk '/replay took/ { for (i = 1; i <= NF; i++) if ($i == "took") s += $(i + 1) } END { printf "BenchmarkWall/tau2-python-replay-airline-retail 1 %s s\n", s }'
	done | summarize
fi
PARTHACK_CHURN_FILE="$bin/churn-1m.json" go test ./internal/fixture -run TestWriteChurnFile -count=1 >/dev/null
T=testdata/example/task.json
churn=("--task" "$T" "--trajectory" "$bin/churn-1m.json")
declare -A stream=(
	[certify-1m-file]="certify --task $T --honest testdata/example/honest.json --candidate $bin/churn-1m.json"
	[replay-1m-file]="replay ${churn[*]}"
	[replay-json-1m-file]="replay --json ${churn[*]}"
	[payload-1m-file]="payload ${churn[*]}"
	[score-1m-file]="score ${churn[*]}"
	[score-json-1m-file]="score --json ${churn[*]}"
	[score-steps-1m-file]="score --steps ${churn[*]}"
)
echo "== the streamed commands on a 1,000,000-step file ($(du -m "$bin/churn-1m.json" | cut -f1) MB), interleaved, $count runs: wall s, peak RSS MB"
for _ in $(seq "$count"); do
	for label in certify-1m-file replay-1m-file replay-json-1m-file payload-1m-file score-1m-file score-json-1m-file score-steps-1m-file; do
		# certify's exit 1 is the verdict (rejected), not a failure of the run
		# shellcheck disable=SC2086 # the command's words
		/usr/bin/time -f "%e %M" -o "$bin/time" "$bin/parthack" ${stream[$label]} >/dev/null 2>&1 ||
			{ rc=$?; [ "$rc" -eq 1 ] && [ "$label" = certify-1m-file ]; }
		tail -n 1 "$bin/time" | awk -v l="$label" '{ printf "BenchmarkWall/%s 1 %s s %.0f MB-peak-RSS\n", l, $1, $2 / 1024 }'
	done
done | summarize
# 200 MB of runs: the 200 GPT-4o runs 62 times over (12,400 runs, 12,200
# of them repeating a name, which import skips and reports).
{ printf '['; for i in $(seq 62); do [ "$i" -gt 1 ] && printf ','; sed 's/^\[//; s/\]$//' "$bin/gpt-4o-airline.json"; done; printf ']'; } >"$bin/runs-200mb.json"
echo "== import of $(du -m "$bin/runs-200mb.json" | cut -f1) MB of runs, into a new store each time"
for _ in $(seq "$count"); do
	rm -f "$bin/import.db"
	/usr/bin/time -f "%e %M" -o "$bin/time" "$bin/parthack" --db "$bin/import.db" import tau-bench "$bin/runs-200mb.json" >/dev/null 2>&1
	tail -n 1 "$bin/time" | awk '{ printf "BenchmarkWall/import-200mb-runs 1 %s s %.0f MB-peak-RSS\n", $1, $2 / 1024 }'
done | summarize
# The same with --rename, which saves all 12,400 runs (a 231 MB store).
for _ in $(seq "$count"); do
	rm -f "$bin/import.db"
	/usr/bin/time -f "%e %M" -o "$bin/time" "$bin/parthack" --db "$bin/import.db" import tau-bench --rename "$bin/runs-200mb.json" >/dev/null 2>&1
	tail -n 1 "$bin/time" | awk '{ printf "BenchmarkWall/import-200mb-runs-rename 1 %s s %.0f MB-peak-RSS\n", $1, $2 / 1024 }'
done | summarize
if [ "${SKIP_TAU_BENCH:-}" = "" ]; then
	wall bench-domain-tau-airline "$bin/parthack" bench --domain tau-airline
	for d in tau2-airline tau2-retail tau2-telecom; do
		wall "bench-domain-$d" "$bin/parthack" bench --domain "$d"
	done
fi
wall bench-within2edits "$bin/parthack" bench
if [ "${SKIP_EDITS3:-}" = "" ]; then
	wall bench-edits3 "$bin/parthack" bench --edits 3
fi
