package telecom

import (
	"fmt"
	"strconv"
	"strings"
)

// The user's phone (TelecomUserTools): its ~30 tools, the functions that
// break it for a task, and its assertions, over the world's user side.

var modePreferences = []string{"4g_5g_preferred", "4g_only", "3g_only", "2g_only"}

func (w *world) simStatus() string {
	if w.phone.SIMMissing {
		return "missing"
	}
	return w.phone.SIMStatus
}

// networkSearch is simulate_network_search: the connection the phone
// finds for its SIM, preference and surroundings.
func (w *world) networkSearch() {
	p := &w.phone
	off := func() { p.ConnectionStatus, p.Technology, p.SignalStrength = "no_service", "none", "none" }
	signal := func(tech string) string {
		switch tech {
		case "2G":
			return w.sur.Signal.G2
		case "3G":
			return w.sur.Signal.G3
		case "4G":
			return w.sur.Signal.G4
		case "5G":
			return w.sur.Signal.G5
		}
		return "none"
	}
	if w.simStatus() == "active" {
		p.ConnectionStatus = "connected"
		tech := "4G"
		switch p.ModePreference {
		case "4g_5g_preferred":
			if signal("5G") != "none" {
				tech = "5G"
			}
		case "3g_only":
			tech = "3G"
		case "2g_only":
			tech = "2G"
		}
		p.Technology, p.SignalStrength = tech, signal(tech)
	} else {
		off()
	}
	if p.AirplaneMode || w.apn.Name == "broken" || !w.sur.LineActive {
		off()
	}
}

var signalIcons = map[string]string{"none": "📵 No Signal", "poor": "📶¹ Poor", "fair": "📶² Fair", "good": "📶³ Good", "excellent": "📶⁴ Excellent"}

// statusBar is _check_status_bar.
func (w *world) statusBar() string {
	p := &w.phone
	var parts []string
	if p.AirplaneMode {
		parts = append(parts, "✈️ Airplane Mode")
	} else {
		icon, ok := signalIcons[p.SignalStrength]
		if !ok {
			icon = signalIcons["none"]
		}
		parts = append(parts, icon)
		if p.Technology != "none" {
			parts = append(parts, p.Technology)
		}
		if p.DataEnabled && p.Technology != "none" {
			parts = append(parts, "📱 Data Enabled")
			if p.DataSaver {
				parts = append(parts, "🔽 Data Saver")
			}
		} else {
			parts = append(parts, "📵 Data Disabled")
		}
	}
	if p.WifiEnabled && p.WifiConnected {
		if p.WifiSSID != nil && *p.WifiSSID != "" {
			parts = append(parts, "📡 Connected to "+*p.WifiSSID)
		} else {
			parts = append(parts, "📡 Enabled")
		}
	}
	if p.VPNConnected {
		parts = append(parts, "🔒 VPN Connected")
	}
	parts = append(parts, fmt.Sprintf("🔋 %d%%", p.BatteryLevel))
	return strings.Join(parts, " | ")
}

func (w *world) withBar(s string) string { return s + "\nStatus Bar: " + w.statusBar() }

func onOff(b bool) string {
	if b {
		return "ON"
	}
	return "OFF"
}

func yesNo(b bool) string {
	if b {
		return "Yes"
	}
	return "No"
}

// mobileDataWorking is _get_mobile_data_working.
func (w *world) mobileDataWorking() bool {
	p := &w.phone
	switch {
	case p.AirplaneMode || p.SignalStrength == "none" || p.ConnectionStatus == "no_service":
		return false
	case w.sur.IsAbroad && (!p.RoamingEnabled || !w.sur.RoamingAllowed):
		return false
	}
	return p.DataEnabled && !w.sur.DataExceeded
}

// speedTest is _run_speed_test: Mbps (ok false: no connection) and its
// description.
func (w *world) speedTest() (speed float64, desc string, ok bool) {
	if !w.mobileDataWorking() {
		return 0, "No Connection", false
	}
	base := 1.0
	if w.phone.VPNConnected && w.vpn != nil && w.vpn.Performance == "poor" {
		base = 0.1
	}
	if w.phone.DataSaver {
		base *= 0.2
	}
	ranges := map[string][2]float64{"2G": {0.1, 0.4}, "3G": {1, 5}, "4G": {10, 100}, "5G": {50, 500}}
	factors := map[string]float64{"poor": 0.2, "fair": 0.5, "good": 0.8, "excellent": 1}
	r := ranges[w.phone.Technology]
	speed = (r[0] + r[1]) / 2.0 * factors[w.phone.SignalStrength] * base
	// round(x, 2): the exact binary value correctly rounded, as strconv does
	speed, _ = strconv.ParseFloat(strconv.FormatFloat(speed, 'f', 2, 64), 64)
	switch {
	case speed < 1:
		desc = "Very Poor"
	case speed < 5:
		desc = "Poor"
	case speed < 25:
		desc = "Fair"
	case speed < 100:
		desc = "Good"
	default:
		desc = "Excellent"
	}
	return speed, desc, true
}

// canSendMMS is _can_send_mms.
func (w *world) canSendMMS() bool {
	p := &w.phone
	if !w.mobileDataWorking() || p.Technology == "2G" || p.WifiCalling && p.WifiCallingMMS || w.apn.MMSCURL == nil {
		return false
	}
	a := w.app("messaging")
	return a != nil && a.Storage && a.SMS
}

func (w *world) app(name string) *App {
	for _, a := range w.apps {
		if a.AppName == name {
			return a
		}
	}
	return nil
}

func (w *world) toggleAirplane() bool {
	p := &w.phone
	was := p.AirplaneMode
	p.AirplaneMode = !was
	if was {
		p.ConnectionStatus = "searching"
	}
	if !was || p.WifiEnabled {
		p.WifiConnected, p.WifiSSID, p.WifiSignal = false, nil, "none"
	}
	if !was && p.VPNConnected {
		w.disconnectVPN()
	}
	w.networkSearch()
	return p.AirplaneMode
}

func (w *world) toggleData() bool {
	w.phone.DataEnabled = !w.phone.DataEnabled
	w.networkSearch()
	return w.phone.DataEnabled
}

func (w *world) toggleRoaming() bool {
	w.phone.RoamingEnabled = !w.phone.RoamingEnabled
	w.networkSearch()
	return w.phone.RoamingEnabled
}

func (w *world) toggleSaver() bool {
	w.phone.DataSaver = !w.phone.DataSaver
	return w.phone.DataSaver
}

func (w *world) connectVPN() bool {
	if w.phone.VPNConnected {
		return false
	}
	w.phone.VPNConnected = true
	w.vpn = &VPN{ID: VPNID, Server: str("192.168.1.1"), Protocol: str("OpenVPN"), Performance: "excellent"}
	return true
}

func (w *world) disconnectVPN() bool {
	if !w.phone.VPNConnected {
		return false
	}
	w.phone.VPNConnected, w.vpn = false, nil
	return true
}

// The phone's tools.

func (c *call) checkStatusBar() (string, failure) { return "Status Bar: " + c.w.statusBar(), "" }

func (c *call) checkNetworkStatus() (string, failure) {
	p := &c.w.phone
	lines := []string{
		"Airplane Mode: " + onOff(p.AirplaneMode),
		"SIM Card Status: " + c.w.simStatus(),
		"Cellular Connection: " + p.ConnectionStatus,
		"Cellular Signal: " + p.SignalStrength,
		"Cellular Network Type: " + p.Technology,
		"Mobile Data Enabled: " + yesNo(p.DataEnabled),
		"Data Roaming Enabled: " + yesNo(p.RoamingEnabled),
		"Wi-Fi Radio: " + onOff(p.WifiEnabled),
		"Wi-Fi Connected: " + yesNo(p.WifiConnected),
	}
	if p.WifiConnected {
		lines = append(lines, "Connected Wi-Fi Network: "+pyOptional(p.WifiSSID))
	}
	return strings.Join(lines, "\n"), ""
}

func pyOptional(s *string) string {
	if s == nil {
		return "None"
	}
	return *s
}

func (c *call) checkModePreference() (string, failure) {
	return "Network Mode Preference: " + c.w.phone.ModePreference, ""
}

func (c *call) setModePreference() (string, failure) {
	mode := c.str("mode")
	valid := false
	for _, m := range modePreferences {
		valid = valid || m == mode
	}
	if !valid {
		return c.w.withBar(fmt.Sprintf("Failed to set network mode: '%s' is not a valid option. Please use one of: %s", mode, strings.Join(modePreferences, ", "))), ""
	}
	c.w.phone.ModePreference = mode
	c.w.networkSearch()
	return c.w.withBar("Preferred Network Mode set to: " + mode), ""
}

func (c *call) runSpeedTest() (string, failure) {
	speed, desc, ok := c.w.speedTest()
	if !ok {
		return fmt.Sprintf("Speed test failed: %s.", desc), ""
	}
	advice := map[string]string{
		"Very Poor": "Connection is very slow. Basic web browsing might be difficult.",
		"Poor":      "Connection is slow. Web browsing may be sluggish, streaming difficult.",
		"Fair":      "Connection is okay for web browsing and some standard definition streaming.",
		"Good":      "Connection is good for most activities, including HD streaming.",
		"Excellent": "Connection is very fast.",
	}[desc]
	return fmt.Sprintf("Speed Test Result: %.2f Mbps (%s). %s", speed, desc, advice), ""
}

func (c *call) toggleAirplaneMode() (string, failure) {
	return c.w.withBar(fmt.Sprintf("Airplane Mode is now %s.", onOff(c.w.toggleAirplane()))), ""
}

func (c *call) checkSIMStatus() (string, failure) {
	return map[string]string{
		"active":     "Your SIM card is active and working.",
		"missing":    "No SIM card detected in the phone.",
		"locked_pin": "The SIM card is locked with a PIN code.",
		"locked_puk": "The SIM card is locked with a PUK code.",
	}[c.w.simStatus()], ""
}

func (c *call) reseatSIM() (string, failure) {
	c.w.phone.SIMMissing = false
	c.w.networkSearch()
	return c.w.withBar("SIM card re-seated successfully."), ""
}

func (c *call) toggleDataTool() (string, failure) {
	return c.w.withBar(fmt.Sprintf("Mobile Data is now %s.", onOff(c.w.toggleData()))), ""
}

func (c *call) toggleRoamingTool() (string, failure) {
	return c.w.withBar(fmt.Sprintf("Data Roaming is now %s.", onOff(c.w.toggleRoaming()))), ""
}

func (c *call) checkDataRestriction() (string, failure) {
	if c.w.phone.DataSaver {
		return "Data Saver mode is ON (limits data usage).", ""
	}
	return "Data Saver mode is OFF.", ""
}

func (c *call) toggleSaverTool() (string, failure) {
	return c.w.withBar(fmt.Sprintf("Data Saver Mode is now %s.", onOff(c.w.toggleSaver()))), ""
}

func (c *call) checkAPN() (string, failure) {
	url := "Not Set"
	if u := c.w.apn.MMSCURL; u != nil && *u != "" {
		url = *u
	}
	return fmt.Sprintf("Current APN Name: %s\nMMSC URL (for picture messages): %s\n(These are technical settings, usually best left unchanged.)", c.w.apn.Name, url), ""
}

// setAPN is set_apn_settings: the arguments are validated as an
// APNSettings, whose other fields take their defaults.
func (c *call) setAPN() (string, failure) {
	x, _ := c.args.Get("apn_settings")
	rec := asObj(x)
	if rec == nil {
		return "", "apn_settings must be an object of APNSettings fields"
	}
	apn := defaultAPN()
	if err := fromPyAPN(rec, &apn); err != nil {
		return "", failure(err.Error())
	}
	c.w.apn = apn
	c.w.networkSearch()
	return c.w.withBar("APN settings set to: " + apn.Name), ""
}

func (c *call) resetAPN() (string, failure) {
	c.w.apn.ResetAtBoot = true
	c.w.networkSearch()
	return c.w.withBar("APN settings will reset at reboot."), ""
}

func (c *call) checkWifi() (string, failure) {
	p := &c.w.phone
	switch {
	case !p.WifiEnabled:
		return "Wi-Fi is turned OFF.", ""
	case p.WifiConnected:
		return fmt.Sprintf("Wi-Fi is ON and connected to '%s'. Signal strength: %s.", pyOptional(p.WifiSSID), p.WifiSignal), ""
	}
	return "Wi-Fi is ON but not connected to any network.", ""
}

func (c *call) toggleWifi() (string, failure) {
	p := &c.w.phone
	if p.AirplaneMode {
		return c.w.withBar("Cannot change Wi-Fi settings while Airplane Mode is ON."), ""
	}
	p.WifiEnabled = !p.WifiEnabled
	if !p.WifiEnabled {
		p.WifiConnected, p.WifiSSID, p.WifiSignal = false, nil, "none"
	}
	return c.w.withBar(fmt.Sprintf("Wi-Fi is now %s.", onOff(p.WifiEnabled))), ""
}

func (c *call) checkWifiCalling() (string, failure) {
	return fmt.Sprintf("Wi-Fi Calling is currently turned %s.", onOff(c.w.phone.WifiCalling)), ""
}

func (c *call) toggleWifiCalling() (string, failure) {
	c.w.phone.WifiCalling = !c.w.phone.WifiCalling
	return c.w.withBar(fmt.Sprintf("Wi-Fi Calling is now %s.", onOff(c.w.phone.WifiCalling))), ""
}

func (c *call) checkVPN() (string, failure) {
	p := &c.w.phone
	switch {
	case p.VPNConnected && c.w.vpn != nil:
		v := c.w.vpn
		return fmt.Sprintf("VPN is ON and connected. Details: {'server_address': %s, 'protocol': %s, 'server_performance': <PerformanceLevel.%s: '%s'>}",
			pyRepr(v.Server), pyRepr(v.Protocol), strings.ToUpper(v.Performance), v.Performance), ""
	case p.VPNConnected:
		return "VPN is ON and connected (no specific details available).", ""
	case p.VPNEnabledSetting:
		return "VPN is turned ON in settings, but currently not connected.", ""
	}
	return "VPN is turned OFF.", ""
}

// pyRepr is repr() of an optional str.
func pyRepr(s *string) string {
	if s == nil {
		return "None"
	}
	q := "'"
	if strings.Contains(*s, "'") && !strings.Contains(*s, `"`) {
		q = `"`
	}
	r := strings.ReplaceAll(*s, `\`, `\\`)
	if q == "'" {
		r = strings.ReplaceAll(r, "'", `\'`)
	}
	r = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(r)
	return q + r + q
}

func (c *call) connectVPNTool() (string, failure) {
	if !c.w.connectVPN() {
		return "VPN already connected.", ""
	}
	return c.w.withBar("VPN connected successfully."), ""
}

func (c *call) disconnectVPNTool() (string, failure) {
	if !c.w.disconnectVPN() {
		return c.w.withBar("No active VPN connection to disconnect."), ""
	}
	return c.w.withBar("VPN disconnected successfully."), ""
}

func (c *call) checkInstalledApps() (string, failure) {
	names := make([]string, len(c.w.apps))
	for i, a := range c.w.apps {
		names[i] = a.AppName
	}
	return "The following apps are installed on the phone: " + strings.Join(names, ", "), ""
}

func (a *App) granted() []string {
	var out []string
	for _, m := range a.permissions() {
		if m.Value == true {
			out = append(out, m.Key)
		}
	}
	return out
}

func (c *call) checkAppStatus() (string, failure) {
	name := c.str("app_name")
	a := c.w.app(name)
	if a == nil {
		return fmt.Sprintf("App '%s' not found on this phone.", name), ""
	}
	lines := []string{"Status for App: " + name}
	if g := a.granted(); len(g) == 0 {
		lines = append(lines, " - Permissions: None granted.")
	} else {
		lines = append(lines, " - Permissions Granted:")
		for _, p := range g {
			lines = append(lines, "   - "+p)
		}
	}
	return strings.Join(lines, "\n"), ""
}

func (c *call) checkAppPermissions() (string, failure) {
	name := c.str("app_name")
	a := c.w.app(name)
	switch {
	case a == nil:
		return fmt.Sprintf("App '%s' not found on this phone.", name), ""
	case len(a.granted()) == 0:
		return fmt.Sprintf("App '%s' currently has no permissions granted.", name), ""
	}
	return fmt.Sprintf("App '%s' has permission for: %s.", name, strings.Join(a.granted(), ", ")), ""
}

// setPermission sets one of an app's four permissions; its message is
// tau2's, for a permission it does not track too.
func (w *world) setPermission(appName, permission string, on bool, grant bool) (bool, string) {
	a := w.app(appName)
	permission = strings.ToLower(permission)
	if a == nil {
		if grant {
			return false, fmt.Sprintf("App '%s' not found. Cannot grant permission.", appName)
		}
		return false, fmt.Sprintf("App '%s' not found. Cannot remove permission.", appName)
	}
	field := map[string]*bool{"sms": &a.SMS, "storage": &a.Storage, "phone": &a.Phone, "network": &a.Network}[permission]
	if field == nil {
		if grant {
			return false, fmt.Sprintf("Permission '%s' not tracked for app '%s', available permissions: ['sms', 'storage', 'phone', 'network']", permission, appName)
		}
		return false, fmt.Sprintf("Permission '%s' not tracked for app '%s'.", permission, appName)
	}
	*field = on
	if grant {
		return true, fmt.Sprintf("Permission '%s' granted to app '%s'.", permission, appName)
	}
	return true, fmt.Sprintf("Permission '%s' removed from app '%s'.", permission, appName)
}

func (c *call) grantPermission() (string, failure) {
	ok, msg := c.w.setPermission(c.str("app_name"), c.str("permission"), true, true)
	head := "Error. "
	if ok {
		head = "Success. "
	}
	return c.w.withBar(head + msg), ""
}

func (c *call) canSendMMSTool() (string, failure) {
	if c.w.canSendMMS() {
		return "Your messaging app can send MMS messages.", ""
	}
	return "Your messaging app cannot send MMS messages.", ""
}

func (c *call) reboot() (string, failure) {
	var lines []string
	if c.w.apn.ResetAtBoot {
		lines = append(lines, "Resetting APN settings...")
		c.w.apn = defaultAPN()
	}
	lines = append(lines, "Restarting network services...")
	c.w.phone.ConnectionStatus = "searching"
	c.w.networkSearch()
	return c.w.withBar(strings.Join(lines, "\n")), ""
}

func (c *call) checkPaymentRequest() (string, failure) {
	p := c.w.pay
	if p == nil {
		return "No payment request has been made.", ""
	}
	return fmt.Sprintf("You have a payment request for bill %s of %s USD.", p.BillID, pyStr(p.AmountDue)), ""
}

func (c *call) makePayment() (string, failure) {
	p := c.w.pay
	if p == nil {
		return "You do not have a payment request.", ""
	}
	p.Paid = true
	return fmt.Sprintf("Payment of %s USD has been made for bill %s.", pyStr(p.AmountDue), p.BillID), ""
}

// The phone's functions that are not tools: the set-up of a task.

func (c *call) setUserInfo() (any, failure) {
	c.w.sur.Name, c.w.sur.PhoneNumber = str(c.str("name")), str(c.str("phone_number"))
	return nil, ""
}

func (c *call) setUserLocation() (any, failure) {
	x, _ := c.args.Get("abroad")
	c.w.sur.IsAbroad = x == true
	return nil, ""
}

// turn sets a switch through its toggle, as tau2 does: toggled once,
// and again if that left it the wrong way.
func turn(toggle func() bool, on bool, msg string) (any, failure) {
	if toggle() != on {
		toggle()
	}
	return msg, ""
}

func (c *call) unseatSIM() (any, failure) {
	c.w.phone.SIMMissing = true
	c.w.networkSearch()
	return "SIM card un-seated successfully.", ""
}

func (c *call) lockSIM() (any, failure) {
	mode := c.str("mode")
	switch mode {
	case "pin":
		c.w.phone.SIMStatus = "locked_pin"
	case "puk":
		c.w.phone.SIMStatus = "locked_puk"
	}
	c.w.networkSearch()
	return fmt.Sprintf("SIM card locked successfully in %s mode.", mode), ""
}

func (c *call) breakAPN() (any, failure) {
	c.w.apn.Name = "broken"
	c.w.networkSearch()
	return "APN settings broken. Please call reset_apn_settings() to fix.", ""
}

func (c *call) breakAPNMMS() (any, failure) {
	c.w.apn.MMSCURL = nil
	return "APN MMS setting broken. Please call reset_apn_settings() to fix.", ""
}

func (c *call) setWifiCalling() (any, failure) {
	x, _ := c.args.Get("enabled")
	on := x == true
	c.w.phone.WifiCalling = on
	msg := fmt.Sprintf("Wi-Fi Calling is now %s.", onOff(on))
	if m, ok := c.args.Get("mms_over_wifi"); ok && m != nil {
		c.w.phone.WifiCallingMMS = m == true
		msg += fmt.Sprintf("\nMMS over Wi-Fi is now %s.", onOff(m == true))
	}
	return msg, ""
}

// breakVPN connects the VPN and makes its server poor. (tau2 changes
// the toolkit's shared default VPN details in place, so every later
// connect_vpn in the same Python process connects to a poor server too;
// the port changes this phone's only.)
func (c *call) breakVPN() (any, failure) {
	c.w.connectVPN()
	if c.w.vpn == nil {
		return nil, "'NoneType' object has no attribute 'server_performance'"
	}
	c.w.vpn.Performance = "poor"
	return "VPN connection broken.", ""
}

func (c *call) removePermission() (any, failure) {
	ok, msg := c.w.setPermission(c.str("app_name"), c.str("permission"), false, false)
	return []any{ok, msg}, ""
}

func (c *call) search() (any, failure) { c.w.networkSearch(); return nil, "" }

// The phone's assertions.

func (c *call) expectedBool() bool { x, _ := c.args.Get("expected_status"); return x == true }

func (c *call) assertServiceStatus() (any, failure) {
	want := c.str("expected_status")
	switch want {
	case "connected", "searching", "no_service", "emergency_only":
	default:
		return nil, failure(fmt.Sprintf("'%s' is not a valid NetworkStatus", want))
	}
	return c.w.phone.ConnectionStatus == want, ""
}

func (c *call) assertInternetSpeed() (any, failure) {
	x, _ := c.args.Get("expected_speed")
	speed, desc, _ := c.w.speedTest()
	d, ok := c.args.Get("expected_desc")
	if !ok || d == nil {
		return speed >= numOf(x), ""
	}
	want, _ := d.(string)
	return speed >= numOf(x) && strings.EqualFold(desc, want), ""
}

// sync is the telecom environment's sync_tools, run after every call:
// the user's surroundings take the line's state from the agent's books,
// a paid request marks its bill paid, and a bill awaiting payment
// becomes the user's payment request.
func (w *world) sync() failure {
	if w.sur.PhoneNumber == nil {
		return ""
	}
	number := *w.sur.PhoneNumber
	l, f := w.lineByPhone(number)
	if f != "" {
		return f
	}
	w.sur.LineActive = l.Status == "Active"
	w.sur.RoamingAllowed = l.RoamingEnabled
	p, f := w.plan(l.PlanID)
	if f != "" {
		return f
	}
	w.sur.DataExceeded = l.DataUsed >= p.DataLimit+l.DataRefueling
	if w.pay != nil && w.pay.Paid {
		b, f := w.bill(w.pay.BillID)
		if f != "" {
			return f
		}
		b.Status = "Paid"
		w.pay = nil
	}
	if w.pay == nil {
		cu, f := w.customerByPhone(number)
		if f != "" {
			return f
		}
		bills, f := w.awaitingPayment(cu)
		if f != "" {
			return f
		}
		if len(bills) > 0 {
			w.pay = &PaymentRequest{ID: PaymentID, BillID: bills[0].BillID, AmountDue: bills[0].TotalDue}
		}
	}
	return ""
}
