package llmclient_test

import (
	"slices"
	"testing"

	"github.com/parthack/parthack/internal/deps"
)

// TestOneClient: the chat client depends on nothing in the module but
// model's hashing, and the LLM attacker reaches it directly, not through
// the judges' package: trusted and public code share the client, never a
// package of the other side's.
func TestOneClient(t *testing.T) {
	got, err := deps.Of("internal/llmclient")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"internal/llmclient", "model"}; !slices.Equal(got, want) {
		t.Errorf("internal/llmclient depends on the module packages %v; want exactly %v", got, want)
	}
	got, err = deps.Of("attacker/llmattack")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(got, "internal/llmclient") || slices.Contains(got, "evaluators/llm") {
		t.Errorf("attacker/llmattack depends on %v; it must ask through internal/llmclient, without evaluators/llm", got)
	}
}
