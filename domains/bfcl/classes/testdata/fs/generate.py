"""Write the expected results of BFCL's GorillaFileSystem and MathAPI for
the Go port's differential tests (filesystem_test.go, math_test.go).

Usage (from domains/bfcl/classes):

    python3.12 testdata/fs/generate.py [BFCL_DIR]

BFCL_DIR (or the environment variable of that name) defaults to the
nearest shared/realworld/bfcl above this folder (the staged source, data
and runs). Run it under Python 3.12 or later, the version
BFCL's official runs were made and scored with (its sum() of floats is
compensated; 3.11's is not), with mpmath importable (PYTHONPATH may name
another Python's site-packages: mpmath is pure Python).

It executes call strings through BFCL's own executor
(multi_turn_utils.execute_multi_turn_func_call), one call at a time, on
instances loaded from an entry's initial_config, and writes one JSON
object a line, gzipped, per class and source:

    testdata/fs/gold.jsonl.gz, testdata/math/gold.jsonl.gz   every gold
        call of every entry involving the class, in order, from the
        entry's initial_config (calls of other classes left out: they
        never touch this class's state)
    testdata/fs/edge.jsonl.gz, testdata/math/edge.jsonl.gz   hand-made
        calls: wrong types, missing paths, "..", names with "/", shared
        contents after mv and cp; for MathAPI also 600 seeded logarithm
        and square_root calls (the parts ported from mpmath and decimal)

Each line: {"id", "initial_config" (the class's part), "calls": [{"call",
"result" (the executor's string), "state" (repr of every public attribute
after the call; absent for the stateless MathAPI)}]}.

With --runs it also replays the class's calls of every real run in
BFCL_DIR/runs and prints, per file, how many results and turn-start
snapshots equal the recorded ones (a check that this replay is BFCL's;
the Go test compares against the recorded values themselves).
"""
import copy
import glob
import gzip
import importlib
import json
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
CLASSES = {
    "GorillaFileSystem": ("gorilla_file_system", "fs"),
    "MathAPI": ("math_api", "math"),
}


def load_bfcl(bfcl_dir):
    """Make BFCL's modules importable under their own package names."""
    src = os.path.join(bfcl_dir, "source")
    pkgs = ["bfcl_eval", "bfcl_eval.eval_checker",
            "bfcl_eval.eval_checker.multi_turn_eval", "bfcl_eval.constants"]
    for p in pkgs:
        m = types.ModuleType(p)
        m.__path__ = []
        sys.modules[p] = m
    sys.modules["bfcl_eval.eval_checker.multi_turn_eval"].__path__ = [src]
    fsc = types.ModuleType("bfcl_eval.eval_checker.multi_turn_eval.func_source_code")
    fsc.__path__ = [os.path.join(src, "func_source_code")]
    sys.modules[fsc.__name__] = fsc
    cfg = types.ModuleType("bfcl_eval.constants.executable_backend_config")
    cfg.CLASS_FILE_PATH_MAPPING = {
        c: fsc.__name__ + "." + mod for c, (mod, _) in CLASSES.items()}
    cfg.STATELESS_CLASSES = ["MathAPI"]
    sys.modules[cfg.__name__] = cfg
    return importlib.import_module(
        "bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils")


def methods(cls_name):
    mod = importlib.import_module(
        "bfcl_eval.eval_checker.multi_turn_eval.func_source_code." + CLASSES[cls_name][0])
    cls = getattr(mod, cls_name)
    return {n for n in dir(cls) if not n.startswith("_") and callable(getattr(cls, n))}


def call_name(call):
    return call.split("(", 1)[0].strip()


class Replay:
    """One class's instance, driven through BFCL's executor call by call."""
    count = 0

    def __init__(self, utils, cls_name, initial_config):
        Replay.count += 1
        self.utils, self.cls = utils, cls_name
        self.config = {cls_name: copy.deepcopy(initial_config)} if initial_config is not None else {}
        self.model = "gen%d" % Replay.count
        self.instance = None

    def call(self, call):
        results, instances = self.utils.execute_multi_turn_func_call(
            [call], self.config, [self.cls], self.model, "e")
        self.instance = instances[self.cls]
        return results[0]

    def state(self):
        if self.cls == "MathAPI":
            return None
        return {k: repr(v) for k, v in vars(self.instance).items() if not k.startswith("_")}


def sequence(utils, cls_name, seq_id, initial_config, calls):
    r = Replay(utils, cls_name, initial_config)
    out = []
    for c in calls:
        step = {"call": c, "result": r.call(c)}
        st = r.state()
        if st is not None:
            step["state"] = st
        out.append(step)
    line = {"id": seq_id, "calls": out}
    if initial_config is not None:
        line["initial_config"] = initial_config
    return line


def gold(utils, bfcl_dir, cls_name):
    names = methods(cls_name)
    lines = []
    for cat in ["base", "miss_func", "miss_param"]:
        answers = {}
        with gzip.open(os.path.join(bfcl_dir, "data", "possible_answer",
                                    "BFCL_v4_multi_turn_%s.json.gz" % cat), "rt") as f:
            for l in f:
                d = json.loads(l)
                answers[d["id"]] = d["ground_truth"]
        with gzip.open(os.path.join(bfcl_dir, "data",
                                    "BFCL_v4_multi_turn_%s.json.gz" % cat), "rt") as f:
            for l in f:
                e = json.loads(l)
                if cls_name not in e["involved_classes"]:
                    continue
                calls = [c for turn in answers[e["id"]] for c in turn if call_name(c) in names]
                cfg = None if cls_name == "MathAPI" else e["initial_config"].get(cls_name, {})
                lines.append(sequence(utils, cls_name, e["id"], cfg, calls))
    return lines


FS_CONFIG = {"root": {"workspace": {"type": "directory", "contents": {
    "document": {"type": "directory", "contents": {
        "report.txt": {"type": "file", "content": "beta line\nalpha line\n\ngamma budget\nalpha line"},
        "notes.md": {"type": "file", "content": "alpha line\nbeta budget\ndelta"},
        ".hidden": {"type": "file", "content": "secret"},
        "sub": {"type": "directory", "contents": {
            "deep.txt": {"type": "file", "content": "deep content"}}},
    }},
    "archive": {"type": "directory", "contents": {}},
    "readme.txt": {"type": "file", "content": "Hello, world!\nSecond line"},
    "big.log": {"type": "file", "content": "x" * 3000},
}}}}

FS_EDGES = [
    ("fs_paths", FS_CONFIG, [
        "pwd()", "ls()", "ls(a=True)", "ls(a='no')", "ls(a=0)",
        "cd(folder='..')", "cd(folder='/')", "cd(folder='')", "cd(folder='document/sub')",
        "cd(folder='../')", "cd(folder='nope')", "cd(folder='readme.txt')", "cd(folder='.')",
        "cd(folder=5)", "cd(folder=None)", "cd()", "cd(folder='document')", "pwd()",
        "cd(folder='sub/')", "pwd()", "ls()", "cd(folder='..')", "cd(folder='..')",
        "cd(folder='..')", "pwd()", "cd(folder='document', extra=1)", "cd('document')",
        "find()", "find(path='/')", "find(path='..')", "find(path='sub/')", "find(path='.', name='line')",
        "find(name='t')", "find(path='nope')", "find(path=None)", "find(name=5)", "find(path='/sub')",
        "cd(folder='/')", "pwd()", "find(path='document/sub')", "find(path='/document', name='deep')",
    ]),
    ("fs_files", FS_CONFIG, [
        "cat(file_name='readme.txt')", "cat(file_name='document')", "cat(file_name='nope')",
        "cat(file_name='a/b')", "cat(file_name=5)", "cat(file_name=['readme.txt'])",
        "touch(file_name='new.txt')", "touch(file_name='new.txt')", "touch(file_name='x/y')",
        "touch(file_name=5)", "touch(file_name=['a'])", "touch(file_name='')", "ls()",
        "echo(content='hi')", "echo(content=5)", "echo(content='hi', file_name='')",
        "echo(content='hello\\nworld', file_name='new.txt')", "cat(file_name='new.txt')",
        "echo(content='x', file_name='missing.txt')", "echo(content='x', file_name='a:b')",
        "echo(content='x', file_name='document')", "echo(content=123, file_name='readme.txt')",
        "cat(file_name='readme.txt')", "wc(file_name='readme.txt')", "du()",
        "mkdir(dir_name='newdir')", "mkdir(dir_name='newdir')", "mkdir(dir_name='a/b')",
        "mkdir(dir_name='.')", "mkdir(dir_name=7)", "ls()", "ls(a=True)", "cd(folder='.')",
        "rmdir(dir_name='.')", "rmdir(dir_name='newdir')", "rmdir(dir_name='document')",
        "rmdir(dir_name='new.txt')", "rmdir(dir_name='nope')", "rm(file_name='new.txt')",
        "rm(file_name='new.txt')", "rm(file_name='archive')", "rm(file_name=3)", "ls()",
        "mkdir(dir_name='café ☕')", "touch(file_name='日本.txt')", "ls()", "pwd()",
    ]),
    ("fs_text", FS_CONFIG, [
        "cd(folder='document')",
        "wc(file_name='report.txt')", "wc(file_name='report.txt', mode='w')",
        "wc(file_name='report.txt', mode='c')", "wc(file_name='report.txt', mode='x')",
        "wc(file_name='sub')", "wc(file_name='nope', mode='l')", "wc(file_name='report.txt', mode=['l'])",
        "sort(file_name='report.txt')", "sort(file_name='sub')", "sort(file_name='nope')",
        "grep(file_name='report.txt', pattern='alpha')", "grep(file_name='report.txt', pattern='')",
        "grep(file_name='report.txt', pattern='zzz')", "grep(file_name='report.txt', pattern=5)",
        "grep(file_name='nope', pattern='a')",
        "tail(file_name='report.txt')", "tail(file_name='report.txt', lines=2)",
        "tail(file_name='report.txt', lines=0)", "tail(file_name='report.txt', lines=-2)",
        "tail(file_name='report.txt', lines=100)", "tail(file_name='report.txt', lines='3')",
        "tail(file_name='report.txt', lines=2.5)", "tail(file_name='report.txt', lines=True)",
        "tail(file_name='sub')",
        "diff(file_name1='report.txt', file_name2='notes.md')",
        "diff(file_name1='report.txt', file_name2='report.txt')",
        "diff(file_name1='report.txt', file_name2='sub')", "diff(file_name1='x', file_name2='notes.md')",
        "du()", "du(human_readable=True)", "cd(folder='..')", "du(human_readable=True)",
        "du(human_readable='yes')", "du(human_readable=0)", "du()",
        "echo(content='a\\r\\nb\\rc\\x0bd\\x0ce\\x1cf\\u2028g\\x85h', file_name='readme.txt')",
        "wc(file_name='readme.txt')", "sort(file_name='readme.txt')", "tail(file_name='readme.txt', lines=3)",
        "wc(file_name='readme.txt', mode='w')", "echo(content='a\\u00a0b\\u3000c\\u200bd', file_name='readme.txt')",
        "wc(file_name='readme.txt', mode='w')", "wc(file_name='readme.txt', mode='c')", "du()",
        "echo(content='Zeta\\nalpha\\nBeta\\n\\u00e9t\\u00e9\\nabc\\n', file_name='readme.txt')",
        "sort(file_name='readme.txt')", "wc(file_name='readme.txt')",
    ]),
    ("fs_move_copy", FS_CONFIG, [
        "mv(source='readme.txt', destination='archive')", "ls()", "mv(source='readme.txt', destination='x')",
        "mv(source='big.log', destination='a/b')", "mv(source='big.log', destination='big2.log')",
        "mv(source='big2.log', destination='archive')", "mv(source='archive', destination='big2.log')",
        "touch(file_name='readme.txt')", "mv(source='readme.txt', destination='archive')",
        "mv(source='document', destination='docs')", "ls()", "cd(folder='docs')", "pwd()", "ls()",
        "cd(folder='sub')", "pwd()", "cd(folder='..')", "pwd()", "ls()", "cd(folder='/')",
        "mv(source='.', destination='x')", "mv(source='..', destination='x')",
        "cp(source='docs', destination='docs_copy')", "cd(folder='docs_copy')",
        "echo(content='changed', file_name='notes.md')", "cd(folder='..')", "cd(folder='docs')",
        "cat(file_name='notes.md')", "rm(file_name='report.txt')", "cd(folder='..')", "cd(folder='docs_copy')", "ls()",
        "cd(folder='..')", "cp(source='archive', destination='docs')", "cp(source='archive', destination='docs')",
        "touch(file_name='readme.txt')", "echo(content='r', file_name='readme.txt')",
        "cp(source='readme.txt', destination='docs')", "cp(source='readme.txt', destination='docs')",
        "cp(source='nope', destination='x')", "cp(source='readme.txt', destination='a/b')",
        "cp(source='readme.txt', destination='readme2.txt')", "cp(source='readme.txt', destination='readme2.txt')",
        "cp(source='docs', destination='readme2.txt')", "cp(source='.', destination='dot')",
        "mv(source=1, destination='x')", "mv(source='readme2.txt', destination=5)",
        "cp(source='readme2.txt', destination=None)", "mv(source='readme2.txt')", "ls()", "find()",
    ]),
    ("fs_dot_cycle", FS_CONFIG, [
        "cd(folder='archive')", "mkdir(dir_name='.')", "touch(file_name='t.txt')",
        "cp(source='.', destination='loop')", "ls(a=True)", "cd(folder='loop')", "ls(a=True)",
        "cd(folder='loop')", "pwd()", "cd(folder='..')", "cd(folder='..')", "find()", "du()",
        "mv(source='.', destination='moved')", "ls(a=True)", "cd(folder='/')", "find(path='archive', name='t')",
        "du(human_readable=True)", "rm(file_name='archive')", "find()",
    ]),
    ("fs_empty_config", {}, [
        "pwd()", "ls()", "cd(folder='..')", "cd(folder='/')", "mkdir(dir_name='a')", "cd(folder='a')",
        "pwd()", "cd(folder='..')", "find()", "du(human_readable=True)",
    ]),
    ("fs_root_file", {"root": {"top": {"type": "directory", "contents": {
        "f": {"type": "file", "content": ""}}}}}, [
        "cat(file_name='f')", "wc(file_name='f')", "sort(file_name='f')", "tail(file_name='f')",
        "tail(file_name='f', lines=-1)", "grep(file_name='f', pattern='')", "diff(file_name1='f', file_name2='f')",
        "du()", "echo(content='', file_name='f')", "cd(folder='top')", "cd(folder='f')",
    ]),
]

MATH_EDGES = [
    ("math_arith", [
        "add(a=1, b=2)", "add(a=1.5, b=2)", "add(a='a', b='b')", "add(a='a', b=1)", "add(a=[1], b=[2])",
        "add(a=True, b=1)", "add(a=1e308, b=1e308)", "add(a=10**20, b=1)", "add(a=0.1, b=0.2)",
        "subtract(a=5, b=7)", "subtract(a='a', b=1)", "subtract(a=0.3, b=0.1)",
        "multiply(a=3, b=4)", "multiply(a='a', b=3)", "multiply(a=True, b=2.5)", "multiply(a=1e200, b=1e200)",
        "multiply(a=111.92365689097284, b=1.60934)",
        "divide(a=1, b=0)", "divide(a=1, b=0.0)", "divide(a=5, b=2)", "divide(a=4, b=2)",
        "divide(a='a', b=2)", "divide(a=10**30, b=3)", "divide(a=124.0, b=4)", "divide(a=1, b=3)",
        "divide(a=1, b='x')", "divide(a=-7, b=2)",
        "power(base=2, exponent=10)", "power(base=2, exponent=100)", "power(base=2, exponent=-1)",
        "power(base=0, exponent=-1)", "power(base=10.0, exponent=400)", "power(base=2.5, exponent=2)",
        "power(base='a', exponent=2)", "power(base=4, exponent=0.5)", "power(base=0, exponent=0)",
        "absolute_value(number=-3)", "absolute_value(number=-2.5)", "absolute_value(number='a')",
        "absolute_value(number=-0.0)", "absolute_value(number=True)",
        "percentage(part=1, whole=3)", "percentage(part=1, whole=0)", "percentage(part='a', whole=2)",
        "percentage(part=20.04, whole=50)", "percentage(part=50, whole=200)",
        "round_number(number=2.675, decimal_places=2)", "round_number(number=5, decimal_places=2)",
        "round_number(number=2.5)", "round_number(number=3.5)", "round_number(number=1234.5, decimal_places=-2)",
        "round_number(number='a')", "round_number(number=2.5, decimal_places=1.5)",
        "round_number(number=True)", "round_number(number=1.23456789, decimal_places=4)",
        "round_number(number=1e300, decimal_places=400)", "round_number(number=123, decimal_places=-1)",
        "round_number(number=125, decimal_places=-1)", "round_number(number=0.5, decimal_places=None)",
        "round_number(number=-0.4)",
    ]),
    ("math_lists", [
        "mean(numbers=[])", "mean(numbers=[1, 2])", "mean(numbers=[2, 2])", "mean(numbers='abc')",
        "mean(numbers=[1, 'a'])", "mean(numbers=5)", "mean(numbers=[True, False])", "mean([37])",
        "mean(numbers=[0.1, 0.2, 0.3])", "mean(numbers=[1e308, 1e308])", "mean(numbers=[1, 2.5, 3])",
        "mean(numbers=[227.16, 2.552, 227.11, 227.09])", "mean(numbers=[45.99, 78.25, 102.5, 38.75, 92.1])",
        "standard_deviation(numbers=[100, 95, 85, 90, 88, 92])", "standard_deviation(numbers=[])",
        "standard_deviation(numbers=[1, 'a'])", "standard_deviation(numbers=[1.5, 2.5, 3.25, 10])",
        "standard_deviation(numbers=[5])", "standard_deviation(numbers=[0.1, 0.2, 0.3, 0.4])",
        "min_value(numbers=[3, 1.5, 2])", "min_value(numbers=[])", "min_value(numbers=['b', 'a'])",
        "min_value(numbers=[1, 'a'])", "max_value(numbers='abc')", "max_value(numbers=[1, True, 1.0])",
        "max_value(numbers=[2, 7.5, -1])", "sum_values(numbers=[1, 2, 3])", "sum_values(numbers=[])",
        "sum_values(numbers=[[1], [2]])", "sum_values(numbers=[0.1, 0.2, 0.3])",
        "sum_values(numbers=[100, 95, 85, 90, 88, 92])", "sum_values(numbers=[32.0, 32.0, 30.0, 30.0])",
        "sum_values(numbers=[1e100, 1.0, -1e100])", "sum_values(numbers=[1, 0.1, 10**20])",
    ]),
    ("math_units", [
        "si_unit_conversion(value=1, unit_in='km', unit_out='mm')", "si_unit_conversion(value=5.5, unit_in='cm', unit_out='m')",
        "si_unit_conversion(value='5', unit_in='km', unit_out='m')", "si_unit_conversion(value=True, unit_in='km', unit_out='m')",
        "si_unit_conversion(value=1, unit_in='mi', unit_out='m')", "si_unit_conversion(value=3, unit_in='nm', unit_out='um')",
        "si_unit_conversion(value=1e308, unit_in='km', unit_out='nm')",
        "imperial_si_conversion(value=100, unit_in='celsius', unit_out='fahrenheit')",
        "imperial_si_conversion(value=212, unit_in='fahrenheit', unit_out='celsius')",
        "imperial_si_conversion(value=3, unit_in='miles', unit_out='km')", "imperial_si_conversion(value=3, unit_in='km', unit_out='km')",
        "imperial_si_conversion(value='3', unit_in='km', unit_out='km')", "imperial_si_conversion(value=3, unit_in='mph', unit_out='km/h')",
        "imperial_si_conversion(value=111.92365689097284, unit_in='mph', unit_out='km/h')",
        "imperial_si_conversion(value=2.2, unit_in='kg', unit_out='lb')",
    ]),
    ("math_precision", [
        "logarithm(value=36.0, base=6.0, precision=4)", "logarithm(value=20, base=10, precision=2)",
        "logarithm(value=630.0, base=10, precision=5)", "logarithm(value=980.0, base=20, precision=10)",
        "logarithm(value=20, base=10, precision=10)", "logarithm(value=36, base=6, precision=10)",
        "logarithm(value=8, base=2, precision=15)", "logarithm(value=1000, base=10, precision=30)",
        "logarithm(value=2, base=10, precision=50)", "logarithm(value=0.5, base=2, precision=3)",
        "logarithm(value=1, base=10, precision=5)", "logarithm(value=10, base=1, precision=5)",
        "logarithm(value=0, base=10, precision=5)", "logarithm(value='a', base=10, precision=5)",
        "logarithm(value=10, base=10, precision='x')", "logarithm(value=100, base=10, precision=0)",
        "logarithm(value=100, base=10, precision=1)", "logarithm(value=123.456, base=7.5, precision=20)",
        "logarithm(value=1e-300, base=10, precision=12)", "logarithm(value='100', base=10, precision=5)",
        "logarithm(value=' 2.5e3 ', base='10', precision=8)", "logarithm(value='inf', base=10, precision=5)",
        "logarithm(value='-inf', base=10, precision=5)", "logarithm(value='nan', base=10, precision=5)",
        "logarithm(value='1/3', base=2, precision=20)", "logarithm(value='1/0', base=2, precision=20)",
        "logarithm(value='1/2/3', base=2, precision=20)", "logarithm(value='0x10', base=2, precision=5)",
        "logarithm(value='.5', base='5.', precision=5)", "logarithm(value=None, base=10, precision=5)",
        "logarithm(value=[10], base=10, precision=5)", "logarithm(value=True, base=2, precision=5)",
        "logarithm(value=10, base=10, precision=None)", "logarithm(value=10, base=10, precision=2.7)",
        "logarithm(value=10, base=10, precision='7')", "logarithm(value=10, base=10, precision=-3)",
        "logarithm(value=10, base=10, precision=10**400)", "logarithm(value=-8, base=-2, precision=10)",
        "logarithm(value=8, base=-2, precision=10)", "logarithm(value=-8, base=2, precision=10)",
        "logarithm(value=-1, base=-1, precision=10)", "logarithm(value=0, base=-2, precision=10)",
        "logarithm(value=1e999, base=10, precision=5)", "logarithm(value=2, base=0, precision=5)",
        "logarithm(value=0, base=0, precision=5)", "logarithm(value=2, base=1e999, precision=5)",
        "logarithm(value=10, base=10, precision=300)", "logarithm(value=10**50, base=3, precision=25)",
        "square_root(number=16, precision=10)", "square_root(number=2, precision=5)",
        "square_root(number=-1, precision=5)", "square_root(number='a', precision=5)",
        "square_root(number=2.0, precision=0)", "square_root(number=2, precision='x')",
        "square_root(number=0.1, precision=30)", "square_root(number=1e-10, precision=5)",
        "square_root(number=1e22, precision=3)", "square_root(number=True, precision=3)",
        "square_root(number=100, precision=28)", "square_root(number=0, precision=5)",
        "square_root(number=0.0, precision=5)", "square_root(number=2.25, precision=10)",
        "square_root(number=144.0, precision=2)", "square_root(number=10**40, precision=5)",
        "square_root(number=1e-7, precision=3)", "square_root(number=50, precision=1)",
    ]),
]


def random_math_calls():
    """Seeded logarithm and square_root calls over ints, floats and
    precisions (the parts ported from mpmath and decimal)."""
    import random
    rnd = random.Random(20251127)

    def number():
        k = rnd.random()
        if k < 0.3:
            return repr(rnd.randint(1, 10 ** rnd.randint(1, 30)))
        if k < 0.7:
            return repr(rnd.uniform(0, 10 ** rnd.randint(-6, 9)))
        return rnd.choice(["2", "8", "0.5", "1024", "10", "1e-300", "1.0000001", "0.9999999", "-5", "-0.5", "7"])

    calls = []
    for _ in range(300):
        calls.append("logarithm(value=%s, base=%s, precision=%d)" % (
            number(), number(), rnd.choice([1, 2, 4, 5, 10, 15, 16, 20, 30, 50, rnd.randint(0, 80)])))
    for _ in range(300):
        calls.append("square_root(number=%s, precision=%d)" % (
            number().lstrip("-"), rnd.choice([1, 2, 3, 5, 10, 15, 28, 30, 50, rnd.randint(1, 80)])))
    return calls


def write(path, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = "".join(json.dumps(l, ensure_ascii=False) + "\n" for l in lines)
    with open(path, "wb") as f:
        # mtime 0 and no name: the same lines give the same bytes.
        with gzip.GzipFile(fileobj=f, mode="wb", filename="", mtime=0) as g:
            g.write(data.encode("utf-8"))


def runs(utils, bfcl_dir):
    names = {c: methods(c) for c in CLASSES}
    for path in sorted(glob.glob(os.path.join(bfcl_dir, "runs", "*_result.json.gz"))):
        entries = {}
        cat = path.rsplit("multi_turn_", 1)[1].rsplit("_result", 1)[0]
        with gzip.open(os.path.join(bfcl_dir, "data", "BFCL_v4_multi_turn_%s.json.gz" % cat), "rt") as f:
            for l in f:
                e = json.loads(l)
                entries[e["id"]] = e
        counts = {c: [0, 0, 0, 0] for c in CLASSES}  # results, equal, snapshots, equal
        with gzip.open(path, "rt") as f:
            for l in f:
                d = json.loads(l)
                if "inference_log" not in d:
                    continue
                e = entries[d["id"]]
                reps = {c: Replay(utils, c, None if c == "MathAPI" else e["initial_config"].get(c, {}))
                        for c in CLASSES if c in e["involved_classes"]}
                for item in d["inference_log"]:
                    if isinstance(item, list):
                        for snap in item:
                            c = snap.get("class_name")
                            if c not in reps or c == "MathAPI":
                                continue
                            r = reps[c]
                            if r.instance is None:
                                r.call("pwd()")  # instantiate; pwd changes nothing
                            got = {k: v for k, v in vars(r.instance).items() if not k.startswith("_")}
                            want = snap["content"]
                            counts[c][2] += 1
                            counts[c][3] += (want.get("root") == repr(got["root"]) and
                                             want.get("long_context") == got["long_context"])
                        continue
                    for k, step in item.items():
                        if not k.startswith("step_"):
                            continue
                        decoded = [m for m in step if m.get("role") == "handler_log"
                                   and "model_response_decoded" in m]
                        tools = [m["content"] for m in step if m.get("role") == "tool"]
                        if not decoded:
                            continue
                        for i, call in enumerate(decoded[0]["model_response_decoded"]):
                            c = next((c for c in reps if call_name(call) in names[c]), None)
                            if c is None:
                                continue
                            got = reps[c].call(call)
                            counts[c][0] += 1
                            if i < len(tools) and tools[i] == got:
                                counts[c][1] += 1
                            else:
                                print("  differs: %s %s: %r: %r != %r" % (
                                    os.path.basename(path), d["id"], call, got,
                                    tools[i] if i < len(tools) else None), file=sys.stderr)
        print(os.path.basename(path), json.dumps(counts))


def find_shared():
    """The nearest shared/realworld/bfcl above this folder."""
    d = HERE
    while True:
        cand = os.path.join(d, "shared", "realworld", "bfcl")
        if os.path.isdir(cand):
            return cand
        if os.path.dirname(d) == d:
            sys.exit("generate.py: no shared/realworld/bfcl above %s; give BFCL_DIR" % HERE)
        d = os.path.dirname(d)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    bfcl_dir = args[0] if args else os.environ.get("BFCL_DIR") or find_shared()
    if sys.version_info < (3, 12):
        sys.exit("generate.py: run under Python 3.12 or later (BFCL's runs' sum() of floats)")
    utils = load_bfcl(bfcl_dir)
    if "--runs" in sys.argv:
        runs(utils, bfcl_dir)
        return
    for cls_name, (_, folder) in CLASSES.items():
        out = os.path.join(HERE, "..", folder)
        write(os.path.join(out, "gold.jsonl.gz"), gold(utils, bfcl_dir, cls_name))
    write(os.path.join(HERE, "edge.jsonl.gz"),
          [sequence(utils, "GorillaFileSystem", i, cfg, calls) for i, cfg, calls in FS_EDGES])
    write(os.path.join(HERE, "..", "math", "edge.jsonl.gz"),
          [sequence(utils, "MathAPI", i, None, calls) for i, calls in MATH_EDGES] +
          [sequence(utils, "MathAPI", "math_random", None, random_math_calls())])


if __name__ == "__main__":
    main()
