package deps

import (
	"slices"
	"strings"
	"testing"
)

// TestInternalIsLeaves holds every package under internal/ to the
// bottom of the layering: it may build on the environment (model,
// predicate, pbcste) and on other leaves, never on a package above them,
// so no arrow runs up out of internal/.
func TestInternalIsLeaves(t *testing.T) {
	ps, err := Under("internal")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ps, "internal/deps") {
		t.Fatalf("go list of internal/... does not list internal/deps itself; got %v", ps)
	}
	base := []string{"model", "predicate", "pbcste"}
	for _, p := range ps {
		ds, err := Of(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if !strings.HasPrefix(d, "internal/") && !slices.Contains(base, d) {
				t.Errorf("%s depends on %s: a package under internal/ may depend only on %v and internal/", p, d, base)
			}
		}
	}
}

// layers is the README's Layout table, top down: a package may import
// only packages of its own layer or above. A package is placed by the
// longest folder that names it.
var layers = [][]string{
	{"model"},
	{"predicate", "pbcste"},
	{"certifier", "internal/payload"},
	{"evaluators"},
	{"tasks", "domains", "schema"},
	{"attacker", "report", "store", "audit"},
	{"tui"},
	{"cli"},
	{""}, // main
}

// layerOf is pkg's layer; a leaf under internal/ other than the payload
// reader is below no layer (TestInternalIsLeaves holds it down) and may
// be imported from any.
func layerOf(pkg string) (int, bool) {
	best, at := "", -1
	for i, l := range layers {
		for _, dir := range l {
			if (pkg == dir || dir != "" && strings.HasPrefix(pkg, dir+"/")) && (at < 0 || len(dir) > len(best)) {
				best, at = dir, i
			}
		}
	}
	return at, at >= 0
}

// TestLayers holds every import in the module to the Layout's one-way
// order, so no arrow runs up.
func TestLayers(t *testing.T) {
	g, err := Imports()
	if err != nil {
		t.Fatal(err)
	}
	if len(g["cli"]) == 0 {
		t.Fatalf("go list finds no import of cli; got %d packages", len(g))
	}
	for pkg, imps := range g {
		from, ok := layerOf(pkg)
		if !ok {
			if !strings.HasPrefix(pkg, "internal/") {
				t.Errorf("%s is in no layer of the Layout", pkg)
			}
			continue
		}
		for _, imp := range imps {
			if to, ok := layerOf(imp); ok && to > from {
				t.Errorf("%s imports %s, a layer below it: imports run one way, down the Layout", pkg, imp)
			}
		}
	}
}
