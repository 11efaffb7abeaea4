"""Write the expected results of BFCL's own TravelAPI for travel_test.go.

Usage: PYTHONHASHSEED=0 python3 gen_travel.py BFCL_DIR [--runs]

BFCL_DIR is the staged BFCL folder (shared/realworld/bfcl: source/, data/,
runs/). Every call goes through BFCL's own executor
(multi_turn_utils.execute_multi_turn_func_call) on BFCL's own classes, one
call at a time so that the state after each call can be read; the package
bfcl_eval is stubbed to point at source/func_source_code, and
bfcl_eval.constants.executable_backend_config is re-stated (the class to
module map and the stateless classes, as BFCL's constants give them).

Two things BFCL leaves to the process are pinned, as the Go port pins them:
datetime.today() in verify_traveler_information is TODAY below (the port's
travelToday), and PYTHONHASHSEED=0 fixes the order str() gives the set of
travel classes in book_flight's error ({'first', 'business', 'economy'}).

Writes, next to this script:
  gold.jsonl.gz  every gold call sequence of the entries involving TravelAPI
                 (base, miss_func, miss_param), from data/possible_answer
  hand.jsonl.gz  hand-made wrong-typed and edge calls (CASES below)
  strptime.json  datetime.strptime(s, "%Y-%m-%d") of STRPTIME below: the
                 date, or the exception's type and text
One JSON object a line: source, id, config (initial_config["TravelAPI"] as
JSON text, absent for the default state), note, and calls, each with call
(the decoded call string), turn, result (the executor's result string),
state (repr of the public attributes in vars() order) and lookup (repr of
the private _flight_cost_lookup).

With --runs it also replays the TravelAPI calls of the real runs
(runs/*_result.json.gz, which stay in shared/: the Go test reads them there)
and prints how many results equal the recorded tool results and how many
turn-start snapshots equal the recorded state_info.
"""
import ast
import datetime as _dt
import glob
import gzip
import importlib
import inspect
import json
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = _dt.datetime(2025, 11, 12)
PKG = "bfcl_eval.eval_checker.multi_turn_eval.func_source_code"
CLASS_FILES = {
    "GorillaFileSystem": "gorilla_file_system", "MathAPI": "math_api",
    "MessageAPI": "message_api", "TwitterAPI": "posting_api",
    "TicketAPI": "ticket_api", "TradingBot": "trading_bot",
    "TravelAPI": "travel_booking", "VehicleControlAPI": "vehicle_control",
}


def load_bfcl(src):
    for name in ["bfcl_eval", "bfcl_eval.eval_checker",
                 "bfcl_eval.eval_checker.multi_turn_eval", "bfcl_eval.constants"]:
        m = types.ModuleType(name)
        m.__path__ = []
        sys.modules[name] = m
    fsc = types.ModuleType(PKG)
    fsc.__path__ = [os.path.join(src, "func_source_code")]
    sys.modules[PKG] = fsc
    consts = types.ModuleType("bfcl_eval.constants.executable_backend_config")
    consts.CLASS_FILE_PATH_MAPPING = {c: PKG + "." + f for c, f in CLASS_FILES.items()}
    consts.STATELESS_CLASSES = ["MathAPI"]
    sys.modules[consts.__name__] = consts
    sys.path.insert(0, src)
    utils = importlib.import_module("multi_turn_utils")
    travel = importlib.import_module(PKG + ".travel_booking")

    class FixedDay(_dt.datetime):
        @classmethod
        def today(cls):
            return TODAY

    travel.datetime = FixedDay
    methods = {n for n, _ in inspect.getmembers(travel.TravelAPI, inspect.isfunction)
               if not n.startswith("_")}
    return utils, methods


def public_state(inst):
    return repr({k: v for k, v in vars(inst).items() if not k.startswith("_")})


def called_names(call):
    """The names a call string calls, or its text before "(" when it does not parse."""
    try:
        tree = ast.parse(call, mode="eval")
    except SyntaxError:
        return [call.split("(")[0]]
    return [n.func.id if isinstance(n.func, ast.Name) else getattr(n.func, "attr", "")
            for n in ast.walk(tree) if isinstance(n, ast.Call)]


class Replayer:
    def __init__(self, utils, methods):
        self.utils, self.methods, self.n = utils, methods, 0

    def kind(self, call):
        names = called_names(call)
        travel = [n in self.methods for n in names]
        if travel and all(travel):
            return "travel"
        return "mixed" if any(travel) else "other"

    def session(self, config, classes):
        """A fresh set of instances: BFCL's executor keys them by model and entry."""
        self.n += 1
        return ("gen%d" % self.n, "e", config, classes)

    def execute(self, sess, call):
        model, entry, config, classes = sess
        results, inst = self.utils.execute_multi_turn_func_call(
            [call], config, classes, model, entry)
        return results[0], inst.get("TravelAPI")


def record(rep, source, entry_id, config, classes, turns, note=""):
    """Runs the turns' calls, recording the TravelAPI ones."""
    sess = rep.session(config, classes)
    out = {"source": source, "id": entry_id}
    if "TravelAPI" in config:
        out["config"] = json.dumps(config["TravelAPI"])
    if note:
        out["note"] = note
    calls, skipped = [], 0
    for ti, turn in enumerate(turns):
        for call in turn:
            k = rep.kind(call)
            result, inst = rep.execute(sess, call)
            if k == "mixed":
                skipped += 1
            if k != "travel":
                continue
            calls.append({"turn": ti, "call": call, "result": result,
                          "state": public_state(inst), "lookup": repr(inst._flight_cost_lookup)})
    out["calls"] = calls
    return out, skipped


# Hand-made calls: wrong types, missing and unknown arguments, unknown
# routes and classes, dates Python's strptime accepts and rejects, records
# without the keys a method reads, ids drawn in sequence.
BASE = {
    "credit_card_list": {"card1234": {"card_number": "1234-5678-9012-3456", "expiry_date": "12/26",
                                      "cardholder_name": "Michael Thompson", "balance": 10000.0}},
    "booking_record": {"booking001": {"flight_number": "LA123", "departure": "Rivermist",
                                      "destination": "Los Angeles", "date": "2026-10-15",
                                      "class": "Business", "price": 1500.0}},
    "access_token": "abc123xyz", "token_type": "Bearer", "token_expires_in": 3600,
    "token_scope": "read_write", "user_first_name": "Michael", "user_last_name": "Thompson",
    "budget_limit": 5000.0,
}
EXPIRED = dict(BASE, token_expires_in=0)
INT_BALANCE = dict(BASE, credit_card_list={"c1": {"balance": 700}, "c2": {"card_number": "x"}},
                   budget_limit=None, random_seed=7)

CASES = [
    ("default-state", None, [
        "travel_get_login_status()",
        "register_credit_card(access_token='x', card_number='1', expiration_date='1/2', cardholder_name='A', card_verification_number=1)",
        "authenticate_travel(client_id='c', client_secret='s', refresh_token='r', grant_type='read_write', user_first_name='Ann', user_last_name='Lee')",
        "travel_get_login_status()",
        "get_all_credit_cards()",
        "register_credit_card(access_token='wrong', card_number='1', expiration_date='1/2', cardholder_name='A', card_verification_number=1)",
        "get_booking_history(access_token='wrong')",
        "get_budget_fiscal_year()",
        "get_budget_fiscal_year(lastModifiedAfter=3, includeRemoved=[1])",
        "list_all_airports()",
        "authenticate_travel('c', 's', 'r', 'read', 'Ann')",
        "authenticate_travel('c', 's', 'r', 'read', 'Ann', 'Lee', 'extra')",
        "authenticate_travel(client_id='c', client_secret='s', refresh_token='r', grant_type='read', user_first_name='A', user_last_name='B', scope='x')",
        "authenticate_travel(client_id=1, client_secret=None, refresh_token=[1], grant_type={'a': 1}, user_first_name=2.5, user_last_name=True)",
        "travel_get_login_status(1)",
    ]),
    ("cards-and-ids", BASE, [
        "register_credit_card(access_token='abc123xyz', card_number='4444', expiration_date='01/2030', cardholder_name='M T', card_verification_number=123)",
        "register_credit_card(access_token='abc123xyz', card_number=5555, expiration_date=None, cardholder_name=['M'], card_verification_number='123')",
        "register_credit_card(access_token='abc123xyz', card_number='card1234', expiration_date='x', cardholder_name='y', card_verification_number=1)",
        "register_credit_card(access_token='abc123xyz', card_number=['4444'], expiration_date='x', cardholder_name='y', card_verification_number=1)",
        "register_credit_card(access_token='abc123xyz', card_number={'a': 1}, expiration_date='x', cardholder_name='y', card_verification_number=1)",
        "get_credit_card_balance(access_token='abc123xyz', card_id='card1234')",
        "get_credit_card_balance(access_token='abc123xyz', card_id='nope')",
        "get_credit_card_balance(access_token='abc123xyz', card_id=['card1234'])",
        "get_credit_card_balance(access_token='bad', card_id='card1234')",
        "get_all_credit_cards()",
        "authenticate_travel(client_id='c', client_secret='s', refresh_token='r', grant_type='read', user_first_name='Michael', user_last_name='Thompson')",
        "get_credit_card_balance(access_token='abc123xyz', card_id='card1234')",
    ]),
    ("flight-cost", BASE, [
        "get_flight_cost(travel_from='SFO', travel_to='LAX', travel_date='2024-11-15', travel_class='economy')",
        "get_flight_cost(travel_from='SFO', travel_to='LAX', travel_date='2024-11-16', travel_class='business')",
        "get_flight_cost(travel_from='JFK', travel_to='PEK', travel_date='2024-11-16', travel_class='first')",
        "get_flight_cost(travel_from='LAX', travel_to='SFO', travel_date='abc', travel_class='economy')",
        "get_flight_cost(travel_from='LAX', travel_to='SFO', travel_date='\u0663\u0661', travel_class='economy')",
        "get_flight_cost(travel_from='LAX', travel_to='SFO', travel_date='\u00b2', travel_class='economy')",
        "get_flight_cost(travel_from='LAX', travel_to='SFO', travel_date=['12', 'a', '3'], travel_class='economy')",
        "get_flight_cost(travel_from='LAX', travel_to='SFO', travel_date=[1], travel_class='economy')",
        "get_flight_cost(travel_from='LAX', travel_to='SFO', travel_date={'7': 1}, travel_class='economy')",
        "get_flight_cost(travel_from='LAX', travel_to='SFO', travel_date=20241115, travel_class='economy')",
        "get_flight_cost(travel_from='LAX', travel_to='SFO', travel_date=None, travel_class='economy')",
        "get_flight_cost(travel_from='LAX', travel_to='SFO', travel_date='2024-01-01', travel_class='Economy')",
        "get_flight_cost(travel_from='LAX', travel_to='SFO', travel_date='2024-01-01', travel_class=['economy'])",
        "get_flight_cost(travel_from='SFO', travel_to='XXX', travel_date='2024-01-01', travel_class='economy')",
        "get_flight_cost(travel_from='LAX', travel_to='LAX', travel_date='2024-01-01', travel_class='economy')",
        "get_flight_cost(travel_from=['SFO'], travel_to='LAX', travel_date='2024-01-01', travel_class='economy')",
        "get_flight_cost(travel_from={'a': 1}, travel_to='LAX', travel_date='2024-01-01', travel_class='economy')",
        "get_flight_cost(travel_from=1, travel_to='LAX', travel_date='2024-01-01', travel_class='economy')",
        "get_flight_cost(travel_from='SFO', travel_to='LAX', travel_date='2024-01-01')",
        "get_nearest_airport_by_city(location='Rivermist')",
        "get_nearest_airport_by_city(location='Atlantis')",
        "get_nearest_airport_by_city(location=None)",
        "get_nearest_airport_by_city(location=['Rome'])",
    ]),
    ("booking", BASE, [
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='2024-12-15', travel_from='RMS', travel_to='GFD', travel_class='business')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='2024-2-5', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='2024-02-30', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='2024-12-15T00:00', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='2024-1- 5', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='\uff12\uff10\uff12\uff14-01-05', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='0000-01-05', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='15/12/2024', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date=20241215, travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='2024-12-15', travel_from='Rivermist', travel_to='GFD', travel_class='economy')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='2024-12-15', travel_from='RMS', travel_to=['GFD'], travel_class='economy')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='2024-12-15', travel_from='RMS', travel_to='GFD', travel_class='Business')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='2024-12-15', travel_from='RMS', travel_to='GFD', travel_class=['first'])",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='2024-12-15', travel_from='HKG', travel_to='GFD', travel_class='economy')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='2024-12-15', travel_from='JFK', travel_to='PEK', travel_class='first')",
        "book_flight(access_token='abc123xyz', card_id='none', travel_date='2024-12-15', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "book_flight(access_token='abc123xyz', card_id=['card1234'], travel_date='2024-12-15', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "book_flight(access_token='nope', card_id='card1234', travel_date='2024-12-15', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "get_booking_history(access_token='abc123xyz')",
        "retrieve_invoice(access_token='abc123xyz')",
        "retrieve_invoice(access_token='abc123xyz', booking_id='booking001')",
        "retrieve_invoice(access_token='abc123xyz', booking_id=['x'])",
        "contact_customer_support(booking_id='booking001', message='hi')",
        "contact_customer_support(booking_id='nope', message='hi')",
        "cancel_booking(access_token='abc123xyz', booking_id='booking001')",
        "cancel_booking(access_token='abc123xyz', booking_id='nope')",
        "set_budget_limit(access_token='abc123xyz', budget_limit='100')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='2024-12-15', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "set_budget_limit(access_token='abc123xyz', budget_limit=None)",
        "set_budget_limit(access_token='abc123xyz', budget_limit='lots')",
        "set_budget_limit(access_token='abc123xyz', budget_limit=' 1_000.5 ')",
        "set_budget_limit(access_token='abc123xyz', budget_limit='inf')",
        "set_budget_limit(access_token='abc123xyz', budget_limit=[1])",
        "set_budget_limit(access_token='abc123xyz', budget_limit=True)",
        "set_budget_limit(access_token='abc123xyz', budget_limit=" + "1" + "0" * 400 + ")",
        "set_budget_limit(access_token='abc123xyz', budget_limit=99999)",
    ]),
    ("book-cancel-insure", INT_BALANCE, [
        "book_flight(access_token='abc123xyz', card_id='c2', travel_date='2024-12-15', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "book_flight(access_token='abc123xyz', card_id='c1', travel_date='2024-12-15', travel_from='RMS', travel_to='GFD', travel_class='first')",
        "book_flight(access_token='abc123xyz', card_id='c1', travel_date='2024-12-15', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "book_flight(access_token='abc123xyz', card_id='c1', travel_date='2024-12-14', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "get_booking_history(access_token='abc123xyz')",
        "purchase_insurance(access_token='abc123xyz', insurance_type='full', booking_id='nope', insurance_cost=10, card_id='c1')",
        "purchase_insurance(access_token='abc123xyz', insurance_type='full', booking_id='booking001', insurance_cost=10, card_id='c9')",
        "purchase_insurance(access_token='abc123xyz', insurance_type='full', booking_id='booking001', insurance_cost=12.5, card_id='c1')",
        "purchase_insurance(access_token='abc123xyz', insurance_type='full', booking_id='booking001', insurance_cost='5', card_id='c1')",
        "purchase_insurance(access_token='abc123xyz', insurance_type='full', booking_id='booking001', card_id='c1')",
        "set_budget_limit(access_token='abc123xyz', budget_limit=100)",
        "purchase_insurance(access_token='abc123xyz', insurance_type='full', booking_id='booking001', insurance_cost='5', card_id='c1')",
        "purchase_insurance(access_token='abc123xyz', insurance_type='full', booking_id='booking001', insurance_cost=500, card_id='c1')",
        "purchase_insurance(access_token='abc123xyz', insurance_type='full', booking_id='booking001', insurance_cost=50, card_id='c1')",
        "book_flight(access_token='abc123xyz', card_id='c1', travel_date='2024-12-14', travel_from='RMS', travel_to='GFD', travel_class='economy')",
        "get_all_credit_cards()",
    ]),
    ("cancel-records", dict(INT_BALANCE, booking_record={
        "b1": {"card_id": "c1", "travel_cost": 100, "travel_date": "d", "travel_from": "f",
               "travel_to": "t", "travel_class": "c", "transaction_id": "x"},
        "b2": {"card_id": "c9", "travel_cost": 1},
        "b3": {"card_id": "c1", "travel_cost": "7"},
        "b4": {"travel_date": "d"},
    }), [
        "retrieve_invoice(access_token='abc123xyz', booking_id='b1')",
        "retrieve_invoice(access_token='abc123xyz', booking_id='b4')",
        "cancel_booking(access_token='abc123xyz', booking_id='b4')",
        "cancel_booking(access_token='abc123xyz', booking_id='b2')",
        "cancel_booking(access_token='abc123xyz', booking_id='b3')",
        "cancel_booking(access_token='abc123xyz', booking_id='b1')",
        "cancel_booking(access_token='abc123xyz', booking_id='b1')",
        "cancel_booking(access_token='abc123xyz', booking_id={'b': 1})",
        "get_booking_history(access_token='abc123xyz')",
    ]),
    ("expired-token", EXPIRED, [
        "travel_get_login_status()",
        "register_credit_card(access_token='abc123xyz', card_number='1', expiration_date='1/2', cardholder_name='A', card_verification_number=1)",
        "get_credit_card_balance(access_token='abc123xyz', card_id='card1234')",
        "book_flight(access_token='abc123xyz', card_id='card1234', travel_date='2024-12-15', travel_from='RMS', travel_to='GFD', travel_class='business')",
        "retrieve_invoice(access_token='abc123xyz', booking_id='booking001')",
        "get_booking_history(access_token='abc123xyz')",
        "cancel_booking(access_token='abc123xyz', booking_id='booking001')",
        "set_budget_limit(access_token='abc123xyz', budget_limit=1)",
        "purchase_insurance(access_token='abc123xyz', insurance_type='a', booking_id='booking001', insurance_cost=1, card_id='card1234')",
    ]),
    ("exchange", BASE, [
        "compute_exchange_rate(base_currency='USD', target_currency='EUR', value=100)",
        "compute_exchange_rate(base_currency='EUR', target_currency='USD', value=100)",
        "compute_exchange_rate(base_currency='USD', target_currency='RMB', value=1.5)",
        "compute_exchange_rate(base_currency='RMB', target_currency='USD', value=10)",
        "compute_exchange_rate(base_currency='JPY', target_currency='USD', value=2.675)",
        "compute_exchange_rate(base_currency='USD', target_currency='USD', value=1)",
        "compute_exchange_rate(base_currency='EUR', target_currency='GBP', value=1)",
        "compute_exchange_rate(base_currency='USD', target_currency='RMB', value='10')",
        "compute_exchange_rate(base_currency='USD', target_currency='EUR', value='10')",
        "compute_exchange_rate(base_currency='RMB', target_currency='USD', value='10')",
        "compute_exchange_rate(base_currency='USD', target_currency='RMB', value=[1])",
        "compute_exchange_rate(base_currency='USD', target_currency='RMB', value=None)",
        "compute_exchange_rate(base_currency='USD', target_currency='RMB', value=True)",
        "compute_exchange_rate(base_currency='USD', target_currency='RMB', value=" + "1" + "0" * 400 + ")",
        "compute_exchange_rate(base_currency='RMB', target_currency='USD', value=" + "1" + "0" * 400 + ")",
        "compute_exchange_rate(base_currency='RMB', target_currency='USD', value=7)",
        "compute_exchange_rate(base_currency='MXN', target_currency='USD', value=1)",
        "compute_exchange_rate(base_currency='USD', target_currency='JPY', value=0.1)",
        "compute_exchange_rate(base_currency=['USD'], target_currency='JPY', value=1)",
    ]),
    ("verify", BASE, [
        "verify_traveler_information(first_name='Michael', last_name='Thompson', date_of_birth='1950-01-01', passport_number='US1')",
        "verify_traveler_information(first_name='Michael', last_name='Thompson', date_of_birth='1950-01-01', passport_number='P1')",
        "verify_traveler_information(first_name='Michael', last_name='Thompson', date_of_birth='2007-11-12', passport_number='US1')",
        "verify_traveler_information(first_name='Michael', last_name='Thompson', date_of_birth='2007-11-13', passport_number='US1')",
        "verify_traveler_information(first_name='Michael', last_name='Thompson', date_of_birth='2007-11-11', passport_number='US1')",
        "verify_traveler_information(first_name='Michael', last_name='Thompson', date_of_birth='1 Jan 1950', passport_number='US1')",
        "verify_traveler_information(first_name='Michael', last_name='Thompson', date_of_birth='1950-13-01', passport_number='US1')",
        "verify_traveler_information(first_name='Michael', last_name='Thompson', date_of_birth='1950-02-29', passport_number='US1')",
        "verify_traveler_information(first_name='Michael', last_name='Thompson', date_of_birth=19500101, passport_number='US1')",
        "verify_traveler_information(first_name='Michael', last_name='Thompson', date_of_birth='1950-01-01', passport_number=12)",
        "verify_traveler_information(first_name='Michael', last_name='Thompson', date_of_birth='1950-01-01', passport_number=['US1'])",
        "verify_traveler_information(first_name='Mike', last_name='Thompson', date_of_birth='1950-01-01', passport_number='US1')",
        "verify_traveler_information(first_name=1, last_name=None, date_of_birth='1950-01-01', passport_number='US1')",
        "verify_traveler_information(first_name='Michael', last_name='Thompson', date_of_birth='2030-01-01', passport_number='US1')",
    ]),
]


# Inputs to datetime.strptime(s, "%Y-%m-%d"), whose error texts TravelAPI
# catches (ValueError) or lets through (TypeError).
STRPTIME = ["2024-12-15", "2024-2-5", "2024-1- 5", "\uff12\uff10\uff12\uff14-01-1\u0663", "2024-02-29",
            "2023-02-29", "2023-04-31", "0000-01-05", "2024-13-01", "2024-01-35", "2024-12-15T00:00",
            "15/12/2024", "2024-00-01", "2024-1-", "", " 2024-01-01", "2024-01-01 ", 20241215, None,
            ["2024-01-01"], 2024.5]


def strptime_cases():
    out = []
    for s in STRPTIME:
        try:
            d = _dt.datetime.strptime(s, "%Y-%m-%d")
            out.append({"input": s, "date": [d.year, d.month, d.day]})
        except (TypeError, ValueError) as e:
            out.append({"input": s, "error": "%s: %s" % (type(e).__name__, e)})
    return out


def table_cases(src):
    """Every route of get_flight_cost's base_costs both ways, every city of
    get_nearest_airport_by_city's map and every currency pair, read from
    BFCL's source, so that each table entry of the port is checked."""
    tree = ast.parse(open(os.path.join(src, "func_source_code", "travel_booking.py")).read())
    tables = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict):
            target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
            if getattr(target, "id", "") in ("base_costs", "airport_map", "exchange_rates"):
                tables[target.id] = ast.literal_eval(node.value)
    calls = []
    for frm, to in tables["base_costs"]:
        for a, b in ((frm, to), (to, frm)):
            calls.append("get_flight_cost(travel_from=%r, travel_to=%r, travel_date='2024-01-01', travel_class='first')" % (a, b))
    for city in tables["airport_map"]:
        calls.append("get_nearest_airport_by_city(location=%r)" % city)
    for base, target in tables["exchange_rates"]:
        for a, b in ((base, target), (target, base)):
            calls.append("compute_exchange_rate(base_currency=%r, target_currency=%r, value=123.45)" % (a, b))
    return ("tables", None, calls)


def gold(rep, bfcl):
    out, skipped = [], 0
    for cat in ["base", "miss_func", "miss_param"]:
        entries = [json.loads(l) for l in gzip.open(os.path.join(
            bfcl, "data", "BFCL_v4_multi_turn_%s.json.gz" % cat), "rt")]
        answers = {a["id"]: a["ground_truth"] for a in (json.loads(l) for l in gzip.open(os.path.join(
            bfcl, "data", "possible_answer", "BFCL_v4_multi_turn_%s.json.gz" % cat), "rt"))}
        for e in entries:
            if "TravelAPI" not in e["involved_classes"]:
                continue
            others = [c for c in e["involved_classes"] if c != "TravelAPI"]
            note = ("other classes' calls interleave: " + ", ".join(others)) if others else ""
            rec, s = record(rep, "gold", e["id"], e["initial_config"], e["involved_classes"],
                            answers[e["id"]], note)
            skipped += s
            out.append(rec)
    return out, skipped


def runs(rep, bfcl):
    """Replays the runs' TravelAPI calls and compares with what they recorded."""
    data = {}
    for f in glob.glob(os.path.join(bfcl, "data", "BFCL_v4_multi_turn_*.json.gz")):
        for l in gzip.open(f, "rt"):
            e = json.loads(l)
            data[e["id"]] = e
    for f in sorted(glob.glob(os.path.join(bfcl, "runs", "*_result.json.gz"))):
        calls = equal = snaps = snaps_equal = entries = mixed = 0
        for l in gzip.open(f, "rt"):
            r = json.loads(l)
            e = data[r["id"]]
            if "TravelAPI" not in e["involved_classes"] or "inference_log" not in r:
                continue
            entries += 1
            sess = rep.session(e["initial_config"], e["involved_classes"])
            inst = None
            for part in r["inference_log"]:
                if isinstance(part, list):
                    for s in part:
                        if s.get("class_name") == "TravelAPI":
                            if inst is None:
                                _, insts = rep.utils.execute_multi_turn_func_call(
                                    [], sess[2], sess[3], sess[0], sess[1])
                                inst = insts["TravelAPI"]
                            snaps += 1
                            mine = {k: v for k, v in vars(inst).items() if not k.startswith("_")}
                            snaps_equal += json.dumps(mine) == json.dumps(s["content"])
                    continue
                for step, msgs in part.items():
                    if not step.startswith("step_"):
                        continue
                    decoded = [m for m in msgs if m.get("role") == "handler_log" and "model_response_decoded" in m]
                    tools = [m["content"] for m in msgs if m.get("role") == "tool"]
                    if not decoded or not tools:
                        continue
                    for call, want in zip(decoded[0]["model_response_decoded"], tools):
                        k = rep.kind(call)
                        got, inst = rep.execute(sess, call)
                        mixed += k == "mixed"
                        if k == "travel":
                            calls += 1
                            equal += got == want
        print("%s: %d entries, %d TravelAPI calls, %d results equal the recorded; %d snapshots, %d equal; %d mixed calls"
              % (os.path.basename(f), entries, calls, equal, snaps, snaps_equal, mixed))


def main():
    if os.environ.get("PYTHONHASHSEED") != "0":
        sys.exit("run with PYTHONHASHSEED=0 (book_flight's error prints a set)")
    bfcl = sys.argv[1]
    rep = Replayer(*load_bfcl(os.path.join(bfcl, "source")))
    recs, skipped = gold(rep, bfcl)
    with gzip.GzipFile(os.path.join(HERE, "gold.jsonl.gz"), "wb", mtime=0) as f:
        for r in recs:
            f.write((json.dumps(r, ensure_ascii=False) + "\n").encode())
    print("gold: %d entries, %d TravelAPI calls, %d mixed calls skipped"
          % (len(recs), sum(len(r["calls"]) for r in recs), skipped))
    with gzip.GzipFile(os.path.join(HERE, "hand.jsonl.gz"), "wb", mtime=0) as f:
        for name, config, calls in CASES + [table_cases(os.path.join(bfcl, "source"))]:
            cfg = {"TravelAPI": config} if config is not None else {}
            rec, _ = record(rep, "hand", name, cfg, ["TravelAPI"], [calls])
            f.write((json.dumps(rec, ensure_ascii=False) + "\n").encode())
    print("hand: %d sequences and the tables" % len(CASES))
    with open(os.path.join(HERE, "strptime.json"), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in strptime_cases()) + "\n]\n")
    print("strptime: %d inputs" % len(STRPTIME))
    if "--runs" in sys.argv[2:]:
        runs(rep, bfcl)


if __name__ == "__main__":
    main()
