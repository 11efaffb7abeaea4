#!/usr/bin/env python3
"""Expected results and states of BFCL's MessageAPI, TwitterAPI and TicketAPI,
from BFCL's own classes and executor, for message_test.go to replay.

Run from anywhere: python3 gen.py [BFCL_DIR]  (BFCL_DIR defaults to the
shared/realworld/bfcl folder found above this file, or $BFCL_DIR).

Every call goes through BFCL's execute_multi_turn_func_call, one call at a
time, on instances of the entry's classes among these three; a call naming
a method of another class is left out (the other ports replay those), as
these classes share no state with any other. After each call the test
compares the result string and repr() of the called instance's public
attributes (vars() order, names starting with "_" left out).

Writes, next to this file:
  gold.json.gz  (a) every gold call sequence of the entries involving these
                classes, with the entries' initial_config (BFCL's data,
                Apache-2.0).
  runs.json.gz  (b) for the real runs in runs/*_result.json.gz: per entry, per
                replayed call, sha256 of the result and of the state (the run
                files state no licence, so the test reads the calls from
                ../shared and only these digests are kept here).
  edge.json.gz  (c) hand-made wrong-typed and edge calls.
"""
import copy
import gzip
import hashlib
import importlib.util
import json
import os
import re
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
MINE = ["MessageAPI", "TwitterAPI", "TicketAPI"]
MODULES = {
    "MessageAPI": "message_api",
    "TwitterAPI": "posting_api",
    "TicketAPI": "ticket_api",
}
PKG = "bfcl_eval.eval_checker.multi_turn_eval.func_source_code"


def bfcl_dir():
    if len(sys.argv) > 1:
        return sys.argv[1]
    if os.environ.get("BFCL_DIR"):
        return os.environ["BFCL_DIR"]
    d = HERE
    while d != os.path.dirname(d):
        cand = os.path.join(d, "shared", "realworld", "bfcl")
        if os.path.isdir(cand):
            return cand
        d = os.path.dirname(d)
    sys.exit("no shared/realworld/bfcl above " + HERE + ": pass BFCL_DIR")


BFCL = bfcl_dir()
SRC = os.path.join(BFCL, "source")


def stub_imports():
    """bfcl_eval's packages as empty modules, func_source_code pointing at
    the shared source folder, executable_backend_config holding the two
    names multi_turn_utils imports."""
    for name in ["bfcl_eval", "bfcl_eval.eval_checker", "bfcl_eval.eval_checker.multi_turn_eval",
                 "bfcl_eval.constants"]:
        m = types.ModuleType(name)
        m.__path__ = []
        sys.modules[name] = m
    fsc = types.ModuleType(PKG)
    fsc.__path__ = [os.path.join(SRC, "func_source_code")]
    sys.modules[PKG] = fsc
    cfg = types.ModuleType("bfcl_eval.constants.executable_backend_config")
    cfg.CLASS_FILE_PATH_MAPPING = {c: PKG + "." + m for c, m in MODULES.items()}
    cfg.STATELESS_CLASSES = ["MathAPI"]
    sys.modules[cfg.__name__] = cfg
    spec = importlib.util.spec_from_file_location("multi_turn_utils", os.path.join(SRC, "multi_turn_utils.py"))
    mtu = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mtu)
    return mtu


MTU = stub_imports()
CLASSES = {c: getattr(importlib.import_module(PKG + "." + m), c) for c, m in MODULES.items()}
METHODS = {c: {n for n in vars(k) if not n.startswith("_") and callable(vars(k)[n])} for c, k in CLASSES.items()}
NAME = re.compile(r"\s*([a-zA-Z_]\w*)\s*\(")


def owner(call, classes):
    """The class among classes whose method the call names, as BFCL's
    method-to-instance mapping resolves it (later classes win), or None."""
    m = NAME.match(call)
    if not m:
        return None
    found = None
    for c in classes:
        if m.group(1) in METHODS[c]:
            found = c
    return found


def state(inst):
    return repr({k: v for k, v in vars(inst).items() if not k.startswith("_")})


def defaults_clean():
    return CLASSES["TwitterAPI"].post_tweet.__defaults__ == ([], [])


class Runner:
    """One entry's instances, run through BFCL's executor."""

    def __init__(self, tag, classes, config):
        self.tag, self.classes, self.config = tag, classes, config

    def call(self, call):
        results, instances = MTU.execute_multi_turn_func_call(
            [call], self.config, self.classes, "msgtest", self.tag)
        c = owner(call, self.classes)
        return c, results[0], state(instances[c])


def mine(entry_classes):
    return [c for c in entry_classes if c in MINE]


def read_gz(path):
    with gzip.open(path, "rt") as f:
        return [json.loads(l) for l in f]


CATEGORIES = ["base", "miss_func", "miss_param"]


def entries():
    out = {}
    for cat in CATEGORIES:
        qs = read_gz(os.path.join(BFCL, "data", "BFCL_v4_multi_turn_%s.json.gz" % cat))
        gold = {e["id"]: e["ground_truth"] for e in read_gz(
            os.path.join(BFCL, "data", "possible_answer", "BFCL_v4_multi_turn_%s.json.gz" % cat))}
        for q in qs:
            cl = mine(q["involved_classes"])
            if cl:
                out[q["id"]] = (cat, cl, {c: q["initial_config"][c] for c in cl if c in q["initial_config"]}, gold[q["id"]])
    return out


def gen_gold(ents):
    rows, calls = [], 0
    for eid, (cat, cl, config, gold) in ents.items():
        r = Runner("gold_" + eid, cl, config)
        out = []
        for t, turn in enumerate(gold):
            for call in turn:
                if owner(call, cl) is None:
                    continue
                c, res, st = r.call(call)
                out.append({"turn": t, "call": call, "class": c, "result": res, "state": st})
        calls += len(out)
        rows.append({"id": eid, "classes": cl, "config": config, "calls": out})
    write_lines("gold.json.gz", rows)
    return len(rows), calls


def write_lines(name, rows):
    """Writes one JSON object a line, gzipped, the same bytes each run."""
    with gzip.GzipFile(os.path.join(HERE, name), "wb", mtime=0) as f:
        for row in rows:
            f.write((json.dumps(row, ensure_ascii=False) + "\n").encode())


def sha(s):
    return hashlib.sha256(s.encode()).hexdigest()[:16]


def run_calls(entry):
    """The decoded calls of a run entry with their recorded results, in
    order, as (turn, call, recorded result)."""
    turn = -1
    for x in entry["inference_log"]:
        if isinstance(x, list):
            continue
        turn += 1
        for k, v in x.items():
            if not k.startswith("step_"):
                continue
            dec = next((m["model_response_decoded"] for m in v
                        if m["role"] == "handler_log" and "model_response_decoded" in m), [])
            tools = [m["content"] for m in v if m["role"] == "tool"]
            assert len(dec) == len(tools), (entry["id"], k)
            for call, res in zip(dec, tools):
                yield turn, call, res


def gen_runs(ents):
    files = sorted(f for f in os.listdir(os.path.join(BFCL, "runs")) if f.endswith("_result.json.gz"))
    out, stats = {}, []
    for f in files:
        per, calls, diff = {}, 0, 0
        for e in read_gz(os.path.join(BFCL, "runs", f)):
            if "inference_log" not in e or e["id"] not in ents:
                continue
            cat, cl, config, _ = ents[e["id"]]
            r = Runner(f + "_" + e["id"], cl, config)
            rows = []
            for turn, call, recorded in run_calls(e):
                if owner(call, cl) is None:
                    continue
                c, res, st = r.call(call)
                if res != recorded:
                    diff += 1
                    print("%s %s: %s: replayed %r, recorded %r" % (f, e["id"], call, res, recorded), file=sys.stderr)
                rows.append([c, sha(res), sha(st)])
            calls += len(rows)
            per[e["id"]] = rows
        out[f] = per
        stats.append((f, len(per), calls, diff))
    with gzip.GzipFile(os.path.join(HERE, "runs.json.gz"), "wb", mtime=0) as f:
        f.write((json.dumps(out, indent=0, sort_keys=True) + "\n").encode())
    return stats


# (c) hand-made sequences: a name, the classes, their initial_config, the
# calls. Each runs on fresh instances.
EDGE = [
    ("message-not-logged-in", ["MessageAPI"], {}, [
        "send_message(receiver_id='USR002', message='hi')",
        "delete_message(receiver_id='USR002')",
        "view_messages_sent()",
        "search_messages(keyword='file')",
        "get_message_stats()",
        "message_get_login_status()",
        "list_users()",
        "get_user_id(user='Bob')",
        "get_user_id(user='Zed')",
    ]),
    ("message-wrong-types", ["MessageAPI"], {}, [
        "get_user_id(user=['Bob'])",
        "get_user_id(user=None)",
        "message_login(user_id=['USR001'])",
        "message_login(user_id=1)",
        "message_login(user_id='USR001')",
        "message_get_login_status()",
        "send_message(receiver_id=2, message='x')",
        "send_message(receiver_id='USR002', message=['a', 1])",
        "send_message(receiver_id='USR003', message=7)",
        "send_message(receiver_id='USR003')",
        "send_message('USR003', 'two', 'three')",
        "send_message(receiver_id='USR003', message='x', extra=1)",
        "search_messages(keyword=5)",
        "search_messages(keyword='COULD')",
        "view_messages_sent()",
        "get_message_stats()",
        "add_contact(user_name=None)",
        "add_contact(user_name='Alice')",
        "add_contact(user_name=['x'])",
        "list_users()",
        "delete_message(receiver_id='USR404')",
        "delete_message(receiver_id=None)",
    ]),
    ("message-remove-first-equal", ["MessageAPI"], {"MessageAPI": {
        "current_user": "USR001",
        "inbox": [{"USR002": "same"}, {"USR003": "b"}, {"USR002": "same"}, {"USR002": "other"}],
    }}, [
        "delete_message(receiver_id='USR002')",
        "delete_message(receiver_id='USR002')",
        "view_messages_sent()",
        "delete_message(receiver_id='USR002')",
        "delete_message(receiver_id='USR002')",
    ]),
    ("message-empty-inbox-entry", ["MessageAPI"], {"MessageAPI": {
        "current_user": "USR001",
        "inbox": [{"USR002": 5}, {}],
    }}, [
        "get_message_stats()",
        "view_messages_sent()",
        "search_messages(keyword='a')",
        "delete_message(receiver_id='USR009')",
    ]),
    ("message-int-content", ["MessageAPI"], {"MessageAPI": {
        "current_user": "USR001",
        "inbox": [{"USR002": 5}],
    }}, [
        "search_messages(keyword='5')",
        "delete_message(receiver_id='USR002')",
    ]),
    ("message-seed-and-ids", ["MessageAPI"], {"MessageAPI": {"random_seed": 7, "current_user": "USR001"}}, [
        "send_message(receiver_id='USR002', message='a')",
        "send_message(receiver_id='USR002', message='b')",
        "send_message(receiver_id='USR003', message='c')",
        "send_message(receiver_id='USR004', message='d')",
        "send_message(receiver_id='USR001', message='e')",
        "get_message_stats()",
    ]),
    ("message-bad-counters", ["MessageAPI"], {"MessageAPI": {
        "current_user": "USR001", "message_count": "3", "user_count": True,
        "user_map": {"Alice": "USR001", "Bob": "USR002", "1": "USR009"},
    }}, [
        "send_message(receiver_id='USR002', message='partial')",
        "add_contact(user_name='Eve')",
        "add_contact(user_name='Fay')",
        "add_contact(user_name='Gus')",
        "get_user_id(user='1')",
        "get_user_id(user=1)",
    ]),
    ("message-float-user-count", ["MessageAPI"], {"MessageAPI": {"user_count": 4.0, "current_user": ""}}, [
        "add_contact(user_name='Eve')",
        "message_get_login_status()",
        "send_message(receiver_id='USR5.0', message='x')",
        "message_login(user_id='USR5.0')",
        "send_message(receiver_id='USR5.0', message='x')",
    ]),
    ("message-str-user-count", ["MessageAPI"], {"MessageAPI": {"user_count": "4"}}, [
        "add_contact(user_name='Eve')",
    ]),
    ("message-list-generated-ids", ["MessageAPI"], {"MessageAPI": {"generated_ids": [1, 2], "current_user": "USR001"}}, [
        "send_message(receiver_id='USR002', message='x')",
        "view_messages_sent()",
    ]),
    ("twitter-unauthenticated", ["TwitterAPI"], {}, [
        "posting_get_login_status()",
        "post_tweet(content='hi')",
        "retweet(tweet_id=0)",
        "comment(tweet_id=0, comment_content='c')",
        "follow_user(username_to_follow='x')",
        "list_all_following()",
        "unfollow_user(username_to_unfollow='alice')",
        "mention(tweet_id=0, mentioned_usernames=['a'])",
        "get_tweet(tweet_id=0)",
        "get_user_tweets(username='john')",
        "search_tweets(keyword='x')",
        "get_tweet_comments(tweet_id=0)",
        "get_user_stats(username='john')",
        "authenticate_twitter(username='john', password='wrong')",
        "authenticate_twitter(username='john')",
        "authenticate_twitter(username='john', password='john123')",
        "posting_get_login_status()",
    ]),
    ("twitter-wrong-types", ["TwitterAPI"], {"TwitterAPI": {
        "authenticated": True, "username": "ann", "password": "p",
        "tweets": {"0": {"id": 0, "username": "ann", "content": "Hello World", "tags": ["#Greet"], "mentions": []},
                   "1": {"id": 1, "username": "bob", "content": "other", "tags": [], "mentions": ["@ann"]}},
        "comments": {"1": [{"username": "bob", "content": "first"}]},
        "retweets": {"bob": [0]},
        "tweet_counter": 2,
    }}, [
        "post_tweet(content=5, tags='#a', mentions=None)",
        "post_tweet(content='x', tags=['#t'], mentions=['@m'])",
        "post_tweet('positional', ['#p'])",
        "retweet(tweet_id='0')",
        "retweet(tweet_id=0.0)",
        "retweet(tweet_id=0)",
        "retweet(tweet_id=True)",
        "retweet(tweet_id=[0])",
        "retweet(tweet_id=99)",
        "comment(tweet_id=1, comment_content='second')",
        "comment(tweet_id='1', comment_content='third')",
        "comment(tweet_id=1.0, comment_content=['list'])",
        "get_tweet_comments(tweet_id=1)",
        "get_tweet_comments(tweet_id=0)",
        "get_tweet_comments(tweet_id='1')",
        "mention(tweet_id=1, mentioned_usernames='bob')",
        "mention(tweet_id=1, mentioned_usernames=3)",
        "mention(tweet_id=3, mentioned_usernames=None)",
        "get_tweet(tweet_id=1)",
        "get_tweet(tweet_id=2)",
        "get_tweet(tweet_id={})",
        "follow_user(username_to_follow=['x'])",
        "follow_user(username_to_follow='alice')",
        "follow_user(username_to_follow='carl')",
        "list_all_following()",
        "unfollow_user(username_to_unfollow=['x'])",
        "unfollow_user(username_to_unfollow='zed')",
        "get_user_tweets(username='ann')",
        "get_user_tweets(username=None)",
        "search_tweets(keyword='#greet')",
        "search_tweets(keyword='WORLD')",
        "search_tweets(keyword=1)",
        "get_user_stats(username='ann')",
        "get_user_stats(username='bob')",
        "get_user_stats(username=['ann'])",
    ]),
    ("twitter-bad-tags", ["TwitterAPI"], {"TwitterAPI": {
        "authenticated": True,
        "tweets": {"0": {"id": 0, "username": "john", "content": "abc", "tags": [5], "mentions": []}},
        "tweet_counter": "1",
    }}, [
        "search_tweets(keyword='abc')",
        "search_tweets(keyword='zzz')",
        "post_tweet(content='x')",
    ]),
    ("twitter-mentions-without-list", ["TwitterAPI"], {"TwitterAPI": {
        "tweets": {"0": {"id": 0, "username": "john", "content": "abc", "tags": []}},
        "tweet_counter": 1,
    }}, [
        "mention(tweet_id=0, mentioned_usernames=['@a'])",
        "get_tweet(tweet_id=0)",
    ]),
    ("ticket-unauthenticated", ["TicketAPI"], {}, [
        "ticket_get_login_status()",
        "create_ticket(title='t')",
        "get_user_tickets()",
        "logout()",
        "get_ticket(ticket_id=1)",
        "close_ticket(ticket_id=1)",
        "ticket_login(username='', password='x')",
        "ticket_login(username=0, password='x')",
        "ticket_login(username='u')",
        "ticket_login(username='u', password='p')",
        "ticket_get_login_status()",
        "logout()",
        "logout()",
    ]),
    ("ticket-wrong-types", ["TicketAPI"], {"TicketAPI": {
        "current_user": "u",
        "ticket_queue": [{"id": 1, "title": "a", "description": "", "status": "Open", "priority": 2, "created_by": "u"},
                         {"id": 2, "title": "b", "description": "", "status": "Closed", "priority": 3, "created_by": "v"}],
        "ticket_counter": 3,
    }}, [
        "create_ticket(title='x', priority='3')",
        "create_ticket(title='x', priority=None)",
        "create_ticket(title='x', priority=0)",
        "create_ticket(title='x', priority=6)",
        "create_ticket(title='f', priority=3.5)",
        "create_ticket(title='b', description=None, priority=True)",
        "create_ticket('pos', 'desc', 5)",
        "create_ticket(title=['l'])",
        "get_ticket(ticket_id='1')",
        "get_ticket(ticket_id=1.0)",
        "get_ticket(ticket_id=True)",
        "close_ticket(ticket_id=2)",
        "close_ticket(ticket_id=1)",
        "close_ticket(ticket_id=1)",
        "resolve_ticket(ticket_id=1, resolution=5)",
        "resolve_ticket(ticket_id=1, resolution='again')",
        "resolve_ticket(ticket_id=9, resolution='none')",
        "resolve_ticket(ticket_id=3)",
        "edit_ticket(ticket_id=3, updates={'foo': 1})",
        "edit_ticket(ticket_id=3, updates={'priority': None, 'title': 'T', 'status': 5})",
        "edit_ticket(ticket_id=3, updates={1: 'x'})",
        "edit_ticket(ticket_id=3, updates='title')",
        "edit_ticket(ticket_id=3, updates=['title'])",
        "edit_ticket(ticket_id=99, updates={'foo': 1})",
        "get_user_tickets(status='open')",
        "get_user_tickets(status='')",
        "get_user_tickets()",
        "get_user_tickets(status=1)",
    ]),
    ("ticket-status-not-str", ["TicketAPI"], {"TicketAPI": {
        "current_user": "u",
        "ticket_queue": [{"id": 1, "title": "a", "status": 5, "created_by": "u"}, {"title": "no id"}],
    }}, [
        "get_user_tickets(status='open')",
        "get_ticket(ticket_id=1)",
        "get_ticket(ticket_id=2)",
        "create_ticket(title='n')",
    ]),
    ("ticket-login-list", ["TicketAPI"], {}, [
        "ticket_login(username=['a'], password='b')",
        "create_ticket(title='by a list')",
        "get_user_tickets()",
        "ticket_get_login_status()",
    ]),
    ("twitter-search", ["TwitterAPI"], {"TwitterAPI": {
        "tweets": {"0": {"id": 0, "username": "john", "content": "Market news", "tags": ["#News"], "mentions": []},
                   "1": {"id": 1, "username": "amy", "content": "no match", "tags": ["#NEWSflash"], "mentions": []},
                   "2": {"id": 2, "username": "john", "content": "quiet", "tags": [], "mentions": []}},
        "tweet_counter": 3,
    }}, [
        "search_tweets(keyword='NEWS')",
        "search_tweets(keyword='#newsflash')",
        "search_tweets(keyword='')",
        "get_user_tweets(username='john')",
        "get_user_stats(username='amy')",
    ]),
    ("ticket-filter", ["TicketAPI"], {"TicketAPI": {
        "current_user": "u",
        "ticket_queue": [{"id": 1, "title": "a", "status": "Open", "created_by": "u"},
                         {"id": 2, "title": "b", "status": "Closed", "created_by": "u"},
                         {"id": 3, "title": "c", "status": "open", "created_by": "v"}],
    }}, [
        "get_user_tickets(status='OPEN')",
        "get_user_tickets(status='closed')",
        "get_user_tickets(status=None)",
        "get_user_tickets(status=0)",
        "get_user_tickets(status=['x'])",
    ]),
    ("nested-and-positional", ["MessageAPI", "TicketAPI"], {"MessageAPI": {"current_user": "USR001"}}, [
        "send_message(receiver_id=get_user_id(user='Bob'), message='x')",
        "message_login('USR002')",
        "send_message('USR003', message=list_users())",
        "view_messages_sent()",
        "ticket_login('a', 'b')",
        "create_ticket(title='x', priority=[1])",
        "create_ticket(title='x', priority=5.0000001)",
        "create_ticket(title=get_message_stats(), priority=2)",
        "get_ticket(ticket_id=-1)",
        "create_ticket(title='t', title='u')",
        "create_ticket('t', title='u')",
    ]),
    ("odd-configs", ["TwitterAPI", "TicketAPI"], {
        "TwitterAPI": {"authenticated": True, "retweets": {"john": 5}, "following_list": "ab"},
        "TicketAPI": {"ticket_queue": [[1], 5], "current_user": "u"},
    }, [
        "get_user_stats(username='john')",
        "follow_user(username_to_follow='a')",
        "follow_user(username_to_follow='c')",
        "unfollow_user(username_to_unfollow='b')",
        "list_all_following()",
        "get_ticket(ticket_id=1)",
        "create_ticket(title='x')",
        "get_user_tickets()",
    ]),
    ("odd-ticket-queue", ["TicketAPI"], {"TicketAPI": {"ticket_queue": [5], "ticket_counter": None, "current_user": "u"}}, [
        "close_ticket(ticket_id=5)",
        "create_ticket(title='x')",
        "get_user_tickets(status='open')",
    ]),
    ("odd-counters", ["MessageAPI", "TwitterAPI"], {
        "MessageAPI": {"current_user": "USR001", "message_count": None, "user_count": [4]},
        "TwitterAPI": {"authenticated": True, "tweet_counter": 1.5},
    }, [
        "send_message(receiver_id='USR002', message='x')",
        "add_contact(user_name='Eve')",
        "post_tweet(content='a', tags=['#a'], mentions=[])",
        "post_tweet(content='b', tags=['#b'], mentions=[])",
        "get_tweet(tweet_id=2.5)",
        "retweet(tweet_id=1.5)",
    ]),
    ("three-classes", ["MessageAPI", "TwitterAPI", "TicketAPI"], {}, [
        "message_login(user_id='USR002')",
        "authenticate_twitter(username='john', password='john123')",
        "ticket_login(username='john', password='x')",
        "send_message(receiver_id='USR001', message='m')",
        "post_tweet(content='t', tags=['#x'])",
        "create_ticket(title='k', description='d', priority=4)",
    ]),
]


# post_tweet's default lists are one list each for the whole process, as
# Python evaluates a default once: a mention into a tweet posted without
# mentions changes every such tweet, and every later one, of every
# instance. The sequence runs after every other, then the lists are
# emptied in place again, as the Go test does.
SHARED_DEFAULTS = ("twitter-shared-default-lists", ["TwitterAPI"], {"TwitterAPI": {"authenticated": True}}, [
    "post_tweet(content='a')",
    "mention(tweet_id=0, mentioned_usernames=['@x'])",
    "post_tweet(content='b', tags=['#b'])",
    "mention(tweet_id=1, mentioned_usernames=['@y'])",
    "get_tweet(tweet_id=0)",
    "post_tweet(content='c', mentions=['@z'])",
    "get_user_tweets(username='john')",
])


def gen_edge():
    rows, calls = [], 0
    for name, cl, config, seq in EDGE + [SHARED_DEFAULTS]:
        r = Runner("edge_" + name, cl, config)
        out = []
        for call in seq:
            c, res, st = r.call(call)
            out.append({"call": call, "class": c, "result": res, "state": st})
        calls += len(out)
        rows.append({"id": name, "classes": cl, "config": config, "calls": out})
    for default in CLASSES["TwitterAPI"].post_tweet.__defaults__:
        default.clear()
    write_lines("edge.json.gz", rows)
    return len(rows), calls


def main():
    ents = entries()
    print("edge: %d sequences, %d calls" % gen_edge())
    assert defaults_clean()
    print("gold: %d entries, %d calls" % gen_gold(ents))
    print("post_tweet defaults after gold:", CLASSES["TwitterAPI"].post_tweet.__defaults__)
    for f, n, calls, diff in gen_runs(ents):
        print("%s: %d entries, %d calls, %d results differ from the recorded" % (f, n, calls, diff))
    print("post_tweet defaults after runs:", CLASSES["TwitterAPI"].post_tweet.__defaults__)


if __name__ == "__main__":
    main()
