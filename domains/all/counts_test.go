package all_test

import (
	"testing"

	"github.com/parthack/parthack/domains"
)

// TestCounts holds the counts every shipped domain states (a Counter's,
// what domain list prints) to the tasks and runs it ships, loaded and
// counted; and every shipped domain states them, so that listing the
// domains reads no run file.
func TestCounts(t *testing.T) {
	for _, d := range domains.All() {
		t.Run(d.Name(), func(t *testing.T) {
			c, ok := d.(domains.Counter)
			if !ok {
				t.Fatalf("%s is no domains.Counter: domain list would load every run of it to count them", d.Name())
			}
			ts, err := d.Tasks()
			if err != nil {
				t.Fatal(err)
			}
			rs, err := d.Runs()
			if err != nil {
				t.Fatal(err)
			}
			if got, want := c.Counts(), (domains.Counts{Tasks: len(ts), Runs: len(rs)}); got != want {
				t.Errorf("%s states %+v; it ships %+v", d.Name(), got, want)
			}
		})
	}
}
