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
