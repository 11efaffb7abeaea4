package telecom

// The records of both databases, each a Go struct whose fields are the
// pydantic model's, in its declaration order (a tool result dumps a model
// in that order). A `py` tag names the key; an `enum` tag lists an enum's
// values, which become the entity field's enum members; `id` marks the
// key an entity is addressed by. Dates are kept as the text Python's
// str() gives them ("2025-02-25", "2025-01-15 10:30:00"), which is what
// both a tool result (json.dumps(default=str)) and the DB hash show.

// Agent side: tau2's TelecomDB.

// Plan is a service plan.
type Plan struct {
	PlanID     string  `py:"plan_id" id:"1"`
	Name       string  `py:"name"`
	DataLimit  float64 `py:"data_limit_gb"`
	Price      float64 `py:"price_per_month"`
	RefuelRate float64 `py:"data_refueling_price_per_gb"`
}

// Device is a device on the agent's books (not the user's phone).
type Device struct {
	DeviceID         string  `py:"device_id" id:"1"`
	DeviceType       string  `py:"device_type" enum:"phone,router,tablet,watch,other"`
	Model            string  `py:"model"`
	IMEI             *string `py:"imei"`
	ESIMCapable      bool    `py:"is_esim_capable"`
	Activated        bool    `py:"activated"`
	ActivationDate   *string `py:"activation_date" datetime:"1"`
	LastESIMTransfer *string `py:"last_esim_transfer_date" datetime:"1"`
}

// Line is a phone line.
type Line struct {
	LineID             string  `py:"line_id" id:"1"`
	PhoneNumber        string  `py:"phone_number"`
	Status             string  `py:"status" enum:"Active,Suspended,Pending Activation,Closed"`
	PlanID             string  `py:"plan_id"`
	DeviceID           *string `py:"device_id"`
	DataUsed           float64 `py:"data_used_gb"`
	DataRefueling      float64 `py:"data_refueling_gb"`
	RoamingEnabled     bool    `py:"roaming_enabled"`
	ContractEnd        *string `py:"contract_end_date"`
	LastPlanChange     *string `py:"last_plan_change_date"`
	LastSIMReplacement *string `py:"last_sim_replacement_date"`
	SuspensionStart    *string `py:"suspension_start_date"`
}

// LineItem is one charge, credit or payment of a bill.
type LineItem struct {
	Description string  `py:"description"`
	Amount      float64 `py:"amount"`
	Date        string  `py:"date"`
	ItemType    string  `py:"item_type"`
}

// Bill is a customer's bill.
type Bill struct {
	BillID      string     `py:"bill_id" id:"1"`
	CustomerID  string     `py:"customer_id"`
	PeriodStart string     `py:"period_start"`
	PeriodEnd   string     `py:"period_end"`
	IssueDate   string     `py:"issue_date"`
	TotalDue    float64    `py:"total_due"`
	DueDate     string     `py:"due_date"`
	LineItems   []LineItem `py:"line_items"`
	Status      string     `py:"status" enum:"Draft,Issued,Awaiting Payment,Paid,Overdue,Disputed"`
}

// Address is a customer's billing address.
type Address struct {
	Street  string `py:"street"`
	City    string `py:"city"`
	State   string `py:"state"`
	ZipCode string `py:"zip_code"`
}

// PaymentMethod is a stored payment method.
type PaymentMethod struct {
	MethodType     string `py:"method_type"`
	AccountLast4   string `py:"account_number_last_4"`
	ExpirationDate string `py:"expiration_date"`
}

// Customer is an account holder.
type Customer struct {
	CustomerID     string          `py:"customer_id" id:"1"`
	FullName       string          `py:"full_name"`
	DateOfBirth    string          `py:"date_of_birth"`
	Email          string          `py:"email"`
	PhoneNumber    string          `py:"phone_number"`
	Address        Address         `py:"address"`
	AccountStatus  string          `py:"account_status" enum:"Active,Suspended,Pending Verification,Closed"`
	PaymentMethods []PaymentMethod `py:"payment_methods"`
	LineIDs        []string        `py:"line_ids"`
	BillIDs        []string        `py:"bill_ids"`
	CreatedAt      string          `py:"created_at" datetime:"1"`
	LastExtension  *string         `py:"last_extension_date"`
	GoodwillUsed   float64         `py:"goodwill_credit_used_this_year"`
}

// Books holds the order of each of TelecomDB's lists: tau2 keeps records
// in lists, which its tools search in order and its hash reads in order,
// and a bill can be added.
type Books struct {
	ID        string   `py:"-" id:"1"`
	Plans     []string `py:"plans"`
	Customers []string `py:"customers"`
	Lines     []string `py:"lines"`
	Bills     []string `py:"bills"`
	Devices   []string `py:"devices"`
}

// User side: tau2's TelecomUserDB, the user's phone and surroundings.

// Phone is MockPhoneAttributes without its nested records (its APN
// settings, VPN details and apps are entities of their own).
type Phone struct {
	ID                string  `py:"-" id:"1"`
	SIMStatus         string  `py:"sim_card_status" enum:"active,missing,locked_pin,locked_puk"`
	SIMMissing        bool    `py:"sim_card_missing"`
	AirplaneMode      bool    `py:"airplane_mode"`
	SignalStrength    string  `py:"network_signal_strength" enum:"none,poor,fair,good,excellent"`
	Technology        string  `py:"network_technology_connected" enum:"none,2G,3G,4G,5G"`
	ConnectionStatus  string  `py:"network_connection_status" enum:"connected,searching,no_service,emergency_only"`
	BatteryLevel      int64   `py:"battery_level"`
	DataEnabled       bool    `py:"data_enabled"`
	RoamingEnabled    bool    `py:"roaming_enabled"`
	ModePreference    string  `py:"network_mode_preference" enum:"4g_5g_preferred,4g_only,3g_only,2g_only"`
	WifiEnabled       bool    `py:"wifi_enabled"`
	WifiConnected     bool    `py:"wifi_connected"`
	WifiSSID          *string `py:"wifi_ssid"`
	WifiSignal        string  `py:"wifi_signal_strength" enum:"none,poor,fair,good,excellent"`
	WifiCalling       bool    `py:"wifi_calling_enabled"`
	WifiCallingMMS    bool    `py:"wifi_calling_mms_over_wifi"`
	DataSaver         bool    `py:"data_saver_mode"`
	VPNEnabledSetting bool    `py:"vpn_enabled_setting"`
	VPNConnected      bool    `py:"vpn_connected"`
}

// APN is the phone's active APN settings.
type APN struct {
	ID          string  `py:"-" id:"1"`
	Name        string  `py:"apn_name" enum:"internet,broken"`
	ResetAtBoot bool    `py:"reset_at_reboot"`
	MMSAPN      *string `py:"mms_apn"`
	MMSCURL     *string `py:"mmsc_url"`
	MMSProxy    *string `py:"mms_proxy"`
	MMSPort     *int64  `py:"mms_port"`
}

// VPN is the phone's VPN details; the entity is alive while tau2's
// vpn_details is not None.
type VPN struct {
	ID          string  `py:"-" id:"1"`
	Server      *string `py:"server_address"`
	Protocol    *string `py:"protocol"`
	Performance string  `py:"server_performance" enum:"unknown,poor,fair,good,excellent"`
}

// App is one installed app and its permissions.
type App struct {
	AppName string `py:"app_name" id:"1"`
	SMS     bool   `py:"sms"`
	Storage bool   `py:"storage"`
	Phone   bool   `py:"phone"`
	Network bool   `py:"network"`
}

// Surroundings is where the user is and what the carrier's books say of
// their line (sync_tools copies it there).
type Surroundings struct {
	ID             string   `py:"-" id:"1"`
	Name           *string  `py:"name"`
	PhoneNumber    *string  `py:"phone_number"`
	IsAbroad       bool     `py:"is_abroad"`
	RoamingAllowed bool     `py:"roaming_allowed"`
	Signal         Strength `py:"signal_strength"`
	DataExceeded   bool     `py:"mobile_data_usage_exceeded"`
	LineActive     bool     `py:"line_active"`
}

// Strength is the signal of each network technology where the user is.
type Strength struct {
	G2 string `py:"2G"`
	G3 string `py:"3G"`
	G4 string `py:"4G"`
	G5 string `py:"5G"`
}

// PaymentRequest is the payment the agent has asked the user for; the
// entity is alive while tau2's payment_request is not None.
type PaymentRequest struct {
	ID        string  `py:"-" id:"1"`
	BillID    string  `py:"bill_id"`
	AmountDue float64 `py:"amount_due"`
	Paid      bool    `py:"paid"`
}
