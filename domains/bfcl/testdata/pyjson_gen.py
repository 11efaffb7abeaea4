"""Writes pyjson.jsonl: JSON texts and what Python's json.loads gives for
each (repr of the value, or str() of the error), the table TestPyJSON holds
parthack's parser to. Run with the Python BFCL's runs were made with (its C
scanner): python3 pyjson_gen.py > pyjson.jsonl. Deterministic (seeded)."""
import json
import random
import re
import sys

hand = [
    '', ' ', '{', '[', '"', '-', '--1', '-0', '0', '01', '1.', '1.5', '1e', '1e5', '1E+5', '1e-', '1.5e3x',
    '-1.0e-2', '12345678901234567890123', '1e400', '-1e400', '1e-400', '0.1', '3.0', '100.0', '2.5e-07',
    'NaN', 'Infinity', '-Infinity', '-NaN', 'nan', 'Inf', 'nul', 'null', 'true', 'false', 'tru', 'True',
    '[1,]', '[1 2]', '[,1]', '[]', '[ ]', '[[[]]]', '{}', '{ }', '{"a":1}', '{"a" 1}', '{"a":1,}', '{,}',
    '{"a":1 "b":2}', "{'a':1}", '{"a":}', '{"a":1', '{"a"', '{"a":1}x', '{"a":1} ', ' {"a":1}',
    '{"a":1,"a":2}', '{"b":1,"a":2,"b":3}', '"abc', '"a\\x"', '"\\u12"', '"\\u1234', '"\\u1234"', '"\\u00e9"',
    '"\\ud83d\\ude00"', '"\\uD83D\\uDE00"', '"\\ud800\\uzzzz"', '"\\ud800\\u12"', '"\\\\"', '"\\/"',
    '"\\b\\f\\n\\r\\t"', '"a\x01"', '"a\tb"', '"a\nb"', '"\x7f"', '"é"', '"日本"', '"\u00a0x"', '"\\"',
    '"a"b', '{"a": [1, 2, {"b": null}]}', '{"content": "205 bytes", "file_name": "verify", ...}',
    '{"source": "report .txt", "destination": source?}', '{"mode":"engage"]}', '{"ignitionMode:": "START"}',
    '{"a":1}{"b":2}', '\n\n{"a":\n1,\n"b" 2}', '{"x": 1.0, "y": -0.0, "z": 1e16, "w": 123456789.123}',
    '[1e22, 1e21, 1e-5, 1e-4, 0.0001, 123e-7, 5e-324]', '{"list": [true, false, null], "s": "it\'s"}',
    '{"q": "say \\"hi\\" and \'bye\'"}', '"\\u0000"', '"\\u001f\\u0020"', '{"a":{"b":{"c":[1,[2,[3]]]}}}',
    '\ufeff{}', '[1,2', '[1,2,', '{"a":[1,2}', '{"a":"b\\', '"\\u', '"\\ud800"', '"\\udc00x"',
    '"\\ud800\\ud800"', '{"k": "v"}   ', '{"k":\t"v"}', '123abc', '-a', '0x10', '.5', '+1',
]


def mutate(rng, s):
    ops = rng.randrange(1, 4)
    chars = list(s)
    pool = list('{}[]:,"\\ \n\t0123456789.eE+-abcnultrfsNaIy\x01é\u00a0')
    for _ in range(ops):
        op = rng.randrange(3)
        if op == 0 and chars:
            del chars[rng.randrange(len(chars))]
        elif op == 1:
            chars.insert(rng.randrange(len(chars) + 1), rng.choice(pool))
        elif chars:
            chars[rng.randrange(len(chars))] = rng.choice(pool)
    return ''.join(chars)


seeds = [
    '{"file_name": "report.txt", "lines": 20}', '{"a": [1, 2.5, "x", null, true], "b": {"c": -3e2}}',
    '{"content": "line one\\nline \\"two\\"", "n": 0}', '[{"x": "\\u00e9t\\u00e9"}, []]',
    '{"ticket_id": 2, "resolution": "Issue resolved!"}', '{"amount": 1e-05, "q": -0.5}',
]
rng = random.Random(20251112)
texts = list(hand)
for _ in range(600):
    texts.append(mutate(rng, rng.choice(seeds)))
seen = set()
for t in texts:
    if t in seen:
        continue
    seen.add(t)
    try:
        v = json.loads(t)
        out = {"text": t, "repr": repr(v)}
    except json.JSONDecodeError as e:
        out = {"text": t, "error": str(e)}
    except ValueError as e:
        out = {"text": t, "error": str(e)}
    if "repr" in out and re.search(r"\\ud[89a-f]", out["repr"]):
        continue  # a lone surrogate has no UTF-8 form: parthack writes U+FFFD
    sys.stdout.write(json.dumps(out) + "\n")
