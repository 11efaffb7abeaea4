package all_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/parthack/parthack/domains"
)

var update = flag.Bool("update", false, "rewrite the task rows each domain states (domains.Lister's RowsFile)")

// TestTaskRows holds the rows every shipped domain states (what domain
// tasks prints, a domains.Lister's) to those of its tasks as derived,
// every gold run replayed; and every shipped domain states them, so that
// listing a domain's tasks derives none. -update rewrites each domain's
// file from its tasks.
func TestTaskRows(t *testing.T) {
	for _, d := range domains.All() {
		t.Run(d.Name(), func(t *testing.T) {
			l, ok := d.(domains.Lister)
			if !ok {
				t.Fatalf("%s is no domains.Lister: domain tasks would derive every task of it and replay every gold run", d.Name())
			}
			want, err := domains.DerivedRows(d)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				b, err := domains.EncodeRows(want)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join("..", "..", l.RowsFile()), b, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			got, err := l.TaskRows()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%s states %d task rows; its tasks give %d (go test ./domains/all -run TestTaskRows -update)", l.RowsFile(), len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s: row %d states %+v; its task gives %+v (go test ./domains/all -run TestTaskRows -update)", l.RowsFile(), i, got[i], want[i])
				}
			}
		})
	}
}
