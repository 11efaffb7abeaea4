package tau2

import (
	"slices"
	"sync/atomic"
	"testing"

	"github.com/parthack/parthack/domains"
)

// countingReader is a tau2 domain that counts the runners it gives and
// the runs they make (the files are read side by side); a task's id is
// its tau2 id, a run's name its file and simulation.
type countingReader struct{ runners, runs atomic.Int64 }

func (c *countingReader) Name() string { return "counting" }
func (c *countingReader) Runner(res *Results) (func(*Simulation) (*domains.Run, error), []*domains.Task, error) {
	c.runners.Add(1)
	var tasks []*domains.Task
	for _, t := range res.Tasks {
		tasks = append(tasks, &domains.Task{ID: t.ID})
	}
	return func(s *Simulation) (*domains.Run, error) {
		c.runs.Add(1)
		return &domains.Run{Name: res.File + "/" + s.ID}, nil
	}, tasks, nil
}
func (c *countingReader) Conformer(*Results) (func(*Simulation) error, func() *domains.Conformance, error) {
	return nil, nil, nil
}

// TestShippedTasksMakeNoRun: a domain's shipped tasks are read from its
// files' heads, making no run; its runs, asked for after, are every
// simulation of every file in order (as each file decoded whole has
// them), made by the runners the heads gave, no head read twice; the
// tasks are each task the first time a file embeds it.
func TestShippedTasksMakeNoRun(t *testing.T) {
	for _, domain := range []string{"airline", "retail", "telecom"} {
		t.Run(domain, func(t *testing.T) {
			var wantTasks, wantRuns []string
			for _, name := range RunFiles(domain) {
				src, err := RunFile(name)
				if err != nil {
					t.Fatal(err)
				}
				res, err := Decode(name, src)
				if err != nil {
					t.Fatal(err)
				}
				for _, tk := range res.Tasks {
					if !slices.Contains(wantTasks, tk.ID) {
						wantTasks = append(wantTasks, tk.ID)
					}
				}
				for _, s := range res.Simulations {
					wantRuns = append(wantRuns, name+"/"+s.ID)
				}
			}
			slices.SortStableFunc(wantTasks, compareIDs)
			c := &countingReader{}
			s := NewShipped(domain, c)
			tasks, err := s.Tasks()
			if err != nil {
				t.Fatal(err)
			}
			var gotTasks []string
			for _, tk := range tasks {
				gotTasks = append(gotTasks, tk.ID)
			}
			if !slices.Equal(gotTasks, wantTasks) {
				t.Errorf("tasks %v, want %v", gotTasks, wantTasks)
			}
			files := int64(len(RunFiles(domain)))
			if c.runners.Load() != files || c.runs.Load() != 0 {
				t.Errorf("reading the tasks gave %d runners and made %d runs, want %d and none", c.runners.Load(), c.runs.Load(), files)
			}
			runs, err := s.Runs()
			if err != nil {
				t.Fatal(err)
			}
			var gotRuns []string
			for _, r := range runs {
				gotRuns = append(gotRuns, r.Name)
			}
			if !slices.Equal(gotRuns, wantRuns) {
				t.Errorf("runs %v, want %v", gotRuns, wantRuns)
			}
			if c.runners.Load() != files || c.runs.Load() != int64(len(wantRuns)) {
				t.Errorf("reading the runs too gave %d runners and made %d runs, want %d and %d", c.runners.Load(), c.runs.Load(), files, len(wantRuns))
			}
			t.Logf("%d files, %d tasks, %d runs", files, len(tasks), len(runs))
		})
	}
}
