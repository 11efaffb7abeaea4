// Package deps lists a package's dependencies inside this module, as the
// go command sees them, for tests that hold a package to what it may
// import (evaluators/isolation_test.go, report/pure_test.go,
// layers_test.go).
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

// Under lists the packages of this module in dir and below (a path
// relative to the module), relative to the module and sorted.
func Under(dir string) ([]string, error) {
	out, err := goList(Module + "/" + dir + "/...")
	if err != nil {
		return nil, err
	}
	ps := strings.Fields(string(out))
	for i, p := range ps {
		ps[i] = strings.TrimPrefix(p, Module+"/")
	}
	slices.Sort(ps)
	return ps, nil
}

// Imports maps each package of this module to the packages of this
// module it imports directly (tests aside), all relative to the module
// (the module's root package is "").
func Imports() (map[string][]string, error) {
	out, err := goList("-f", "{{.ImportPath}} {{join .Imports \" \"}}", Module+"/...")
	if err != nil {
		return nil, err
	}
	rel := func(p string) (string, bool) {
		if p == Module {
			return "", true
		}
		return strings.CutPrefix(p, Module+"/")
	}
	g := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		pkg, _ := rel(f[0])
		g[pkg] = []string{}
		for _, imp := range f[1:] {
			if r, ok := rel(imp); ok {
				g[pkg] = append(g[pkg], r)
			}
		}
	}
	return g, nil
}

// Of lists the packages of this module that pkg (a path relative to the
// module) depends on, itself included, relative to the module and
// sorted, by go list -deps.
func Of(pkg string) ([]string, error) {
	out, err := goList("-deps", Module+"/"+pkg)
	if err != nil {
		return nil, err
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

// goList runs the go command's list with args, its error holding what it
// printed to stderr.
func goList(args ...string) ([]byte, error) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goBin, append([]string{"list"}, args...)...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("%s list %s: %w\n%s", goBin, strings.Join(args, " "), err, ee.Stderr)
		}
		return nil, fmt.Errorf("%s list %s: %w", goBin, strings.Join(args, " "), err)
	}
	return out, nil
}
