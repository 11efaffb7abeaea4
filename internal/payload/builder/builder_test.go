package builder_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/internal/payload/builder"
	"github.com/parthack/parthack/model"
)

// TestInitialHeldInScope: a domain task's public initial snapshot (13,286
// tau-bench airline records, looked up by an index) is held to the
// trusted one on the entities in the payload's scope, and only on them:
// an entity the goal names, changed in the public snapshot, is refused by
// name; one outside the scope, changed, is not read.
func TestInitialHeldInScope(t *testing.T) {
	_, task, err := domains.FindTask("TAU-A04")
	if err != nil {
		t.Fatal(err)
	}
	env, err := task.Env()
	if err != nil {
		t.Fatal(err)
	}
	log := env.Replay(task.Gold.Steps)
	named := task.Model.Goals[0].Predicates[0].Expr
	changed := map[[2]string]bool{}
	for _, c := range log.NetChanges() {
		changed[[2]string{c.Type, c.ID}] = true
	}
	out := slices.IndexFunc(task.Model.Initial, func(e model.Entity) bool {
		return e.Type != named.Type && !changed[[2]string{e.Type, e.ID}] && len(e.Fields) > 0
	})
	in := slices.IndexFunc(task.Model.Initial, func(e model.Entity) bool { return e.Type == named.Type && e.ID == named.ID })
	if in < 0 || out < 0 {
		t.Fatalf("no entity in scope (%d) or out of it (%d)", in, out)
	}
	for _, c := range []struct {
		at      int
		refused bool
	}{{out, false}, {in, true}} {
		pub := *task.Model
		pub.Initial = slices.Clone(task.Model.Initial)
		e := &pub.Initial[c.at]
		e.Fields = slices.Clone(e.Fields)
		e.Fields[len(e.Fields)-1].Value = model.Str("changed")
		_, err := builder.BuildTrajectory(&pub, log, task.Gold)
		switch {
		case c.refused && (err == nil || !strings.Contains(err.Error(), e.Type+" "+e.ID+" is not the redaction")):
			t.Errorf("%s %s changed in the scope: %v", e.Type, e.ID, err)
		case !c.refused && err != nil:
			t.Errorf("%s %s changed outside the scope: %v", e.Type, e.ID, err)
		}
	}
}
