#!/usr/bin/env python3
"""Score hand-made runs with the field evaluators' own Python and compare.

Usage: field_evaluators_differential.py SRC CASES

SRC holds the sources at their pinned commits (field-evaluators-differential.sh
extracts them): tasks.py and evaluator_action.py of tau2-bench pull request
#151 (96ecefa), evaluation.py of apple/ToolSandbox (165848b), pddl_env.py of
hkust-nlp/AgentBoard (bb7255e). CASES is a JSON list of {"name", "payload",
"got": {evaluator: score}} that parthack's test writes: each run's public
payload and parthack's scores. Each source's own functions score the run
(the imports they need and do not use here are stubbed: polars, numpy,
scipy, pddlgym, nltk; pydantic models are replaced by plain objects with
the fields the functions read), and every score must equal parthack's.

What runs from the sources: PR #151's Action.compare_with_tool_call,
_check_actions and ActionEvaluator.calculate_reward (via evaluate_actions
and extract_tool_calls), every gold action with allow_partial_match True;
ToolSandbox's MilestoneMatcher (its DAG, guardrails and _dfs) and
EvaluationResult (milestones against minefields), with each milestone's
similarity to a snapshot computed here (snapshot_similarity needs polars
and scipy: one row, exact columns, so 1 when every target column is equal
and 0 otherwise); AgentBoard's PDDL.step with its
constraint_satisfaction_metric, each event an action whose observation is
the set of goal predicates that hold and the state.
"""

import ast
import json
import math
import sys
import types
from collections import OrderedDict


def stub(name, **attrs):
    mod = types.ModuleType(name)
    for k, v in attrs.items():
        setattr(mod, k, v)
    sys.modules[name] = mod
    return mod


class Obj:
    def __init__(self, **kw):
        self.__dict__.update(kw)


# ---------------------------------------------------------------------------
# The public payload, replayed.


def states(payload):
    """Every snapshot of the run: the initial state, then after each event
    ({(type, id): {"@alive": bool, field: value}})."""
    cur = {}
    for e in payload["initial"]["entities"]:
        row = {"@alive": not e.get("deleted", False)}
        row.update(e["fields"])
        cur[(e["type"], e["id"])] = row
    out = [json.loads(json.dumps({"|".join(k): v for k, v in cur.items()}))]
    for ev in payload["events"]:
        for c in ev["diff"]:
            if "type" not in c:
                continue
            row = cur.setdefault((c["type"], c["id"]), {"@alive": False})
            row[c["field"]] = c["after"]
        out.append(json.loads(json.dumps({"|".join(k): v for k, v in cur.items()})))
    return out


def holds(expr, state):
    f = expr.get("field")
    if f is None:
        raise SystemExit("only field predicates are read here: %s" % json.dumps(expr))
    row = state.get(f["type"] + "|" + f["id"])
    if row is None or not row.get("@alive"):
        return False
    v = row.get(f["field"])
    if f["cmp"] == "eq":
        return v == f["value"]
    if f["cmp"] == "ne":
        return v != f["value"]
    raise SystemExit("only eq and ne are read here")


# ---------------------------------------------------------------------------
# tau2-bench PR #151.


def load_pr151(src):
    tasks = ast.parse(open(src + "/tasks.py").read())
    action = next(n for n in tasks.body if isinstance(n, ast.ClassDef) and n.name == "Action")
    compare = next(n for n in action.body if isinstance(n, ast.FunctionDef) and n.name == "compare_with_tool_call")
    evaluator = ast.parse(open(src + "/evaluator_action.py").read())
    check = next(n for n in evaluator.body if isinstance(n, ast.FunctionDef) and n.name == "_check_actions")
    cls = next(n for n in evaluator.body if isinstance(n, ast.ClassDef) and n.name == "ActionEvaluator")
    cls.bases, cls.keywords = [], []
    for node in (compare, check):
        node.returns = None
        for a in node.args.args:
            a.annotation = None
    ns = {
        "Optional": None, "ToolCall": None, "Action": None, "Message": None,
        "ToolType": None, "ActionCheck": lambda **kw: Obj(**kw),
        "RewardInfo": lambda **kw: Obj(**kw),
        "RewardType": Obj(ACTION="ACTION"),
        "AssistantMessage": AssistantMessage, "UserMessage": UserMessage,
    }
    mod = ast.Module(body=[check, cls], type_ignores=[])
    ast.fix_missing_locations(mod)
    exec(compile(strip(mod), src + "/evaluator_action.py", "exec"), ns)
    fn = ast.Module(body=[compare], type_ignores=[])
    ast.fix_missing_locations(fn)
    cns = {}
    exec(compile(strip(fn), src + "/tasks.py", "exec"), cns)

    class GoldAction:
        compare_with_tool_call = cns["compare_with_tool_call"]

        def __init__(self, name, arguments, compare_args):
            self.name, self.arguments, self.compare_args = name, arguments, compare_args
            self.allow_partial_match = True

    return ns["ActionEvaluator"], GoldAction


def strip(tree):
    """Drops annotations, which name types not loaded here."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.returns = None
            for a in node.args.args + node.args.kwonlyargs:
                a.annotation = None
    return tree


class AssistantMessage:
    def __init__(self, tool_calls):
        self.tool_calls = tool_calls

    def is_tool_call(self):
        return bool(self.tool_calls)


class UserMessage(AssistantMessage):
    pass


def prm(pr151, payload):
    evaluator, gold_action = pr151
    ref = payload["reference"]
    golden = [gold_action(a["tool"], a["args"], None if a["all_args"] else a["compare_args"]) for a in ref.get("actions", [])]
    trajectory = []
    for ev in payload["events"]:
        if ev["op"] == "call":
            msg = UserMessage if ev["actor"] == "user" else AssistantMessage
            trajectory.append(msg([Obj(name=ev["tool"], arguments=ev.get("args", {}))]))
    task = Obj(evaluation_criteria=Obj(actions=golden))
    return evaluator.calculate_reward(task, trajectory).reward


# ---------------------------------------------------------------------------
# ToolSandbox.


def load_toolsandbox(src):
    import enum

    class DatabaseNamespace(str, enum.Enum):
        SANDBOX = "SANDBOX"

    stub("numpy", ndarray=object, dtype=object)
    pl = stub("polars", DataFrame=object)
    stub("polars.exceptions", SchemaError=Exception)
    pl.exceptions = sys.modules["polars.exceptions"]
    stub("rouge_score", rouge_scorer=None)
    stub("scipy")
    stub("scipy.optimize", linear_sum_assignment=None)
    stub("tool_sandbox")
    stub("tool_sandbox.common")
    stub("tool_sandbox.common.execution_context", DatabaseNamespace=DatabaseNamespace, ExecutionContext=object, RoleType=object)
    stub("tool_sandbox.common.tool_trace_extractors", ToolTraceExtractorType=object)
    stub("tool_sandbox.common.utils", NOT_GIVEN=object(), all_logging_disabled=None, is_close=None)
    mod = types.ModuleType("tool_sandbox_evaluation")
    code = open(src + "/evaluation.py").read()
    # The module's table of default column similarities names every
    # database of ToolSandbox's own schema; none is read here.
    start = code.index("_default_dbs_column_similarities")
    end = code.index("\n}\n", start) + 3
    code = code[:start] + "_default_dbs_column_similarities = {}\n" + code[end:]
    exec(compile(code, src + "/evaluation.py", "exec"), mod.__dict__)
    return mod


def toolsandbox(ts, payload):
    # Milestones: the records gold changes on net, in the order of each
    # one's first change; a milestone's row target is its changed columns.
    targets = OrderedDict()
    for c in payload["reference"]["changes"]:
        targets.setdefault(c["type"] + "|" + c["id"], {})[c["field"]] = c["after"]
    snaps = states(payload)

    def similarity(key, target, s):
        row = snaps[s].get(key)
        if target.get("@alive") is False:
            return 1.0 if row is None or not row["@alive"] else 0.0
        if row is None or not row["@alive"]:
            return 0.0  # no row: the row counts differ
        cols = [1.0 if row.get(f) == v else 0.0 for f, v in target.items() if f != "@alive"]
        return 1.0 if all(cols) else 0.0  # exp(-mean(-log s)), infeasible when a column is 0

    if not targets:
        milestone_similarity = None
    else:
        milestones = [ts.Milestone(snapshot_constraints=[], guardrail_database_list=[]) for _ in targets]
        matcher = ts.MilestoneMatcher(milestones=milestones)

        class Calculator:
            def __init__(self, key, target):
                self.key, self.target = key, target

            def calculate_similarity(self, current_snapshot_index, milestone_snapshot_mapping):
                return similarity(self.key, self.target, current_snapshot_index)

        calcs = [Calculator(k, t) for k, t in targets.items()]
        _, total = matcher._dfs(
            assigned_mapping=OrderedDict(), similarity_calculators=calcs, assigned_similarity_sum=0,
            remaining_graph=matcher.milestone_dag, current_best_similarity_sum=0,
            min_snapshot_index=0, max_snapshot_index=len(snaps) - 1)
        milestone_similarity = total / len(milestones)
    # Evaluation.evaluate: no milestones → 1; no minefields → 0.
    milestone_similarity = 1 if milestone_similarity is None else milestone_similarity
    return ts.EvaluationResult(milestone_similarity=milestone_similarity, minefield_similarity=0).similarity


# ---------------------------------------------------------------------------
# AgentBoard.


def load_agentboard(src):
    class BaseEnvironment:
        def __init__(self):
            pass

    stub("nltk", download=lambda *a, **k: None, word_tokenize=None)
    stub("environment")
    stub("environment.base_env", BaseEnvironment=BaseEnvironment)
    stub("common")
    stub("common.registry", registry=Obj(register_environment=lambda name: (lambda cls: cls)))
    stub("pddlgym")
    stub("pddlgym.structs", Literal=object, Predicate=object)
    ns = {"__name__": "pddl_env"}
    exec(compile(open(src + "/pddl_env.py").read(), src + "/pddl_env.py", "exec"), ns)
    return ns["PDDL"]


def agentboard(pddl, payload):
    goals = payload["goals"][0]["predicates"]
    snaps = states(payload)

    class Obs:
        def __init__(self, s):
            self.state = json.dumps(snaps[s], sort_keys=True)
            self.literals = [g["id"] for g in goals if holds(g["expr"], snaps[s])]

        def __eq__(self, other):
            return self.state == other.state

    env = object.__new__(pddl)
    env.reward, env.done, env.won = 0, False, False
    env.last_obs = Obs(0)
    env.goal_literals = [g["id"] for g in goals]
    env.infos = {"goal_literal": Obj(literals=env.goal_literals)}
    env.goal, env.states, env.history, env.steps = "", [], [], 0
    env.text_to_action = lambda text: int(text)
    env.env = Obj(step=lambda action: (Obs(action), 0, False, {}))
    env.get_goal_and_obs = lambda obs: ("", "state %s" % obs.state, obs.literals)
    out = sys.stdout
    sys.stdout = open("/dev/null", "w")  # PDDL.step prints each reward
    try:
        for k in range(1, len(snaps)):
            env.step(str(k))
    finally:
        sys.stdout.close()
        sys.stdout = out
    return env.reward


def main():
    src, cases = sys.argv[1], json.load(open(sys.argv[2]))
    pr151 = load_pr151(src)
    ts = load_toolsandbox(src)
    pddl = load_agentboard(src)
    bad = 0
    for c in cases:
        p = c["payload"]
        want = {
            "tau2_prm_partial_action": prm(pr151, p),
            "toolsandbox_milestone": toolsandbox(ts, p),
            "agentboard_progress": agentboard(pddl, p),
        }
        for name, w in want.items():
            got = c["got"][name]
            if not math.isclose(got, w, rel_tol=0, abs_tol=1e-12):
                bad += 1
                print("%s: %s: parthack %r, the source %r" % (c["name"], name, got, w))
    print("%d runs, %d scores each, %d differ" % (len(cases), 3, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
