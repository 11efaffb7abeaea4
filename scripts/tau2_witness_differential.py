"""Score every tau2 witness `parthack bench --witnesses DIR` wrote with
tau2-bench's own Python, and hold parthack's claims to it.

Usage: tau2_witness_differential.py TAU2_SRC DIR...

TAU2_SRC is the src/ folder of a tau2-bench checkout (a2c0247: the whole
package, for evaluate_simulation). Each DIR holds `*.tau2.json` records
(format parthack.tau2-witness/1): H's run file and simulation, the
witness's messages as tau2 would have recorded them, and parthack's
claims. For each record this script
  1. loads H's run file with tau2's own data model and puts the
     witness's messages in H's simulation;
  2. replays them with tau2's strict Environment.set_state (every kept
     mutating call must return what H recorded) — the conversation stays
     true — and checks the witness's call/result structure as set_state
     pairs it;
  3. scores them with evaluate_simulation(ALL, strict_replay=False) and
     compares the reward, the DB check, each ACTION check's verdict, the
     partial ACTION credit (RewardInfo.partial_action_reward) and the
     COMMUNICATE check with parthack's claims;
  4. compares tau2's DB hashes (agent's and user's) at the witness's end
     with H's, and with the gold run's, against the claimed end kind.
It prints one line per disagreement and a summary, and exits 1 on any.

Modules tau2 imports that this Python lacks (loguru, litellm, …) are
stubbed by an import hook: none of them changes a tool's result, a hash
or a check. tau2's airline db.json is not public in any reachable copy:
its database is built as parthack builds it (tau-bench's data in tau2's
shape, domains/tau2/airline/data), as python_hashes.py does.
"""
import glob
import gzip
import importlib.abc
import importlib.machinery
import json
import os
import pathlib
import pickle
import shutil
import sys
import tempfile
import types

ROOT = pathlib.Path(__file__).resolve().parent.parent


class _Any:
    def __init__(self, *a, **k):
        pass

    def __call__(self, *a, **k):
        return _Any()

    def __getattr__(self, n):
        return _Any()

    def __iter__(self):
        return iter(())

    def __mro_entries__(self, bases):
        return (object,)

    def __bool__(self):
        return False


class _Stubs(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Any third-party module this Python lacks is an inert stand-in."""

    def find_spec(self, name, path, target=None):
        top = name.split(".")[0]
        if top in ("tau2", "org") or top.startswith("_") or top in sys.stdlib_module_names:
            return None
        for f in sys.meta_path:
            if f is self:
                continue
            try:
                if f.find_spec(name, path, target) is not None:
                    return None
            except Exception:
                pass
        return importlib.machinery.ModuleSpec(name, self, is_package=True)

    def create_module(self, spec):
        m = types.ModuleType(spec.name)
        m.__path__ = []
        m.__getattr__ = lambda n: _Any()
        return m

    def exec_module(self, m):
        pass


def airline_db():
    """tau2's airline database as parthack builds it (python_hashes.py)."""
    def collection(name):
        return json.load(gzip.open(ROOT / ("domains/tauair/corpus/db-%s.json.gz" % name)))
    db = {"flights": collection("flights"), "users": collection("users"), "reservations": collection("reservations")}
    for f in db["flights"].values():
        for d in f["dates"].values():
            for k in ("available_seats", "prices"):
                if k in d:
                    d[k] = {c: d[k][c] for c in ("basic_economy", "economy", "business")}
    for line in open(ROOT / "domains/tau2/airline/data/payment-order.txt"):
        uid, *pms = line.split()
        db["users"][uid]["payment_methods"] = {pm: db["users"][uid]["payment_methods"][pm] for pm in pms}
    for uid, u in db["users"].items():
        u["user_id"] = uid
    for r in json.load(open(ROOT / "domains/tau2/airline/data/revisions.json")):
        if r["type"] == "reservation":
            db["reservations"][r["id"]] = r["record"]
        else:
            number, date = r["id"].split("/")
            db["flights"][number]["dates"][date] = r["record"]
    return db


def data_dir():
    d = pathlib.Path(tempfile.mkdtemp(prefix="tau2-data-"))
    dom = d / "tau2" / "domains"
    for name in ("airline", "retail", "telecom"):
        (dom / name).mkdir(parents=True)
    json.dump(airline_db(), open(dom / "airline" / "db.json", "w"))
    with gzip.open(ROOT / "domains/tau2/data/retail/db.json.gz") as f:
        (dom / "retail" / "db.json").write_bytes(f.read())
    for f in ("db.toml", "user_db.toml"):
        shutil.copy(ROOT / "domains/tau2/data/telecom" / f, dom / "telecom" / f)
    for name in ("airline", "retail", "telecom"):
        for f in glob.glob(str(ROOT / "domains/tau2/data" / name / "*.md")):
            shutil.copy(f, dom / name)
    # Policies are the agent's prompt, never scored: stand-ins do.
    for f in ("main_policy.md", "main_policy_solo.md", "tech_support_manual.md",
              "tech_support_workflow.md", "tech_support_workflow_solo.md"):
        (dom / "telecom" / f).touch()
    return d


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src, dirs = sys.argv[1], sys.argv[2:]
    data = data_dir()
    os.environ["TAU2_DATA_DIR"] = str(data)
    try:
        import toml  # noqa: F401
    except ImportError:  # telecom's databases: Python's own TOML reader
        import tomllib
        sys.modules["toml"] = types.SimpleNamespace(
            load=lambda fp, **k: tomllib.loads(fp.read()), loads=lambda s, **k: tomllib.loads(s))
    sys.meta_path.append(_Stubs())
    sys.path.insert(0, src)
    from tau2.data_model.message import AssistantMessage, ToolMessage, UserMessage
    from tau2.data_model.simulation import Results
    from tau2.evaluator.evaluator import EvaluationType, evaluate_simulation
    from tau2.registry import registry
    from tau2.environment.db import DB

    # Each environment loads its database from disk (7 MB for airline):
    # loaded and validated once, each environment gets its own copy
    # (unpickled: a deep copy takes seconds).
    loaded, load = {}, DB.load.__func__

    def cached_load(cls, path):
        key = (cls, str(path))
        if key not in loaded:
            loaded[key] = pickle.dumps(load(cls, path))
        return pickle.loads(loaded[key])
    DB.load = classmethod(cached_load)

    files = {}

    def run_file(name):
        if name not in files:
            raw = gzip.open(ROOT / "domains/tau2/data" / name).read()
            res = Results.model_validate_json(raw)
            files[name] = (res, {t.id: t for t in res.tasks})
        return files[name]

    def message(m):
        cls = {"assistant": AssistantMessage, "user": UserMessage, "tool": ToolMessage}[m["role"]]
        return cls.model_validate(m)

    def env_of(domain, solo):
        return registry.get_env_constructor(domain)(solo_mode=solo)

    def hashes(domain, solo, task, msgs, strict):
        init = task.initial_state
        env = env_of(domain, solo)
        env.set_state(init.initialization_data if init else None,
                      init.initialization_actions if init else None, msgs, strict=strict)
        return env.get_db_hash(), env.get_user_db_hash()

    def gold_hashes(domain, solo, task):
        init = task.initial_state
        env = env_of(domain, solo)
        env.set_state(init.initialization_data if init else None,
                      init.initialization_actions if init else None, [], strict=False)
        for a in (task.evaluation_criteria.actions or []) if task.evaluation_criteria else []:
            try:
                env.make_tool_call(tool_name=a.name, requestor=a.requestor, **a.arguments)
            except Exception:
                pass
        return env.get_db_hash(), env.get_user_db_hash()

    h_strict, h_end, gold_end = {}, {}, {}

    def score(rec, res, sim, task, domain, solo):
        """tau2's verdicts on one witness conversation."""
        msgs = [message(m) for m in rec["messages"]]
        v = {"refused": None, "h_refused": None}
        try:
            end = hashes(domain, solo, task, msgs, strict=True)
        except Exception as e:
            end = hashes(domain, solo, task, msgs, strict=False)
            v["refused"] = " ".join(str(e).split())[:200]
            # A witness keeps H's recorded results; tau2 refusing H's own
            # record (a result that drifted since the run) is not the
            # witness's doing.
            key = (rec["run_file"], sim.id)
            if key not in h_strict:
                try:
                    hashes(domain, solo, task, sim.messages, strict=True)
                    h_strict[key] = None
                except Exception as he:
                    h_strict[key] = str(he).splitlines()[0]
            v["h_refused"] = h_strict[key]
        sim_a = sim.model_copy(update={"messages": msgs})
        ri = evaluate_simulation(sim_a, task, EvaluationType.ALL, solo_mode=solo, domain=domain, strict_replay=False)
        got = {"tau2_reward": ri.reward}
        if ri.db_check is not None:
            got["tau2_db"] = ri.db_check.db_reward
        if ri.action_checks:
            got["tau2_action"] = 1.0 if all(c.action_match for c in ri.action_checks) else 0.0
            got["tau2_partial_action"] = ri.partial_action_reward["total"]["proportion"]
        if ri.env_assertions:
            got["tau2_env_assertion"] = 1.0 if all(c.met for c in ri.env_assertions) else 0.0
        if ri.communicate_checks:
            got["tau2_communicate"] = 1.0 if all(c.met for c in ri.communicate_checks) else 0.0
        v["got"] = got
        hk = (rec["run_file"], sim.id)
        if hk not in h_end:
            h_end[hk] = hashes(domain, solo, task, sim.messages, strict=False)
        gk = (rec["run_file"], task.id)
        if gk not in gold_end:
            gold_end[gk] = gold_hashes(domain, solo, task)
        v["end"] = "same" if end == h_end[hk] else "gold" if end == gold_end[gk] else "other"
        return v

    import time
    t0 = time.perf_counter()
    verdicts = {}
    seen = bad = strict_refused = h_refused = 0
    kinds = {}
    for d in dirs:
        for path in sorted(glob.glob(os.path.join(d, "*.tau2.json"))):
            rec = json.load(open(path))
            if rec.get("format") != "parthack.tau2-witness/1":
                print(f"{path}: not a parthack.tau2-witness/1 record", file=sys.stderr)
                bad += 1
                continue
            seen += 1
            res, tasks = run_file(rec["run_file"])
            sim = res.simulations[rec["simulation_index"]]
            assert sim.id == rec["simulation"], path
            task = tasks[rec["task_id"]]
            domain = res.info.environment_info.domain_name
            solo = "solo" in (res.info.agent_info.implementation or "")
            name = os.path.basename(path)
            # Many targets' witnesses are one conversation: scored once.
            key = (rec["run_file"], rec["simulation_index"], json.dumps(rec["messages"], sort_keys=True))
            if key not in verdicts:
                verdicts[key] = score(rec, res, sim, task, domain, solo)
            v = verdicts[key]

            def differ(what, got, want):
                nonlocal bad
                bad += 1
                print(f"{name}: {what}: tau2 {got!r}, parthack {want!r}")

            if v["refused"] is not None:
                if v["h_refused"] is None:
                    strict_refused += 1
                    differ("strict set_state", v["refused"], "accepted (as it accepts H)")
                else:
                    h_refused += 1
            claims = rec.get("claims", {})
            for k, x in v["got"].items():
                if k in claims and abs(claims[k] - x) > 1e-9:
                    differ(k, x, claims[k])
            if "end" in claims:
                kinds[v["end"]] = kinds.get(v["end"], 0) + 1
                if v["end"] != claims["end"]:
                    differ("end state", v["end"], claims["end"])
    print(f"{seen} witnesses ({len(verdicts)} distinct conversations) scored by tau2's own Python: {bad} disagreements with parthack's claims "
          f"({strict_refused} refused by tau2's strict set_state where it accepts H; {h_refused} of runs it refuses anyway); end states {kinds}; {time.perf_counter() - t0:.0f} s")
    shutil.rmtree(data)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
