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

// TestIsolation holds the evaluators to the public side (SPEC §4): by the
// module's own import graph, neither this package, nor the LLM judges in
// evaluators/llm, nor anything they import depends on the certifier or
// the sealed task data.
func TestIsolation(t *testing.T) {
	for _, pkg := range []string{"evaluators", "evaluators/llm"} {
		t.Run(pkg, func(t *testing.T) { checkIsolated(t, module+"/"+pkg) })
	}
}

func checkIsolated(t *testing.T, pkg string) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goBin, "list", "-deps", pkg).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("%s list -deps: %v\n%s", goBin, err, stderr)
	}
	deps := strings.Fields(string(out))
	// The list must be the real graph: it holds the package and the
	// payload reader it is built on.
	for _, want := range []string{pkg, module + "/internal/payload"} {
		if !slices.Contains(deps, want) {
			t.Fatalf("go list -deps does not list %s; got %v", want, deps)
		}
	}
	for _, dep := range deps {
		for _, banned := range []string{module + "/certifier", module + "/tasks/sealed", module + "/tasks/tauair"} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
}
