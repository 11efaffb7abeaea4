"""Writes python-hashes.json: tau2's own DB hash (get_db_hash, tau2's
Python) of the airline database parthack builds (tau-bench's data in
tau2's shape, with data/revisions.json) and of the end state of every
shipped airline run replayed on it; and python-outputs.json: the first
16 hex digits of the sha256 of each call's tool message in that replay.

Usage, from the repository root (python_tool_cases.py loads this file for
its stubs, database and to_message):
  python3 domains/tau2/airline/testdata/python_hashes.py TAU2_SOURCE_DIR [OUT_DIR]

OUT_DIR (default: this folder) is where the two files are written;
scripts/tau2-differential.sh writes them elsewhere and compares them
with the ones here, which the Go tests hold the port to.

TAU2_SOURCE_DIR holds tau2's Python package (the folder with tau2/).
Modules tau2 imports that the hash does not need (loguru, deepdiff,
addict, docstring_parser, tau2.utils' file helpers) are stubbed."""
import gzip, hashlib, json, pathlib, re, sys, time, types

src = sys.argv[1]
sys.path.insert(0, src)


class _Quiet:
    def __getattr__(self, name):
        return lambda *a, **k: None


def stub(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


stub("loguru", logger=_Quiet())
stub("docstring_parser", parse=lambda s: types.SimpleNamespace(
    short_description="", long_description="", params=[], returns=None, raises=[], examples=[]))
stub("deepdiff", DeepDiff=None)
stub("addict", Dict=dict)


def dict_hash(obj):
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()


utils = stub("tau2.utils", get_dict_hash=dict_hash, load_file=None, dump_file=None,
             update_pydantic_model_with_dict=None,
             get_pydantic_hash=lambda o, exclude=None: dict_hash(o.model_dump(exclude=exclude)))
utils.__path__ = [src + "/tau2/utils"]
stub("tau2.utils.utils", DATA_DIR=pathlib.Path("/nonexistent"), get_dict_hash=dict_hash)
from pydantic import BaseModel, ConfigDict  # noqa: E402


class BaseModelNoExtra(BaseModel):
    model_config = ConfigDict(extra="forbid")


stub("tau2.utils.pydantic_utils", BaseModelNoExtra=BaseModelNoExtra)
from tau2.domains.airline.data_model import FlightDB  # noqa: E402
from tau2.domains.airline.tools import AirlineTools  # noqa: E402


def collection(name):
    return json.load(gzip.open("domains/tauair/corpus/db-%s.json.gz" % name))


db = {"flights": collection("flights"), "users": collection("users"), "reservations": collection("reservations")}
# tau2's dict orders, which the corpus (keys sorted) lost: cabins as tau2's
# data lists them, payment methods as data/payment-order.txt has them.
for f in db["flights"].values():
    for d in f["dates"].values():
        for k in ("available_seats", "prices"):
            if k in d:
                d[k] = {c: d[k][c] for c in ("basic_economy", "economy", "business")}
for line in open("domains/tau2/airline/data/payment-order.txt"):
    uid, *pms = line.split()
    db["users"][uid]["payment_methods"] = {pm: db["users"][uid]["payment_methods"][pm] for pm in pms}
for uid, u in db["users"].items():
    u["user_id"] = uid
for r in json.load(open("domains/tau2/airline/data/revisions.json")):
    if r["type"] == "reservation":
        db["reservations"][r["id"]] = r["record"]
    else:
        number, date = r["id"].split("/")
        db["flights"][number]["dates"][date] = r["record"]
text = json.dumps(db)


def to_message(tools, name, args):
    """tau2's tool message for a call (Environment.get_response, to_json_str)."""
    try:
        resp = tools.use_tool(name, **args)
    except Exception as e:
        return "Error: %s" % e
    def plain(r):
        if isinstance(r, BaseModel):
            return r.model_dump()
        if isinstance(r, list):
            return [plain(i) for i in r]
        return r
    return resp if isinstance(resp, str) else json.dumps(plain(resp), default=str)


def main():
    outdir = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "domains/tau2/airline/testdata")
    t0 = time.perf_counter()
    out = {"initial": AirlineTools(FlightDB.model_validate_json(text)).get_db_hash(), "runs": {}}
    outputs = {}
    for path in sorted(pathlib.Path("domains/tau2/data/runs").glob("airline-*.json.gz")):
        hashes, digests = [], []
        for sim in json.load(gzip.open(path))["simulations"]:
            tools = AirlineTools(FlightDB.model_validate_json(text))
            run = []
            for m in sim["messages"]:
                for tc in m.get("tool_calls") or []:
                    # the port gets its arguments with sorted keys; pydantic's links as the runs have them
                    args = json.loads(json.dumps(tc["arguments"], sort_keys=True))
                    msg = re.sub(r"errors\.pydantic\.dev/[0-9.]+/", "errors.pydantic.dev/2.12/", to_message(tools, tc["name"], args))
                    run.append(hashlib.sha256(msg.encode()).hexdigest()[:16])
            hashes.append(tools.get_db_hash())
            digests.append(run)
        out["runs"]["runs/" + path.name] = hashes
        outputs["runs/" + path.name] = digests
    secs = time.perf_counter() - t0
    json.dump(out, open(outdir / "python-hashes.json", "w"), indent=1)
    json.dump(outputs, open(outdir / "python-outputs.json", "w"))
    calls = sum(len(run) for runs in outputs.values() for run in runs)
    print(f"initial database hash {out['initial']}; {calls} calls replayed; tau2's Python replay took {secs:.2f} s")


if __name__ == "__main__":
    main()
