// Package deps lists a package's dependencies inside this module, as the
// go command sees them, for tests that hold a package to what it may
// import (evaluators/isolation_test.go, report/pure_test.go).
package deps

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Module is the module path.
const Module = "github.com/parthack/parthack"

// Of lists the packages of this module that pkg (a path relative to the
// module) depends on, itself included, relative to the module and
// sorted, by go list -deps.
func Of(pkg string) ([]string, error) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goBin, "list", "-deps", Module+"/"+pkg).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("%s list -deps %s: %w\n%s", goBin, pkg, err, ee.Stderr)
		}
		return nil, fmt.Errorf("%s list -deps %s: %w", goBin, pkg, err)
	}
	var ds []string
	for _, dep := range strings.Fields(string(out)) {
		if rel, ok := strings.CutPrefix(dep, Module+"/"); ok {
			ds = append(ds, rel)
		}
	}
	// The list must be the real graph: it holds the package itself.
	if !slices.Contains(ds, pkg) {
		return nil, fmt.Errorf("go list -deps %s does not list the package itself; got %v", pkg, ds)
	}
	slices.Sort(ds)
	return ds, nil
}
