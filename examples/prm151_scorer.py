#!/usr/bin/env python3
"""A scorer of your own, in tau2's terms: pull request #151's partial ACTION.

parthack runs it sandboxed, once for a whole search:

    parthack attack --task T2A-7 --honest T2A-7-gpt-4o-2024-11-20-trial0 --target scorer \
        --scorer /usr/bin/python3 --scorer-arg examples/prm151_scorer.py \
        --scorer-ro /usr/lib --scorer-ro examples/prm151_scorer.py --scorer-input tau2

Each line of stdin is one JSON document, {"task": …, "simulation": …}, in the
shapes of a tau2 Results file; each answer is one line, {"score": s}. The rule
is tau2-bench pull request #151's (head 96ecefa, Action.compare_with_tool_call
and ActionEvaluator.calculate_reward), in the standard library alone: the mean
over the task's gold actions of the best match among every tool call of the
simulation — 1 for the name and the compared arguments, 0.5 for the name alone
(every gold action allows the partial match), 0 otherwise; 1 with no gold action.
"""

import json
import sys


def compare(action, call):
    """Action.compare_with_tool_call of PR #151, partial match allowed."""
    if action["name"] != call["name"]:
        return 0.0
    gold, pred = action.get("arguments") or {}, call.get("arguments") or {}
    if action.get("compare_args") is None:
        gold_keys, pred_keys = list(gold), list(pred)
    else:
        gold_keys = pred_keys = action["compare_args"]
    if not gold_keys and not pred_keys:
        return 1.0
    if not set(pred_keys) & set(gold_keys):
        return 1.0
    tool_args = {k: v for k, v in pred.items() if k in pred_keys}
    action_args = {k: v for k, v in gold.items() if k in gold_keys}
    return 1.0 if tool_args == action_args else 0.5


def score(task, simulation):
    criteria = task.get("evaluation_criteria") or {}
    actions = criteria.get("actions") or []
    if not actions:
        return 1.0
    calls = [c for m in simulation.get("messages") or [] if m.get("role") in ("assistant", "user")
             for c in m.get("tool_calls") or []]
    return sum(max([compare(a, c) for c in calls] + [0.0]) for a in actions) / len(actions)


def main():
    for line in sys.stdin:
        doc = json.loads(line)
        print(json.dumps({"score": score(doc["task"], doc["simulation"])}), flush=True)


if __name__ == "__main__":
    main()
