// Package tasks is the public half of the PartHackBench suite: 24 tasks of
// our own authoring (6 development, 18 held-out, SPEC §8), embedded in the
// binary. Per task it holds what an evaluator may see — the instruction,
// the public schema, the redacted initial snapshot, the allowlist, the
// script of non-agent events, the action alphabet and the public goal
// schema — the structural metadata, and the stored trajectories: honest,
// strict rollback, historical witness and attribution control.
//
// The sealed half (Oracle predicates, hidden fields and their values,
// hidden tests, canaries) is package tasks/sealed. This package never
// imports it, so evaluators may import this one.
package tasks

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/parthack/parthack/model"
)

//go:embed data
var files embed.FS

// The files of one task directory under data/.
const (
	FileTask        = "task.json"        // the public task (model task format)
	FileMeta        = "meta.json"        // structural metadata (model meta format)
	FileHonest      = "honest.json"      // honest trajectory H, every task
	FileRollback    = "rollback.json"    // strict rollback R, fixed-goal held-out tasks
	FileWitness     = "witness.json"     // historical witness, development tasks
	FileAttribution = "attribution.json" // attribution control, Attr tasks
)

var knownFiles = []string{FileTask, FileMeta, FileHonest, FileRollback, FileWitness, FileAttribution}

// Task is one suite task: its metadata, its public view and its stored
// trajectories. Everything here is public.
type Task struct {
	ID       string
	Split    string // model.SplitDevelopment or model.SplitHeldOut
	Family   string // model.FamilyGoalPatch, FamilyPersistent, FamilyCRUD or FamilyInteraction
	GoalForm string // "revision", "multi-step", "entity set" or "fixed goal"
	// M counts the predicates of the goal version active at the end of the
	// honest trajectory.
	M              int
	Honest         model.Frac // P_state(H), in lowest terms
	Tags           []string   // model.TagRollback ("RB"), model.TagAttribution ("Attr")
	RollbackMetric string     // model.RollbackIncluded or model.RollbackExcluded
	Domain         string     // the realistic domain of the chore: helpdesk, inventory, …

	// Public is the public view of the task: instruction, public schema
	// (no hidden fields), redacted initial snapshot, allowlist, script,
	// alphabet and public goal versions, one public predicate per Oracle
	// predicate with the same ids in the same order.
	Public *model.Task

	HonestTrajectory   *model.Trajectory
	RollbackTrajectory *model.Trajectory // nil when RollbackMetric is "excluded"
	Witness            *model.Trajectory // hand-written historical witness; development tasks only
	// AttributionControl is a candidate that ends with H's state vector
	// but leaves a predicate to the script's non-agent event, so it must
	// be rejected with attribution_vector_mismatch; Attr tasks only.
	AttributionControl *model.Trajectory

	// Files maps each embedded file of the task to its sha256.
	Files map[string]string
}

// HasTag reports whether the task carries tag.
func (t *Task) HasTag(tag string) bool { return slices.Contains(t.Tags, tag) }

// Trajectories lists the task's stored trajectories by file name, in the
// order of the file constants.
func (t *Task) Trajectories() []Named {
	var out []Named
	for _, n := range []Named{{FileHonest, t.HonestTrajectory}, {FileRollback, t.RollbackTrajectory}, {FileWitness, t.Witness}, {FileAttribution, t.AttributionControl}} {
		if n.Trajectory != nil {
			out = append(out, n)
		}
	}
	return out
}

// Named is a stored trajectory and the file it was read from.
type Named struct {
	File       string
	Trajectory *model.Trajectory
}

var (
	once     sync.Once
	cached   []*Task
	cacheErr error
)

// Suite returns every task, development (PH-D01..PH-D06) then held-out
// (PH-H01..PH-H18), decoded once from the embedded files. The tasks are
// shared: callers must not modify them (Load gives a private copy).
func Suite() ([]*Task, error) {
	once.Do(func() { cached, cacheErr = decodeAll() })
	return cached, cacheErr
}

// DecodeSuite decodes every task anew from the embedded files, as Suite
// did the first time, and shares nothing with Suite's tasks: what the
// suite's files say, whatever any caller did to the shared tasks since.
func DecodeSuite() ([]*Task, error) { return decodeAll() }

// File returns the bytes of one embedded file of a suite task (name is
// one of the File constants), exactly as stored.
func File(id, name string) ([]byte, error) {
	if _, err := Get(id); err != nil {
		return nil, err
	}
	if !slices.Contains(knownFiles, name) {
		return nil, fmt.Errorf("%s: no file %q (files: %s)", id, name, strings.Join(knownFiles, ", "))
	}
	return files.ReadFile(path.Join("data", id, name))
}

// IDs lists the task ids in suite order.
func IDs() ([]string, error) {
	entries, err := fs.ReadDir(files, "data")
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() {
			ids = append(ids, e.Name())
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// Get returns the shared task with the given id.
func Get(id string) (*Task, error) {
	all, err := Suite()
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(all))
	for i, t := range all {
		if t.ID == id {
			return t, nil
		}
		ids[i] = t.ID
	}
	return nil, unknownID(id, ids)
}

func unknownID(id string, ids []string) error {
	return fmt.Errorf("no suite task %q (valid ids: %s)", id, strings.Join(ids, ", "))
}

// Load decodes one task afresh from the embedded files: the result is the
// caller's own, free to modify (to build a corrupted copy, say).
func Load(id string) (*Task, error) {
	ids, err := IDs()
	if err != nil {
		return nil, err
	}
	if !slices.Contains(ids, id) {
		return nil, unknownID(id, ids)
	}
	return decodeTask(id)
}

func decodeAll() ([]*Task, error) {
	ids, err := IDs()
	if err != nil {
		return nil, err
	}
	out := make([]*Task, 0, len(ids))
	for _, id := range ids {
		t, err := decodeTask(id)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// decodeTask reads the directory of one task. It checks that the files
// decode and agree on the task id; what they mean is Validate's business.
func decodeTask(id string) (*Task, error) {
	dir := path.Join("data", id)
	entries, err := fs.ReadDir(files, dir)
	if err != nil {
		return nil, err
	}
	t := &Task{ID: id, Files: map[string]string{}}
	src := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || !slices.Contains(knownFiles, e.Name()) {
			return nil, fmt.Errorf("%s: unexpected entry %s (a task directory holds %s)", id, e.Name(), strings.Join(knownFiles, ", "))
		}
		b, err := files.ReadFile(path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		src[e.Name()] = b
		t.Files[e.Name()] = model.Hash(b)
	}
	for _, need := range []string{FileTask, FileMeta, FileHonest} {
		if src[need] == nil {
			return nil, fmt.Errorf("%s: missing %s", id, need)
		}
	}
	name := func(f string) string { return id + "/" + f }
	meta, err := model.DecodeTaskMeta(name(FileMeta), src[FileMeta])
	if err != nil {
		return nil, err
	}
	if meta.ID != id {
		return nil, fmt.Errorf("%s: %s names task %q", id, FileMeta, meta.ID)
	}
	t.Split, t.Family, t.GoalForm, t.M, t.Honest = meta.Split, meta.Family, meta.GoalForm, meta.M, meta.Honest
	t.Tags, t.RollbackMetric, t.Domain = meta.Tags, meta.RollbackMetric, meta.Domain
	if t.Public, err = model.DecodeTask(name(FileTask), src[FileTask]); err != nil {
		return nil, err
	}
	if t.Public.ID != id {
		return nil, fmt.Errorf("%s: %s names task %q", id, FileTask, t.Public.ID)
	}
	for _, f := range []struct {
		file string
		dst  **model.Trajectory
	}{{FileHonest, &t.HonestTrajectory}, {FileRollback, &t.RollbackTrajectory}, {FileWitness, &t.Witness}, {FileAttribution, &t.AttributionControl}} {
		if src[f.file] == nil {
			continue
		}
		if *f.dst, err = model.DecodeTrajectory(name(f.file), src[f.file]); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// ManifestFormat versions the manifest whose hash ManifestHash returns.
const ManifestFormat = "parthack.manifest/1"

// ManifestEntry is the public structural record of one task.
type ManifestEntry struct {
	ID             string            `json:"id"`
	Split          string            `json:"split"`
	Family         string            `json:"family"`
	GoalForm       string            `json:"goal_form"`
	M              int               `json:"m"`
	Honest         string            `json:"honest_progress"`
	Tags           []string          `json:"tags"`
	RollbackMetric string            `json:"rollback_metric"`
	Files          map[string]string `json:"files"` // file name → sha256 of its bytes
}

// Manifest is the suite's public manifest, in suite order.
type Manifest struct {
	Format string          `json:"format"`
	Tasks  []ManifestEntry `json:"tasks"`
}

// Entry is the task's manifest record.
func (t *Task) Entry() ManifestEntry {
	return ManifestEntry{ID: t.ID, Split: t.Split, Family: t.Family, GoalForm: t.GoalForm, M: t.M, Honest: t.Honest.String(),
		Tags: slices.Clone(t.Tags), RollbackMetric: t.RollbackMetric, Files: t.Files}
}

// BuildManifest is the manifest of a list of tasks.
func BuildManifest(ts []*Task) Manifest {
	m := Manifest{Format: ManifestFormat, Tasks: make([]ManifestEntry, len(ts))}
	for i, t := range ts {
		m.Tasks[i] = t.Entry()
	}
	return m
}

// ManifestHash is the sha256 of the suite manifest's canonical JSON: every
// task's id, split, family, goal form, m, honest progress, tags, rollback
// metric, and the sha256 of every embedded public file.
func ManifestHash() (string, error) {
	ts, err := Suite()
	if err != nil {
		return "", err
	}
	return ManifestHashOf(ts)
}

// ManifestHashOf is the sha256 of the canonical JSON of the manifest of
// ts (BuildManifest).
func ManifestHashOf(ts []*Task) (string, error) {
	b, err := model.Canonical(BuildManifest(ts))
	if err != nil {
		return "", err
	}
	return model.Hash(b), nil
}
