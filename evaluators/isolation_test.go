package evaluators_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/parthack/parthack"

// allowed is, for each evaluator package, exactly the packages of this
// module it may depend on, itself included (SPEC §4): the model's value
// types, the public payload reader and (for the deterministic
// evaluators) the predicate engine the environment also uses, which
// imports only model. Anything else in the module, the
// trusted payload builder (internal/payload/builder) and the environment
// it replays in (pbcste) above all, is an error, and so is an allowed
// package that is no longer a dependency: a change to this list is a
// change to what evaluators can see, and must be made here on purpose.
var allowed = map[string][]string{
	"evaluators":     {"evaluators", "internal/payload", "model", "predicate"},
	"evaluators/llm": {"evaluators/llm", "internal/payload", "model"},
}

// banned may never be in an allowed list: the certifiers, the sealed
// half of the suite, a domain's trusted tasks, the trusted builder and
// the environment that holds hidden fields and Oracle goals.
var banned = []string{"certifier", "tasks/sealed", "tasks/tauair", "internal/payload/builder", "pbcste"}

// TestIsolation holds the evaluators to the public side by the module's
// own import graph: what go list -deps reports for each evaluator
// package, restricted to this module, is exactly its allowed list.
func TestIsolation(t *testing.T) {
	for pkg, want := range allowed {
		t.Run(pkg, func(t *testing.T) {
			for _, w := range want {
				for _, b := range banned {
					if w == b || strings.HasPrefix(w, b+"/") {
						t.Fatalf("the allowed list of %s names %s, which no evaluator may import", pkg, w)
					}
				}
			}
			got := moduleDeps(t, module+"/"+pkg)
			if want := slices.Sorted(slices.Values(want)); !slices.Equal(got, want) {
				t.Errorf("%s depends on the module packages %v; exactly %v are allowed", pkg, got, want)
			}
		})
	}
}

// moduleDeps lists the packages of this module pkg depends on, itself
// included, relative to the module path and sorted.
func moduleDeps(t *testing.T, pkg string) []string {
	t.Helper()
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goBin, "list", "-deps", pkg).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("%s list -deps: %v\n%s", goBin, err, stderr)
	}
	var deps []string
	for _, dep := range strings.Fields(string(out)) {
		if rel, ok := strings.CutPrefix(dep, module+"/"); ok {
			deps = append(deps, rel)
		}
	}
	// The list must be the real graph: it holds the package itself.
	if !slices.Contains(deps, strings.TrimPrefix(pkg, module+"/")) {
		t.Fatalf("go list -deps does not list %s; got %v", pkg, deps)
	}
	slices.Sort(deps)
	return deps
}
