package telecom

import (
	"fmt"
	"strings"
	"sync"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// Env assertions as goal predicates: every assertion function tau2's
// telecom tasks use is a finite condition on the typed entities, so
// each becomes an expression of the DSL (field comparisons, contains,
// alive/absent, all/any/not). Two are exact only up to tau2's own
// arithmetic, said where they are built. Task.Assert computes the
// assertions themselves; the tests hold the two to each other on every
// end state of the shipped runs.

func cmp(typ, id, field string, c model.Cmp, v model.Value) model.Expr {
	return model.Expr{Kind: model.ExprField, Type: typ, ID: id, Field: field, Cmp: c, Value: v}
}

func eq(typ, id, field string, v model.Value) model.Expr { return cmp(typ, id, field, model.CmpEq, v) }

func phoneIs(field string, v model.Value) model.Expr { return eq(TypePhone, PhoneID, field, v) }

func allOf(xs ...model.Expr) model.Expr { return model.Expr{Kind: model.ExprAll, Args: xs} }
func anyOf(xs ...model.Expr) model.Expr { return model.Expr{Kind: model.ExprAny, Args: xs} }
func not(x model.Expr) model.Expr       { return model.Expr{Kind: model.ExprNot, Args: []model.Expr{x}} }

// dataWorking is _get_mobile_data_working.
func dataWorking() model.Expr {
	return allOf(
		phoneIs("airplane_mode", model.Bool(false)),
		cmp(TypePhone, PhoneID, "network_signal_strength", model.CmpNe, model.Str("none")),
		cmp(TypePhone, PhoneID, "network_connection_status", model.CmpNe, model.Str("no_service")),
		anyOf(eq(TypeSurroundings, SurroundingsID, "is_abroad", model.Bool(false)),
			allOf(phoneIs("roaming_enabled", model.Bool(true)), eq(TypeSurroundings, SurroundingsID, "roaming_allowed", model.Bool(true)))),
		phoneIs("data_enabled", model.Bool(true)),
		eq(TypeSurroundings, SurroundingsID, "mobile_data_usage_exceeded", model.Bool(false)),
	)
}

// speedKey names a speed test's condition: the least speed and the
// description it asks for (any), or "not excellent".
type speedKey struct {
	min          float64
	anyDesc      bool
	desc         string
	notExcellent bool
}

// speedExprs are speedIs of each condition the tasks ask, made once: a
// task's goal shares the expression, which no one writes.
var speedExprs sync.Map // speedKey → model.Expr

// speedExpr is speedIs(ok), ok being the condition key names.
func speedExpr(key speedKey, ok func(speed float64, desc string, connected bool) bool) model.Expr {
	if x, found := speedExprs.Load(key); found {
		return x.(model.Expr)
	}
	x, _ := speedExprs.LoadOrStore(key, speedIs(ok))
	return x.(model.Expr)
}

// speedIs is "the speed test passes": a world whose speed and
// description satisfy ok. The speed is a function of the technology,
// the signal, a poor VPN and data saver, so the expression lists the
// combinations that pass.
func speedIs(ok func(speed float64, desc string, connected bool) bool) model.Expr {
	var combos []model.Expr
	for _, tech := range []string{"none", "2G", "3G", "4G", "5G"} {
		for _, sig := range []string{"poor", "fair", "good", "excellent"} {
			for _, poorVPN := range []bool{false, true} {
				for _, saver := range []bool{false, true} {
					w := &world{phone: Phone{Technology: tech, SignalStrength: sig, DataSaver: saver, DataEnabled: true, ConnectionStatus: "connected"},
						sur: Surroundings{LineActive: true}}
					vpn := not(allOf(phoneIs("vpn_connected", model.Bool(true)), eq(TypeVPN, VPNID, "server_performance", model.Str("poor"))))
					if poorVPN {
						w.phone.VPNConnected, w.vpn = true, &VPN{Performance: "poor"}
						vpn = allOf(phoneIs("vpn_connected", model.Bool(true)), eq(TypeVPN, VPNID, "server_performance", model.Str("poor")))
					}
					if s, d, _ := w.speedTest(); ok(s, d, true) {
						combos = append(combos, allOf(phoneIs("network_technology_connected", model.Str(tech)),
							phoneIs("network_signal_strength", model.Str(sig)), vpn, phoneIs("data_saver_mode", model.Bool(saver))))
					}
				}
			}
		}
	}
	out := allOf(dataWorking(), anyOf(combos...))
	if ok(0, "No Connection", false) {
		out = anyOf(out, not(dataWorking()))
	}
	return out
}

// canSendMMS is _can_send_mms.
func canSendMMS() model.Expr {
	return allOf(dataWorking(),
		cmp(TypePhone, PhoneID, "network_technology_connected", model.CmpNe, model.Str("2G")),
		not(allOf(phoneIs("wifi_calling_enabled", model.Bool(true)), phoneIs("wifi_calling_mms_over_wifi", model.Bool(true)))),
		cmp(TypeAPN, APNID, "mmsc_url", model.CmpNe, model.Null),
		eq(TypeApp, "messaging", "storage", model.Bool(true)),
		eq(TypeApp, "messaging", "sms", model.Bool(true)))
}

func ownsLine(customer, line string) model.Expr {
	return cmp(TypeCustomer, customer, "line_ids", model.CmpContains, model.Str(line))
}

// Predicate is the assertion as goal predicate i of its task; false when
// the DSL cannot say it.
func (a Assertion) Predicate(i int) (model.Predicate, bool) {
	s := func(k string) string { return a.Args.Str(k) }
	b := func(k string) bool { x, _ := a.Args.Get(k); return x == true }
	want := b("expected_status")
	// holds is the function's result being true; a boolean expected
	// status turns it into "the status is as expected".
	var holds model.Expr
	expectBool := func(x model.Expr) model.Expr {
		if want {
			return x
		}
		return not(x)
	}
	switch a.FuncName {
	case "assert_mobile_data_status":
		holds = expectBool(dataWorking())
	case "assert_can_send_mms":
		holds = expectBool(canSendMMS())
	case "assert_airplane_mode_status":
		holds = phoneIs("airplane_mode", model.Bool(want))
	case "assert_mobile_roaming_status":
		holds = phoneIs("roaming_enabled", model.Bool(want))
	case "assert_mobile_data_saver_mode_status":
		holds = phoneIs("data_saver_mode", model.Bool(want))
	case "assert_mobile_data_usage_exceeded":
		holds = eq(TypeSurroundings, SurroundingsID, "mobile_data_usage_exceeded", model.Bool(want))
	case "assert_service_status":
		holds = phoneIs("network_connection_status", model.Str(s("expected_status")))
	case "assert_internet_speed":
		x, _ := a.Args.Get("expected_speed")
		min := numOf(x)
		d, hasDesc := a.Args.Get("expected_desc")
		desc, _ := d.(string)
		anyDesc := !hasDesc || d == nil
		holds = speedExpr(speedKey{min: min, anyDesc: anyDesc, desc: desc}, func(speed float64, got string, _ bool) bool {
			return speed >= min && (anyDesc || strings.EqualFold(got, desc))
		})
	case "assert_internet_not_excellent":
		holds = not(speedExpr(speedKey{notExcellent: true}, func(_ float64, got string, _ bool) bool { return strings.EqualFold(got, "excellent") }))
	case "assert_line_status":
		holds = allOf(ownsLine(s("customer_id"), s("line_id")), eq(TypeLine, s("line_id"), "status", model.Str(s("expected_status"))))
	case "assert_data_refueling_amount":
		// tau2 allows 1e-6 of slack; the predicate asks for the amount
		// itself, which every refuel the tasks expect reaches exactly
		x, _ := a.Args.Get("expected_amount")
		amount := model.MustJSON(tau2.Dumps(numOf(x), false))
		holds = allOf(ownsLine(s("customer_id"), s("line_id")), eq(TypeLine, s("line_id"), "data_refueling_gb", amount))
	case "assert_no_overdue_bill":
		id := s("overdue_bill_id")
		holds = anyOf(model.Expr{Kind: model.ExprAbsent, Type: TypeBill, ID: id}, eq(TypeBill, id, "status", model.Str("Paid")))
	case "assert_overdue_bill_exists":
		id := s("overdue_bill_id")
		holds = allOf(cmp(TypeCustomer, s("customer_id"), "bill_ids", model.CmpContains, model.Str(id)), eq(TypeBill, id, "status", model.Str("Overdue")))
	default:
		return model.Predicate{}, false
	}
	if !a.AssertValue {
		holds = not(holds)
	}
	return model.Predicate{ID: fmt.Sprintf("env-%d-%s", i, strings.TrimPrefix(a.FuncName, "assert_")), Text: a.String(), Expr: holds}, true
}

// String is the assertion as tau2 would call it: "assert_x(k=v) is True".
func (a Assertion) String() string {
	var args []string
	for _, m := range a.Args {
		v := tau2.Dumps(m.Value, false)
		switch m.Value {
		case true:
			v = "True"
		case false:
			v = "False"
		}
		args = append(args, m.Key+"="+v)
	}
	return fmt.Sprintf("%s(%s) is %s", a.FuncName, strings.Join(args, ", "), pyBool(a.AssertValue))
}
