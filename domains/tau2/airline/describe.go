package airline

import "github.com/parthack/parthack/domains"

// paramKinds are the JSON kinds of the airline tools' parameters, read
// off the signatures of tau2's AirlineTools: one parameter name has one
// type across the tools, and its Literal and enum types (cabin,
// flight_type, insurance) are strings on the wire.
var paramKinds = map[string]string{
	"amount": "integer", "cabin": "string", "date": "string", "destination": "string", "expression": "string",
	"flight_number": "string", "flight_type": "string", "flights": "array", "insurance": "string",
	"nonfree_baggages": "integer", "origin": "string", "passengers": "array", "payment_id": "string",
	"payment_methods": "array", "reservation_id": "string", "summary": "string", "total_baggages": "integer",
	"user_id": "string",
}

// Tools describes the airline tools for editors: each one's parameters
// in signature order, every one required (tau2 declares no defaults),
// and whether it writes.
func (d *Domain) Tools() []domains.Tool {
	var out []domains.Tool
	for _, name := range ToolNames() {
		t := tools[name]
		dt := domains.Tool{Name: name, Writes: t.write}
		for _, p := range t.params {
			dt.Params = append(dt.Params, domains.Param{Name: p, Kind: paramKinds[p], Required: true})
		}
		out = append(out, dt)
	}
	return out
}
