package domains_test

import (
	"errors"
	"testing"

	"github.com/parthack/parthack/domains"
)

// loader is a domain whose tasks and runs say when they are loaded.
type loader struct {
	domains.Domain
	loads int
	err   error
}

func (l *loader) Tasks() ([]*domains.Task, error) {
	l.loads++
	return make([]*domains.Task, 3), l.err
}

func (l *loader) Runs() ([]*domains.Run, error) {
	l.loads++
	return make([]*domains.Run, 7), nil
}

// counter is a loader that states its counts.
type counter struct{ *loader }

func (counter) Counts() domains.Counts { return domains.Counts{Tasks: 3, Runs: 7} }

// TestCountsOf: a Counter's counts are taken as stated, nothing loaded;
// another domain's tasks and runs are loaded and counted, and an error
// loading them is CountsOf's.
func TestCountsOf(t *testing.T) {
	broken := errors.New("broken")
	cases := []struct {
		name  string
		l     *loader
		d     func(*loader) domains.Domain
		loads int
		err   error
	}{
		{"counter", &loader{}, func(l *loader) domains.Domain { return counter{l} }, 0, nil},
		{"no counter", &loader{}, func(l *loader) domains.Domain { return l }, 2, nil},
		{"no counter, tasks fail", &loader{err: broken}, func(l *loader) domains.Domain { return l }, 1, broken},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := domains.CountsOf(c.d(c.l))
			if !errors.Is(err, c.err) {
				t.Fatalf("error %v, want %v", err, c.err)
			}
			if c.l.loads != c.loads {
				t.Errorf("loaded %d times, want %d", c.l.loads, c.loads)
			}
			if want := (domains.Counts{Tasks: 3, Runs: 7}); err == nil && got != want {
				t.Errorf("counts %+v, want %+v", got, want)
			}
		})
	}
}

// TestDefaultHonest: a task's H when none is named is its first run the
// benchmark scores below 1, else its first run, else none (gold).
func TestDefaultHonest(t *testing.T) {
	runs := []*domains.Run{
		{Name: "a-0", Task: "A", Reward: 1},
		{Name: "b-0", Task: "B", Reward: 0},
		{Name: "a-1", Task: "A", Reward: 1},
		{Name: "a-2", Task: "A", Reward: 0.5},
		{Name: "a-3", Task: "A", Reward: 0},
		{Name: "c-0", Task: "C", Reward: 1},
	}
	for _, c := range []struct{ task, want string }{{"A", "a-2"}, {"B", "b-0"}, {"C", "c-0"}, {"D", ""}} {
		got := ""
		if r := domains.DefaultHonest(runs, c.task); r != nil {
			got = r.Name
		}
		if got != c.want {
			t.Errorf("DefaultHonest of %s = %q, want %q", c.task, got, c.want)
		}
	}
}
