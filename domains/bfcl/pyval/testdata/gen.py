"""Writes cases.json, the expected values pyval's and the executor's tests
compare with, each computed by this Python (3.11 here):

    python3 domains/bfcl/pyval/testdata/gen.py

Values travel in pyval's Marshal encoding (tagged JSON, written here by
`tag`), so the Go tests also check that Marshal writes the same bytes.
Python 3.12's sum() of floats (Neumaier-compensated, BFCL's official
scores depend on it) is reproduced by sum312, a transcription of CPython
3.12's builtin_sum_impl, since this Python is 3.11.
"""
import json, math, random, re, sys, os, copy

def tag(v):
    """pyval.Marshal's encoding of v, as compact JSON text."""
    if v is None: return "null"
    if v is True: return "true"
    if v is False: return "false"
    if type(v) is int:
        if -2**63 <= v < 2**63: return str(v)
        sys.set_int_max_str_digits(0)  # Marshal writes any int
        try:
            return '{"int":"%d"}' % v
        finally:
            sys.set_int_max_str_digits(4300)
    if type(v) is float: return '{"float":"%s"}' % repr(v)
    if type(v) is str: return json.dumps(v)
    if type(v) is list: return "[" + ",".join(tag(e) for e in v) + "]"
    if type(v) is tuple: return '{"tuple":[' + ",".join(tag(e) for e in v) + "]}"
    if type(v) is dict: return '{"dict":[' + ",".join("[%s,%s]" % (tag(k), tag(x)) for k, x in v.items()) + "]}"
    if type(v) is complex: return '{"object":"complex","state":["%s","%s"]}' % (repr(v.real), repr(v.imag))
    raise TypeError(type(v))

def err(e):
    return {"error": type(e).__name__ + ": " + str(e)}

def res(f):
    try:
        return {"value": tag(f())}
    except Exception as e:
        return err(e)

def sres(f):
    try:
        return {"value": f()}
    except Exception as e:
        return err(e)

class Obj:  # an object json.dumps refuses
    pass

VALUES = [
    "None", "True", "False", "0", "-7", "2**63-1", "2**63", "-2**63", "-2**63-1", "10**30", "-(10**25)",
    "0.0", "-0.0", "1.0", "1.5", "0.1", "1/3", "1e16", "1e15", "123456789012345678.0", "1e-05", "0.0001",
    "1e-7", "2.5e-320", "1.7976931348623157e308", "float('inf')", "float('-inf')", "float('nan')",
    "3.14159", "100.0", "1e22", "9999999999999998.0", "0.30000000000000004",
    "''", "'a'", "\"it's\"", "'say \"hi\"'", "'both \\' and \"'", "'tab\\tnl\\ncr\\r'", "'back\\\\slash'",
    "'\\x00\\x07\\x1f\\x7f'", "'caf\\xe9'", "'\\u00a0nbsp'", "'\\u200bzw'", "'日本語'", "'emoji \\U0001f600'",
    "'\\u2028ls'", "'\\x85'", "'\\xad'",
    "[]", "[1, 'a', None]", "[[1, 2], [3]]", "()", "(1,)", "(1, 'x', (2.5,))", "{}",
    "{'a': 1, 'b': [1, 2]}", "{1: 'int', 2.5: 'float', True: 'bool', None: 'none', (1, 2): 'tuple'}",
    "{'nested': {'x': {'y': [1.0, -0.0]}}}", "{'f': float('nan'), 'i': float('inf')}",
    "{'\\u00e9': '\\u00e9'}", "[1e16, 1e-5, 12.0]", "{0.5: 1}", "{float('inf'): 1}",
    "complex(0, 2)", "complex(1.5, -2)", "{'c': complex(1, 1)}", "[(1, complex(1, 1)), {'k': [complex(2, 0)]}]",
    "{'t': ('caf\\xe9', '\\x7f\\x1f')}", "10**4299", "[10**4300]", "{10**4300: 1}",
]

def make_json_serializable(value):
    """BFCL's (bfcl_eval/utils.py, gorilla 013a2a4e), as its result files
    are written."""
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

def value_cases():
    out = []
    for src in VALUES:
        v = eval(src)
        c = {"src": src, "value": tag(v), "repr": sres(lambda: repr(v)), "str": sres(lambda: str(v)), "type": type(v).__name__,
             "truth": bool(v)}
        try:
            hash(v); c["hashable"] = True
        except TypeError:
            c["hashable"] = False
        c["dumps"] = sres(lambda: json.dumps(v))
        c["dumps_unicode"] = sres(lambda: json.dumps(v, ensure_ascii=False))
        c["serializable"] = res(lambda: make_json_serializable(v))
        out.append(c)
    return out

OPERANDS = ["0", "1", "-3", "True", "2**64", "-(2**70)", "2**53+1", "0.0", "-0.0", "2.5", "-1.5", "0.1", "1e308",
            "float('inf')", "float('nan')", "'ab'", "[1, 2]", "(1,)", "None", "{'a': 1}", "[1, 'a']", "-8.0"]
OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
       "//": lambda a, b: a // b, "%": lambda a, b: a % b, "**": lambda a, b: a ** b,
       "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
       "==": lambda a, b: a == b}

def binary_cases():
    out = []
    for a_src in OPERANDS:
        for b_src in OPERANDS:
            a, b = eval(a_src), eval(b_src)
            for op, f in OPS.items():
                if op == "**" and type(a) is int and type(b) is int and abs(b) > 100:
                    continue
                r = res(lambda: f(a, b))
                out.append({"a": tag(a), "b": tag(b), "op": op, **r})
    return out

def sum312(iterable):
    """CPython 3.12's builtin_sum_impl (start 0), transcribed."""
    it = iter(iterable)
    i_result = 0
    result = None
    for item in it:
        if type(item) in (int, bool):
            b = int(item)
            if -2**63 <= b < 2**63 and -2**63 <= i_result + b < 2**63:
                i_result += b
                continue
        result = i_result + item
        break
    else:
        return i_result
    if type(result) is float:
        f, c = result, 0.0
        rest = None
        for item in it:
            if type(item) is float:
                x = item
                t = f + x
                if abs(f) >= abs(x):
                    c += (f - t) + x
                else:
                    c += (x - t) + f
                f = t
                continue
            if isinstance(item, int) and -2**63 <= item < 2**63:
                f += float(item)
                continue
            rest = item
            break
        if c and math.isfinite(c):
            f += c
        result = f
        if rest is None:
            return result
        result = result + rest
    for item in it:
        result = result + item
    return result

UNARY_INPUTS = ["0", "-5", "2**70", "True", "3.7", "-3.7", "2.5", "-2.5", "0.5", "1e300", "float('nan')",
                "float('inf')", "'12'", "' 42 '", "'1_000'", "'-0.5e3'", "'abc'", "'1.5'", "' inf'", "'nan'",
                "'+-1'", "'١٢'", "None", "[1.5, 2]", "'0x10'", "''", "[]", "(3, 1, 2)", "{'b': 1, 'a': 2}",
                "[0.1] * 10", "[1e100, 1.0, -1e100]", "[1, 2.5, 3]", "[2**64, 0.5]", "[0.1, 0.2, 0.3]",
                "[1, 'a']", "['b', 'a', 'c']", "[3, 1.5, True]", "[[2], [1, 5], [1]]", "[0.1, 1, 0.2, 2, 0.3]",
                "[1.5, 'x']", "'hello'", "[float('inf'), -float('inf')]", "[1e16, 1.0, -1e16]",
                "[0.7, 0.1, 0.2, 2.0, 'z']"]
# Past Python's 4300-digit limit on int-to-str, for a few functions only
# (each result would otherwise repeat thousands of digits).
UNARY_BIG = ["'1' * 4301", "'-' + '1_' * 4300 + '1'", "10**4300", "-(10**4299)"]
UNARY_BIG_FNS = ["int", "float", "truth", "neg"]
UNARY = {
    "neg": lambda v: -v, "abs": lambda v: abs(v), "float": float, "int": int, "round": round,
    "len": len, "sum": sum312, "sumplain": sum, "min": min, "max": max, "sorted": sorted,
    "sorted_reverse": lambda v: sorted(v, reverse=True), "truth": bool, "list": list,
}

def unary_cases():
    out = []
    for src in UNARY_INPUTS:
        v = eval(src)
        for name, f in UNARY.items():
            out.append({"v": tag(v), "fn": name, **res(lambda: f(v))})
    for src in UNARY_BIG:
        v = eval(src)
        for name in UNARY_BIG_FNS:
            out.append({"v": tag(v), "fn": name, **res(lambda: UNARY[name](v))})
    return out

ROUNDS = [(2.675, 2), (2.5, 0), (3.5, 0), (0.125, 2), (0.375, 2), (1.005, 2), (-1.5, 0), (123.456, -1),
          (1234.5, -2), (5.0, -1), (15.0, -1), (25.0, -1), (-0.4, 0), (1e300, -300), (1.23456789e-10, 15),
          (0.1 + 0.2, 10), (2.5, 400), (7.0, -400), (1e22, 3), (-0.0, 2), (float("inf"), 2), (float("nan"), 1),
          (17, -1), (25, -1), (35, -1), (-25, -1), (12345, 2), (True, 0)]

def round_cases():
    return [{"x": tag(x), "n": n, **res(lambda: round(x, n))} for x, n in ROUNDS]

FORMATS = [(3.14159, ".2f"), (2.675, ".2f"), (1234567.891, ",.2f"), (0.5, ".0f"), (1.5, ".0f"), (-0.001, ".2f"),
           (-0.001, "z.2f"), (42, ".2f"), (42, "d"), (42, ">6"), (42, "06d"), (-42, "06d"), (1234567, ","),
           (1234567, "_"), (3.0, ""), (1e16, ""), (0.25, ".1%"), (1234.5, ".3e"), (1234.5, ".3g"),
           (0.00001234, ".3g"), (1234.5, ".2"), (1.0, ".3"), (100.0, ".3g"), (float("inf"), ".2f"),
           (float("nan"), ".2f"), (-float("inf"), "F"), ("abc", ">5"), ("abc", "^7"), ("abc", ".2"),
           ("abc", "*<6"), ("abc", ".2f"), (42, "s"), (None, ""), (None, ".2f"), ([1], ""), (1.5, "+.1f"),
           (1.5, " .1f"), (12.5, "08.2f"), (True, ""), (True, "d"), (5, "x"), (0.1, ".20f"), (1e-7, "f"),
           (123456789.0, "g"), (1.0, "#.0f"), (2**70, ","), (10**4300, ""), (10**4300, "d"), (10**4299, "")]

def format_cases():
    out = []
    for v, spec in FORMATS:
        try:
            out.append({"v": tag(v), "spec": spec, "value": format(v, spec)})
        except Exception as e:
            out.append({"v": tag(v), "spec": spec, **err(e)})
    return out

LOADS = ['{"a": 1, "b": [1.0, 2e3, -0, 1E-2], "c": null, "d": true}', '{"a": 1, "a": 2, "b": 3}',
         '123456789012345678901234567890', '-1.5e400', 'NaN', '[Infinity, -Infinity]', '"\\u00e9\\ud83d\\ude00"',
         '"\\n\\t\\/"', '{"0": "x", "1": {"2": []}}', '  [ 1 , 2 ]  ', '', '[1,]', '{"a" 1}', '[1] x',
         '{"a": 1,}', '"abc', '01', '-', '[1, 2', 'tru', '"\\x"', '{1: 2}', '1.', '1.5e', '[-0.0, 0.0]']

def loads_cases():
    out = []
    for s in LOADS:
        try:
            out.append({"json": s, "value": tag(json.loads(s))})
        except json.JSONDecodeError as e:
            out.append({"json": s, "error": "JSONDecodeError: " + str(e)})
    return out

def dict_cases():
    """Key semantics: the same sequence of operations on a dict."""
    d = {}
    log = []
    ops = [("set", 1, "a"), ("set", 1.0, "b"), ("set", True, "c"), ("set", "1", "d"), ("set", (1, 2), "e"),
           ("set", (1.0, 2), "f"), ("set", 2.5, "g"), ("set", None, "h"), ("get", 1), ("get", 2), ("get", [1]),
           ("pop", 1.0), ("pop", 1), ("set", 1, "z"), ("del", "1"), ("del", "missing"), ("get", (1, 2.0)),
           ("set", [1], "x"), ("set", False, "f0"), ("get", 0), ("get", 0.0)]
    for op in ops:
        try:
            if op[0] == "set":
                d[op[1]] = op[2]; r = None
            elif op[0] == "get":
                r = d[op[1]]
            elif op[0] == "pop":
                r = d.pop(op[1])
            else:
                del d[op[1]]; r = None
            log.append({"op": op[0], "k": tag(op[1]), "v": tag(op[2]) if len(op) > 2 else None,
                        "result": tag(r), "repr": repr(d)})
        except Exception as e:
            log.append({"op": op[0], "k": tag(op[1]), "v": tag(op[2]) if len(op) > 2 else None,
                        **err(e), "repr": repr(d)})
    return log

STRS = ["  a b\tc\n", "line1\nline2\r\nline3\rline4\x0bx\x0cy\x1cz\x85w\u2028v\n", "", "\n", "a\n\n",
        "x,y,,z", "ΟΔΟΣ ΟΔΟΣ.", "Straße ﬁ", "İstanbul", "MiXeD 123", "12", "١٢٣", "²", "1.5", "-7", "007",
        "\x1fa\x1fb", "\u00a0x\u3000"]

def str_cases():
    out = []
    for s in STRS:
        out.append({"s": s, "split": s.split(), "split_comma": s.split(","), "split_comma1": s.split(",", 1),
                    "splitlines": s.splitlines(), "strip": s.strip(), "strip_chars": s.strip("a1 "),
                    "rstrip_slash": (s + "//").rstrip("/"), "lower": s.lower(), "upper": s.upper(),
                    "isdigit": s.isdigit(), "zfill": s.zfill(5), "bytelen": len(s.encode("utf-8")),
                    "len": len(s), "int": sres(lambda: repr(int(s))), "float": sres(lambda: repr(float(s)))})
    return out

def strformat_cases():
    kw = {"symbol": "AAPL", "x": 2.5, "n": 7}
    fmts = ["Stock {symbol} at {x:.2f}", "{{literal}} {symbol}", "{missing}", "{0}", "{}", "{n:03d}", "{symbol!r}",
            "open { brace", "close } brace"]
    out = []
    for f in fmts:
        try:
            out.append({"fmt": f, "value": f.format(**kw)})
        except Exception as e:
            out.append({"fmt": f, **err(e)})
    return out

SLICES = [("[0, 1, 2, 3, 4]", "-2", "None", "None"), ("[0, 1, 2, 3, 4]", "None", "None", "-1"),
          ("'abcdé'", "1", "-1", "None"), ("'abcdé'", "None", "None", "-2"), ("(1, 2, 3)", "-10", "10", "None"),
          ("[0, 1, 2, 3, 4]", "4", "0", "-2"), ("[0, 1, 2]", "-0", "None", "None"), ("[0, 1, 2]", "1.0", "None", "None"),
          ("[0, 1, 2]", "'1'", "None", "None"), ("[0, 1, 2]", "None", "None", "0"), ("5", "1", "None", "None"),
          ("[0, 1, 2]", "2**70", "None", "None"), ("[0, 1, 2]", "-(2**70)", "None", "-1"), ("[0, 1, 2]", "True", "None", "None"),
          ("[0, 1, 2, 3]", "-3", "None", "None"), ("[]", "-1", "None", "None")]

def slice_cases():
    out = []
    for v, a, b, c in SLICES:
        val, lo, hi, st = eval(v), eval(a), eval(b), eval(c)
        out.append({"v": tag(val), "start": tag(lo), "stop": tag(hi), "step": tag(st),
                    **res(lambda: val[lo:hi:st])})
    return out

def random_cases():
    out = []
    ranges = [(10000, 99999), (100000, 999999), (100000000000, 999999999999), (1, 6), (0, 2**40),
              (1672531200, 1704067199), (5, 5)]
    for seed in [200191, 141053, 1053520, 0, -5, 2**80 + 3, "seed-str", 2.5, -3.75, 1e300, 7.0, True]:
        r = random.Random(seed)
        draws = []
        for i in range(1000 if seed in (200191, 141053, 1053520) else 200):
            a, b = ranges[i % len(ranges)] if seed not in (200191, 141053, 1053520) else ranges[(i // 250) % 3 if seed != 1053520 else 5]
            draws.append([a, b, r.randint(a, b)])
        out.append({"seed": tag(seed), "draws": draws})
    return out

def deepcopy_case():
    shared = [1, 2]
    v = {"a": shared, "b": shared, "c": [shared, (shared,)]}
    c = copy.deepcopy(v)
    c["a"].append(3)
    return {"before": tag(v), "after_append_via_a": tag(c)}

# The executor: _process_method_calls' rewriting, with the instance names
# the tests' toy session has, and eval's SyntaxError texts.
MAPPING = {"ls": "M_e_A_instance", "cd": "M_e_A_instance", "echo": "M_e_B_instance",
           "mv": "M_e_B_instance"}

def _process_method_calls(function_call_string, instance_mapping):
    def replace_function(match):
        func_name = match.group(1)
        if func_name in instance_mapping:
            return f"{instance_mapping[func_name]}.{func_name}"
        return func_name
    pattern = r"\b([a-zA-Z_]\w*)\s*(?=\()"
    return re.sub(pattern, replace_function, function_call_string)

PROCESS = ["ls(a=True)", "cd(folder='x')", "echo(content='call ls (now) and cd(x)', file_name='f')",
           "mv (source='a', destination='b')", "foo(1)", "x.ls(a=1)", "ls(a=cd(folder='y'))",
           "echo(content='é ls(x) éls(y) 9ls(z) _ls(w)')", "echo(content='tab\tls\t(x)')", "lsx(1)",
           "ls\n(1)", "echo(content='ünïcode cd (z)')"]

SYNTAX = ["ls(a=True", "ls(a='x)", "ls(a=1,a=2)", "ls(1, a=2, 3)", "ls(a 1)", "", "ls(a=[1,2)", "ls(a=1 b=2)",
          "ls(a=\"\"\"x", "ls(a=01)", "ls) ", "ls(a=-)", "x y", "ls(1=2)", "ls(from='x')", "ls(a=1.2.3)",
          "ls(a='\\N')", "ls(True=1)", "ls(a=1)\nls(b=2)", "(" * 200 + "1" + ")" * 200, "f(" + "[" * 200 + "]" * 200 + ")"]

def executor_cases():
    proc = [{"call": c, "processed": _process_method_calls(c, MAPPING)} for c in PROCESS]
    syn = []
    for s in SYNTAX:
        try:
            compile(s, "<string>", "eval")
            syn.append({"src": s, "error": None})
        except SyntaxError as e:
            syn.append({"src": s, "error": str(e)})
    literals = []
    for s in ["f(1, 'a', b=[1, 2.5, None], c={'k': (1, 2)}, d=-3, e=True)", "g()", "h(x=-1.5e-07, y='it\\'s')",
              "k(s='a' 'b', t=\"\\u00e9\\n\\x41\", u=r'\\d', v=0x1F, w=1_000)", "m(a={1: 'x', 'b': [True, False]})",
              "n(a=(), b=(1,), c=[], d={})", "p(-(2**3))"]:
        import ast
        t = ast.parse(s, mode="eval").body
        name = t.func.id
        try:
            args = [ast.literal_eval(a) for a in t.args]
            kws = [[k.arg, ast.literal_eval(k.value)] for k in t.keywords]
            literals.append({"src": s, "method": name, "args": tag(args), "kwargs": tag([tuple(k) for k in kws])})
        except ValueError:
            literals.append({"src": s, "error": True})
    return {"process": proc, "syntax": syn, "literals": literals}

# Python's argument binding texts, for a toy class with the tests' methods.
class TicketAPI:
    def create_ticket(self, title, description="", priority=1): pass
    def close_ticket(self, ticket_id): pass
    def get_user_tickets(self): pass
    def three(self, a, b, c): pass
    def edit(self, ticket_id, updates): pass

BIND = [("create_ticket", "(title='t')"), ("create_ticket", "()"), ("create_ticket", "(1, 2, 3, 4)"),
        ("create_ticket", "(x=1)"), ("create_ticket", "('t', title='u')"), ("create_ticket", "(description='d')"),
        ("close_ticket", "(1, 2)"), ("get_user_tickets", "(1)"), ("three", "()"), ("three", "(1)"),
        ("three", "(c=1)"), ("edit", "(1, 2, 3)"), ("create_ticket", "(1, 2, 3, 4, x=5)"),
        ("create_ticket", "(1, 2, 3, 4, title=5)"), ("close_ticket", "(ticket_id=1, ticket_id2=2)"),
        ("get_user_tickets", "()"), ("close_ticket", "()")]

def bind_cases():
    t = TicketAPI()
    out = []
    for m, args in BIND:
        try:
            eval(f"t.{m}{args}")
            out.append({"method": m, "args": args, "error": None})
        except TypeError as e:
            out.append({"method": m, "args": args, "error": str(e)})
    return out

# BFCL's own executor (multi_turn_utils.py from ../shared, when present)
# on toy classes the Go test mirrors: Alpha and Beta stateful, Gamma
# stateless, "echo" in both Alpha and Beta (the later involved wins).
TOY = """
class Alpha:
    def __init__(self):
        self.items = []
        self._hidden = 0
    def _load_scenario(self, scenario, long_context=False):
        self.items = scenario.get("items", [])
        self.name = scenario.get("name", "alpha")
    def ls(self, a=False):
        return {"items": self.items, "a": a}
    def cd(self, folder):
        self.items.append(folder)
        self._hidden += 1
    def echo(self, content, file_name=None):
        return "alpha:" + content
    def kill(self):
        return "killed"
    def boom(self, x):
        return 1 / x
    def lst(self):
        return [1, "a", None, 2.50]
    def num(self, x):
        return x * 2
    def obj(self):
        return {"c": complex(1, 2)}
    def keys(self):
        return {1: "int key", 2.5: "float key", None: True}
    def big(self, n):
        return {"result": 10 ** n}

class Beta:
    def _load_scenario(self, scenario, long_context=False):
        self.log = []
    def echo(self, content, file_name=None):
        self.log.append(content)
        return "beta:" + content
    def mv(self, source, destination):
        return {"result": f"'{source}' moved to '{destination}'"}

class Gamma:
    def __init__(self):
        self._d = "x"
    def add(self, a, b):
        return {"result": a + b}
"""

EXEC_RUNS = [
    ["ls()", "ls(a=True)", "cd(folder='x')", "ls()", "echo(content='hi ls (x) cd(y)')", "mv(source='a', destination='b')",
     "mv('a')", "mv(source='a', destination='b', x=1)", "kill()", "remove(x=1)", "nope(1)", "boom(x=0)", "boom(x='s')",
     "lst()", "num(x=2.5)", "num(x='ab')", "num(x=[1])", "cd(folder='y')", "obj()", "keys()", "add(a=1, b=2)", "add(a=1, b='x')",
     "ls(a=True", "ls(a=undefined)", "ls(a=-1)", "ls(a=[1, {'k': None}])", "echo(content='x', file_name=None)",
     "ls(a=1e16)", "ls(a='\\u00e9 caf\\xe9')", "ls(1, 2)", "ls(a=1)(2)", "ls", "Alpha.ls()", "ls(a=(1, 2))",
     "cd(folder=cd(folder='nested'))", "mv(source='a', destination=nope)", "ls(a=-0.0)", "ls(a=10**20)",
     "echo(content='quote \\' and \\\"')", "cd (folder='spaced')", "big(n=4299)", "big(n=4300)"],
    ["ls()", "echo(content='second batch')"],
]

def executor_runs():
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.join(here, "../../../../../../shared/realworld/bfcl/source/multi_turn_utils.py")
    if not os.path.exists(src):
        src = "/work/shared/realworld/bfcl/source/multi_turn_utils.py"
    if not os.path.exists(src):
        return None
    import types, importlib.util
    toy = types.ModuleType("toyclasses")
    exec(TOY, toy.__dict__)
    sys.modules["toyclasses"] = toy
    cfg = types.ModuleType("bfcl_eval.constants.executable_backend_config")
    cfg.CLASS_FILE_PATH_MAPPING = {"Alpha": "toyclasses", "Beta": "toyclasses", "Gamma": "toyclasses"}
    cfg.STATELESS_CLASSES = ["Gamma"]
    for name in ["bfcl_eval", "bfcl_eval.constants"]:
        sys.modules[name] = types.ModuleType(name)
    sys.modules["bfcl_eval.constants.executable_backend_config"] = cfg
    spec = importlib.util.spec_from_file_location("multi_turn_utils", src)
    mtu = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mtu)
    initial = {"Alpha": {"items": ["init"], "name": "first"}, "Beta": {}}
    involved = ["Alpha", "Beta", "Gamma"]
    out = []
    instances = None
    for calls in EXEC_RUNS:
        results, instances = mtu.execute_multi_turn_func_call(calls, initial, involved, "M-1.x", "multi_turn_base_0")
        out.append({"calls": calls, "results": results})
    state = {name: repr(vars(inst)) for name, inst in instances.items()}
    return {"initial": tag(initial), "involved": involved, "model": "M-1.x", "entry": "multi_turn_base_0",
            "runs": out, "state": state, "initial_after": tag(initial)}

def main():
    cases = {
        "python": sys.version.split()[0],
        "values": value_cases(), "binary": binary_cases(), "unary": unary_cases(), "round": round_cases(),
        "format": format_cases(), "loads": loads_cases(), "dict": dict_cases(), "strings": str_cases(),
        "strformat": strformat_cases(), "slice": slice_cases(), "random": random_cases(), "deepcopy": deepcopy_case(),
        "executor": executor_cases(), "bind": bind_cases(),
        "executor_runs": executor_runs(),
    }
    here = os.path.dirname(os.path.abspath(__file__))
    # One case a line, so a regenerated file diffs case by case.
    with open(os.path.join(here, "cases.json"), "w") as f:
        f.write("{\n")
        for i, (k, v) in enumerate(cases.items()):
            f.write(json.dumps(k) + ": ")
            if isinstance(v, list):
                f.write("[\n" + ",\n".join(json.dumps(e, separators=(",", ":")) for e in v) + "\n]")
            else:
                f.write(json.dumps(v, separators=(",", ":")))
            f.write(",\n" if i < len(cases) - 1 else "\n")
        f.write("}\n")

main()
