package telecom

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/parthack/parthack/domains/tau2"
)

// Sides: whose toolkit a function belongs to, in tau2's words (a tool
// call's requestor, an env function's env_type).
const (
	Assistant = "assistant"
	User      = "user"
)

// kind of a parameter, as the Python annotation declares it.
type ptype int

const (
	pStr ptype = iota
	pNum       // float (an int is accepted, as Python does)
	pInt       // int
	pBool
	pObj // a dict
)

type param struct {
	name     string
	typ      ptype
	optional bool
}

// fn is one function of a side's toolkit: a tool (the agent's or the
// user's) or a function tasks call to set up or assert.
type fn struct {
	side   string
	tool   bool // decorated @is_tool: callable by its side's requestor
	write  bool // a WRITE tool: tau2 replays it when it re-scores a run
	params []param
	run    func(c *call) (string, failure)
	env    func(c *call) (any, failure) // a function that is not a tool
}

func ps(names ...string) []param {
	out := make([]param, len(names))
	for i, n := range names {
		out[i] = param{name: n}
	}
	return out
}

func tool(side string, write bool, run func(*call) (string, failure), params ...param) *fn {
	return &fn{side: side, tool: true, write: write, params: params, run: run}
}

func envFn(side string, run func(*call) (any, failure), params ...param) *fn {
	return &fn{side: side, params: params, env: run}
}

var funcs = map[string]*fn{
	// the agent's 13 tools
	"get_customer_by_phone":  tool(Assistant, false, (*call).getCustomerByPhone, ps("phone_number")...),
	"get_customer_by_id":     tool(Assistant, false, (*call).getCustomerByID, ps("customer_id")...),
	"get_customer_by_name":   tool(Assistant, false, (*call).getCustomerByName, ps("full_name", "dob")...),
	"get_details_by_id":      tool(Assistant, false, (*call).getDetailsByID, ps("id")...),
	"suspend_line":           tool(Assistant, true, (*call).suspendLine, ps("customer_id", "line_id", "reason")...),
	"resume_line":            tool(Assistant, true, (*call).resumeLine, ps("customer_id", "line_id")...),
	"get_bills_for_customer": tool(Assistant, false, (*call).getBills, param{name: "customer_id"}, param{name: "limit", typ: pInt, optional: true}),
	"send_payment_request":   tool(Assistant, true, (*call).sendPaymentRequest, ps("customer_id", "bill_id")...),
	"get_data_usage":         tool(Assistant, false, (*call).getDataUsage, ps("customer_id", "line_id")...),
	"enable_roaming":         tool(Assistant, true, func(c *call) (string, failure) { return c.setRoaming(true) }, ps("customer_id", "line_id")...),
	"disable_roaming":        tool(Assistant, true, func(c *call) (string, failure) { return c.setRoaming(false) }, ps("customer_id", "line_id")...),
	tau2.TransferTool:        tool(Assistant, false, func(*call) (string, failure) { return "Transfer successful", "" }, ps("summary")...),
	"refuel_data":            tool(Assistant, true, (*call).refuelData, param{name: "customer_id"}, param{name: "line_id"}, param{name: "gb_amount", typ: pNum}),
	"set_data_usage":         envFn(Assistant, (*call).setDataUsage, param{name: "customer_id"}, param{name: "line_id"}, param{name: "data_used_gb", typ: pNum}),
	"suspend_line_for_overdue_bill": envFn(Assistant, (*call).suspendForOverdueBill, param{name: "customer_id"}, param{name: "line_id"},
		param{name: "new_bill_id"}, param{name: "contract_ended", typ: pBool}),
	"assert_data_refueling_amount": envFn(Assistant, (*call).assertRefueling, param{name: "customer_id"}, param{name: "line_id"}, param{name: "expected_amount", typ: pNum}),
	"assert_line_status":           envFn(Assistant, (*call).assertLineStatus, ps("customer_id", "line_id", "expected_status")...),
	"assert_overdue_bill_exists":   envFn(Assistant, (*call).assertOverdueBillExists, ps("customer_id", "overdue_bill_id")...),
	"assert_no_overdue_bill":       envFn(Assistant, (*call).assertNoOverdueBill, ps("overdue_bill_id")...),

	// the user's 30 tools
	"check_status_bar":              tool(User, false, (*call).checkStatusBar),
	"check_network_status":          tool(User, false, (*call).checkNetworkStatus),
	"check_network_mode_preference": tool(User, false, (*call).checkModePreference),
	"set_network_mode_preference":   tool(User, true, (*call).setModePreference, ps("mode")...),
	"run_speed_test":                tool(User, false, (*call).runSpeedTest),
	"toggle_airplane_mode":          tool(User, true, (*call).toggleAirplaneMode),
	"check_sim_status":              tool(User, false, (*call).checkSIMStatus),
	"reseat_sim_card":               tool(User, true, (*call).reseatSIM),
	"toggle_data":                   tool(User, true, (*call).toggleDataTool),
	"toggle_roaming":                tool(User, true, (*call).toggleRoamingTool),
	"check_data_restriction_status": tool(User, false, (*call).checkDataRestriction),
	"toggle_data_saver_mode":        tool(User, true, (*call).toggleSaverTool),
	"check_apn_settings":            tool(User, false, (*call).checkAPN),
	"set_apn_settings":              tool(User, true, (*call).setAPN, param{name: "apn_settings", typ: pObj}),
	"reset_apn_settings":            tool(User, true, (*call).resetAPN),
	"check_wifi_status":             tool(User, false, (*call).checkWifi),
	"toggle_wifi":                   tool(User, true, (*call).toggleWifi),
	"check_wifi_calling_status":     tool(User, false, (*call).checkWifiCalling),
	"toggle_wifi_calling":           tool(User, true, (*call).toggleWifiCalling),
	"check_vpn_status":              tool(User, false, (*call).checkVPN),
	"connect_vpn":                   tool(User, true, (*call).connectVPNTool),
	"disconnect_vpn":                tool(User, true, (*call).disconnectVPNTool),
	"check_installed_apps":          tool(User, false, (*call).checkInstalledApps),
	"check_app_status":              tool(User, false, (*call).checkAppStatus, ps("app_name")...),
	"check_app_permissions":         tool(User, false, (*call).checkAppPermissions, ps("app_name")...),
	"grant_app_permission":          tool(User, true, (*call).grantPermission, ps("app_name", "permission")...),
	"can_send_mms":                  tool(User, false, (*call).canSendMMSTool),
	"reboot_device":                 tool(User, true, (*call).reboot),
	"check_payment_request":         tool(User, false, (*call).checkPaymentRequest),
	"make_payment":                  tool(User, true, (*call).makePayment),
	"set_user_info":                 envFn(User, (*call).setUserInfo, ps("name", "phone_number")...),
	"set_user_location":             envFn(User, (*call).setUserLocation, param{name: "abroad", typ: pBool}),
	"turn_airplane_mode_on": envFn(User, func(c *call) (any, failure) {
		return turn(c.w.toggleAirplane, true, "Airplane Mode is now ON.")
	}),
	"turn_airplane_mode_off": envFn(User, func(c *call) (any, failure) {
		return turn(c.w.toggleAirplane, false, "Airplane Mode is now OFF.")
	}),
	"unseat_sim_card": envFn(User, (*call).unseatSIM),
	"lock_sim_card":   envFn(User, (*call).lockSIM, ps("mode")...),
	"turn_data_on": envFn(User, func(c *call) (any, failure) {
		c.w.phone.DataEnabled = true // no network search, as tau2
		return "Data connection restored.", ""
	}),
	"turn_data_off":           envFn(User, func(c *call) (any, failure) { return turn(c.w.toggleData, false, "Data connection broken.") }),
	"turn_roaming_on":         envFn(User, func(c *call) (any, failure) { return turn(c.w.toggleRoaming, true, "Data Roaming is now ON.") }),
	"turn_roaming_off":        envFn(User, func(c *call) (any, failure) { return turn(c.w.toggleRoaming, false, "Data Roaming is now OFF.") }),
	"turn_data_saver_mode_on": envFn(User, func(c *call) (any, failure) { return turn(c.w.toggleSaver, true, "Data Saver Mode is now ON.") }),
	"turn_data_saver_mode_off": envFn(User, func(c *call) (any, failure) {
		return turn(c.w.toggleSaver, false, "Data Saver Mode is now OFF.")
	}),
	"break_apn_settings":      envFn(User, (*call).breakAPN),
	"break_apn_mms_setting":   envFn(User, (*call).breakAPNMMS),
	"set_wifi_calling":        envFn(User, (*call).setWifiCalling, param{name: "enabled", typ: pBool}, param{name: "mms_over_wifi", typ: pBool, optional: true}),
	"break_vpn":               envFn(User, (*call).breakVPN),
	"remove_app_permission":   envFn(User, (*call).removePermission, ps("app_name", "permission")...),
	"simulate_network_search": envFn(User, (*call).search),
	"assert_airplane_mode_status": envFn(User, func(c *call) (any, failure) { return c.w.phone.AirplaneMode == c.expectedBool(), "" },
		param{name: "expected_status", typ: pBool}),
	"assert_service_status": envFn(User, (*call).assertServiceStatus, ps("expected_status")...),
	"assert_mobile_data_status": envFn(User, func(c *call) (any, failure) { return c.w.mobileDataWorking() == c.expectedBool(), "" },
		param{name: "expected_status", typ: pBool}),
	"assert_mobile_roaming_status": envFn(User, func(c *call) (any, failure) { return c.w.phone.RoamingEnabled == c.expectedBool(), "" },
		param{name: "expected_status", typ: pBool}),
	"assert_mobile_data_saver_mode_status": envFn(User, func(c *call) (any, failure) { return c.w.phone.DataSaver == c.expectedBool(), "" },
		param{name: "expected_status", typ: pBool}),
	"assert_internet_speed": envFn(User, (*call).assertInternetSpeed, param{name: "expected_speed", typ: pNum},
		param{name: "expected_desc", optional: true}),
	"assert_internet_not_excellent": envFn(User, func(c *call) (any, failure) {
		_, desc, _ := c.w.speedTest()
		return !strings.EqualFold(desc, "excellent"), ""
	}),
	"assert_can_send_mms": envFn(User, func(c *call) (any, failure) { return c.w.canSendMMS() == c.expectedBool(), "" },
		param{name: "expected_status", typ: pBool}),
	"assert_mobile_data_usage_exceeded": envFn(User, func(c *call) (any, failure) { return c.w.sur.DataExceeded == c.expectedBool(), "" },
		param{name: "expected_status", typ: pBool}),
}

// ToolNames lists a side's tools (Assistant or User), sorted.
func ToolNames(side string) []string {
	var out []string
	for n, f := range funcs {
		if f.tool && f.side == side {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// call is one function call in progress on a world.
type call struct {
	w    *world
	args tau2.Obj
}

func (c *call) str(name string) string { return c.args.Str(name) }

// className is the Python class of a side's toolkit, as its TypeErrors
// name it.
func className(side string) string {
	if side == User {
		return "TelecomUserTools"
	}
	return "TelecomTools"
}

// checkArgs holds arguments to a function's parameters: Python's words
// for a missing or unexpected keyword argument; a value of another type
// than the parameter's is refused (tau2 would pass it on, with results
// that depend on the value).
func checkArgs(name string, f *fn, args tau2.Obj) failure {
	cls := className(f.side)
	for _, m := range args {
		if !slices.ContainsFunc(f.params, func(p param) bool { return p.name == m.Key }) {
			return failure(fmt.Sprintf("%s.%s() got an unexpected keyword argument '%s'", cls, name, m.Key))
		}
	}
	var missing []string
	for _, p := range f.params {
		if _, ok := args.Get(p.name); !ok && !p.optional {
			missing = append(missing, "'"+p.name+"'")
		}
	}
	if len(missing) > 0 {
		s, list := "s", strings.Join(missing, ", ")
		if len(missing) == 1 {
			s = ""
		} else {
			list = strings.Join(missing[:len(missing)-1], ", ") + " and " + missing[len(missing)-1]
		}
		return failure(fmt.Sprintf("%s.%s() missing %d required positional argument%s: %s", cls, name, len(missing), s, list))
	}
	for _, p := range f.params {
		x, ok := args.Get(p.name)
		if !ok || x == nil && p.optional {
			continue
		}
		var good bool
		want := map[ptype]string{pStr: "a string", pNum: "a number", pInt: "an integer", pBool: "a boolean", pObj: "an object"}[p.typ]
		switch p.typ {
		case pStr:
			_, good = x.(string)
		case pNum:
			_, isInt := x.(int64)
			_, isFloat := x.(float64)
			good = isInt || isFloat
		case pInt:
			_, good = x.(int64)
		case pBool:
			_, good = x.(bool)
		case pObj:
			_, good = x.(tau2.Obj)
		}
		if !good {
			return failure(fmt.Sprintf("argument %s must be %s, got %s", p.name, want, tau2.Dumps(x, false)))
		}
	}
	return ""
}

// fromPyAPN validates a dict as an APNSettings, as pydantic would for
// the values a tool call can carry.
func fromPyAPN(rec tau2.Obj, apn *APN) error {
	for _, m := range rec {
		if m.Key == "id" || fieldIndex(reflect.TypeOf(*apn), m.Key) < 0 {
			return fmt.Errorf("1 validation error for APNSettings\n%s\n  Extra inputs are not permitted", m.Key)
		}
	}
	if err := fromPy(rec, reflect.ValueOf(apn).Elem()); err != nil {
		return fmt.Errorf("1 validation error for APNSettings: %v", err)
	}
	if apn.Name != "internet" && apn.Name != "broken" {
		return fmt.Errorf("1 validation error for APNSettings\napn_name\n  Input should be 'internet' or 'broken'")
	}
	return nil
}
