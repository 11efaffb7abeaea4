package all_test

import (
	"os"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
)

// TestToolsAreTau2s: tau2's airline and retail domains describe their
// tools as tau2's signatures declare them (each package's
// testdata/tools.txt, written from tau2's source by
// scripts/tau2_tool_signatures.py): names, parameters in order with
// their kinds, and which tools write.
func TestToolsAreTau2s(t *testing.T) {
	for name, file := range map[string]string{
		"tau2-airline": "../tau2/airline/testdata/tools.txt",
		"tau2-retail":  "../tau2/retail/testdata/tools.txt",
	} {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			d, err := domains.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tool := range d.Tools() {
				var ps []string
				for _, p := range tool.Params {
					if !p.Required {
						t.Errorf("%s.%s is not required: tau2 declares no defaults", tool.Name, p.Name)
					}
					ps = append(ps, p.Name+":"+p.Kind)
				}
				rw := "read"
				if tool.Writes {
					rw = "write"
				}
				got = append(got, tool.Name+"("+strings.Join(ps, ", ")+") "+rw)
			}
			if g, w := strings.Join(got, "\n"), strings.TrimSpace(string(want)); g != w {
				t.Fatalf("tools:\n%s\nwant (tau2's signatures):\n%s", g, w)
			}
		})
	}
}
