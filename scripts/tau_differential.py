#!/usr/bin/env python3
"""Run tool-call sequences through tau-bench's own airline tools.

Usage: tau_differential.py TAU_BENCH_DIR < sequences.jsonl > outcomes.jsonl

Each input line is {"name": ..., "calls": [{"name": tool, "kwargs": {...}}],
"hash": bool}. Each output line is {"name": ..., "outputs": [observation, ...],
"records": {"/reservations/ID": record or null, "/users/ID": ...}, "hash": ...}:
every call made on a fresh copy of tau-bench's airline data exactly as
tau_bench/envs/base.py's Env.step makes it (an exception becomes
"Error: <message>"), then every record the calls could have written (the
reservations and users their arguments name, those reservations' users,
new reservations) as tau-bench leaves it, and, when asked, the data hash as
Env.get_data_hash computes it (half a second each, so the caller samples).
A fresh copy shares every record but those, which it deep-copies; the
pristine data's hash is checked at the end, so a tool writing elsewhere
fails the run instead of leaking into the next sequence.

tau-bench's code is loaded from the checkout at run time, file by file, so
nothing else of tau-bench (its LLM clients) needs to be installed; none of
it is copied here.
"""
import ast
import copy
import importlib.util
import json
import sys
import types


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def base_functions(path, names):
    """Exec only the named top-level functions of tau-bench's base.py."""
    tree = ast.parse(open(path).read())
    keep = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)) and not getattr(n, "module", "").startswith("tau_bench")]
    keep += [n for n in tree.body if isinstance(n, ast.Assign)]
    keep += [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in names]
    ns = {}
    exec(compile(ast.Module(body=keep, type_ignores=[]), path, "exec"), ns)
    return [ns[n] for n in names]


def main():
    root = sys.argv[1]
    for pkg in ("tau_bench", "tau_bench.envs", "tau_bench.envs.airline", "tau_bench.envs.airline.tools"):
        sys.modules[pkg] = types.ModuleType(pkg)
    envs = root + "/tau_bench/envs"
    load(envs + "/tool.py", "tau_bench.envs.tool")
    data_mod = load(envs + "/airline/data/__init__.py", "tau_bench.envs.airline.data")
    tools_init = open(envs + "/airline/tools/__init__.py").read()
    tools = {}
    for node in ast.parse(tools_init).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            mod = load(f"{envs}/airline/tools/{node.module}.py", "tau_bench.envs.airline.tools." + node.module)
            for alias in node.names:
                cls = getattr(mod, alias.name)
                tools[cls.get_info()["function"]["name"]] = cls
    to_hashable, consistent_hash = base_functions(envs + "/base.py", ["to_hashable", "consistent_hash"])
    pristine = data_mod.load_data()
    before = consistent_hash(to_hashable(pristine))
    for line in sys.stdin:
        seq = json.loads(line)
        roots = written_roots(pristine, seq["calls"])
        data = {coll: dict(recs) for coll, recs in pristine.items()}
        for coll, key in roots:
            if key in data[coll]:
                data[coll][key] = copy.deepcopy(data[coll][key])
        outputs = []
        for call in seq["calls"]:
            try:
                obs = tools[call["name"]].invoke(data=data, **call["kwargs"])
            except Exception as e:
                obs = f"Error: {e}"
            outputs.append(obs)
        roots |= {("reservations", k) for k in data["reservations"].keys() - pristine["reservations"].keys()}
        records = {f"/{coll}/{key}": data[coll].get(key) for coll, key in sorted(roots)}
        out = {"name": seq["name"], "outputs": outputs, "records": records}
        if seq.get("hash"):
            out["hash"] = consistent_hash(to_hashable(data))
        sys.stdout.write(json.dumps(out) + "\n")
    if consistent_hash(to_hashable(pristine)) != before:
        sys.exit("a tool wrote a record this driver did not copy: the sequences after it are void")


def written_roots(data, calls):
    """The records calls could write: named reservations and users, and
    the users of named reservations."""
    roots = set()
    for call in calls:
        kw = call["kwargs"]
        rid, uid = kw.get("reservation_id"), kw.get("user_id")
        if isinstance(rid, str):
            roots.add(("reservations", rid))
            owner = data["reservations"].get(rid, {}).get("user_id")
            if isinstance(owner, str):
                roots.add(("users", owner))
        if isinstance(uid, str):
            roots.add(("users", uid))
    return roots


if __name__ == "__main__":
    main()
