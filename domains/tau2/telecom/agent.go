package telecom

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/parthack/parthack/domains/tau2"
)

// today is tau2 telecom's fixed date (utils.get_today).
var today = time.Date(2025, 2, 25, 0, 0, 0, 0, time.UTC)

func day(t time.Time) string { return t.Format("2006-01-02") }

// failure is a Python exception raised by a tool: its message.
type failure string

// The agent's lookups, with tau2's errors.

func (w *world) customer(id string) (*Customer, failure) {
	if c := lookup(w, kCustomer, w.books.Customers, w.customers, id); c != nil {
		return c, ""
	}
	return nil, failure(fmt.Sprintf("Customer with ID %s not found", id))
}

func (w *world) line(id string) (*Line, failure) {
	if l := lookup(w, kLine, w.books.Lines, w.lines, id); l != nil {
		return l, ""
	}
	return nil, failure(fmt.Sprintf("Line with ID %s not found", id))
}

func (w *world) plan(id string) (*Plan, failure) {
	if p := lookup(w, kPlan, w.books.Plans, w.plans, id); p != nil {
		return p, ""
	}
	return nil, failure(fmt.Sprintf("Plan with ID %s not found", id))
}

func (w *world) bill(id string) (*Bill, failure) {
	if b := lookup(w, kBill, w.books.Bills, w.bills, id); b != nil {
		return b, ""
	}
	return nil, failure(fmt.Sprintf("Bill with ID %s not found", id))
}

func (w *world) device(id string) (*Device, failure) {
	if d := lookup(w, kDevice, w.books.Devices, w.devices, id); d != nil {
		return d, ""
	}
	return nil, failure(fmt.Sprintf("Device with ID %s not found", id))
}

// targetLine is a customer's line: the customer must exist and list it.
func (w *world) targetLine(customerID, lineID string) (*Line, failure) {
	c, f := w.customer(customerID)
	if f != "" {
		return nil, f
	}
	if !slices.Contains(c.LineIDs, lineID) {
		return nil, failure(fmt.Sprintf("Line %s not found for customer %s", lineID, customerID))
	}
	return w.line(lineID)
}

func (w *world) lineByPhone(number string) (*Line, failure) {
	for _, id := range w.books.Lines {
		l, f := w.line(id)
		if f != "" {
			return nil, f
		}
		if l.PhoneNumber == number {
			return l, ""
		}
	}
	return nil, failure(fmt.Sprintf("Line with phone number %s not found", number))
}

func (w *world) customerByPhone(number string) (*Customer, failure) {
	for _, id := range w.books.Customers {
		c, f := w.customer(id)
		if f != "" {
			return nil, f
		}
		if c.PhoneNumber == number {
			return c, ""
		}
		for _, lid := range c.LineIDs {
			l, f := w.line(lid)
			if f != "" {
				return nil, f
			}
			if l.PhoneNumber == number {
				return c, ""
			}
		}
	}
	return nil, failure(fmt.Sprintf("Customer with phone number %s not found", number))
}

func (w *world) awaitingPayment(c *Customer) ([]*Bill, failure) {
	var out []*Bill
	for _, id := range c.BillIDs {
		status, f := w.billStatus(id)
		if f != "" {
			return nil, f
		}
		if status != "Awaiting Payment" {
			continue
		}
		b, f := w.bill(id)
		if f != "" {
			return nil, f
		}
		out = append(out, b)
	}
	return out, ""
}

// billStatus is a bill's status. sync_tools looks for a bill awaiting
// payment after every call: a bill no tool has looked up yet is not read
// whole for its status.
func (w *world) billStatus(id string) (string, failure) {
	if _, ok := w.bills[id]; !ok && w.src != nil && w.err == nil && slices.Contains(w.books.Bills, id) {
		if x, alive := w.src.Field(TypeBill, id, "status"); alive {
			return x.AsString(), ""
		}
	}
	b, f := w.bill(id)
	if f != "" {
		return "", f
	}
	return b.Status, ""
}

// dump is a record as json.dumps(model.model_dump(), default=str).
func dump(rec any) string { return tau2.Dumps(pyOf(reflect.ValueOf(rec).Elem()), false) }

// pyStr is str() of a Python number.
func pyStr(x any) string {
	if n, ok := x.(int64); ok {
		return fmt.Sprint(n)
	}
	return tau2.Dumps(x, false)
}

// The agent's 13 tools (TelecomTools).

func (c *call) getCustomerByPhone() (string, failure) {
	cu, f := c.w.customerByPhone(c.str("phone_number"))
	if f != "" {
		return "", f
	}
	return dump(cu), ""
}

func (c *call) getCustomerByID() (string, failure) {
	cu, f := c.w.customer(c.str("customer_id"))
	if f != "" {
		return "", f
	}
	return dump(cu), ""
}

func (c *call) getCustomerByName() (string, failure) {
	name, dob := strings.ToLower(c.str("full_name")), c.str("dob")
	out := []any{}
	for _, id := range c.w.books.Customers {
		cu, f := c.w.customer(id)
		if f != "" {
			return "", f
		}
		if strings.ToLower(cu.FullName) == name && cu.DateOfBirth == dob {
			out = append(out, pyOf(reflect.ValueOf(cu).Elem()))
		}
	}
	return tau2.Dumps(out, false), ""
}

func (c *call) getDetailsByID() (string, failure) {
	id := c.str("id")
	var (
		rec any
		f   failure
	)
	switch {
	case strings.HasPrefix(id, "L"):
		rec, f = c.w.line(id)
	case strings.HasPrefix(id, "D"):
		rec, f = c.w.device(id)
	case strings.HasPrefix(id, "B"):
		rec, f = c.w.bill(id)
	case strings.HasPrefix(id, "C"):
		rec, f = c.w.customer(id)
	case strings.HasPrefix(id, "P"):
		rec, f = c.w.plan(id)
	default:
		f = failure(fmt.Sprintf("Unknown ID format or type: %s", id))
	}
	if f != "" {
		return "", f
	}
	return dump(rec), ""
}

func (c *call) suspendLine() (string, failure) {
	l, f := c.w.targetLine(c.str("customer_id"), c.str("line_id"))
	if f != "" {
		return "", f
	}
	if l.Status != "Active" {
		return "", "Line must be active to suspend"
	}
	l.Status, l.SuspensionStart = "Suspended", str(day(today))
	return lineMessage("Line suspended successfully. $5/month holding fee will apply.", l), ""
}

func (c *call) resumeLine() (string, failure) {
	l, f := c.w.targetLine(c.str("customer_id"), c.str("line_id"))
	if f != "" {
		return "", f
	}
	if l.Status != "Suspended" && l.Status != "Pending Activation" {
		return "", "Line must be suspended to resume"
	}
	l.Status, l.SuspensionStart = "Active", nil
	return lineMessage("Line resumed successfully", l), ""
}

func lineMessage(msg string, l *Line) string {
	return tau2.Dumps(tau2.Obj{{Key: "message", Value: msg}, {Key: "line", Value: pyOf(reflect.ValueOf(l).Elem())}}, false)
}

func (c *call) getBills() (string, failure) {
	cu, f := c.w.customer(c.str("customer_id"))
	if f != "" {
		return "", f
	}
	limit := int64(12)
	if x, ok := c.args.Get("limit"); ok {
		switch n := x.(type) {
		case int64:
			limit = n
		case bool:
			limit = 0
			if n {
				limit = 1
			}
		default:
			return "", "slice indices must be integers or None or have an __index__ method"
		}
	}
	var bills []*Bill
	for _, id := range cu.BillIDs {
		b, f := c.w.bill(id)
		if f != "" {
			return "", f
		}
		bills = append(bills, b)
	}
	// sorted(reverse=True) is stable: equal dates keep their order
	slices.SortStableFunc(bills, func(a, b *Bill) int { return strings.Compare(b.IssueDate, a.IssueDate) })
	n := int64(len(bills))
	switch {
	case limit < 0:
		n = max(0, n+limit)
	case limit < n:
		n = limit
	}
	out := []any{}
	for _, b := range bills[:n] {
		out = append(out, pyOf(reflect.ValueOf(b).Elem()))
	}
	return tau2.Dumps(out, false), ""
}

func (c *call) sendPaymentRequest() (string, failure) {
	customerID, billID := c.str("customer_id"), c.str("bill_id")
	cu, f := c.w.customer(customerID)
	if f != "" {
		return "", f
	}
	waiting, f := c.w.awaitingPayment(cu)
	if f != "" {
		return "", f
	}
	if len(waiting) != 0 {
		return "", "A bill is already awaiting payment for this customer"
	}
	if !slices.Contains(cu.BillIDs, billID) {
		return "", failure(fmt.Sprintf("Bill %s not found for customer %s", billID, customerID))
	}
	b, f := c.w.bill(billID)
	if f != "" {
		return "", f
	}
	b.Status = "Awaiting Payment"
	return "Payment request sent to the customer for bill " + b.BillID, ""
}

func (c *call) getDataUsage() (string, failure) {
	lineID := c.str("line_id")
	l, f := c.w.targetLine(c.str("customer_id"), lineID)
	if f != "" {
		return "", f
	}
	p, f := c.w.plan(l.PlanID)
	if f != "" {
		return "", f
	}
	// the last day of today's month; tau2 writes the numbers as str()
	end := time.Date(today.Year(), today.Month()+1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
	return tau2.Dumps(tau2.Obj{{Key: "line_id", Value: lineID}, {Key: "data_used_gb", Value: pyStr(l.DataUsed)},
		{Key: "data_limit_gb", Value: pyStr(p.DataLimit)}, {Key: "data_refueling_gb", Value: pyStr(l.DataRefueling)},
		{Key: "cycle_end_date", Value: day(end)}}, false), ""
}

func (c *call) setRoaming(on bool) (string, failure) {
	l, f := c.w.targetLine(c.str("customer_id"), c.str("line_id"))
	if f != "" {
		return "", f
	}
	word := map[bool]string{true: "enabled", false: "disabled"}[on]
	if l.RoamingEnabled == on {
		return "Roaming was already " + word, ""
	}
	l.RoamingEnabled = on
	return "Roaming " + word + " successfully", ""
}

func (c *call) refuelData() (string, failure) {
	customerID, lineID := c.str("customer_id"), c.str("line_id")
	l, f := c.w.targetLine(customerID, lineID)
	if f != "" {
		return "", f
	}
	gb, _ := c.args.Get("gb_amount")
	amount := numOf(gb)
	if amount <= 0 {
		return "", "Refuel amount must be positive"
	}
	p, f := c.w.plan(l.PlanID)
	if f != "" {
		return "", f
	}
	charge := amount * p.RefuelRate
	l.DataRefueling += amount
	if f := c.w.oneTimeCharge(customerID, charge, fmt.Sprintf("Data refueling: %s GB at $%s/GB", pyStr(gb), pyStr(p.RefuelRate))); f != "" {
		return "", f
	}
	return tau2.Dumps(tau2.Obj{
		{Key: "message", Value: fmt.Sprintf("Successfully added %s GB of data for line %s for $%.2f", pyStr(gb), lineID, charge)},
		{Key: "new_data_refueling_gb", Value: pyStr(l.DataRefueling)}, {Key: "charge", Value: pyStr(charge)}}, false), ""
}

func numOf(x any) float64 {
	switch n := x.(type) {
	case int64:
		return float64(n)
	case float64:
		return n
	}
	return math.NaN()
}

// oneTimeCharge adds a charge to the customer's draft bill, making one
// for next month when there is none. tau2 names a new bill with random
// hex (uuid4); the port derives it from the customer and its bills, so a
// replay is deterministic.
func (w *world) oneTimeCharge(customerID string, amount float64, description string) failure {
	cu, f := w.customer(customerID)
	if f != "" {
		return f
	}
	var draft *Bill
	for _, id := range cu.BillIDs {
		b, f := w.bill(id)
		if f != "" {
			return f
		}
		if b.Status == "Draft" {
			draft = b
			break
		}
	}
	if draft == nil {
		next := time.Date(today.Year(), today.Month()+1, 1, 0, 0, 0, 0, time.UTC)
		sum := sha256.Sum256([]byte(customerID + "/" + strings.Join(cu.BillIDs, ",")))
		draft = &Bill{BillID: "B" + hex.EncodeToString(sum[:4]), CustomerID: customerID, PeriodStart: day(next),
			PeriodEnd: day(next.AddDate(0, 1, -1)), IssueDate: day(next), DueDate: day(next.AddDate(0, 0, 14)),
			LineItems: []LineItem{}, Status: "Draft"}
		w.addBill(cu, draft)
	}
	kind := "Charge"
	if amount < 0 {
		kind = "Credit"
	}
	draft.LineItems = append(draft.LineItems, LineItem{Description: description, Amount: amount, Date: day(today), ItemType: kind})
	draft.TotalDue += amount
	return ""
}

func (w *world) addBill(cu *Customer, b *Bill) {
	w.bills[b.BillID] = b
	w.books.Bills = append(w.books.Bills, b.BillID)
	cu.BillIDs = append(cu.BillIDs, b.BillID)
}

// The agent side's functions that are not tools: task set-up
// (initialization_actions) and assertions (env_assertions).

func (c *call) setDataUsage() (any, failure) {
	lineID := c.str("line_id")
	l, f := c.w.targetLine(c.str("customer_id"), lineID)
	if f != "" {
		return nil, f
	}
	x, _ := c.args.Get("data_used_gb")
	l.DataUsed = numOf(x)
	return fmt.Sprintf("Data usage set to %s GB for line %s", pyStr(x), lineID), ""
}

func (c *call) suspendForOverdueBill() (any, failure) {
	customerID, lineID, billID := c.str("customer_id"), c.str("line_id"), c.str("new_bill_id")
	l, f := c.w.line(lineID)
	if f != "" {
		return nil, f
	}
	if l.Status != "Active" {
		return nil, "Line must be active to suspend for unpaid bill"
	}
	p, f := c.w.plan(l.PlanID)
	if f != "" {
		return nil, f
	}
	if p.Price <= 0 {
		return nil, "Amount must be positive for overdue bill"
	}
	cu, f := c.w.customer(customerID)
	if f != "" {
		return nil, f
	}
	for _, id := range cu.BillIDs {
		b, f := c.w.bill(id)
		if f != "" {
			return nil, f
		}
		if b.Status == "Overdue" {
			return nil, "Customer already has an overdue bill"
		}
	}
	first := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC)
	lastMonthEnd := first.AddDate(0, 0, -1)
	lastMonth := time.Date(lastMonthEnd.Year(), lastMonthEnd.Month(), 1, 0, 0, 0, 0, time.UTC)
	b := &Bill{BillID: billID, CustomerID: customerID, PeriodStart: day(lastMonth), PeriodEnd: day(lastMonthEnd),
		IssueDate: day(lastMonth), DueDate: day(lastMonth.AddDate(0, 0, 14)), Status: "Overdue",
		LineItems: []LineItem{{Description: "Charge for line " + lineID, Amount: p.Price, Date: day(today), ItemType: "Charge"}}}
	b.TotalDue += p.Price
	c.w.addBill(cu, b)
	l.Status, l.SuspensionStart = "Suspended", str(day(today))
	ended, _ := c.args.Get("contract_ended")
	if ended == true {
		l.ContractEnd = str(day(lastMonthEnd))
	}
	return fmt.Sprintf("Line %s suspended for unpaid bill %s. Contract ended: %s", lineID, billID, pyBool(ended == true)), ""
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func (c *call) assertRefueling() (any, failure) {
	l, f := c.w.targetLine(c.str("customer_id"), c.str("line_id"))
	if f != "" {
		return nil, f
	}
	x, _ := c.args.Get("expected_amount")
	return math.Abs(l.DataRefueling-numOf(x)) < 1e-6, ""
}

func (c *call) assertLineStatus() (any, failure) {
	l, f := c.w.targetLine(c.str("customer_id"), c.str("line_id"))
	if f != "" {
		return nil, f
	}
	return l.Status == c.str("expected_status"), ""
}

func (c *call) assertOverdueBillExists() (any, failure) {
	id := c.str("overdue_bill_id")
	cu, f := c.w.customer(c.str("customer_id"))
	if f != "" {
		return nil, f
	}
	if !slices.Contains(cu.BillIDs, id) {
		return nil, failure(fmt.Sprintf("Overdue bill %s not found", id))
	}
	b, f := c.w.bill(id)
	if f != "" {
		return nil, f
	}
	if b.Status != "Overdue" {
		return nil, failure(fmt.Sprintf("Overdue bill %s is not overdue", id))
	}
	return true, ""
}

func (c *call) assertNoOverdueBill() (any, failure) {
	b, f := c.w.bill(c.str("overdue_bill_id"))
	return f != "" || b.Status == "Paid", ""
}
