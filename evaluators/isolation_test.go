package evaluators_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/internal/deps"
)

// allowed is, for each evaluator package, exactly the packages of this
// module it may depend on, itself included (SPEC §4): the model's value
// types, the public payload reader, (for the deterministic evaluators)
// the predicate engine the environment also uses, which imports only
// model, and (for the LLM judges) the chat client the LLM attacker also
// uses, which imports only model; and the payload reader's goroutine
// handoff (internal/pipe) and (for tau2's NL-assertion judge) Python's
// repr of a str (internal/pyrepr), which import nothing of the module. Anything else in the module, the
// trusted payload builder (internal/payload/builder) and the environment
// it replays in (pbcste) above all, is an error, and so is an allowed
// package that is no longer a dependency: a change to this list is a
// change to what evaluators can see, and must be made here on purpose.
var allowed = map[string][]string{
	"evaluators":     {"evaluators", "internal/payload", "internal/pipe", "model", "predicate"},
	"evaluators/llm": {"evaluators/llm", "internal/llmclient", "internal/payload", "internal/pipe", "internal/pyrepr", "model"},
}

// banned may never be in an allowed list: the attackers, the
// certifiers, the sealed half of the suite, a domain's trusted tasks, the
// trusted builder and the environment that holds hidden fields and Oracle
// goals.
var banned = []string{"attacker", "certifier", "tasks/sealed", "domains/tauair", "internal/payload/builder", "pbcste"}

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
			got, err := deps.Of(pkg)
			if err != nil {
				t.Fatal(err)
			}
			if want := slices.Sorted(slices.Values(want)); !slices.Equal(got, want) {
				t.Errorf("%s depends on the module packages %v; exactly %v are allowed", pkg, got, want)
			}
		})
	}
}
