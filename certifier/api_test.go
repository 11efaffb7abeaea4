package certifier

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestOnlyDoubleCertificationIsExported fails when a function of this
// package other than the double certifiers becomes reachable from
// outside it: a single certifier's verdict is never a verdict on its own.
func TestOnlyDoubleCertificationIsExported(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var exported []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() {
				exported = append(exported, fd.Name.Name)
			}
		}
	}
	slices.Sort(exported)
	if want := []string{"DoubleCertify", "DoubleCertifyStream", "DoubleCertifyStreamWatched", "DoublePair", "DoublePairOf", "DoubleRollback"}; !slices.Equal(exported, want) {
		t.Errorf("exported functions of certifier = %v, want only %v", exported, want)
	}
}
