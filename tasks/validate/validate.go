// Package validate checks the PartHackBench suite: every property SPEC §8
// asks of a task, on the public half (package tasks) and the sealed half
// (package tasks/sealed) together. It is trusted code: it reads the
// sealed half, so only the CLI and tests import it.
//
// Validate reports the first broken property of a task, located by task,
// file, step, event or predicate ("PH-H05: honest.json step 3: …").
package validate

import (
	"fmt"
	"math/bits"
	"regexp"
	"slices"
	"strings"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/internal/taskfile"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
	"github.com/parthack/parthack/tasks"
	"github.com/parthack/parthack/tasks/sealed"
)

// MinCanaries is the least number of canary strings per task.
const MinCanaries = 5

// CanaryPattern is the form of every canary: distinctive, so a scanner
// finds it anywhere.
var CanaryPattern = regexp.MustCompile(`^PHB-CANARY-[0-9a-f]{16}$`)

// canaryInText finds a canary anywhere in a text.
var canaryInText = regexp.MustCompile(`PHB-CANARY-[0-9a-f]{16}`)

// Error is a broken property of one task.
type Error struct {
	Task string
	Msg  string
}

func (e *Error) Error() string { return e.Task + ": " + e.Msg }

// checker carries one task through the checks.
type checker struct {
	t       *tasks.Task
	trusted *model.Task
	part    *model.Sealed
	pub     *pbcste.Env // the public task, for the public predicates
	env     *pbcste.Env // the trusted task, for the certifier
	honest  *certifier.Result
	// files names the files in messages: a suite file's name (tasks.File*)
	// maps to the path a user gave; absent, the suite's name is used.
	files map[string]string
}

// name is how messages name one of the task's files.
func (c *checker) name(file string) string {
	if p, ok := c.files[file]; ok {
		return p
	}
	return file
}

func (c *checker) fail(format string, args ...any) error {
	return &Error{Task: c.t.ID, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks one task and returns its first broken property. The
// trusted task is built from t.Public and the task's sealed part, so a
// modified copy of a suite task is checked as modified.
func Validate(t *tasks.Task) error {
	c := &checker{t: t}
	for _, check := range []func() error{
		c.metadata,
		c.schema,
		c.honestRun,
		c.goalPatch,
		c.attribution,
		c.rollback,
		c.witness,
		c.correspondence,
		c.alphabet,
		c.canaries,
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// ValidateAll validates every task and the suite as a whole, and returns
// the manifest hash. The hash is that of a fresh decode of the embedded
// files (tasks.DecodeSuite), and it must equal the shared suite's, which
// the validation read: a difference is a decoder that is not a function
// of the files, or a caller that modified the shared tasks.
func ValidateAll() (manifestHash string, err error) {
	all, err := tasks.Suite()
	if err != nil {
		return "", err
	}
	for _, t := range all {
		if err := Validate(t); err != nil {
			return "", err
		}
	}
	if err := suiteChecks(all); err != nil {
		return "", err
	}
	shared, err := tasks.ManifestHashOf(all)
	if err != nil {
		return "", err
	}
	fresh, err := tasks.DecodeSuite()
	if err != nil {
		return "", err
	}
	h, err := tasks.ManifestHashOf(fresh)
	if err != nil {
		return "", err
	}
	if h != shared {
		return "", fmt.Errorf("suite: the manifest hash is not stable: %s from a fresh decode, %s from the shared suite", h, shared)
	}
	return h, nil
}

// suiteChecks are the properties of the suite as a whole: the ids, the
// development split's composition, and canaries unique across tasks.
func suiteChecks(all []*tasks.Task) error {
	var want []string
	for i := 1; i <= 6; i++ {
		want = append(want, fmt.Sprintf("PH-D%02d", i))
	}
	for i := 1; i <= 18; i++ {
		want = append(want, fmt.Sprintf("PH-H%02d", i))
	}
	var got []string
	dev := map[string]int{}
	owner := map[string]string{}
	for _, t := range all {
		got = append(got, t.ID)
		wantSplit := model.SplitHeldOut
		if strings.HasPrefix(t.ID, "PH-D") {
			wantSplit = model.SplitDevelopment
			dev[t.Family]++
		}
		if t.Split != wantSplit {
			return fmt.Errorf("%s: meta.json: split is %q, expected %q", t.ID, t.Split, wantSplit)
		}
		canaries, err := sealed.Canaries(t.ID)
		if err != nil {
			return err
		}
		for _, k := range canaries {
			if prev, dup := owner[k]; dup {
				return fmt.Errorf("%s: canary %s is also a canary of %s", t.ID, k, prev)
			}
			owner[k] = t.ID
		}
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("suite: task ids are %s, expected %s", strings.Join(got, " "), strings.Join(want, " "))
	}
	for _, want := range []struct {
		family string
		n      int
	}{{model.FamilyPersistent, 2}, {model.FamilyCRUD, 1}, {model.FamilyInteraction, 1}, {model.FamilyGoalPatch, 2}} {
		if dev[want.family] != want.n {
			return fmt.Errorf("suite: the development split has %d %s tasks, expected %d", dev[want.family], want.family, want.n)
		}
	}
	return nil
}

// metadata checks that the metadata and the stored files agree with the
// task's family, split and tags.
func (c *checker) metadata() error {
	t := c.t
	if t.Public == nil || t.HonestTrajectory == nil {
		return c.fail("%s and %s are required", tasks.FileTask, tasks.FileHonest)
	}
	if t.Public.ID != t.ID {
		return c.fail("task.json: id is %q", t.Public.ID)
	}
	wantRB := model.RollbackExcluded
	if t.Split == model.SplitHeldOut && t.Family != model.FamilyGoalPatch {
		wantRB = model.RollbackIncluded
	}
	if t.RollbackMetric != wantRB {
		return c.fail("meta.json: rollback metric is %q; a %s %s task is %q", t.RollbackMetric, t.Split, t.Family, wantRB)
	}
	if t.Split == model.SplitDevelopment && (t.Honest != model.Frac{Num: 1, Den: 2}) {
		return c.fail("meta.json: honest progress of a development task is 1/2, not %s", t.Honest)
	}
	for _, f := range []struct {
		file    string
		present bool
		want    bool
		why     string
	}{
		{tasks.FileRollback, t.RollbackTrajectory != nil, wantRB == model.RollbackIncluded, "a task whose rollback metric is included"},
		{tasks.FileWitness, t.Witness != nil, t.Split == model.SplitDevelopment, "a development task"},
		{tasks.FileAttribution, t.AttributionControl != nil, t.HasTag(model.TagAttribution), "an Attr task"},
	} {
		if f.present != f.want {
			if f.want {
				return c.fail("%s is missing: %s has one", f.file, f.why)
			}
			return c.fail("%s is present: only %s has one", f.file, f.why)
		}
	}
	for _, n := range t.Trajectories() {
		if n.Trajectory.Task != t.ID {
			return c.fail("%s: trajectory is for task %q", n.File, n.Trajectory.Task)
		}
	}
	return nil
}

// schema checks that the public and trusted tasks compile, that the
// public schema is the trusted one minus hidden fields, that hidden fields
// are out of the agent's and the script's reach, and the goal sizes.
func (c *checker) schema() error {
	var err error
	if c.trusted, c.part, err = sealed.Open(c.t.Public); err != nil {
		return c.fail("sealed part: %v", err)
	}
	if c.pub, err = pbcste.Compile(c.t.Public); err != nil {
		return c.fail("public task: %v", err)
	}
	if c.env, err = pbcste.Compile(c.trusted); err != nil {
		return c.fail("trusted task: %v", err)
	}
	pub, al := &c.t.Public.Schema, &c.t.Public.Allowlist
	hidden := map[string]bool{}
	for _, tt := range c.trusted.Schema.Types {
		pt, ok := pub.Type(tt.Name)
		if !ok {
			return c.fail("schema: type %s is not in the public schema", tt.Name)
		}
		for _, fd := range tt.Fields {
			pf, ok := pt.Field(fd.Name)
			switch {
			case ok && !sameField(pf, &fd):
				return c.fail("schema: field %s.%s differs between the public and the trusted schema", tt.Name, fd.Name)
			case !ok && al.AllowsField(tt.Name, fd.Name):
				return c.fail("schema: hidden field %s.%s is allowlisted", tt.Name, fd.Name)
			case !ok:
				hidden[tt.Name+"."+fd.Name] = true
			}
		}
	}
	if len(pub.Types) != len(c.trusted.Schema.Types) {
		return c.fail("schema: the public schema has types the trusted one lacks")
	}
	scriptWrites := map[string]bool{}
	for i, ev := range c.t.Public.Script {
		for _, a := range ev.Fields {
			scriptWrites[ev.Type+"."+a.Field] = true
			if hidden[ev.Type+"."+a.Field] {
				return c.fail("task.json script event %d writes hidden field %s.%s", i+1, ev.Type, a.Field)
			}
		}
	}
	for _, g := range c.trusted.Goals {
		if n := len(g.Predicates); n < taskfile.MinPredicates || n > taskfile.MaxPredicates {
			return c.fail("goal %s has %d predicates; a task's goal version has %d to %d", g.Version, n, taskfile.MinPredicates, taskfile.MaxPredicates)
		}
		for _, p := range g.Predicates {
			for _, cell := range reads(&p.Expr) {
				if !hidden[cell.typ+"."+cell.field] {
					continue
				}
				if al.AllowsType(cell.typ) || scriptWrites[cell.typ+"."+cell.field] {
					return c.fail("predicate %s: the Oracle reads hidden field %s.%s of a type the agent or the script can change, so a redacted state could not decide it",
						p.ID, cell.typ, cell.field)
				}
			}
		}
	}
	return nil
}

func sameField(a, b *model.FieldDef) bool {
	return a.Name == b.Name && a.Kind == b.Kind && a.Target == b.Target && slices.Equal(a.Values, b.Values)
}

type cell struct{ typ, field string }

// reads lists the (type, field) pairs an expression reads.
func reads(e *model.Expr) []cell {
	var out []cell
	switch e.Kind {
	case model.ExprAll, model.ExprAny, model.ExprNot:
		for i := range e.Args {
			out = append(out, reads(&e.Args[i])...)
		}
	case model.ExprField, model.ExprRef:
		out = append(out, cell{e.Type, e.Field})
	case model.ExprCount:
		for _, w := range e.Where {
			out = append(out, cell{e.Type, w.Field})
		}
	}
	return out
}

// certify double-certifies a stored trajectory; a rejection or a
// disagreement is a broken property of the file.
func (c *checker) certify(file string, tr *model.Trajectory) (*certifier.Result, error) {
	res, rej, err := certifier.DoubleCertify(c.env, tr)
	if err != nil {
		return nil, c.fail("%s: %v", file, err)
	}
	if rej != nil {
		return nil, c.fail("%s%s: not certifiable: %s: %s", file, at(rej.Evidence.Step), rej.Reason, rej.Evidence.Detail)
	}
	return res, nil
}

func at(step int) string {
	if step > 0 {
		return fmt.Sprintf(" step %d", step)
	}
	return ""
}

// allSucceed checks that every event of a log succeeded.
func (c *checker) allSucceed(file string, log *pbcste.Log) error {
	for i := range log.Events {
		ev := &log.Events[i]
		if ev.OK {
			continue
		}
		if ev.Step >= 0 {
			return c.fail("%s step %d: fails (%s); every step of a stored trajectory succeeds", file, ev.Step+1, log.Reason(ev))
		}
		return c.fail("%s event %d: scripted event %d fails (%s)", file, ev.Seq+1, ev.Script+1, log.Reason(ev))
	}
	return nil
}

// honestRun checks H: a legal prefix that ends with exactly the declared
// progress and m, no terminal success, P_state = P_agent component-wise,
// and no accidental transient peak.
func (c *checker) honestRun() error {
	file := c.name(tasks.FileHonest)
	res, err := c.certify(file, c.t.HonestTrajectory)
	if err != nil {
		return err
	}
	c.honest = res
	if err := c.allSucceed(file, res.Log); err != nil {
		return err
	}
	cert := res.Cert
	if c.t.M > 0 && len(cert.Predicates) != c.t.M { // a user's task has no metadata
		return c.fail("%s: ends on goal %s with %d predicates; meta.json declares m = %d", file, cert.GoalVersion, len(cert.Predicates), c.t.M)
	}
	if c.t.Honest.Den > 0 && !sameFrac(cert.PState, c.t.Honest) {
		return c.fail("%s: P_state is %s (c_state %v); meta.json declares %s", file, cert.PState, cert.CState, c.t.Honest)
	}
	if cert.PState.Num == cert.PState.Den {
		return c.fail("%s: terminal success: every predicate holds at the end; H is a partial prefix", file)
	}
	for j := range cert.CState {
		if cert.CState[j] != cert.CAgent[j] {
			return c.fail("%s: predicate %s holds at the end but its latest cause is %s, not the agent: P_state must equal P_agent",
				file, cert.Predicates[j], cert.Causes[j])
		}
	}
	h := history(res.Log)
	if !sameFrac(h.peak, cert.PState) {
		where := fmt.Sprintf("event %d", h.peakSeq)
		if h.peakSeq == 0 {
			where = "initial snapshot"
		}
		return c.fail("%s %s: accidental transient peak: progress %s under goal %s exceeds the final %s", file, where, h.peak, h.peakGoal, cert.PState)
	}
	if !sameFrac(h.milestone, cert.PState) {
		return c.fail("%s: accidental transient peak: Historical Milestone %s (goal %s) exceeds the final %s", file, h.milestone, h.milestoneGoal, cert.PState)
	}
	return nil
}

func sameFrac(a, b model.Frac) bool { return a.Num*b.Den == b.Num*a.Den }

// hist is what the historical evaluators see of a trajectory, computed
// from the trusted log under the goal version active at each point,
// the initial snapshot included.
type hist struct {
	peak          model.Frac
	peakSeq       int // 1-based event of the first peak, 0 for the initial snapshot
	peakGoal      string
	milestone     model.Frac
	milestoneGoal string
}

func history(log *pbcste.Log) hist {
	goals := log.Env.Goals()
	init := log.Snapshot(-1)
	var bits0 uint64
	for j, p := range goals[0].Preds {
		if init.Eval(p) {
			bits0 |= 1 << uint(j)
		}
	}
	seen := make([]uint64, len(goals))
	h := hist{peak: model.Frac{Num: -1, Den: 1}}
	visit := func(seq, goal int, cstate uint64) {
		f := model.Frac{Num: bits.OnesCount64(cstate), Den: len(goals[goal].Preds)}
		if h.peak.Less(f) {
			h.peak, h.peakSeq, h.peakGoal = f, seq, goals[goal].Version
		}
		seen[goal] |= cstate
	}
	visit(0, 0, bits0)
	for i := range log.Events {
		ev := &log.Events[i]
		visit(ev.Seq+1, int(ev.Goal), ev.CState)
	}
	h.milestone = model.Frac{Num: -1, Den: 1}
	for g, s := range seen {
		f := model.Frac{Num: bits.OnesCount64(s), Den: len(goals[g].Preds)}
		if h.milestone.Less(f) {
			h.milestone, h.milestoneGoal = f, goals[g].Version
		}
	}
	return h
}

// goalPatch checks the goal revisions: GoalPatch tasks revise their goal
// by script and H ends on a revised version; other tasks never revise.
func (c *checker) goalPatch() error {
	var revisions []int
	for i, ev := range c.t.Public.Script {
		if ev.Op == model.OpReviseGoal {
			revisions = append(revisions, i)
		}
	}
	if c.t.Family != model.FamilyGoalPatch {
		if len(revisions) > 0 {
			return c.fail("%s script event %d revises the goal; only GoalPatch tasks do", c.name(tasks.FileTask), revisions[0]+1)
		}
		return nil
	}
	if len(revisions) == 0 {
		return c.fail("%s: a GoalPatch task scripts a revise_goal event", c.name(tasks.FileTask))
	}
	log := c.honest.Log
	first := c.env.Goals()[0].Version
	if log.Goal().Version == first {
		return c.fail("%s: ends on the initial goal version %s; a GoalPatch honest trajectory ends on a revised version", c.name(tasks.FileHonest), first)
	}
	for i := range log.Events {
		ev := &log.Events[i]
		if ev.Script >= 0 && ev.Action.Op == model.OpReviseGoal && ev.DiffLen() == 0 {
			return c.fail("%s event %d: the revision to %s changes nothing", c.name(tasks.FileHonest), ev.Seq+1, ev.Action.Goal)
		}
	}
	return nil
}

// attribution checks an Attr task: a scripted non-agent event touches a
// predicate of the final goal in H, and the attribution control, which
// leaves a predicate to that event, is rejected for its attribution.
func (c *checker) attribution() error {
	if !c.t.HasTag(model.TagAttribution) {
		return nil
	}
	log := c.honest.Log
	touched := false
	for i := range log.Events {
		ev := &log.Events[i]
		if ev.Script < 0 || ev.Action.Op == model.OpReviseGoal {
			continue
		}
		for _, p := range log.Goal().Preds {
			if log.Touches(i, p) {
				touched = true
			}
		}
	}
	if !touched {
		return c.fail("%s: no scripted non-agent event touches a predicate, so attribution cannot matter", c.name(tasks.FileHonest))
	}
	file := c.name(tasks.FileAttribution)
	v, err := certifier.DoublePair(c.env, c.t.HonestTrajectory, c.t.AttributionControl)
	if err != nil {
		return c.fail("%s: %v", file, err)
	}
	if v.Eligible || v.Reason != model.AttributionVectorMismatch {
		return c.fail("%s: the attribution control must be rejected with %s; it is %s", file, model.AttributionVectorMismatch, verdictText(v))
	}
	return nil
}

func verdictText(v model.Verdict) string {
	if v.Eligible {
		return "eligible"
	}
	s := "rejected with " + string(v.Reason)
	if v.Evidence != nil {
		s += ": " + v.Evidence.Detail
	}
	return s
}

// rollback checks that R is a certified strict rollback of H.
func (c *checker) rollback() error {
	if c.t.RollbackTrajectory == nil {
		return nil
	}
	return c.rollbackOf(tasks.FileRollback, c.t.RollbackTrajectory)
}

// rollbackOf checks that the trajectory in file is a certified strict
// rollback of H.
func (c *checker) rollbackOf(file string, r *model.Trajectory) error {
	v, err := certifier.DoubleRollback(c.env, c.t.HonestTrajectory, r)
	if err != nil {
		return c.fail("%s: %v", file, err)
	}
	if !v.Eligible {
		return c.fail("%s%s: not a strict rollback: %s", file, evidenceStep(v.Evidence), verdictText(v))
	}
	return nil
}

func evidenceStep(ev *model.Evidence) string {
	if ev == nil {
		return ""
	}
	return at(ev.Step)
}

// witness checks that the historical witness is eligible against H and
// inflates the historical evaluators.
func (c *checker) witness() error {
	if c.t.Witness == nil {
		return nil
	}
	return c.witnessOf(tasks.FileWitness, c.t.Witness)
}

// witnessOf checks that the trajectory in file is eligible against H and
// inflates the historical evaluators.
func (c *checker) witnessOf(file string, w *model.Trajectory) error {
	v, err := certifier.DoublePair(c.env, c.t.HonestTrajectory, w)
	if err != nil {
		return c.fail("%s: %v", file, err)
	}
	if !v.Eligible {
		return c.fail("%s%s: not eligible against H: %s", file, evidenceStep(v.Evidence), verdictText(v))
	}
	res, err := c.certify(file, w)
	if err != nil {
		return err
	}
	if err := c.allSucceed(file, res.Log); err != nil {
		return err
	}
	h := history(res.Log)
	if !c.honest.Cert.PState.Less(h.peak) || !c.honest.Cert.PState.Less(h.milestone) {
		return c.fail("%s: no temporary peak: Predicate-Max %s and Historical Milestone %s do not both exceed P_state(H) = %s",
			file, h.peak, h.milestone, c.honest.Cert.PState)
	}
	return nil
}

// correspondence checks the one-to-one correspondence on every stored
// trajectory: at every event, each public predicate on the public replay
// equals its Oracle predicate on the trusted replay, for c_state and
// c_agent, so CSPS and the historical evaluators see what the certifier
// sees.
func (c *checker) correspondence() error {
	for _, n := range c.t.Trajectories() {
		pl := c.pub.Replay(n.Trajectory.Steps)
		tl := c.env.Replay(n.Trajectory.Steps)
		if len(pl.Events) != len(tl.Events) {
			return c.fail("%s: the public replay has %d events, the trusted one %d", n.File, len(pl.Events), len(tl.Events))
		}
		for i := range tl.Events {
			pe, te := &pl.Events[i], &tl.Events[i]
			where := fmt.Sprintf("%s event %d", n.File, i+1)
			if te.Step >= 0 {
				where = fmt.Sprintf("%s step %d", n.File, te.Step+1)
			}
			if pe.OK != te.OK || pe.Goal != te.Goal {
				return c.fail("%s: the public and the trusted replay differ (ok %t/%t, goal %d/%d)", where, pe.OK, te.OK, pe.Goal, te.Goal)
			}
			for j, p := range c.env.Goals()[te.Goal].Preds {
				for _, comp := range []struct {
					name   string
					pb, tb uint64
				}{{"c_state", pe.CState, te.CState}, {"c_agent", pe.CAgent, te.CAgent}} {
					pv, tv := comp.pb>>uint(j)&1, comp.tb>>uint(j)&1
					if pv != tv {
						return c.fail("predicate %s: %s: %s is %d for the public predicate and %d for the Oracle predicate", p.ID, where, comp.name, pv, tv)
					}
				}
			}
		}
	}
	return nil
}

// alphabet checks that the action alphabet covers every stored step.
func (c *checker) alphabet() error {
	for _, n := range c.t.Trajectories() {
		if err := c.alphabetOf(n.File, n.Trajectory); err != nil {
			return err
		}
	}
	return nil
}

// alphabetOf checks that the action alphabet covers every step of the
// trajectory in file.
func (c *checker) alphabetOf(file string, tr *model.Trajectory) error {
	al := c.t.Public.Alphabet
	for i, st := range tr.Steps {
		if st.Op == model.OpCall {
			continue // a domain tool call's arguments are not in the alphabet
		}
		at, ok := al[st.Type]
		switch {
		case !ok:
			return c.fail("%s step %d: type %s is not in the action alphabet", file, i+1, st.Type)
		case !slices.Contains(at.IDs, st.ID):
			return c.fail("%s step %d: id %s %s is not in the action alphabet", file, i+1, st.Type, st.ID)
		}
		for _, a := range st.Fields {
			k := slices.IndexFunc(at.Fields, func(f model.AlphabetField) bool { return f.Field == a.Field })
			if k < 0 || !slices.ContainsFunc(at.Fields[k].Values, a.Value.Equal) {
				return c.fail("%s step %d: value %s of %s.%s is not in the action alphabet", file, i+1, a.Value, st.Type, a.Field)
			}
		}
	}
	return nil
}

// canaries checks the task's canaries: enough of them, distinctive,
// planted in the sealed part, and absent from every public artifact.
func (c *checker) canaries() error {
	ks := c.part.Canaries
	if len(ks) < MinCanaries {
		return c.fail("sealed part: %d canaries; at least %d are required", len(ks), MinCanaries)
	}
	sealedText, err := model.Canonical([]any{c.trusted.Initial, c.part.HiddenTests})
	if err != nil {
		return c.fail("sealed part: %v", err)
	}
	for _, k := range ks {
		if !CanaryPattern.MatchString(k) {
			return c.fail("sealed part: canary %q does not match %s", k, CanaryPattern)
		}
		if !strings.Contains(string(sealedText), k) {
			return c.fail("sealed part: canary %s is planted in no hidden value or hidden test", k)
		}
	}
	public := []struct {
		what string
		v    any
	}{
		{tasks.FileTask, c.t.Public},
		{tasks.FileMeta, []any{c.t.Entry(), c.t.Domain}},
	}
	for _, n := range c.t.Trajectories() {
		public = append(public, struct {
			what string
			v    any
		}{n.File, n.Trajectory})
	}
	for _, p := range public {
		b, err := model.Canonical(p.v)
		if err != nil {
			return c.fail("%s: %v", p.what, err)
		}
		for _, k := range ks {
			if strings.Contains(string(b), k) {
				return c.fail("%s: canary %s leaks into a public field", p.what, k)
			}
		}
	}
	return nil
}
