package tau2

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/parthack/parthack/domains"
)

// Shipped is a domain's shipped run files (in name order) read through
// its reader in two passes, each made once: the files' heads (info and
// tasks, which tau2 writes before the simulations) for the tasks, and
// only when the runs are asked for, the simulations, each made a run by
// the runner its file's head gave, so that a run's task is one Tasks
// has. A command that needs the tasks alone reads no simulation.
type Shipped struct {
	tau2Name string
	reader   Reader

	headsOnce sync.Once
	runners   []shippedFile
	tasks     []*domains.Task
	headsErr  error

	runsOnce sync.Once
	runs     []*domains.Run
	runsErr  error
}

// shippedFile is a shipped run file with the runner its head gave.
type shippedFile struct {
	name string
	run  func(*Simulation) (*domains.Run, error)
}

// NewShipped is a domain's shipped run files, tau2's domain name
// ("retail") naming them, none read yet.
func NewShipped(tau2Name string, r Reader) *Shipped { return &Shipped{tau2Name: tau2Name, reader: r} }

// Tasks are each task the first time a file embeds it, those with
// numeric ids in their order.
func (s *Shipped) Tasks() ([]*domains.Task, error) {
	s.headsOnce.Do(s.readHeads)
	return s.tasks, s.headsErr
}

// Runs are every file's runs, in order.
func (s *Shipped) Runs() ([]*domains.Run, error) {
	if _, err := s.Tasks(); err != nil {
		return nil, err
	}
	s.runsOnce.Do(s.readRuns)
	return s.runs, s.runsErr
}

// readHeads reads the files' heads side by side (each file's tasks are
// derived by its own checker), and keeps them in the files' order.
func (s *Shipped) readHeads() {
	names := RunFiles(s.tau2Name)
	files := make([]shippedFile, len(names))
	tasks := make([][]*domains.Task, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			err := streamShipped(name, func(res *Results) error {
				var err error
				if files[i].run, tasks[i], err = s.reader.Runner(res); err != nil {
					return err
				}
				return errHeadRead
			}, func(*Simulation) error { return nil })
			if !errors.Is(err, errHeadRead) {
				errs[i] = err
			}
			files[i].name = name
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for i := range names {
		if errs[i] != nil {
			s.headsErr = errs[i]
			return
		}
		s.runners = append(s.runners, files[i])
		for _, t := range tasks[i] {
			if !seen[t.ID] {
				seen[t.ID] = true
				s.tasks = append(s.tasks, t)
			}
		}
	}
	slices.SortStableFunc(s.tasks, func(a, b *domains.Task) int { return compareIDs(a.ID, b.ID) })
}

// readRuns reads the files side by side (each file's runs are made by
// its own runner, one at a time), and keeps the runs in the files'
// order; the error is the first file's.
func (s *Shipped) readRuns() {
	runs := make([][]*domains.Run, len(s.runners))
	errs := make([]error, len(s.runners))
	var wg sync.WaitGroup
	for i, f := range s.runners {
		wg.Go(func() {
			errs[i] = streamShipped(f.name, func(*Results) error { return nil }, func(sim *Simulation) error {
				rn, err := f.run(sim)
				if err == nil {
					runs[i] = append(runs[i], rn)
				}
				return err
			})
		})
	}
	wg.Wait()
	for i := range runs {
		if errs[i] != nil {
			s.runs, s.runsErr = nil, errs[i]
			return
		}
		s.runs = append(s.runs, runs[i]...)
	}
}

// streamShipped reads a shipped run file with StreamResults, unpacked as
// it is read, so that reading its head unpacks little more than that.
func streamShipped(name string, head func(*Results) error, each func(*Simulation) error) error {
	src, err := RunFile(name)
	if err != nil {
		return err
	}
	z, err := gzip.NewReader(bytes.NewReader(src))
	if err != nil {
		return &Error{File: name, Message: err.Error()}
	}
	return StreamResults(name, z, head, each)
}

// compareIDs orders task ids by their tau2 id where both are numbers
// (retail's, airline's); other ids (telecom's) keep the files' order.
func compareIDs(a, b string) int {
	var x, y int
	_, ex := fmt.Sscanf(a[strings.LastIndexByte(a, '-')+1:], "%d", &x)
	_, ey := fmt.Sscanf(b[strings.LastIndexByte(b, '-')+1:], "%d", &y)
	if ex != nil || ey != nil {
		return 0
	}
	return x - y
}
