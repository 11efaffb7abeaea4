"""Writes tool-cases.json: what tau2's Python airline tools (their
tool message: the result's json.dumps, or "Error: " and the exception)
answer to each call below, each on a fresh copy of the database parthack
builds, and tau2's DB hash after the call; and the same for a few
sequences of calls on one database. Argument objects are passed with sorted keys, as parthack's
canonical JSON hands them to the port. pydantic's version in its links
is written as the shipped runs have it (2.12).

Usage, from the repository root:
  python3 domains/tau2/airline/testdata/python_tool_cases.py TAU2_SOURCE_DIR"""
import json, re, runpy, sys

ns = runpy.run_path("domains/tau2/airline/testdata/python_hashes.py", run_name="tau2_stubs")
FlightDB, AirlineTools, text, to_message = ns["FlightDB"], ns["AirlineTools"], ns["text"], ns["to_message"]

ok_flight = [{"flight_number": "HAT018", "date": "2024-05-17"}]
pax = [{"first_name": "Sophia", "last_name": "Silva", "dob": "1957-10-05"}]
booking = {"user_id": "sophia_silva_7557", "origin": "SEA", "destination": "LAS", "flight_type": "one_way",
           "cabin": "economy", "flights": ok_flight, "passengers": pax,
           "payment_methods": [{"payment_id": "gift_card_5094406", "amount": 100}], "total_baggages": 0,
           "nonfree_baggages": 0, "insurance": "no"}


def book(**over):
    return dict(booking, **over)


CASES = [
    ("unknown tool", "book_flight", {}),
    ("missing one", "get_user_details", {}),
    ("missing two", "update_reservation_baggages", {"reservation_id": "NM1VX1", "payment_id": "x"}),
    ("missing ten", "book_reservation", {"user_id": "x"}),
    ("unexpected", "get_user_details", {"user_id": "x", "verbose": True}),
    ("no parameters", "list_all_airports", {"x": 1}),
    ("user int", "get_user_details", {"user_id": 5}),
    ("user float", "get_user_details", {"user_id": 1.5}),
    ("user bool", "get_user_details", {"user_id": True}),
    ("user null", "get_user_details", {"user_id": None}),
    ("user list", "get_user_details", {"user_id": ["sophia_silva_7557"]}),
    ("user dict", "get_user_details", {"user_id": {"id": "sophia_silva_7557"}}),
    ("user found", "get_user_details", {"user_id": "sophia_silva_7557"}),
    ("reservation missing", "get_reservation_details", {"reservation_id": "NOPE00"}),
    ("reservation found", "get_reservation_details", {"reservation_id": "Z7GOZK"}),
    ("flight missing", "get_flight_status", {"flight_number": "HAT999", "date": "2024-05-17"}),
    ("flight date missing", "get_flight_status", {"flight_number": "HAT018", "date": "2024-06-01"}),
    ("flight date int", "get_flight_status", {"flight_number": "HAT018", "date": 20240517}),
    ("flight number list", "get_flight_status", {"flight_number": ["HAT018"], "date": "2024-05-17"}),
    ("flight delayed", "get_flight_status", {"flight_number": "HAT018", "date": "2024-05-11"}),
    ("direct date list", "search_direct_flight", {"origin": "SEA", "destination": "LAS", "date": ["2024-05-17"]}),
    ("direct date list, no route", "search_direct_flight", {"origin": "XXX", "destination": "LAS", "date": ["2024-05-17"]}),
    ("direct any origin", "search_direct_flight", {"origin": None, "destination": "LAS", "date": "2024-05-17"}),
    ("direct found", "search_direct_flight", {"origin": "SEA", "destination": "LAS", "date": "2024-05-17"}),
    ("onestop found", "search_onestop_flight", {"origin": "JFK", "destination": "MCO", "date": "2024-05-28"}),
    ("onestop overnight", "search_onestop_flight", {"origin": "LGA", "destination": "SEA", "date": "2024-05-19"}),
    ("airports", "list_all_airports", {}),
    ("calc", "calculate", {"expression": "(300 - 125.5) * 2 / 3"}),
    ("calc int", "calculate", {"expression": "7 // 2 + 2 ** 3 ** 2 - -1"}),
    ("calc round", "calculate", {"expression": "2.675 + 0.125"}),
    ("calc chars", "calculate", {"expression": "2 x 3"}),
    ("calc empty", "calculate", {"expression": ""}),
    ("calc syntax", "calculate", {"expression": "1 +"}),
    ("calc unclosed", "calculate", {"expression": "(1 + 2"}),
    ("calc unmatched", "calculate", {"expression": "1 + 2)"}),
    ("calc zeros", "calculate", {"expression": "012 + 1"}),
    ("calc div zero", "calculate", {"expression": "1 / 0"}),
    ("calc float div zero", "calculate", {"expression": "1.5 / 0"}),
    ("calc floor zero", "calculate", {"expression": "1 // 0"}),
    ("calc call", "calculate", {"expression": "(2)(3)"}),
    ("calc tuple", "calculate", {"expression": "()"}),
    ("calc huge", "calculate", {"expression": "10 ** 400"}),
    ("calc negative power", "calculate", {"expression": "2 ** -2"}),
    ("calc not a string", "calculate", {"expression": 12}),
    ("transfer", "transfer_to_human_agents", {"summary": ["anything"]}),
    ("certificate", "send_certificate", {"user_id": "sophia_silva_7557", "amount": 150}),
    ("certificate string amount", "send_certificate", {"user_id": "sophia_silva_7557", "amount": "150"}),
    ("certificate bad amount", "send_certificate", {"user_id": "sophia_silva_7557", "amount": "lots"}),
    ("certificate no user", "send_certificate", {"user_id": "nobody_1", "amount": 150}),
    ("cancel", "cancel_reservation", {"reservation_id": "NM1VX1"}),
    ("cancel missing", "cancel_reservation", {"reservation_id": "NOPE00"}),
    ("cancel unhashable", "cancel_reservation", {"reservation_id": {"id": "NM1VX1"}}),
    ("book", "book_reservation", book()),
    ("book flight info types", "book_reservation", book(flights=[{"flight_number": 18}])),
    ("book passenger missing", "book_reservation", book(passengers=[{"first_name": "Sophia"}])),
    ("book payment missing amount", "book_reservation", book(payment_methods=[{"payment_id": "gift_card_5094406"}])),
    ("book reservation fields", "book_reservation", book(flight_type="x", cabin="first", insurance=None, total_baggages="two")),
    ("book passengers string", "book_reservation", book(passengers="Sophia")),
    ("book passengers mixed", "book_reservation", book(passengers=[pax[0], "Yara"])),
    ("book flights string", "book_reservation", book(flights="HAT018")),
    ("book flights int", "book_reservation", book(flights=18)),
    ("book flights mixed", "book_reservation", book(flights=[ok_flight[0], "HAT018"])),
    ("book no user", "book_reservation", book(user_id="nobody_1")),
    ("book flight missing", "book_reservation", book(flights=[{"flight_number": "HAT999", "date": "2024-05-17"}])),
    ("book flight date missing", "book_reservation", book(flights=[{"flight_number": "HAT018", "date": "2024-06-17"}])),
    ("book flight not available", "book_reservation", book(flights=[{"flight_number": "HAT018", "date": "2024-05-11"}])),
    ("book no seats", "book_reservation", book(cabin="basic_economy")),
    ("book bags string", "book_reservation", book(nonfree_baggages="1")),
    ("book bags float", "book_reservation", book(nonfree_baggages=1.0, payment_methods=[{"payment_id": "gift_card_5094406", "amount": 100}])),
    ("book payment not found", "book_reservation", book(payment_methods=[{"payment_id": "credit_card_1", "amount": 100}])),
    ("book not enough balance", "book_reservation", book(payment_methods=[{"payment_id": "gift_card_5094406", "amount": 300}])),
    ("book does not add up", "book_reservation", book(payment_methods=[{"payment_id": "gift_card_5094406", "amount": 99}])),
    ("book insurance and bags", "book_reservation", book(insurance="yes", nonfree_baggages=1, total_baggages=2,
                                                          payment_methods=[{"payment_id": "certificate_3887113", "amount": 150},
                                                                           {"payment_id": "credit_card_4196779", "amount": 30}])),
    ("book twice on one gift card", "book_reservation", book(payment_methods=[{"payment_id": "gift_card_5094406", "amount": 60},
                                                                              {"payment_id": "gift_card_5094406", "amount": 40}])),
    ("flights same", "update_reservation_flights", {"reservation_id": "NM1VX1", "cabin": "basic_economy", "payment_id": "credit_card_4196779",
                                                    "flights": [{"flight_number": "HAT300", "date": "2024-05-25"}, {"flight_number": "HAT208", "date": "2024-05-27"}]}),
    ("flights new cabin", "update_reservation_flights", {"reservation_id": "NM1VX1", "cabin": "business", "payment_id": "credit_card_4196779",
                                                         "flights": [{"flight_number": "HAT300", "date": "2024-05-25"}, {"flight_number": "HAT208", "date": "2024-05-27"}]}),
    ("flights gift card short", "update_reservation_flights", {"reservation_id": "NM1VX1", "cabin": "business", "payment_id": "gift_card_5094406",
                                                               "flights": [{"flight_number": "HAT300", "date": "2024-05-25"}, {"flight_number": "HAT208", "date": "2024-05-27"}]}),
    ("flights certificate", "update_reservation_flights", {"reservation_id": "NM1VX1", "cabin": "business", "payment_id": "certificate_3887113",
                                                           "flights": [{"flight_number": "HAT300", "date": "2024-05-25"}]}),
    ("flights unknown cabin", "update_reservation_flights", {"reservation_id": "NM1VX1", "cabin": "first", "payment_id": "credit_card_4196779",
                                                             "flights": [{"flight_number": "HAT300", "date": "2024-05-25"}]}),
    ("flights none, unknown cabin", "update_reservation_flights", {"reservation_id": "NM1VX1", "cabin": "first", "payment_id": "gift_card_5094406", "flights": []}),
    ("flights no payment", "update_reservation_flights", {"reservation_id": "NM1VX1", "cabin": "basic_economy", "payment_id": "paypal", "flights": []}),
    ("flights bad info", "update_reservation_flights", {"reservation_id": "NM1VX1", "cabin": "economy", "payment_id": "x", "flights": [{"date": 5}]}),
    ("flights reservation missing", "update_reservation_flights", {"reservation_id": "NOPE00", "cabin": "economy", "payment_id": "x", "flights": []}),
    ("passengers", "update_reservation_passengers", {"reservation_id": "NM1VX1", "passengers": [{"first_name": "Yara", "last_name": "Silva", "dob": "1972-06-16"}]}),
    ("passengers count", "update_reservation_passengers", {"reservation_id": "NM1VX1", "passengers": []}),
    ("passengers invalid", "update_reservation_passengers", {"reservation_id": "NM1VX1", "passengers": [{"first_name": "Yara", "last_name": None}]}),
    ("passengers not iterable", "update_reservation_passengers", {"reservation_id": "NM1VX1", "passengers": None}),
    ("bags", "update_reservation_baggages", {"reservation_id": "NM1VX1", "total_baggages": 3, "nonfree_baggages": 2, "payment_id": "gift_card_5094406"}),
    ("bags free", "update_reservation_baggages", {"reservation_id": "NM1VX1", "total_baggages": 1, "nonfree_baggages": 0, "payment_id": "certificate_3887113"}),
    ("bags string", "update_reservation_baggages", {"reservation_id": "NM1VX1", "total_baggages": 3, "nonfree_baggages": "2", "payment_id": "gift_card_5094406"}),
    ("bags payment unhashable", "update_reservation_baggages", {"reservation_id": "NM1VX1", "total_baggages": 3, "nonfree_baggages": 2, "payment_id": ["gift_card_5094406"]}),
]

# Sequences on one database: each call's message, the hash after the last.
cert = {"user_id": "sophia_silva_7557", "amount": 100}
SEQUENCES = [
    ("four bookings", [("book_reservation", book(payment_methods=[{"payment_id": "credit_card_4196779", "amount": 100}]))] * 4),
    ("four certificates", [("send_certificate", cert)] * 4),
    ("a certificate spent and sent again", [
        ("send_certificate", cert), ("send_certificate", cert),
        ("book_reservation", book(payment_methods=[{"payment_id": "certificate_3221322", "amount": 100}])),
        ("send_certificate", cert), ("get_user_details", {"user_id": "sophia_silva_7557"})]),
    ("cancelled twice", [("cancel_reservation", {"reservation_id": "NM1VX1"})] * 2),
    ("seats taken, then searched", [("book_reservation", book(flights=ok_flight * 2, payment_methods=[{"payment_id": "gift_card_5094406", "amount": 200}])),
                                    ("search_direct_flight", {"origin": "SEA", "destination": "LAS", "date": "2024-05-17"})]),
]


def message(tools, tool, args):
    args = json.loads(json.dumps(args, sort_keys=True))
    return re.sub(r"errors\.pydantic\.dev/[0-9.]+/", "errors.pydantic.dev/2.12/", to_message(tools, tool, args)), args


out = []
for name, tool, args in CASES:
    tools = AirlineTools(FlightDB.model_validate_json(text))
    want, args = message(tools, tool, args)
    out.append({"name": name, "tool": tool, "args": args, "want": want, "hash": tools.get_db_hash()})
for name, calls in SEQUENCES:
    tools = AirlineTools(FlightDB.model_validate_json(text))
    steps = []
    for tool, args in calls:
        want, args = message(tools, tool, args)
        steps.append({"tool": tool, "args": args, "want": want})
    out.append({"name": name, "steps": steps, "hash": tools.get_db_hash()})
json.dump(out, open("domains/tau2/airline/testdata/tool-cases.json", "w"), indent=1)
print(len(out), "cases")
