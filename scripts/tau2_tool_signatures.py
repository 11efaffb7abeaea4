"""Prints the signature of every tool of tau2's airline or retail domain,
one line each as `name(param:kind, ...) write|read`, the listing
domains/tau2/*/testdata/tools.txt holds. Kinds are JSON's: str is string,
int integer, List[...] array, and the Literal aliases (FlightType,
CabinClass, Insurance) string.

Usage: python3 scripts/tau2_tool_signatures.py TAU2_SOURCE_DIR airline|retail
It reads the source with ast, so tau2's dependencies need not be installed."""
import ast, pathlib, sys

LITERALS = {"FlightType", "CabinClass", "Insurance"}


def kind(a):
    s = ast.unparse(a)
    if s == "str" or s in LITERALS:
        return "string"
    if s == "int":
        return "integer"
    if s == "float":
        return "number"
    if s == "bool":
        return "boolean"
    if s.startswith(("List[", "list[")):
        return "array"
    raise SystemExit(f"unknown annotation {s}")


src, domain = sys.argv[1], sys.argv[2]
tree = ast.parse(pathlib.Path(src, "tau2", "domains", domain, "tools.py").read_text())
rows = []
for cls in tree.body:
    if not isinstance(cls, ast.ClassDef):
        continue
    for fn in cls.body:
        decos = [ast.unparse(d) for d in getattr(fn, "decorator_list", [])]
        tool = [d for d in decos if "is_tool" in d]
        if not isinstance(fn, ast.FunctionDef) or not tool:
            continue
        params = ", ".join(f"{a.arg}:{kind(a.annotation)}" for a in fn.args.args if a.arg != "self")
        rows.append(f"{fn.name}({params}) {'write' if 'WRITE' in tool[0] else 'read'}")
print("\n".join(sorted(rows)))
