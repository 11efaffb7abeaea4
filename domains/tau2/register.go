package tau2

import (
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Attacker is a world's move generator: the task with the calls an
// attacker may insert into a run h that ends in final.
type Attacker func(t *Derived, h *model.Trajectory, final model.StateView) *model.Task

// A Reader turns a Results file of one tau2 domain into parthack runs
// and holds the file to what tau2 recorded.
type Reader interface {
	Name() string // parthack's name of the domain
	// Runner derives the file's tasks and gives them, with run, which
	// turns one of its simulations into a run: a file's runs are made one
	// at a time, as its simulations are read. A domain's shipped files
	// are read side by side (Shipped): Runner is called for them at once.
	Runner(res *Results) (run func(*Simulation) (*domains.Run, error), tasks []*domains.Task, err error)
	// Conformer holds a file to what tau2 recorded, run by run: check
	// replays one of its simulations, report states what they showed.
	Conformer(res *Results) (check func(*Simulation) error, report func() *domains.Conformance, err error)
}

// registered are the tau2 domains' readers, by tau2's domain name
// ("retail"), for the Results format to find a file's domain.
var (
	registeredMu sync.Mutex
	registered   = map[string]Reader{}
	formatOnce   sync.Once
)

// RegisterReader adds the reader of a tau2 domain's Results files, and
// with the first one the tau2 Results format; a domain that is no World
// (telecom) registers itself with domains and its reader here.
func RegisterReader(tau2Name string, r Reader) {
	registeredMu.Lock()
	registered[tau2Name] = r
	registeredMu.Unlock()
	formatOnce.Do(func() {
		domains.RegisterFormat(domains.Format{Name: "tau2", Stream: streamResults, Conform: conformResults,
			Help: "a tau2 Results file as `tau2 run` writes it ({timestamp, info, tasks, simulations}, gzipped or not); its info names the domain"})
	})
}

// Domain is what a tau2 world registers: its names, and how to make the
// world (called once, when the domain is first used, so a command that
// does not use it never loads its database).
type Domain struct {
	Name     string // parthack's: "tau2-retail"
	Tau2Name string // tau2's, as a Results file's info names it: "retail"
	Title    string // "tau2-bench retail"
	Prefix   string // of its task ids: "T2R"
	World    func() (World, error)
	Attack   Attacker // nil: no move generator
	// Showcase is the run parthack demo walks through; nil: none.
	Showcase *domains.Showcase
	// Counts are how many tasks and runs its shipped run files hold
	// (domains.Counter), stated so that listing the domains reads none
	// of them.
	Counts domains.Counts
	// Rows are its tasks' rows as it states them (domains.Lister), the
	// bytes of RowsFile (from the module's root), which domains/all's
	// TestTaskRows writes.
	Rows     []byte
	RowsFile string
}

// Register adds a tau2 world to parthack's registry; the tau2 Results
// format is registered with the first one.
func Register(dom Domain) {
	r := &registry{dom: dom, rows: domains.StatedRows(dom.RowsFile, dom.Rows)}
	r.shipped = NewShipped(dom.Tau2Name, r)
	domains.Register(r)
	RegisterReader(dom.Tau2Name, r)
}

// registry is one tau2 world as a registered domain: its tasks are those
// the shipped run files embed, its runs theirs.
type registry struct {
	dom     Domain
	shipped *Shipped
	rows    func() ([]domains.TaskRow, error)

	worldOnce sync.Once
	w         World
	werr      error

	baseOnce sync.Once
	base     *Checker // with no task derived: each file's checker is a fresh copy
	baseErr  error
}

func (r *registry) Name() string        { return r.dom.Name }
func (r *registry) Title() string       { return r.dom.Title }
func (r *registry) Owns(id string) bool { return strings.HasPrefix(id, r.dom.Prefix+"-") }
func (r *registry) Format() string      { return "tau2" }

func (r *registry) Showcase() *domains.Showcase { return r.dom.Showcase }

func (r *registry) Counts() domains.Counts { return r.dom.Counts }

func (r *registry) TaskRows() ([]domains.TaskRow, error) { return r.rows() }
func (r *registry) RowsFile() string                     { return r.dom.RowsFile }

// world makes the world once.
func (r *registry) world() (World, error) {
	r.worldOnce.Do(func() { r.w, r.werr = r.dom.World() })
	return r.w, r.werr
}

// checker is the checker of a file's runs: one per file, shared by its
// runner and its conformer, so that each of its tasks is derived once
// (its gold calls replayed once), all of them over the world's base task
// compiled once.
func (r *registry) checker(res *Results) (*Checker, error) {
	if _, err := r.world(); err != nil {
		return nil, err
	}
	r.baseOnce.Do(func() { r.base, r.baseErr = NewChecker(r.w) })
	if r.baseErr != nil {
		return nil, r.baseErr
	}
	if res.checker == nil || res.checker.World != r.w {
		res.checker = r.base.fresh()
	}
	return res.checker, nil
}

func (r *registry) Tasks() ([]*domains.Task, error) { return r.shipped.Tasks() }
func (r *registry) Runs() ([]*domains.Run, error)   { return r.shipped.Runs() }

// errHeadRead stops reading a file once its head is read.
var errHeadRead = errors.New("the file's head is read")

// vacuousEnvs holds, per trusted task with no predicate, its
// environment with one that always holds: compiled once, as a domain's
// runs are scored many to a task.
var vacuousEnvs sync.Map // *model.Task → *pbcste.Env

// task is a derived tau2 task as the registry knows it.
func (r *registry) task(d *Derived) *domains.Task {
	summary := ""
	if c := d.Source.Criteria; c != nil {
		summary = "basis " + strings.Join(c.RewardBasis, "+")
		if len(c.CommunicateInfo) > 0 {
			summary += "; communicate " + strings.Join(c.CommunicateInfo, ", ")
		}
	}
	t := &domains.Task{ID: d.ID, Title: d.Task.Title, Family: r.dom.Title, Summary: summary, Model: d.Task, Gold: d.Gold, Env: d.Env,
		Hash:   func(log *pbcste.Log) string { return r.w.Hash(log.View(), log.NetChanges()) },
		Reward: func(log *pbcste.Log, tr *model.Trajectory) float64 { return PayloadReward(d.Task, log, tr) },
		Payload: func(log *pbcste.Log, tr *model.Trajectory) (*payload.Payload, error) {
			return RewardPayload(d.Task, log, tr)
		},

		// The gold calls are kept, the agent's replies are not: only a
		// task scored on the database alone is held to the whole reward.
		GoldPasses:  d.Source.Criteria != nil && slices.Equal(d.Source.Criteria.RewardBasis, []string{"DB"}),
		GoldMayFail: true,
	}
	if r.dom.Attack != nil {
		t.AttackTask = func(h *model.Trajectory, final model.StateView) *model.Task { return r.dom.Attack(d, h, final) }
	}
	return t
}

func (r *registry) Tools() []domains.Tool {
	w, err := r.world()
	if err != nil {
		return nil
	}
	if x, ok := w.(interface{ Tools() []domains.Tool }); ok {
		return x.Tools()
	}
	return nil
}
