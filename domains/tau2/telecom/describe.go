package telecom

import "github.com/parthack/parthack/domains"

// describeKinds names a parameter's kind as editors take it.
var describeKinds = map[ptype]string{pStr: "string", pNum: "number", pInt: "integer", pBool: "boolean", pObj: "object"}

// describe lists the tools of both sides, the agent's first: names, typed
// parameters, which write.
func describe() []domains.Tool {
	var out []domains.Tool
	for _, side := range []string{Assistant, User} {
		for _, name := range ToolNames(side) {
			f := funcs[name]
			t := domains.Tool{Name: name, Writes: f.write}
			for _, p := range f.params {
				t.Params = append(t.Params, domains.Param{Name: p.name, Kind: describeKinds[p.typ], Required: !p.optional})
			}
			out = append(out, t)
		}
	}
	return out
}
