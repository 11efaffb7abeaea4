package domains_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
)

// tasked is a domain of two tasks with no gold run, which counts the
// times they are derived.
type tasked struct {
	domains.Domain
	derived int
}

func (d *tasked) Name() string { return "toy" }

func (d *tasked) Tasks() ([]*domains.Task, error) {
	d.derived++
	return []*domains.Task{{ID: "TOY-1", Model: &model.Task{}, Summary: "one"}, {ID: "TOY-2", Model: &model.Task{}, Summary: "two"}}, nil
}

// listed is a tasked that states its rows.
type listed struct{ *tasked }

var stated = []domains.TaskRow{{ID: "TOY-1", M: 2, Calls: 3, Writes: 1, Summary: "one"}, {ID: "TOY-2", Summary: "two"}}

func (listed) TaskRows() ([]domains.TaskRow, error) { return stated, nil }
func (listed) RowsFile() string                     { return "toy/taskrows.json" }

// found is a listed that derives one task alone.
type found struct{ listed }

func (found) Task(id string) (*domains.Task, error) {
	if id == "TOY-2" {
		return &domains.Task{ID: id}, nil
	}
	return nil, nil
}

// TestRows: a Lister's rows are taken as stated, no task derived; another
// domain's are its tasks' rows.
func TestRows(t *testing.T) {
	for _, c := range []struct {
		name    string
		d       func(*tasked) domains.Domain
		want    []domains.TaskRow
		derived int
	}{
		{"lister", func(d *tasked) domains.Domain { return listed{d} }, stated, 0},
		{"no lister", func(d *tasked) domains.Domain { return d }, []domains.TaskRow{{ID: "TOY-1", Summary: "one"}, {ID: "TOY-2", Summary: "two"}}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := &tasked{}
			got, err := domains.Rows(c.d(d))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("rows %+v, want %+v", got, c.want)
			}
			if d.derived != c.derived {
				t.Errorf("tasks derived %d times, want %d", d.derived, c.derived)
			}
		})
	}
}

// TestTaskOf: a Finder's task is derived alone, and an id it does not
// have is said with the first and last ids a Lister states; another
// domain's task is found among its tasks.
func TestTaskOf(t *testing.T) {
	for _, c := range []struct {
		name, id string
		d        func(*tasked) domains.Domain
		err      string
		derived  int
	}{
		{"finder", "TOY-2", func(d *tasked) domains.Domain { return found{listed{d}} }, "", 0},
		{"finder, no such task", "TOY-9", func(d *tasked) domains.Domain { return found{listed{d}} }, `toy has no task "TOY-9" (its tasks are TOY-1 … TOY-2)`, 0},
		{"no finder", "TOY-2", func(d *tasked) domains.Domain { return d }, "", 1},
		{"no finder, no such task", "TOY-9", func(d *tasked) domains.Domain { return d }, `toy has no task "TOY-9" (its tasks are TOY-1 … TOY-2)`, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := &tasked{}
			got, err := domains.TaskOf(c.d(d), c.id)
			switch {
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("error %v, want %q", err, c.err)
			case c.err == "" && (err != nil || got.ID != c.id):
				t.Fatalf("task %v, error %v; want %s", got, err, c.id)
			}
			if d.derived != c.derived {
				t.Errorf("tasks derived %d times, want %d", d.derived, c.derived)
			}
		})
	}
}

// TestStatedRows: stated rows read back as written, and a file that is
// not such rows is said with its name.
func TestStatedRows(t *testing.T) {
	b, err := domains.EncodeRows(stated)
	if err != nil {
		t.Fatal(err)
	}
	got, err := domains.StatedRows("toy/taskrows.json", b)()
	if err != nil || !reflect.DeepEqual(got, stated) {
		t.Fatalf("%+v, %v; want %+v", got, err, stated)
	}
	for _, bad := range []string{`[{"id": "TOY-1", "calls": 3}]`, `[] []`, `{`} {
		if _, err := domains.DecodeRows("toy/taskrows.json", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "toy/taskrows.json: ") {
			t.Errorf("%s: error %v, want one naming the file", bad, err)
		}
	}
}
