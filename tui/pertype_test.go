package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

func accessReview(t *testing.T) *model.Task {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "certifier", "accessreview", "task.json"))
	if err != nil {
		t.Fatal(err)
	}
	task, err := model.DecodeTask("task.json", src)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

// TestEditorHonoursPerTypeOps: with a per-type allowlist the step line
// offers, after "delete", only the types that allow it, and refuses a
// delete of the request with a message naming what the type allows; the
// step form's type row offers the same types.
func TestEditorHonoursPerTypeOps(t *testing.T) {
	task := accessReview(t)
	c := &common{keys: newKeyMap()}
	l := newStepLine(c, task, 0, nil)
	l.input.SetValue("delete ")
	if cx := l.context(); cx.what != "type" || !slices.Equal(cx.candidates, []string{"grant"}) {
		t.Errorf("after delete: %s %v, want type [grant]", cx.what, cx.candidates)
	}
	l.input.SetValue("update ")
	if cx := l.context(); !slices.Equal(cx.candidates, []string{"ticket", "grant"}) {
		t.Errorf("after update: %v, want [ticket grant]", cx.candidates)
	}
	l.input.SetValue("delete ticket R1")
	if _, err := l.build(); err == nil || !strings.Contains(err.Error(), "does not allow delete on ticket (it allows update)") {
		t.Errorf("delete ticket R1: %v", err)
	}
	l.input.SetValue("delete grant G2")
	if st, err := l.build(); err != nil || st.Op != model.OpDelete {
		t.Errorf("delete grant G2: %+v %v", st, err)
	}
	f := newStepForm(c, task, 0, false, &model.Action{Op: model.OpDelete, Type: "grant", ID: "G2"})
	if got := f.rows[rowType].allowed; !slices.Equal(got, []string{"grant"}) {
		t.Errorf("form, op delete: types %v, want [grant]", got)
	}
}
