"""Replay parthack's shipped tau2 retail runs through tau2's own Python
and compare every call's result string and the DB hashes with the Go
port's (a JSON dump written by the port's TestDump).

Usage: tau2_differential.py TAU2_SOURCE DUMP.json DATA_DIR

TAU2_SOURCE is the directory holding tau2's `tau2` package (its
domains, environment, evaluator, data_model and utils). Modules tau2
imports that this Python lacks (loguru, addict, deepdiff,
docstring_parser, dotenv) are stubbed: none of them changes what a tool
returns or what the DB hash is.
"""
import gzip
import importlib
import json
import os
import sys
import time
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


def load_tau2(src):
    sys.path.insert(0, src)
    stubbed = [n for n, a in [
        ("loguru", {"logger": _Quiet()}), ("addict", {"Dict": dict}),
        ("deepdiff", {"DeepDiff": lambda a, b: None}),
        ("docstring_parser", {"parse": lambda *a, **k: None}),
        ("dotenv", {"load_dotenv": lambda *a, **k: True})] if stub(n, **a)]
    # tau2.utils re-exports helpers from its submodules; its __init__ is not
    # part of the reference source, so it is assembled here.
    u = types.ModuleType("tau2.utils")
    u.__path__ = [os.path.join(src, "tau2", "utils")]
    sys.modules["tau2.utils"] = u
    from tau2.utils import utils as uu, pydantic_utils as pu
    u.get_dict_hash, u.get_pydantic_hash = uu.get_dict_hash, pu.get_pydantic_hash
    u.update_pydantic_model_with_dict = pu.update_pydantic_model_with_dict
    u.load_file = u.dump_file = None
    from tau2.domains.retail.data_model import RetailDB
    from tau2.domains.retail.tools import RetailTools
    try:
        from tau2.environment.environment import Environment
        to_json_str = Environment.to_json_str
    except ImportError as e:
        print(f"note: tau2.environment.environment does not import ({e}); results are serialised as its to_json_str does, re-stated here")
        def to_json_str(resp):
            from pydantic import BaseModel
            if isinstance(resp, str):
                return resp
            if isinstance(resp, BaseModel):
                resp = resp.model_dump()
            return json.dumps(resp, default=str)
    return RetailDB, RetailTools, to_json_str, stubbed


def main():
    src, dump_path, data = sys.argv[1:4]
    RetailDB, RetailTools, to_json_str, stubbed = load_tau2(src)
    if stubbed:
        print("stubbed modules:", ", ".join(stubbed))
    raw_db = json.load(gzip.open(os.path.join(data, "retail", "db.json.gz")))
    dump = json.load(open(dump_path))

    def call(tools, name, args):
        try:
            resp = tools.use_tool(name, **args)
        except Exception as e:
            resp = f"Error: {e}"
        return to_json_str(resp)

    failures = 0
    t0 = time.perf_counter()
    total = dict(calls=0, go_equal=0, recorded_equal=0, runs=0, hash_equal=0, gold_equal=0)
    for name in sorted(dump):
        f = json.load(gzip.open(os.path.join(data, name)))
        tasks = {t["id"]: t for t in f["tasks"]}
        sims = {s["id"]: s for s in f["simulations"]}
        c = dict(calls=0, go_equal=0, recorded_equal=0, runs=0, hash_equal=0, gold_equal=0)
        for run in dump[name]:
            sim = sims[run["id"]]
            tools = RetailTools(RetailDB.model_validate(raw_db))
            # each call's result is the tool message that follows it, in
            # order, as tau2's set_state pairs them (ids may repeat or be "")
            results = iter([m["content"] for m in sim["messages"] if m["role"] == "tool"])
            outs = []
            for m in sim["messages"]:
                for tc in m.get("tool_calls") or []:
                    outs.append((call(tools, tc["name"], tc["arguments"]), next(results)))
            for i, (py, rec) in enumerate(outs):
                c["calls"] += 1
                go = run["outputs"][i] if i < len(run["outputs"]) else None
                c["go_equal"] += py == go
                c["recorded_equal"] += py == rec
                if py != go and failures < 10:
                    failures += 1
                    print(f"{name} {run['id']} call {i + 1}: Go {go!r:.200} / tau2 {py!r:.200}")
            c["runs"] += 1
            c["hash_equal"] += tools.get_db_hash() == run["hash"]
            gold = RetailTools(RetailDB.model_validate(raw_db))
            for a in (tasks[run["task"]]["evaluation_criteria"] or {}).get("actions") or []:
                try:
                    gold.use_tool(a["name"], **a["arguments"])
                except Exception:
                    pass
            c["gold_equal"] += gold.get_db_hash() == run["gold_hash"]
        print(f"{name}: {c['calls']} calls, {c['go_equal']} equal to the Go port's, {c['recorded_equal']} to the recorded; "
              f"{c['runs']} runs, end-state hash equal in {c['hash_equal']}, gold hash equal in {c['gold_equal']}")
        for k in total:
            total[k] += c[k]
    secs = time.perf_counter() - t0
    print(f"all: {total['calls']} calls, {total['go_equal']} equal to the Go port's; {total['runs']} runs, "
          f"{total['hash_equal']} end hashes and {total['gold_equal']} gold hashes equal; tau2's Python replay took {secs:.2f} s")
    ok = total["go_equal"] == total["calls"] and total["hash_equal"] == total["gold_equal"] == total["runs"]
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
