"""Replay parthack's shipped tau2 telecom runs through tau2's own Python
(its telecom tools, user tools, TelecomEnvironment with sync_tools, and
Environment.set_state / make_tool_call / run_env_assertion) and compare
every call's result string, both databases' hashes, each env assertion,
db_match and the reward with the recorded ones and, given a dump of the Go
port (domains/tau2/telecom TestDump), with the port's.

Each task's gold run (its gold calls, each by its requestor, answered as
a run's calls are, with sync_tools after each) is scored the same way,
and the DB check of every run and gold run is held to the port's, both
by its hashes and as the port's public payload reads it.

Usage: tau2_telecom_differential.py [--hashes] TAU2_SOURCE DATA_DIR [DUMP.json]
  --hashes  print, for every run and gold run, both databases' hashes at
            its end and in tau2's gold environment, and db_match

Modules tau2 imports that this Python lacks are stubbed: loguru, addict,
deepdiff, docstring_parser, dotenv, pandas and tau2's audio models (none
of them changes a tool's result or a hash), and `toml`, whose load is
Python's own tomllib. tau2's evaluator package imports its whole
simulation stack, which is not in the reference source, so
EnvironmentEvaluator.calculate_reward is re-stated here in a few lines
(the same calls in the same order); everything it calls is tau2's.
"""
import gzip
import importlib
import json
import os
import sys
import tempfile
import tomllib
import types


def stub(name, **attrs):
    try:
        importlib.import_module(name)
        return False
    except ImportError:
        pass
    m = types.ModuleType(name)
    for k, v in attrs.items():
        setattr(m, k, v)
    sys.modules[name] = m
    return True


class _Quiet:
    def __getattr__(self, name):
        return lambda *a, **k: None


def load_tau2(src, data):
    sys.path.insert(0, src)
    os.environ["TAU2_DATA_DIR"] = data
    stubbed = [n for n, a in [
        ("loguru", {"logger": _Quiet()}), ("addict", {"Dict": dict}),
        ("deepdiff", {"DeepDiff": lambda a, b: None}),
        ("docstring_parser", {"parse": lambda *a, **k: types.SimpleNamespace(
            short_description="", long_description="", params=[], returns=None, raises=[], examples=[])}),
        ("dotenv", {"load_dotenv": lambda *a, **k: True}),
        ("pandas", {"DataFrame": object})] if stub(n, **a)]
    from pydantic import BaseModel

    class _Model(BaseModel):
        pass
    stub("tau2.data_model.audio", AudioFormat=type("AudioFormat", (_Model,), {}),
         audio_bytes_to_string=lambda *a: None, audio_string_to_bytes=lambda *a: None)
    stub("tau2.data_model.audio_effects", **{n: type(n, (_Model,), {}) for n in
                                             ["ChannelEffectsResult", "SourceEffectsResult", "SpeechEffectsResult"]})
    u = types.ModuleType("tau2.utils")
    u.__path__ = [os.path.join(src, "tau2", "utils")]
    sys.modules["tau2.utils"] = u
    from tau2.utils import utils as uu, pydantic_utils as pu
    u.get_dict_hash, u.get_pydantic_hash = uu.get_dict_hash, pu.get_pydantic_hash
    u.update_pydantic_model_with_dict = pu.update_pydantic_model_with_dict

    def load_file(path):
        path = str(path)
        if path.endswith(".toml"):
            with open(path, "rb") as f:
                return tomllib.load(f)
        return ""  # policies: not read by tools or the evaluator
    u.load_file, u.dump_file = load_file, None
    return stubbed


def evaluate_db(get_environment, task, msgs, solo):
    """EnvironmentEvaluator.calculate_reward's environments, re-stated: the
    predicted one replays msgs, the gold one makes the gold calls with
    make_tool_call (no sync_tools after them). Returns both and db_match."""
    init = task.initial_state.initialization_actions if task.initial_state else None
    pred = get_environment(solo_mode=solo)
    pred.set_state(None, init, msgs, strict=False)
    gold = get_environment()
    gold.set_state(None, init, [])
    for a in task.evaluation_criteria.actions or []:
        try:
            gold.make_tool_call(tool_name=a.name, requestor=a.requestor, **a.arguments)
        except Exception:
            pass
    h = dict(pred_agent_hash=pred.get_db_hash(), pred_user_hash=pred.get_user_db_hash(),
             gold_agent_hash=gold.get_db_hash(), gold_user_hash=gold.get_user_db_hash())
    h["db_match"] = h["gold_agent_hash"] == h["pred_agent_hash"] and h["gold_user_hash"] == h["pred_user_hash"]
    return pred, h


def print_hashes(label, h):
    print(f"  {label}: run {h['pred_agent_hash'][:12]}/{h['pred_user_hash'][:12]}"
          f"  gold {h['gold_agent_hash'][:12]}/{h['gold_user_hash'][:12]}  db_match {h['db_match']}")


def main():
    args = sys.argv[1:]
    show = "--hashes" in args
    args = [a for a in args if a != "--hashes"]
    src, data = args[:2]
    dump = json.load(open(args[2])) if len(args) > 2 else None
    probes = dump.pop("probes", []) if dump else []
    gold_dump = dump.get("gold", {}) if dump else {}
    dump = dump["runs"] if dump else None
    # tau2's data dir layout: DATA_DIR/tau2/domains/telecom/{db,user_db}.toml
    tmp = tempfile.TemporaryDirectory()
    root = tmp.name
    tel = os.path.join(root, "tau2", "domains", "telecom")
    os.makedirs(tel, exist_ok=True)
    for n in ["db.toml", "user_db.toml"]:
        with open(os.path.join(data, "telecom", n), "rb") as f, open(os.path.join(tel, n), "wb") as g:
            g.write(f.read())
    stubbed = load_tau2(src, root)
    if stubbed:
        print("stubbed modules:", ", ".join(stubbed))
    from tau2.domains.telecom.environment import get_environment
    from tau2.data_model.tasks import Task
    from tau2.data_model.message import AssistantMessage, UserMessage, ToolMessage, ToolCall

    def messages(sim):
        out = []
        for m in sim["messages"]:
            cls = {"assistant": AssistantMessage, "user": UserMessage, "tool": ToolMessage}[m["role"]]
            keep = {k: m[k] for k in ["role", "content", "tool_calls", "id", "requestor", "error"] if k in m}
            out.append(cls.model_validate(keep))
        return out

    # Probes first: tau2's break_vpn changes the toolkit's shared default
    # VPN details, so a connect_vpn after any run that broke a VPN in this
    # process would connect to a poor server.
    all_tasks = {t["id"]: Task.model_validate(t) for t in json.load(gzip.open(os.path.join(data, "telecom", "tasks.json.gz")))}
    probe_out, probe_diff = [], 0
    for seq in probes:
        task = all_tasks[seq["task"]]
        env = get_environment(solo_mode=seq["solo"])
        env.set_state(None, task.initial_state.initialization_actions, [])
        outs = []
        for i, c in enumerate(seq["calls"]):
            tc = ToolCall(id=f"probe{i}", name=c["name"], arguments=c["arguments"], requestor=c["requestor"])
            outs.append(env.get_response(tc).content)
        res = dict(seq, outputs=outs, agent_hash=env.get_db_hash(), user_hash=env.get_user_db_hash())
        probe_out.append(res)
        for i, out in enumerate(outs):
            if seq["outputs"][i] != out:
                probe_diff += 1
                print(f"probe {seq['calls'][i]['name']}({json.dumps(seq['calls'][i]['arguments'])}): Go {seq['outputs'][i]!r:.300} / tau2 {out!r:.300}")
        for k in ["agent_hash", "user_hash"]:
            if seq[k] != res[k]:
                probe_diff += 1
                print(f"probe sequence {len(probe_out)}: {k}: Go {seq[k]} / tau2 {res[k]}")
    if probes:
        print(f"probes: {sum(len(s['calls']) for s in probes)} calls in {len(probes)} sequences, {probe_diff} differences from the Go port")
    if os.environ.get("TAU2_TELECOM_PROBES_OUT"):
        with open(os.environ["TAU2_TELECOM_PROBES_OUT"], "w") as f:
            json.dump(probe_out, f, indent=1, ensure_ascii=False)
            f.write("\n")
    total = dict(calls=0, recorded_equal=0, go_equal=0, runs=0, reward_equal=0, db_equal=0, env_checks=0,
                 env_equal=0, go_runs_equal=0, gold_runs=0, gold_db_match=0, go_gold_equal=0)
    failures = 0
    result = {}
    for name in sorted(os.listdir(os.path.join(data, "runs"))):
        if not name.startswith("telecom-"):
            continue
        f = json.load(gzip.open(os.path.join(data, "runs", name)))
        solo = name.startswith("telecom-no-user")
        tasks = {t["id"]: Task.model_validate(t) for t in f["tasks"]}
        c = {k: 0 for k in total}
        runs = []
        go = {r["id"]: r for r in dump.get(name, [])} if dump else {}
        for sim in f["simulations"]:
            task = tasks[sim["task_id"]]
            init = task.initial_state.initialization_actions if task.initial_state else None
            msgs = messages(sim)
            # the run as it happened: every call answered, sync_tools after each
            env = get_environment(solo_mode=solo)
            env.set_state(None, init, [])
            outs = []
            # paired by position, as tau2's set_state pairs them
            recorded = iter([m.content for m in msgs if m.role == "tool"])
            for m in msgs:
                for tc in (m.tool_calls or []) if m.role != "tool" else []:
                    out = env.get_response(tc).content
                    outs.append(out)
                    c["calls"] += 1
                    c["recorded_equal"] += out == next(recorded)
            run = dict(id=sim["id"], outputs=outs, agent_hash=env.get_db_hash(), user_hash=env.get_user_db_hash())
            ec = task.evaluation_criteria
            pred, h = evaluate_db(get_environment, task, msgs, solo)
            run.update(h)
            run["env"] = [pred.run_env_assertion(a, raise_assertion_error=False) for a in ec.env_assertions or []]
            if show:
                print_hashes(f"{name} {sim['id']}", h)
            runs.append(run)
            ri = sim.get("reward_info")
            c["runs"] += 1
            if ri and sim["termination_reason"] in ("agent_stop", "user_stop"):
                c["db_equal"] += ri["db_check"]["db_match"] == run["db_match"]
                for i, e in enumerate(ri.get("env_assertions") or []):
                    c["env_checks"] += 1
                    c["env_equal"] += i < len(run["env"]) and run["env"][i] == e["met"]
            else:
                c["db_equal"] += 1
            g = go.get(sim["id"])
            if g is not None:
                same = True
                for i, out in enumerate(outs):
                    ok = i < len(g["outputs"]) and g["outputs"][i] == out
                    c["go_equal"] += ok
                    if not ok and failures < 10:
                        failures += 1
                        print(f"{name} {sim['id']} call {i + 1}: Go {(g['outputs'][i] if i < len(g['outputs']) else None)!r:.300} / tau2 {out!r:.300}")
                for k in ["agent_hash", "user_hash", "gold_agent_hash", "gold_user_hash", "db_match", "env"]:
                    if g.get(k) != run[k]:
                        same = False
                        if failures < 10:
                            failures += 1
                            print(f"{name} {sim['id']} {k}: Go {g.get(k)} / tau2 {run[k]}")
                if g.get("payload_db_match") != run["db_match"]:
                        same = False
                        if failures < 10:
                            failures += 1
                            print(f"{name} {sim['id']} db_match: Go's payload {g.get('payload_db_match')} / tau2 {run['db_match']}")
                c["go_runs_equal"] += same
        # each task's gold run: its gold calls, each by its requestor (the
        # assistant in no-user mode), answered with sync_tools after each
        gold_go = {g["id"]: g for g in gold_dump.get(name, [])}
        for t in f["tasks"]:
            task = tasks[t["id"]]
            init = task.initial_state.initialization_actions if task.initial_state else None
            live = get_environment(solo_mode=solo)
            live.set_state(None, init, [])
            msgs = []
            for i, a in enumerate(task.evaluation_criteria.actions or []):
                req = "assistant" if solo else a.requestor
                tc = ToolCall(id=f"gold{i}", name=a.name, arguments=a.arguments, requestor=req)
                msgs.append((AssistantMessage if req == "assistant" else UserMessage)(role=req, content=None, tool_calls=[tc]))
                msgs.append(live.get_response(tc))
            _, h = evaluate_db(get_environment, task, msgs, solo)
            c["gold_runs"] += 1
            c["gold_db_match"] += h["db_match"]
            if show:
                print_hashes(f"{name} gold run of {t['id']}", h)
            g = gold_go.get(t["id"])
            if g is not None:
                same = True
                for k, tk in [("agent_hash", "pred_agent_hash"), ("user_hash", "pred_user_hash"), ("gold_agent_hash", "gold_agent_hash"),
                              ("gold_user_hash", "gold_user_hash"), ("db_match", "db_match"), ("payload_db_match", "db_match")]:
                    if g.get(k) != h[tk]:
                        same = False
                        if failures < 10:
                            failures += 1
                            print(f"{name} gold run of {t['id']} {k}: Go {g.get(k)} / tau2 {h[tk]}")
                c["go_gold_equal"] += same
        result[name] = runs
        print(f"{name}: {c['calls']} calls, {c['recorded_equal']} equal to the recorded"
              + (f", {c['go_equal']} to the Go port's" if dump else "")
              + f"; {c['runs']} runs, db_match as recorded in {c['db_equal']}, env assertions {c['env_equal']}/{c['env_checks']}"
              + (f"; hashes, db_match and assertions equal to the Go port's in {c['go_runs_equal']}" if dump else "")
              + f"; {c['gold_runs']} gold runs, db_match in {c['gold_db_match']}"
              + (f", hashes and db_match (by hash and payload) equal to the Go port's in {c['go_gold_equal']}" if dump else ""))
        for k in total:
            total[k] += c[k]
    if os.environ.get("TAU2_TELECOM_PY_OUT"):
        json.dump(result, open(os.environ["TAU2_TELECOM_PY_OUT"], "w"))
    print(f"all: {total['calls']} calls, {total['recorded_equal']} equal to the recorded"
          + (f", {total['go_equal']} to the Go port's; {total['go_runs_equal']}/{total['runs']} runs equal to the Go port's" if dump else "")
          + f"; gold runs with db_match {total['gold_db_match']}/{total['gold_runs']}"
          + (f", {total['go_gold_equal']}/{total['gold_runs']} equal to the Go port's" if dump else ""))
    if dump:
        ok = (total["go_equal"] == total["calls"] and total["go_runs_equal"] == total["runs"] and probe_diff == 0
              and total["go_gold_equal"] == total["gold_runs"])
        sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
