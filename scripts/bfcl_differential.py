"""Score BFCL multi-turn result files with BFCL's own Python checker and
compare each entry's verdict with parthack's.

Usage: bfcl_differential.py [--sum312] BFCL_SOURCE DATA_DIR PARTHACK_VERDICTS FILE...

BFCL_SOURCE holds BFCL's multi_turn_checker.py, multi_turn_utils.py and
func_source_code/ (the eight classes); DATA_DIR holds the questions and
possible_answer/ as BFCL ships them (gzipped or not), parthack's
domains/bfcl/data. PARTHACK_VERDICTS is what `go run ./domains/bfcl/bfclverdicts
FILE...` printed: one JSON object a line, {"file", "line", "id", "valid",
"error_type", "error_message", "turns"}, an entry known by its file and
line (a folder of witnesses may hold several of one entry). Each FILE is a result file in BFCL's own format (one entry a
line, gzipped or not), or a folder whose *_result.json[.gz], *.jsonl and
*.bfcl.json files are read in name order: a witness bench --witnesses
writes as a BFCL result entry (RUN.TARGET.bfcl.json, one line) is scored
the same way.

Each entry is scored as BFCL's eval_runner does (_evaluate_single_multi_turn_entry,
gorilla 8db0b7ca, re-stated below): a result that is not a list is
multi_turn:inference_error, fewer turns than the gold's is
multi_turn:force_terminated, each step is decoded as its FC handlers do
(convert_to_function_call) and dropped when empty or undecodable, then
BFCL's multi_turn_checker decides: valid, error_type and error_message must
agree. Every turn's checks must agree too (the state check, whether the
model made no call, how many gold results are found), computed past the
first failure with BFCL's own execution, state_checker and
_is_subsequence_unordered, as partial-credit evaluators read them. Each
entry is checked under model names of its own, since BFCL keeps instances
in its module's globals by model name and entry id.

An entry's inference_log, where it has one, is replayed with BFCL's own
execution as its inference ran it (base_handler.inference_multi_turn_FC):
each step's response decoded as logged, each decoded call's result equal
to the logged tool message, each state_info snapshot equal to the
instances' public attributes then (made JSON as BFCL's writer makes them);
the log's responses must be the result's. An entry bench wrote has
"claims", parthack's scores of it from its public payload: bfcl_valid,
bfcl_state_check, bfcl_response_check and bfcl_turn_credit must be what
BFCL's verdict and turn checks give (rewards.go's definitions, restated).

BFCL's modules import bfcl_eval paths; they are stubbed to the folder given.
--sum312 gives math_api.py Python 3.12's compensated float sum() (the runs'
Python; this one may be older). Prints the counts per file and every
disagreement; exits 1 on any.
"""
import gzip
import importlib.util
import json
import math
import os
import sys
import types


def load_bfcl(src, sum312):
    def package(name, path=None):
        m = types.ModuleType(name)
        m.__path__ = [path] if path else []
        sys.modules[name] = m
        return m

    package("bfcl_eval")
    package("bfcl_eval.constants")
    package("bfcl_eval.eval_checker")
    package("bfcl_eval.eval_checker.multi_turn_eval", src)
    package("bfcl_eval.eval_checker.multi_turn_eval.func_source_code",
            os.path.join(src, "func_source_code"))
    prefix = "bfcl_eval.eval_checker.multi_turn_eval.func_source_code"
    cfg = types.ModuleType("bfcl_eval.constants.executable_backend_config")
    # executable_backend_config at gorilla 8db0b7ca, the multi-turn classes.
    cfg.CLASS_FILE_PATH_MAPPING = {
        "GorillaFileSystem": f"{prefix}.gorilla_file_system",
        "MathAPI": f"{prefix}.math_api",
        "MessageAPI": f"{prefix}.message_api",
        "TwitterAPI": f"{prefix}.posting_api",
        "TicketAPI": f"{prefix}.ticket_api",
        "TradingBot": f"{prefix}.trading_bot",
        "TravelAPI": f"{prefix}.travel_booking",
        "VehicleControlAPI": f"{prefix}.vehicle_control",
    }
    cfg.STATELESS_CLASSES = ["MathAPI"]
    sys.modules[cfg.__name__] = cfg

    def module(name, path):
        spec = importlib.util.spec_from_file_location(name, path)
        m = importlib.util.module_from_spec(spec)
        sys.modules[name] = m
        spec.loader.exec_module(m)
        return m

    utils = module("bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils",
                   os.path.join(src, "multi_turn_utils.py"))
    checker = module("bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker",
                     os.path.join(src, "multi_turn_checker.py"))
    if sum312:
        math_api = importlib.import_module(f"{prefix}.math_api")
        math_api.sum = sum312_builtin
    return utils, checker


def sum312_builtin(iterable, start=0):
    """Python 3.12's sum() (bltinmodule.c builtin_sum_impl): once the
    running sum is a float, floats are added with Neumaier's compensation
    and ints that fit a C long as floats; anything else is added plainly
    from then on."""
    items = iter(iterable)
    result = start
    if type(result) is not float:
        for item in items:
            result = result + item
            if type(result) is float:
                break
        else:
            return result
        if type(result) is not float:
            return result
    f, c = result, 0.0
    for item in items:
        if type(item) is float:
            t = f + item
            c += (f - t) + item if abs(f) >= abs(item) else (item - t) + f
            f = t
        elif isinstance(item, int) and -2**63 <= item < 2**63:
            f += float(item)
        else:
            if c and math.isfinite(c):
                f += c
            result = f + item
            for item in items:
                result = result + item
            return result
    if c and math.isfinite(c):
        f += c
    return f


def make_json_serializable(value):
    # bfcl_eval/utils.py at gorilla 013a2a4e: what BFCL's writer applies
    # to each entry before json.dumps.
    if isinstance(value, dict):
        return {k: make_json_serializable(v) for k, v in value.items()}
    elif isinstance(value, list):
        return [make_json_serializable(item) for item in value]
    else:
        try:
            json.dumps(value, ensure_ascii=False)
            return value
        except (TypeError, ValueError):
            return str(value)


def snapshot(utils, instances):
    # base_handler.inference_multi_turn_FC's state_info at gorilla
    # 8db0b7ca: each stateful instance's public attributes, then the
    # writer's make_json_serializable and json.dumps.
    out = []
    for class_name, instance in instances.items():
        if class_name in utils.STATELESS_CLASSES:
            continue
        content = {k: v for k, v in vars(instance).items() if not k.startswith("_")}
        out.append((class_name, json.dumps(make_json_serializable(content), ensure_ascii=False)))
    return out


def replay_log(utils, entry, prompt, model_name):
    """The entry's inference_log replayed with BFCL's execution: counts of
    the calls and snapshots logged and of those equal, and each
    difference."""
    cfg, classes, eid = prompt["initial_config"], prompt["involved_classes"], prompt["id"]
    counts = {"calls": 0, "calls_equal": 0, "snapshots": 0, "snapshots_equal": 0}
    diffs = []
    _, instances = utils.execute_multi_turn_func_call([], cfg, classes, model_name, eid)
    turn = 0
    for item in entry["inference_log"]:
        if isinstance(item, list):
            mine = snapshot(utils, instances)
            logged = [(s["class_name"], json.dumps(s["content"], ensure_ascii=False)) for s in item]
            for i, (cls, text) in enumerate(logged):
                counts["snapshots"] += 1
                if i < len(mine) and mine[i] == (cls, text):
                    counts["snapshots_equal"] += 1
                else:
                    diffs.append(f"turn {turn}: the logged state of {cls} at its start is not BFCL's")
            if len(mine) != len(logged):
                diffs.append(f"turn {turn}: {len(logged)} states logged, BFCL holds {len(mine)} stateful instances")
            continue
        steps = [(k, v) for k, v in item.items() if k != "begin_of_turn_query"]
        responses = [next((m["content"] for m in msgs if m["role"] == "assistant"), None) for _, msgs in steps]
        if turn >= len(entry["result"]) or responses != entry["result"][turn]:
            diffs.append(f"turn {turn}: the log's responses are not the result's")
        for (key, msgs), response in zip(steps, responses):
            logs = [m for m in msgs if m["role"] == "handler_log"]
            tools = [m["content"] for m in msgs if m["role"] == "tool"]
            try:
                decoded, err = convert_to_function_call(response), None
            except Exception as e:
                decoded, err = None, str(e)
            said = logs[0].get("error" if err is not None else "model_response_decoded") if logs else None
            if said != (err if err is not None else decoded):
                diffs.append(f"turn {turn} {key}: BFCL decodes the response as {err if err is not None else decoded!r}, the log as {said!r}")
                continue
            if err is not None or utils.is_empty_execute_response(decoded):
                continue
            results, instances = utils.execute_multi_turn_func_call(decoded, cfg, classes, model_name, eid)
            for i, (got, want) in enumerate(zip(results, tools)):
                counts["calls"] += 1
                if got == want:
                    counts["calls_equal"] += 1
                else:
                    diffs.append(f"turn {turn} {key} call {i}: BFCL {got!r}, logged {want!r}")
        turn += 1
    return counts, diffs


CLAIMS = ("bfcl_valid", "bfcl_state_check", "bfcl_response_check", "bfcl_turn_credit")


def credits(entry, mine):
    """parthack's four BFCL evaluators (domains/bfcl/rewards.go) restated
    on BFCL's verdict and turn checks: a turn the run never reached
    counts as failed."""
    ran = len(entry["result"]) if type(entry["result"]) == list else 0
    checked = [(i, t) for i, t in enumerate(mine["turns"]) if t["checked"]]
    gold = sum(t["gold"] for _, t in checked)
    found = sum(t["found"] for i, t in checked if i < ran)
    state = sum(1 for i, t in checked if i < ran and t["state_equal"])
    both = sum(1 for i, t in checked if i < ran and not t["empty"] and t["state_equal"] and t["found"] == t["gold"])
    return {"bfcl_valid": 1.0 if mine["valid"] else 0.0,
            "bfcl_state_check": state / len(checked) if checked else 1,
            "bfcl_response_check": found / gold if gold else 1,
            "bfcl_turn_credit": both / len(checked) if checked else 1}


def read_lines(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


def load_data(data_dir):
    prompts, answers = {}, {}
    for cat in ("base", "miss_func", "miss_param"):
        for folder, into in ((data_dir, prompts), (os.path.join(data_dir, "possible_answer"), answers)):
            name = f"BFCL_v4_multi_turn_{cat}.json"
            path = os.path.join(folder, name)
            if not os.path.exists(path):
                path += ".gz"
            for e in read_lines(path):
                into[e["id"]] = e
    return prompts, answers


def convert_to_function_call(function_call_list):
    # bfcl_eval/model_handler/utils.py at gorilla 8db0b7ca.
    if type(function_call_list) == dict:
        function_call_list = [function_call_list]
    execution_list = []
    for function_call in function_call_list:
        for key, value in function_call.items():
            if type(value) == str:
                value = json.loads(value)
            execution_list.append(
                f"{key}({','.join([f'{k}={repr(v)}' for k,v in value.items()])})"
            )
    return execution_list


def decode(utils, result):
    # eval_runner: each step decoded, empty or undecodable steps dropped.
    decoded = []
    for turn in result:
        steps = []
        for step in turn:
            try:
                d = convert_to_function_call(step)
                if utils.is_empty_execute_response(d):
                    continue
                steps.append(d)
            except Exception:
                continue
        decoded.append(steps)
    return decoded


def evaluate(utils, checker, entry, prompt, answer, model_name):
    # eval_runner._evaluate_single_multi_turn_entry at gorilla 8db0b7ca.
    result = entry["result"]
    gold = answer["ground_truth"]
    if type(result) != list:
        return {"valid": False, "error_type": "multi_turn:inference_error",
                "error_message": "Error during inference phase. Model did not output a list of model responses."}
    if len(result) != len(gold):
        return {"valid": False, "error_type": "multi_turn:force_terminated",
                "error_message": f"Model was force-terminated during inference phase. The length of the model result turns ({len(result)}) does not match the length of the ground truth turns ({len(gold)})."}
    out = checker.multi_turn_checker(decode(utils, result), gold, json.loads(json.dumps(prompt)),
                                     prompt["id"].rsplit("_", 1)[0], model_name)
    return {"valid": out["valid"], "error_type": out.get("error_type", ""), "error_message": out.get("error_message", "")}


def turns(utils, checker, entry, prompt, answer, model_name):
    """Every turn's checks as multi_turn_checker makes them, past the first
    that fails: BFCL's own execution, state_checker and
    _is_subsequence_unordered; a turn the run never reached has no calls."""
    result = entry["result"]
    decoded = decode(utils, result) if type(result) == list else []
    cfg, classes, eid = prompt["initial_config"], prompt["involved_classes"], prompt["id"]
    every, out = [], []
    for t, gold_calls in enumerate(answer["ground_truth"]):
        steps = decoded[t] if t < len(decoded) else []
        _, model_instances = utils.execute_multi_turn_func_call(
            [], cfg, classes, model_name, eid, is_evaL_run=True)
        for step in steps:
            results, model_instances = utils.execute_multi_turn_func_call(
                step, cfg, classes, model_name, eid, is_evaL_run=True)
            every.extend(results)
        gold_results, gold_instances = utils.execute_multi_turn_func_call(
            gold_calls, cfg, classes, model_name + "_ground_truth", eid, is_evaL_run=True)
        _, missing = checker._is_subsequence_unordered(gold_results, every)
        out.append({"checked": len(gold_calls) > 0,
                    "empty": not steps or utils.is_empty_execute_response(steps),
                    "state_equal": checker.state_checker(model_instances, gold_instances)["valid"],
                    "found": len(gold_results) - len(missing), "gold": len(gold_results)})
    return out


def result_files(args):
    for a in args:
        if os.path.isdir(a):
            for n in sorted(os.listdir(a)):
                if n.endswith(("_result.json", "_result.json.gz", ".jsonl", ".bfcl.json")):
                    yield os.path.join(a, n)
        else:
            yield a


def main():
    args = sys.argv[1:]
    sum312 = "--sum312" in args
    args = [a for a in args if a != "--sum312"]
    if len(args) < 4:
        sys.exit(__doc__)
    src, data_dir, verdicts_path, files = args[0], args[1], args[2], args[3:]
    utils, checker = load_bfcl(src, sum312)
    prompts, answers = load_data(data_dir)
    theirs = {}
    for line in open(verdicts_path, encoding="utf-8"):
        v = json.loads(line)
        theirs[(v["file"], v["line"])] = v
    disagreements, n = 0, 0
    for path in result_files(files):
        counts = {"entries": 0, "valid": 0, "agree": 0, "logged": 0, "calls": 0, "calls_equal": 0,
                  "snapshots": 0, "snapshots_equal": 0, "claimed": 0, "claims_agree": 0}
        for line, entry in enumerate(read_lines(path), 1):
            n += 1
            eid = entry["id"]
            mine = evaluate(utils, checker, entry, prompts[eid], answers[eid], f"differential_{n}")
            mine["turns"] = turns(utils, checker, entry, prompts[eid], answers[eid], f"differential_{n}_turns")
            counts["entries"] += 1
            counts["valid"] += mine["valid"]
            other = theirs.get((path, line))
            if other is None or other["id"] != eid:
                print(f"{path}:{line}: {eid}: parthack gave no verdict")
                disagreements += 1
                continue
            said = False
            for key in ("valid", "error_type", "error_message", "turns"):
                if other[key] != mine[key]:
                    print(f"{path}:{line}: {eid}: {key}: BFCL {mine[key]!r}, parthack {other[key]!r}")
                    said = True
            if "inference_log" in entry and type(entry["result"]) == list:
                counts["logged"] += 1
                log, diffs = replay_log(utils, entry, prompts[eid], f"differential_{n}_log")
                for k, v in log.items():
                    counts[k] += v
                for d in diffs:
                    print(f"{path}:{line}: {eid}: inference_log: {d}")
                    said = True
            if "claims" in entry:
                counts["claimed"] += 1
                want = credits(entry, mine)
                wrong = [c for c in CLAIMS if entry["claims"].get(c) != want[c]]
                for c in wrong:
                    print(f"{path}:{line}: {eid}: claims.{c}: BFCL's checks give {want[c]!r}, parthack claims {entry['claims'].get(c)!r}")
                    said = True
                if not wrong:
                    counts["claims_agree"] += 1
            if said:
                disagreements += 1
            else:
                counts["agree"] += 1
        print(f"{path}: {counts['entries']} entries, BFCL valid {counts['valid']}, "
              f"parthack agrees on {counts['agree']}; {counts['logged']} logs: calls equal "
              f"{counts['calls_equal']}/{counts['calls']}, snapshots equal "
              f"{counts['snapshots_equal']}/{counts['snapshots']}; claims agree "
              f"{counts['claims_agree']}/{counts['claimed']}")
    print(f"{n} entries, {disagreements} disagreements")
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
