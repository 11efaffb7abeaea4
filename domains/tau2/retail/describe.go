package retail

import "github.com/parthack/parthack/domains"

// Tools describes the retail tools for editors: each one's parameters in
// signature order (a str is a string, a list[str] an array), every one
// required, and whether it writes.
func (d *Domain) Tools() []domains.Tool {
	var out []domains.Tool
	for _, name := range ToolNames() {
		t := tools[name]
		dt := domains.Tool{Name: name, Writes: t.write}
		for _, p := range t.params {
			kind := "string"
			if p.kind == kStrings {
				kind = "array"
			}
			dt.Params = append(dt.Params, domains.Param{Name: p.name, Kind: kind, Required: true})
		}
		out = append(out, dt)
	}
	return out
}
