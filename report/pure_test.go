package report

import (
	"slices"
	"testing"

	"github.com/parthack/parthack/internal/deps"
)

// TestPure holds report to ledger in, tables out: of this module it may
// depend only on the evaluators' names and what they import, never on
// the benchmark run, the attackers, the certifier, the environment or
// the sealed suite.
func TestPure(t *testing.T) {
	got, err := deps.Of("report")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"evaluators", "internal/payload", "internal/pipe", "model", "predicate", "report"}
	if !slices.Equal(got, want) {
		t.Errorf("report depends on the module packages %v; exactly %v are allowed", got, want)
	}
}
