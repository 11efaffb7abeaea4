package all_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	_ "github.com/parthack/parthack/domains/all"
)

// TestNoDomainNamedOutsideItsPackage holds the registry's promise: no
// string in the code outside domains/ names a registered domain, one of
// its tasks or a run format; commands and the workbench ask the
// registry. Tests are left out: their fixtures name what they test.
// tau2's evaluators name their benchmark, not one of its domains.
func TestNoDomainNamedOutsideItsPackage(t *testing.T) {
	allowed := map[string]string{filepath.Join("evaluators", "tau2.go"): "tau2"}
	named := map[string]bool{}
	for _, d := range domains.All() {
		named[d.Name()] = true
	}
	for _, f := range domains.FormatNames() {
		named[f] = true
	}
	word := regexp.MustCompile(`[A-Za-z0-9_\[\]-]+`)
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if rel, _ := filepath.Rel(root, path); rel == "domains" || rel != "." && strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, w := range word.FindAllString(s, -1) {
				w = strings.Trim(w, "-")
				if _, owned := domains.Owner(w); (named[w] || owned) && allowed[rel] != w {
					t.Errorf("%s: %q names a domain's %q", fset.Position(lit.Pos()), s, w)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
