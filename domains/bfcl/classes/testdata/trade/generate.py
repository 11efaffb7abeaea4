#!/usr/bin/env python3
"""Writes the expected results of the Go ports of BFCL's TradingBot and
VehicleControlAPI (domains/bfcl/classes/trading.go, vehicle.go) by running
BFCL's own classes through BFCL's own executor (multi_turn_utils.py).

Usage: TZ=UTC python3 generate.py BFCL_DIR OUT_DIR
  BFCL_DIR: shared/realworld/bfcl (source/, data/, runs/).
  OUT_DIR:  this folder; writes gold.jsonl.gz and edge.jsonl.gz.

Each line is one scenario: the class, its initial_config entry, the ids
of the BFCL entries it comes from, the state _load_scenario leaves and
per call the executor's result string and the state after it (null when
unchanged). A state is [name, repr(value)] per attribute in vars()
order, the random generator left out (its state shows in later draws).

It also replays the real runs' calls of these classes (runs/*_result)
and prints how many results and turn-start snapshots BFCL's Python
reproduces; the Go test reads the runs themselves (they state no
licence, so nothing of them is written here).
"""
import copy
import gzip
import importlib
import inspect
import json
import os
import sys
import time
import types

CLASSES = {"TradingBot": "trading_bot", "VehicleControlAPI": "vehicle_control"}


def stub(bfcl):
    """Makes BFCL's imports resolve to the source folder."""
    src = os.path.join(bfcl, "source")
    for name in ["bfcl_eval", "bfcl_eval.eval_checker", "bfcl_eval.constants"]:
        m = types.ModuleType(name)
        m.__path__ = []
        sys.modules[name] = m
    me = types.ModuleType("bfcl_eval.eval_checker.multi_turn_eval")
    me.__path__ = [src]
    sys.modules[me.__name__] = me
    fs = types.ModuleType(me.__name__ + ".func_source_code")
    fs.__path__ = [os.path.join(src, "func_source_code")]
    sys.modules[fs.__name__] = fs
    cfg = types.ModuleType("bfcl_eval.constants.executable_backend_config")
    cfg.CLASS_FILE_PATH_MAPPING = {c: fs.__name__ + "." + m for c, m in CLASSES.items()}
    cfg.STATELESS_CLASSES = ["MathAPI"]
    sys.modules[cfg.__name__] = cfg
    return importlib.import_module(me.__name__ + ".multi_turn_utils")


def methods(cfg_module):
    """Maps each public method name to its class."""
    out = {}
    for c, path in cfg_module.CLASS_FILE_PATH_MAPPING.items():
        cls = getattr(importlib.import_module(path), c)
        for n, _ in inspect.getmembers(cls, inspect.isfunction):
            if not n.startswith("_"):
                out[n] = c
    return out


def called(call):
    """The method name BFCL's executor checks a call string for."""
    name = call
    if "(" in name:
        name = name.split("(")[0]
    if "." in name:
        name = name.split(".")[1]
    return name


def state(inst):
    return [[k, repr(v)] for k, v in vars(inst).items() if k != "_random"]


class Runner:
    def __init__(self, utils):
        self.utils = utils
        self.n = 0

    def run(self, cls, config, calls):
        """Runs calls on a fresh instance; returns the state after loading
        and per call its result and the state after it."""
        self.n += 1
        key = f"s{self.n}"
        init = None
        steps = []
        prev = None
        for call in [None] + calls:
            res, inst = self.utils.execute_multi_turn_func_call(
                [] if call is None else [call], {cls: config}, [cls], "gen", key)
            st = state(inst[cls])
            if call is None:
                init = st
            else:
                steps.append({"call": call, "result": res[0], "state": None if st == prev else st})
            prev = st
        return init, steps


def gold(bfcl, owner):
    """(class, config, calls, id) for every entry involving a class."""
    out = []
    for cat in ["base", "miss_func", "miss_param"]:
        qs = [json.loads(l) for l in gzip.open(os.path.join(bfcl, f"data/BFCL_v4_multi_turn_{cat}.json.gz"), "rt")]
        ans = {a["id"]: a["ground_truth"] for a in
               (json.loads(l) for l in gzip.open(os.path.join(bfcl, f"data/possible_answer/BFCL_v4_multi_turn_{cat}.json.gz"), "rt"))}
        for q in qs:
            for cls in CLASSES:
                if cls not in q["involved_classes"]:
                    continue
                calls = [c for turn in ans[q["id"]] for c in turn if owner.get(called(c)) == cls]
                out.append((cls, q["initial_config"].get(cls, {}), calls, q["id"]))
    return out


def scenarios(runner, items, source):
    """Runs each distinct (class, config, calls) once."""
    seen = {}
    for cls, config, calls, ident in items:
        k = json.dumps([cls, config, calls], sort_keys=True)
        if k in seen:
            seen[k]["ids"].append(ident)
            continue
        init, steps = runner.run(cls, copy.deepcopy(config), calls)
        seen[k] = {"source": source, "ids": [ident], "class": cls, "config": config, "init": init, "steps": steps}
    return list(seen.values())


def runs(bfcl, utils, owner):
    """Replays the real runs' calls of these classes with BFCL's Python and
    counts the results and turn-start snapshots equal to the recorded ones."""
    import glob
    qs = {}
    for cat in ["base", "miss_func", "miss_param"]:
        for l in gzip.open(os.path.join(bfcl, f"data/BFCL_v4_multi_turn_{cat}.json.gz"), "rt"):
            q = json.loads(l)
            qs[q["id"]] = q
    n = 0
    for f in sorted(glob.glob(os.path.join(bfcl, "runs/*_result.json.gz"))):
        calls = calls_eq = snaps = snaps_eq = 0
        for l in gzip.open(f, "rt"):
            e = json.loads(l)
            if "inference_log" not in e:
                continue
            q = qs[e["id"]]
            mine = [c for c in CLASSES if c in q["involved_classes"]]
            if not mine:
                continue
            n += 1
            key = f"r{n}"
            insts = None
            for part in e["inference_log"]:
                if isinstance(part, list):
                    for s in part:
                        if s.get("role") == "state_info" and s["class_name"] in mine:
                            if insts is None:
                                _, insts = utils.execute_multi_turn_func_call([], q["initial_config"], mine, "gen", key)
                            pub = {k: v for k, v in vars(insts[s["class_name"]]).items() if not k.startswith("_")}
                            snaps += 1
                            snaps_eq += json.loads(json.dumps(pub)) == s["content"]
                    continue
                for step, msgs in part.items():
                    if not step.startswith("step"):
                        continue
                    dec = None
                    tools = []
                    for m in msgs:
                        if m["role"] == "handler_log" and m["content"].startswith("Successfully"):
                            dec = m["model_response_decoded"]
                        elif m["role"] == "tool":
                            tools.append(m["content"])
                    for c, want in zip(dec or [], tools):
                        if owner.get(called(c)) not in mine:
                            continue
                        res, insts = utils.execute_multi_turn_func_call([c], q["initial_config"], mine, "gen", key)
                        calls += 1
                        calls_eq += res[0] == want
        print(f"{os.path.basename(f)}: {calls_eq}/{calls} results, {snaps_eq}/{snaps} snapshots equal", file=sys.stderr)


def edge():
    """Hand-made calls: wrong types, edges, partial state changes."""
    open_market = {"authenticated": True, "market_status": "Open"}
    tb = [
        ({}, [
            "get_current_time()",
            "get_symbol_by_name(name='Apple')", "get_symbol_by_name(name=1)", "get_symbol_by_name(name=['Apple'])",
            "get_stock_info(symbol='AAPL')", "get_stock_info(symbol=1)", "get_stock_info(symbol=['AAPL'])",
            "get_order_details(order_id=12345)", "get_order_details(order_id='12345')", "get_order_details(order_id=12446.0)",
            "get_order_details(order_id=True)", "get_order_details(order_id=[1])",
            "cancel_order(order_id=12345)", "cancel_order(order_id=1)", "cancel_order(order_id=12446.0)",
            "place_order(order_type='Buy', symbol='AAPL', price=1, amount=1)",
            "get_account_info()", "get_watchlist()", "get_order_history()", "get_transaction_history()",
            "remove_stock_from_watchlist(symbol='NVDA')", "fund_account(amount=10)", "withdraw_funds(amount=10)",
            "trading_get_login_status()", "trading_logout()",
            "trading_login(username=1, password=None)", "trading_login(username='a', password='b')",
            "trading_get_login_status()",
            "place_order(order_type='Buy', symbol='XXX', price=1, amount=1)",
            "place_order(order_type='Buy', symbol=['AAPL'], price=1, amount=1)",
            "place_order(order_type='Buy', symbol='AAPL', price='10', amount=1)",
            "place_order(order_type='Buy', symbol='AAPL', price=10, amount='1')",
            "place_order(order_type='Buy', symbol='AAPL', price=0, amount='1')",
            "place_order(order_type='Buy', symbol='AAPL', price=-1.5, amount=2)",
            "place_order(order_type=1, symbol='AAPL', price=10, amount=1)",
            "place_order(order_type='BUY', symbol='AAPL', price=1000, amount=11)",
            "place_order(order_type='buy', symbol='AAPL', price=1e400, amount=1)",
            "place_order(order_type='Sell', symbol='AAPL', price=1e400, amount=1)",
            "place_order(order_type='Buy', symbol='AAPL', price=227.16, amount=2.5)",
            "place_order(order_type='Buy', symbol='AAPL', price=True, amount=True)",
            "place_order(order_type='Hold', symbol='TSLA', price=10, amount=5)",
            "place_order(order_type='Buy', symbol='MSFT', price=9999999999.999, amount=3)",
            "get_order_details(order_id=12446)", "get_order_details(order_id=12447)",
            "cancel_order(order_id=12447)", "cancel_order(order_id=12447)", "get_order_history()",
            "fund_account(amount='100')", "fund_account(amount=-1)", "fund_account(amount=0)",
            "fund_account(amount=100)", "fund_account(amount=0.1)", "fund_account(amount=True)",
            "withdraw_funds(amount=5)",
            "get_transaction_history()",
            "get_account_info()",
            "get_watchlist()", "add_to_watchlist(stock='TSLA')", "add_to_watchlist(stock='TSLA')",
            "add_to_watchlist(stock='XXX')", "add_to_watchlist(stock=['AAPL'])", "add_to_watchlist(stock=1)",
            "remove_stock_from_watchlist(symbol='XXX')", "remove_stock_from_watchlist(symbol=['NVDA'])",
            "remove_stock_from_watchlist(symbol='NVDA')", "get_watchlist()",
            "get_available_stocks(sector='Technology')", "get_available_stocks(sector='Automobile')",
            "get_available_stocks(sector='Energy')", "get_available_stocks(sector=['Technology'])",
            "filter_stocks_by_price(stocks=['AAPL', 'GOOG', 'XXX'], min_price=0, max_price=300)",
            "filter_stocks_by_price(stocks=['AAPL', 'GOOG'], min_price=200.5, max_price=3000)",
            "filter_stocks_by_price(stocks='AAPL', min_price=0, max_price=300)",
            "filter_stocks_by_price(stocks=['AAPL'], min_price='0', max_price=300)",
            "filter_stocks_by_price(stocks=['AAPL'], min_price=0, max_price='300')",
            "filter_stocks_by_price(stocks=None, min_price=0, max_price=300)",
            "filter_stocks_by_price(stocks=[['AAPL']], min_price=0, max_price=300)",
            "filter_stocks_by_price(stocks={'AAPL': 1, 'ZETA': 2}, min_price=20, max_price=30)",
            "notify_price_change(stocks=['AAPL', 'TSLA', 'XXX'], threshold=0.1)",
            "notify_price_change(stocks=['AAPL'], threshold=5)",
            "notify_price_change(stocks=[], threshold=0)",
            "notify_price_change(stocks=['AAPL'], threshold='0.1')",
            "notify_price_change(stocks=[1, 'TSLA'], threshold=0.12)",
            "notify_price_change(stocks=None, threshold=1)",
            "trading_login(username='a', password='b')", "trading_logout()", "trading_logout()",
            "place_order(symbol='AAPL')", "get_current_time(x=1)", "get_current_time(1)",
            "trading_login('a', 'b', 'c')", "trading_login('a', username='b')",
            "get_transaction_history('2024-09-01', '2024-09-30', None)", "notify_price_change(['AAPL'], 0, threshold=1)",
        ]),
        (open_market, [
            "withdraw_funds(amount='100')", "withdraw_funds(amount=0)", "withdraw_funds(amount=10001)",
            "withdraw_funds(amount=100.25)", "withdraw_funds(amount=True)", "withdraw_funds(amount=1e-9)",
            "fund_account(amount=50)", "withdraw_funds(amount=9899.75)",
            "get_transaction_history()",
            "get_transaction_history(start_date='2024-09-01', end_date='2024-09-30')",
            "get_transaction_history(start_date='2024-09-02')",
            "get_transaction_history(end_date='2024-09-02')",
            "get_transaction_history(start_date='2024-09-03')",
            "get_transaction_history(start_date='', end_date=0)",
            "get_transaction_history(start_date='2024/09/01')",
            "get_transaction_history(start_date='2024-09-01 10:00')",
            "get_transaction_history(start_date='2024-02-30')",
            "get_transaction_history(start_date='2023-02-29')",
            "get_transaction_history(start_date='2024-02-29')",
            "get_transaction_history(start_date='0000-01-01')",
            "get_transaction_history(start_date='0001-01-01', end_date='9999-12-31')",
            "get_transaction_history(start_date='\\uff12\\uff10\\uff12\\uff14-09-01')",
            "get_transaction_history(start_date='2024-9-1', end_date='2024-09- 3')",
            "get_transaction_history(start_date=' 2024-09-01')",
            "get_transaction_history(start_date='2024-09-01\\n')",
            "get_transaction_history(start_date=\"it's\")",
            "get_transaction_history(start_date='2024-13-01')",
            "get_transaction_history(start_date='10000-01-01')",
            "get_transaction_history(start_date=20240901)",
            "get_transaction_history(start_date=None, end_date=['2024'])",
            "get_transaction_history(start_date=True)",
            "get_transaction_history(start_date=2.5)",
            "get_transaction_history(start_date={'a': 1})",
            "get_account_info()",
        ]),
        ({"orders": {"7": {"id": 7, "order_type": "Buy", "symbol": "AAPL", "price": 1.0, "amount": 1, "status": "Open"},
                     "x7": {"status": "Completed"}, "０8": {"status": "Pending"}},
          "account_info": {"account_id": 1, "balance": 5},
          "authenticated": True, "market_status": "Open", "order_counter": 8, "watch_list": [],
          "transaction_history": [{"type": "deposit", "amount": 1, "timestamp": "2024-08-31 23:59:59"}],
          "random_seed": 7}, [
            "get_order_history()", "get_order_details(order_id='x7')", "get_order_details(order_id=8)",
            "cancel_order(order_id=7)", "cancel_order(order_id='x7')",
            "get_transaction_history(end_date='2024-09-01')", "get_transaction_history(start_date='2024-08-31')",
            "place_order(order_type='Buy', symbol='ZETA', price=2.5, amount=2)",
            "place_order(order_type='Buy', symbol='ZETA', price=2.5, amount=3)",
            "withdraw_funds(amount=5)", "withdraw_funds(amount=1)", "fund_account(amount=2)",
            "get_transaction_history()", "get_account_info()", "get_watchlist()", "add_to_watchlist(stock='ZETA')",
        ]),
    ]
    # multi_turn_base_0's orders: "order_type" is a key whose value is a str.
    odd_orders = {"orders": {"12345": {"symbol": "AAPL", "price": 210.65, "num_shares": 10, "status": "Completed"},
                             "order_type": "Buy"}, "authenticated": True, "watch_list": ["NVDA", 1, True, "NVDA"]}
    tb.append((odd_orders, [
        "get_order_details(order_id='order_type')", "cancel_order(order_id='order_type')",
        "cancel_order(order_id=12345)", "get_order_history()",
        "remove_stock_from_watchlist(symbol=True)", "remove_stock_from_watchlist(symbol='NVDA')", "get_watchlist()",
        "place_order(order_type='Sell', symbol='NVDA', price=1.0, amount=1)", "get_order_details(order_id=12446)",
    ]))
    vc = [
        ({}, [
            "startEngine(ignitionMode='START')", "startEngine(ignitionMode='STOP')",
            "lockDoors(unlock=False, door=['driver', 'passenger'])",
            "startEngine(ignitionMode='START')",
            "lockDoors(unlock=False, door=['driver', 'rear_left', 'rear_right', 'bogus'])",
            "lockDoors(unlock=False, door='driver')", "lockDoors(unlock=False, door=None)",
            "lockDoors(unlock='False', door=['driver'])", "lockDoors(unlock=0, door=['driver', 'driver'])",
            "lockDoors(unlock=False, door=['driver', 'passenger', 'rear_left', 'rear_right'])",
            "startEngine(ignitionMode='START')",
            "pressBrakePedal(pedalPosition='1')", "pressBrakePedal(pedalPosition=1.5)", "pressBrakePedal(pedalPosition=-0.1)",
            "pressBrakePedal(pedalPosition=0.5)", "startEngine(ignitionMode='START')",
            "pressBrakePedal(pedalPosition=0)", "pressBrakePedal(pedalPosition=True)",
            "displayCarStatus(option='brakePedal')",
            "startEngine(ignitionMode='START')", "startEngine(ignitionMode='start')", "startEngine(ignitionMode=1)",
            "setCruiseControl(speed=65, activate=True, distanceToNextVehicle=100)",
            "startEngine(ignitionMode='STOP')",
            "setCruiseControl(speed=65, activate=True, distanceToNextVehicle=100)",
            "pressBrakePedal(pedalPosition=1)", "startEngine(ignitionMode='START')",
            "setCruiseControl(speed=63, activate=True, distanceToNextVehicle=100)",
            "setCruiseControl(speed='65', activate=True, distanceToNextVehicle='70.5')",
            "setCruiseControl(speed='abc', activate=True, distanceToNextVehicle=1)",
            "setCruiseControl(speed=65, activate=True, distanceToNextVehicle=None)",
            "setCruiseControl(speed=' 1_20 ', activate='no', distanceToNextVehicle='inf')",
            "setCruiseControl(speed='nan', activate=True, distanceToNextVehicle=-1)",
            "setCruiseControl(speed=125, activate=True, distanceToNextVehicle=2)",
            "setCruiseControl(speed=-5, activate=True, distanceToNextVehicle=2)",
            "setCruiseControl(speed=0, activate=True, distanceToNextVehicle=True)",
            "setCruiseControl(speed=120, activate=False, distanceToNextVehicle=2)",
            "setCruiseControl(speed=[1], activate=False, distanceToNextVehicle=2)",
            "displayCarStatus(option='engine')",
            "fillFuelTank(fuelAmount='10')", "fillFuelTank(fuelAmount=-1)", "fillFuelTank(fuelAmount=51)",
            "fillFuelTank(fuelAmount=10)", "fillFuelTank(fuelAmount=0.1)", "fillFuelTank(fuelAmount=True)",
            "fillFuelTank(fuelAmount=40)", "fillFuelTank(fuelAmount=None)",
            "displayCarStatus(option='fuel')",
            "adjustClimateControl(temperature=72, unit='fahrenheit')",
            "adjustClimateControl(temperature=20, fanSpeed=101)",
            "adjustClimateControl(temperature=20, fanSpeed='50')",
            "adjustClimateControl(temperature='72', unit='fahrenheit')",
            "displayCarStatus(option='climate')",
            "adjustClimateControl(temperature='hot', unit='celsius', fanSpeed=0, mode='cool')",
            "adjustClimateControl(temperature=-40, unit='fahrenheit', fanSpeed=100, mode=None)",
            "adjustClimateControl(temperature=True, unit='fahrenheit', fanSpeed=True)",
            "displayCarStatus(option='climate')",
            "get_outside_temperature_from_google()", "get_outside_temperature_from_google()",
            "get_outside_temperature_from_weather_com()",
            "setHeadlights(mode='on')", "setHeadlights(mode='auto')", "setHeadlights(mode=['on'])", "setHeadlights(mode='ON')",
            "displayCarStatus(option='headlights')", "displayCarStatus(option='doors')", "displayCarStatus(option='battery')",
            "displayCarStatus(option=['fuel'])", "displayCarStatus(option='parkingBrake')",
            "activateParkingBrake(mode='engage')", "displayCarStatus(option='parkingBrake')",
            "activateParkingBrake(mode='release')", "activateParkingBrake(mode=1)", "activateParkingBrake(mode=['engage'])",
            "releaseBrakePedal()", "displayCarStatus(option='brakePedal')",
            "get_current_speed()", "get_current_speed()",
            "display_log(messages=['a', 'b'])", "display_log(messages='x')", "display_log(messages={'k': (1, 2)})",
            "estimate_drive_feasibility_by_mileage(distance=100)", "estimate_drive_feasibility_by_mileage(distance=1e9)",
            "estimate_drive_feasibility_by_mileage(distance='100')",
            "liter_to_gallon(liter=10)", "liter_to_gallon(liter='10')", "liter_to_gallon(liter=[1])", "liter_to_gallon(liter=True)",
            "gallon_to_liter(gallon=2)", "gallon_to_liter(gallon=0.1)", "gallon_to_liter(gallon='2')", "gallon_to_liter(gallon=None)",
            "estimate_distance(cityA='83214', cityB='74532')", "estimate_distance(cityA='74532', cityB='83214')",
            "estimate_distance(cityA='94704', cityB='08540')", "estimate_distance(cityA=83214, cityB=74532)",
            "estimate_distance(cityA='94016', cityB='74532')", "estimate_distance(cityA='1', cityB='2')",
            "get_zipcode_based_on_city(city='Rivermist')", "get_zipcode_based_on_city(city='San Francisco')",
            "get_zipcode_based_on_city(city='Nowhere')", "get_zipcode_based_on_city(city=['Rivermist'])",
            "set_navigation(destination='123 Main St, Rivermist, CA')", "set_navigation(destination=5)",
            "set_navigation(destination=None)",
            "check_tire_pressure()", "find_nearest_tire_shop()",
            "lockDoors(unlock=True, door=['driver', 'passenger', 'rear_left', 'rear_right'])",
            "lockDoors(unlock=True, door=['driver'])",
            "lockDoors(False, ['driver'])", "lockDoors(False)", "lockDoors(unlock=False, door=[], doors=[])",
            "adjustClimateControl(20, 'celsius', 10, 'cool')", "adjustClimateControl(20, 'celsius', 10, 'cool', 5)",
            "adjustClimateControl(unit='fahrenheit')", "adjustClimateControl(fanSpeed=10, temperature=50)",
            "releaseBrakePedal(True)", "setCruiseControl(60, True)",
            "lockDoors(unlock=True, door=[['driver']])", "lockDoors(unlock=True, door={'driver': 1, 'x': 2})",
        ]),
        ({"fuelLevel": 49.5, "batteryVoltage": 12, "engineState": "running", "remainingUnlockedDoors": 0,
          "doorStatus": {"driver": "locked", "passenger": "unlocked", "trunk": "locked"},
          "acTemperature": 20, "fanSpeed": 10, "acMode": "heat", "humidityLevel": 40, "headLightStatus": "on",
          "parkingBrakeStatus": "engaged", "parkingBrakeForce": 300, "slopeAngle": 5, "brakePedalStatus": "pressed",
          "brakePedalForce": 1000, "distanceToNextVehicle": 30, "cruiseStatus": "active", "destination": "Home",
          "frontLeftTirePressure": 28, "frontRightTirePressure": 28.5, "rearLeftTirePressure": 26,
          "rearRightTirePressure": 27, "random_seed": 12345}, [
            "displayCarStatus(option='doors')", "startEngine(ignitionMode='START')",
            "lockDoors(unlock=False, door=['passenger'])", "startEngine(ignitionMode='START')",
            "lockDoors(unlock=True, door=['trunk'])", "lockDoors(unlock=False, door=['trunk', 'trunk'])",
            "startEngine(ignitionMode='START')",
            "fillFuelTank(fuelAmount=0.5)", "fillFuelTank(fuelAmount=0.1)", "fillFuelTank(fuelAmount=-0)",
            "check_tire_pressure()", "get_outside_temperature_from_google()", "get_current_speed()",
            "displayCarStatus(option='parkingBrake')", "displayCarStatus(option='brakePedal')",
            "estimate_drive_feasibility_by_mileage(distance=1000)", "estimate_drive_feasibility_by_mileage(distance=1001)",
            "setCruiseControl(speed=5, activate=1, distanceToNextVehicle=3)",
        ]),
        ({"fuelLevel": -1, "doorStatus": {"driver": "locked", "passenger": "locked", "rear_left": "locked", "rear_right": "locked"},
          "brakePedalStatus": "pressed", "brakePedalForce": 1000.0}, [
            "startEngine(ignitionMode='START')", "fillFuelTank(fuelAmount=0.5)", "fillFuelTank(fuelAmount=1)",
            "startEngine(ignitionMode='START')", "check_tire_pressure()",
        ]),
    ]
    out = []
    for cls, items in [("TradingBot", tb), ("VehicleControlAPI", vc)]:
        for i, (config, calls) in enumerate(items):
            out.append((cls, config, calls, f"edge_{cls}_{i}"))
    return out


def write(path, rows):
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        for r in rows:
            f.write((json.dumps(r, ensure_ascii=False) + "\n").encode())


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    bfcl, out = sys.argv[1], sys.argv[2]
    if os.environ.get("TZ") is None:
        sys.exit("set TZ (the ports assume UTC: TZ=UTC)")
    time.tzset()
    utils = stub(bfcl)
    owner = methods(sys.modules["bfcl_eval.constants.executable_backend_config"])
    runner = Runner(utils)
    write(os.path.join(out, "gold.jsonl.gz"), scenarios(runner, gold(bfcl, owner), "gold"))
    write(os.path.join(out, "edge.jsonl.gz"), scenarios(runner, edge(), "edge"))
    runs(bfcl, utils, owner)


if __name__ == "__main__":
    main()
