package telecom

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// probeTask is the task whose set-up the probes start from.
const probeTask = "[mobile_data_issue]airplane_mode_on|data_mode_off[PERSONA:None]"

// probe is one call of the probe sequences: who calls, the tool, its
// arguments (a JSON object).
type probe struct {
	Requestor string          `json:"requestor"`
	Name      string          `json:"name"`
	Args      json.RawMessage `json:"arguments"`
}

// probeSeq is a sequence of calls made one after the other on a task's
// initialized state, in a mode, with what tau2's own Python answered
// (testdata/probes.json, written by scripts/tau2_telecom_differential.py).
type probeSeq struct {
	Task    string   `json:"task"`
	Solo    bool     `json:"solo"`
	Calls   []probe  `json:"calls"`
	Outputs []string `json:"outputs"`
	Agent   string   `json:"agent_hash"`
	User    string   `json:"user_hash"`
}

func p(requestor, name, args string) probe {
	if args == "" {
		args = "{}"
	}
	return probe{requestor, name, json.RawMessage(args)}
}

// probes reach the tools' branches the shipped runs do not: errors,
// refusals, the other side's tools, solo mode.
var probes = []probeSeq{{Task: probeTask, Calls: []probe{
	p("assistant", "get_customer_by_phone", `{"phone_number": "555-123-2001"}`),
	p("assistant", "get_customer_by_phone", `{"phone_number": "555-123-1002"}`),
	p("assistant", "get_customer_by_phone", `{"phone_number": "000"}`),
	p("assistant", "get_customer_by_id", `{"customer_id": "C1004"}`),
	p("assistant", "get_customer_by_id", `{"customer_id": "C9"}`),
	p("assistant", "get_customer_by_id", `{}`),
	p("assistant", "get_customer_by_id", `{"customer_id": "C1001", "x": 1}`),
	p("assistant", "get_customer_by_name", `{"full_name": "john SMITH", "dob": "1985-06-15"}`),
	p("assistant", "get_customer_by_name", `{"full_name": "Nobody", "dob": "1985-06-15"}`),
	p("assistant", "get_details_by_id", `{"id": "D1002"}`),
	p("assistant", "get_details_by_id", `{"id": "B1001"}`),
	p("assistant", "get_details_by_id", `{"id": "P1003"}`),
	p("assistant", "get_details_by_id", `{"id": "X1"}`),
	p("assistant", "get_details_by_id", `{"id": "L9"}`),
	p("assistant", "get_bills_for_customer", `{"customer_id": "C1001", "limit": 2}`),
	p("assistant", "get_bills_for_customer", `{"customer_id": "C1001", "limit": -1}`),
	p("assistant", "get_bills_for_customer", `{"customer_id": "C1002"}`),
	p("assistant", "suspend_line", `{"customer_id": "C1001", "line_id": "L1001", "reason": "travel"}`),
	p("assistant", "suspend_line", `{"customer_id": "C1001", "line_id": "L1001", "reason": "travel"}`),
	p("assistant", "suspend_line", `{"customer_id": "C1001", "line_id": "L1004", "reason": "travel"}`),
	p("assistant", "resume_line", `{"customer_id": "C1001", "line_id": "L1001"}`),
	p("assistant", "resume_line", `{"customer_id": "C1001", "line_id": "L1001"}`),
	p("assistant", "get_data_usage", `{"customer_id": "C1002", "line_id": "L1004"}`),
	p("assistant", "enable_roaming", `{"customer_id": "C1001", "line_id": "L1001"}`),
	p("assistant", "enable_roaming", `{"customer_id": "C1001", "line_id": "L1001"}`),
	p("assistant", "disable_roaming", `{"customer_id": "C1001", "line_id": "L1001"}`),
	p("assistant", "disable_roaming", `{"customer_id": "C1001", "line_id": "L1001"}`),
	p("assistant", "refuel_data", `{"customer_id": "C1001", "line_id": "L1002", "gb_amount": 1.5}`),
	p("assistant", "refuel_data", `{"customer_id": "C1001", "line_id": "L1002", "gb_amount": 3}`),
	p("assistant", "refuel_data", `{"customer_id": "C1001", "line_id": "L1002", "gb_amount": 0}`),
	p("assistant", "get_data_usage", `{"customer_id": "C1001", "line_id": "L1002"}`),
	p("assistant", "get_details_by_id", `{"id": "B1003"}`),
	p("user", "check_payment_request", ``),
	p("assistant", "send_payment_request", `{"customer_id": "C1001", "bill_id": "B1009"}`),
	p("assistant", "send_payment_request", `{"customer_id": "C1001", "bill_id": "B1002"}`),
	p("assistant", "send_payment_request", `{"customer_id": "C1001", "bill_id": "B1002"}`),
	p("user", "check_payment_request", ``),
	p("user", "make_payment", ``),
	p("user", "make_payment", ``),
	p("assistant", "get_details_by_id", `{"id": "B1002"}`),
	p("assistant", "transfer_to_human_agents", `{"summary": "s"}`),
	p("assistant", "nope", ``),
	p("user", "get_customer_by_id", `{"customer_id": "C1001"}`),
	p("assistant", "toggle_data", ``),
	p("user", "check_status_bar", ``),
	p("user", "check_network_status", ``),
	p("user", "toggle_wifi", ``),
	p("user", "toggle_airplane_mode", ``),
	p("user", "toggle_wifi", ``),
	p("user", "check_wifi_status", ``),
	p("user", "check_network_status", ``),
	p("user", "toggle_wifi", ``),
	p("user", "set_network_mode_preference", `{"mode": "3g_only"}`),
	p("user", "set_network_mode_preference", `{"mode": "5g"}`),
	p("user", "check_network_mode_preference", ``),
	p("user", "run_speed_test", ``),
	p("user", "toggle_data", ``),
	p("user", "run_speed_test", ``),
	p("user", "connect_vpn", ``),
	p("user", "check_vpn_status", ``),
	p("user", "connect_vpn", ``),
	p("user", "toggle_data_saver_mode", ``),
	p("user", "run_speed_test", ``),
	p("user", "check_data_restriction_status", ``),
	p("user", "disconnect_vpn", ``),
	p("user", "disconnect_vpn", ``),
	p("user", "check_vpn_status", ``),
	p("user", "toggle_roaming", ``),
	p("user", "check_apn_settings", ``),
	p("user", "set_apn_settings", `{"apn_settings": {"apn_name": "internet", "mmsc_url": null}}`),
	p("user", "check_apn_settings", ``),
	p("user", "can_send_mms", ``),
	p("user", "reset_apn_settings", ``),
	p("user", "reboot_device", ``),
	p("user", "check_apn_settings", ``),
	p("user", "check_sim_status", ``),
	p("user", "reseat_sim_card", ``),
	p("user", "check_installed_apps", ``),
	p("user", "check_app_status", `{"app_name": "messaging"}`),
	p("user", "check_app_status", `{"app_name": "nope"}`),
	p("user", "check_app_permissions", `{"app_name": "browser"}`),
	p("user", "check_app_permissions", `{"app_name": "nope"}`),
	p("user", "grant_app_permission", `{"app_name": "messaging", "permission": "camera"}`),
	p("user", "grant_app_permission", `{"app_name": "nope", "permission": "sms"}`),
	p("user", "grant_app_permission", `{"app_name": "browser", "permission": "SMS"}`),
	p("user", "check_app_status", `{"app_name": "browser"}`),
	p("user", "toggle_wifi_calling", ``),
	p("user", "check_wifi_calling_status", ``),
	p("user", "can_send_mms", ``),
	p("user", "set_network_mode_preference", `{"mode": "4g_5g_preferred"}`),
	p("user", "run_speed_test", ``),
	p("user", "toggle_airplane_mode", `{"x": 1}`),
}}, {Task: probeTask, Solo: true, Calls: []probe{
	p("assistant", "check_status_bar", ``),
	p("assistant", "toggle_airplane_mode", ``),
	p("assistant", "toggle_data", ``),
	p("assistant", "run_speed_test", ``),
	p("user", "toggle_data", ``),
	p("assistant", "get_customer_by_phone", `{"phone_number": "555-123-2002"}`),
}}}

// runProbes makes each sequence's calls with Domain.CallBy, each by its
// requestor, applying each call's writes to the state the next reads.
func runProbes(t *testing.T) []probeSeq {
	t.Helper()
	db, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	var tt *tau2.Task
	for _, x := range shippedTasks(t) {
		if x.ID == probeTask {
			tt = x
		}
	}
	var out []probeSeq
	for _, seq := range probes {
		d := NewDomain(db, seq.Solo)
		task, err := Derive(d, tt)
		if err != nil {
			t.Fatal(err)
		}
		state := task.start.view().(entityView)
		res := seq
		res.Outputs = nil
		for _, c := range seq.Calls {
			args, err := model.FromJSON(c.Args)
			if err != nil {
				t.Fatal(err)
			}
			writes, output, _ := d.CallBy(state, c.Requestor, c.Name, args)
			if err := state.apply(writes); err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			res.Outputs = append(res.Outputs, output)
		}
		h, err := d.StateHashes(state)
		if err != nil {
			t.Fatal(err)
		}
		res.Agent, res.User = h.Agent, h.User
		out = append(out, res)
	}
	return out
}

// TestProbes holds every probe's result string and the end hashes to
// what tau2's own Python answered (testdata/probes.json).
func TestProbes(t *testing.T) {
	var want []probeSeq
	b, err := os.ReadFile("testdata/probes.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	got := runProbes(t)
	if len(want) != len(got) {
		t.Fatalf("%d probe sequences, testdata has %d: regenerate it with scripts/tau2-telecom-differential.sh", len(got), len(want))
	}
	for s := range got {
		g, w := got[s], want[s]
		if len(g.Outputs) != len(w.Outputs) {
			t.Fatalf("sequence %d: %d outputs, testdata has %d", s, len(g.Outputs), len(w.Outputs))
		}
		for i := range g.Outputs {
			if g.Outputs[i] != w.Outputs[i] {
				t.Errorf("sequence %d call %d %s(%s):\n got %q\nwant %q", s, i+1, g.Calls[i].Name, g.Calls[i].Args, g.Outputs[i], w.Outputs[i])
			}
		}
		if g.Agent != w.Agent || g.User != w.User {
			t.Errorf("sequence %d: end hashes %s / %s, tau2's %s / %s", s, g.Agent, g.User, w.Agent, w.User)
		}
	}
}
