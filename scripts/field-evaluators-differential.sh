#!/bin/sh
# Holds parthack's ports of the field's evaluators (tau2_prm_partial_action,
# toolsandbox_milestone, agentboard_progress) to their sources' own Python,
# on the hand-made runs of evaluators/field_test.go.
#
# Usage: scripts/field-evaluators-differential.sh TAU2 TOOLSANDBOX AGENTBOARD
#   each a git checkout (or bare repository) of sierra-research/tau2-bench
#   (holding pull request #151's head, 96ecefa), apple/ToolSandbox (165848b)
#   and hkust-nlp/AgentBoard (bb7255e). Needs python3 with networkx and attrs.
set -eu
if [ $# -ne 3 ]; then
	echo "usage: $0 TAU2 TOOLSANDBOX AGENTBOARD (git repositories); skipped" >&2
	exit 0
fi
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git -C "$1" show 96ecefa045f88d466b1f127ae6d9e91057465dd1:src/tau2/data_model/tasks.py >"$src/tasks.py"
git -C "$1" show 96ecefa045f88d466b1f127ae6d9e91057465dd1:src/tau2/evaluator/evaluator_action.py >"$src/evaluator_action.py"
git -C "$2" show 165848b9a78cead7ca7fe7c89c688b58e6501219:tool_sandbox/common/evaluation.py >"$src/evaluation.py"
git -C "$3" show bb7255e2daf1989069a186dad9e53f70680961db:agentboard/environment/pddl_env/pddl_env.py >"$src/pddl_env.py"
cd "$(dirname "$0")/.."
FIELD_EVALUATORS_SRC="$src" go test ./evaluators -run TestFieldEvaluatorsDifferential -count=1 -v
