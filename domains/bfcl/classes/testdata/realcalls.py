"""For TestRealCalls: reads call strings (one JSON string a line) on stdin
and writes, for each, what BFCL's Python makes of it: its arguments as
ast.literal_eval reads them (pyval's Marshal encoding), or the
SyntaxError text eval would give, and the string _process_method_calls
(multi_turn_utils.py, copied in) makes of it with every public method of
the eight classes mapped, in the order the classes are listed (a later
class wins a shared name). Line 1 of the output is that mapping, each
instance's class and each method's parameters (name, has a default,
the default in pyval's Marshal encoding).

    python3 realcalls.py SHARED_BFCL_DIR < calls.jsonl
"""
import ast, json, os, re, sys

def tag(v):
    if v is None: return "null"
    if v is True: return "true"
    if v is False: return "false"
    if type(v) is int:
        return str(v) if -2**63 <= v < 2**63 else '{"int":"%d"}' % v
    if type(v) is float: return '{"float":"%s"}' % repr(v)
    if type(v) is str: return json.dumps(v)
    if type(v) is list: return "[" + ",".join(tag(e) for e in v) + "]"
    if type(v) is tuple: return '{"tuple":[' + ",".join(tag(e) for e in v) + "]}"
    if type(v) is dict: return '{"dict":[' + ",".join("[%s,%s]" % (tag(k), tag(x)) for k, x in v.items()) + "]}"
    raise TypeError(type(v))

def _process_method_calls(function_call_string, instance_mapping):
    def replace_function(match):
        func_name = match.group(1)
        if func_name in instance_mapping:
            return f"{instance_mapping[func_name]}.{func_name}"
        return func_name
    pattern = r"\b([a-zA-Z_]\w*)\s*(?=\()"
    return re.sub(pattern, replace_function, function_call_string)

CLASSES = ["GorillaFileSystem", "MathAPI", "MessageAPI", "TwitterAPI", "TicketAPI", "TradingBot", "TravelAPI",
           "VehicleControlAPI"]

def main():
    src = os.path.join(sys.argv[1], "source", "func_source_code")
    methods = {}
    for f in sorted(os.listdir(src)):
        tree = ast.parse(open(os.path.join(src, f)).read())
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name in CLASSES:
                methods[node.name] = {}
                for n in node.body:
                    if not isinstance(n, ast.FunctionDef) or n.name.startswith("_") or any(
                            isinstance(d, ast.Name) and d.id == "staticmethod" for d in n.decorator_list):
                        continue
                    args = n.args.args[1:]
                    defaults = [None] * (len(args) - len(n.args.defaults)) + n.args.defaults
                    methods[node.name][n.name] = [[a.arg, d is not None, tag(ast.literal_eval(d)) if d else None]
                                                  for a, d in zip(args, defaults)]
    mapping = {}
    for c in CLASSES:
        for m in methods[c]:
            mapping[m] = f"m_e_{c}_instance"
    print(json.dumps({"mapping": mapping, "classes": {f"m_e_{c}_instance": c for c in CLASSES},
                      "params": methods}))
    for line in sys.stdin:
        call = json.loads(line)
        out = {"processed": _process_method_calls(call, mapping)}
        try:
            t = compile(call, "<string>", "eval", ast.PyCF_ONLY_AST).body
            if not isinstance(t, ast.Call):
                out["literal"] = None
            else:
                try:
                    args = [ast.literal_eval(a) for a in t.args]
                    kws = [(k.arg, ast.literal_eval(k.value)) for k in t.keywords]
                    out["literal"] = {"args": tag(args), "kwargs": tag(kws)}
                except ValueError:
                    out["literal"] = None
        except SyntaxError as e:
            out["syntax"] = str(e)
        print(json.dumps(out))

main()
