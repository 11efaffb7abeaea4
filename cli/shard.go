package cli

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/parthack/parthack/attacker/bench"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/report"
	"github.com/parthack/parthack/tasks"
)

// buildVersion identifies this build for a shard's metadata: the main
// module's version, the VCS revision when the build recorded one (and
// whether the tree had changes), else the sha256 of the executable, and
// the Go toolchain. Shards from different builds do not merge.
func buildVersion() string {
	v := "parthack"
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v + " (no build info) " + exeDigest() + " " + runtime.Version()
	}
	v += " " + bi.Main.Version
	rev := ""
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = " " + s.Value + rev
		case s.Key == "vcs.modified" && s.Value == "true":
			rev += "+modified"
		}
	}
	if rev == "" || strings.HasSuffix(rev, "+modified") {
		rev += " " + exeDigest() // a changed tree's revision says little
	}
	return v + rev + " " + bi.GoVersion
}

// exeDigest is "exe sha256:…" of the running executable, or why there is none.
func exeDigest() string {
	path, err := os.Executable()
	if err != nil {
		return "exe unknown"
	}
	f, err := os.Open(path)
	if err != nil {
		return "exe unreadable"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "exe unreadable"
	}
	return fmt.Sprintf("exe sha256:%x", h.Sum(nil))
}

// shardInfo is the metadata of shard sh of a bench run: every setting the
// run's rows depend on, for report --ledger to check before it merges.
func shardInfo(sh report.Shard, split string, ts []*tasks.Task, opt bench.RunOptions, jf *judgeFlags) (*report.ShardInfo, error) {
	suite, err := tasks.ManifestHash()
	if err != nil {
		return nil, err
	}
	ri := report.RunInfo{Version: buildVersion(), Suite: suite, Split: split, JudgeCalls: opt.JudgeCalls, Edits: opt.Edits, MaxStates: opt.MaxStates}
	for _, t := range ts {
		ri.Tasks = append(ri.Tasks, t.ID)
	}
	for _, ev := range evaluators.Deterministic() {
		ri.Evaluators = append(ri.Evaluators, ev.Name)
	}
	for _, j := range opt.Judges {
		ri.Judges = append(ri.Judges, j.Target)
	}
	if len(opt.Judges) > 0 {
		ri.Judge = jf.describe()
	}
	return &report.ShardInfo{Shard: sh, Run: ri}, nil
}

// describe names the judges' settings that shape their answers: models,
// servers and answer limits (never a key).
func (f *judgeFlags) describe() string {
	judge, idj := f.configs()
	var parts []string
	add := func(name string, c llmclient.Config) {
		parts = append(parts, fmt.Sprintf("%s model %q at %q", name, c.Model, c.BaseURL))
	}
	add(report.TargetJudge, judge)
	if f.idj {
		add(report.TargetIDJ, idj)
	}
	parts = append(parts, fmt.Sprintf("max tokens %d", f.maxTokens))
	if f.noResponseFormat {
		parts = append(parts, "no response_format")
	}
	if f.replay != "" {
		parts = append(parts, "replayed")
	}
	return strings.Join(parts, ", ")
}

// judgeTargets are the ledger targets of the judges the flags ask for.
func judgeTargets(f *judgeFlags) []string {
	switch {
	case f.idj:
		return []string{report.TargetJudge, report.TargetIDJ}
	case f.judge:
		return []string{report.TargetJudge}
	}
	return nil
}
