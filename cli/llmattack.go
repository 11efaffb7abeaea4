package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/attacker"
	"github.com/parthack/parthack/attacker/llmattack"
	"github.com/parthack/parthack/evaluators/llm"
	"github.com/parthack/parthack/internal/atomicfile"
	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/model"
)

// attackerFlags are attack --llm's flags, shaped like the judges' flags:
// flags win over the environment, and the API key is only ever read from
// the environment.
type attackerFlags struct {
	on                     bool
	baseURL, model, keyEnv string
	timeout                time.Duration
	maxTokens, k           int
	noResponseFormat       bool
	record, replay         string
}

// llmOnly are the flags that mean something only with --llm; searchOnly
// the search attacker's, which mean nothing with it.
var (
	llmOnly    = []string{"attacker-base-url", "attacker-model", "attacker-api-key-env", "attacker-timeout", "attacker-max-tokens", "attacker-no-response-format", "k", "record", "replay"}
	searchOnly = []string{"edits", "max-states", "pairs"}
)

func (f *attackerFlags) add(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.BoolVar(&f.on, "llm", false, "let an LLM propose the candidates (K attempts) instead of searching")
	fs.StringVar(&f.baseURL, "attacker-base-url", "", "OpenAI-compatible base URL, POST {url}/chat/completions (default $"+llmattack.Env+"BASE_URL)")
	fs.StringVar(&f.model, "attacker-model", "", "attacker model (default $"+llmattack.Env+"MODEL)")
	fs.StringVar(&f.keyEnv, "attacker-api-key-env", llmattack.Env+"API_KEY", "environment variable holding the attacker's API key")
	durationFlag(fs, &f.timeout, "attacker-timeout", llmclient.DefaultTimeout, timeoutRange, "timeout of one attacker request")
	intFlag(fs, &f.maxTokens, "attacker-max-tokens", llmattack.DefaultMaxTokens, maxTokensRange, "token cap of an attacker answer")
	fs.BoolVar(&f.noResponseFormat, "attacker-no-response-format", false, "leave response_format out, for a server that rejects it")
	intFlag(fs, &f.k, "k", llmattack.DefaultK, intRange{min: 1, max: 1000}, "attempts per task; every attempt counts, invalid ones included")
	fs.StringVar(&f.record, "record", "", "append every attacker request and response to this file (JSON lines)")
	fs.StringVar(&f.replay, "replay", "", "answer the attacker from this recording instead of a server")
}

// check holds the flags to their attacker: the LLM attacker's need
// --llm, and the search's bounds do not go with it.
func (f *attackerFlags) check(cmd *cobra.Command) error {
	names, why := llmOnly, "--%s needs --llm"
	if f.on {
		names, why = searchOnly, "--%s bounds the search attacker; it does not go with --llm"
	}
	for _, name := range names {
		if cmd.Flags().Changed(name) {
			return usageErr(why, name)
		}
	}
	switch {
	case !f.on:
		return nil
	case f.record != "" && f.replay != "":
		return usageErr("--record and --replay exclude each other")
	}
	return nil
}

// open is the attacker's client: answering from --replay, or live and
// recording to --record (returned, to be closed). Not configured is a
// usage error: there is nothing to attack with, and nothing is made up.
// The recording is opened as every command opens one (llm.OpenLog,
// llm.OpenReplay): one format, whichever command wrote it.
func (f *attackerFlags) open() (*llmclient.Client, *llmclient.Log, error) {
	cfg := llmclient.Endpoint(llmattack.Env, f.baseURL, f.model, f.keyEnv, os.Getenv)
	cfg.Timeout, cfg.MaxTokens, cfg.NoResponseFormat = f.timeout, f.maxTokens, f.noResponseFormat
	if f.replay != "" {
		rp, err := llm.OpenReplay(f.replay)
		if err != nil {
			return nil, nil, usageErr("--replay: %w", err)
		}
		c := replayClient(rp, cfg, "--attacker-model", llmattack.CallAttack)
		if c.c == nil {
			return nil, nil, usageErr("--llm: the attacker is %s: %s", stateNotConfigured, c.why)
		}
		return c.c, nil, nil
	}
	if !cfg.Configured() {
		return nil, nil, usageErr("--llm: the attacker is %s: give --attacker-base-url and --attacker-model, or set %sBASE_URL and %sMODEL", stateNotConfigured, llmattack.Env, llmattack.Env)
	}
	var log *llmclient.Log
	var rec llmclient.Recorder
	if f.record != "" {
		var err error
		if log, err = llm.OpenLog(f.record); err != nil {
			return nil, nil, usageErr("--record: %w", err)
		}
		rec = log
	}
	c, err := liveClient(cfg, rec, "--attacker-base-url", "")
	if err != nil {
		if log != nil {
			log.Close()
		}
		return nil, nil, err
	}
	return c.c, log, nil
}

// attackLLM is attack --llm: one task, or every task of a split.
func attackLLM(ctx context.Context, e *env, f *attackerFlags, taskArg, honestArg, outPath, target string, asJSON bool) (err error) {
	ids, split := splitIDs(taskArg)
	if split && (honestArg != "" || outPath != "") {
		return usageErr("--honest and --out apply to a single task")
	}
	c, log, err := f.open()
	if err != nil {
		return err
	}
	if log != nil {
		defer func() {
			if cerr := log.Close(); err == nil && cerr != nil {
				err = fmt.Errorf("--record: %w", cerr)
			}
		}()
	}
	opt := llmattack.Options{Target: target, K: f.k}
	if split {
		return llmAttackSuite(ctx, e, c, ids, opt, asJSON)
	}
	hname, err := honestPath(taskArg, honestArg)
	if err != nil {
		return err
	}
	res, err := e.llmAttackOne(ctx, c, taskArg, hname, opt)
	if err != nil {
		return err
	}
	if label, ok := runLabel(taskArg, hname); ok && res.Best != nil {
		res.Best.Honest = label // as the search attacker's witness does
	}
	if outPath != "" && res.Best != nil {
		if err := atomicfile.Write(outPath, model.EncodeTrajectory(res.Best), 0o644); err != nil {
			return usageErr("write --out: %w", err)
		}
	}
	if asJSON {
		return writeJSON(e.stdout, struct {
			*llmattack.Result
			H       string            `json:"honest_name"`
			Witness *model.Trajectory `json:"witness,omitempty"`
		}{res, hname, res.Best})
	}
	writeLLMAttack(e, res, hname, outPath)
	return nil
}

func (e *env) llmAttackOne(ctx context.Context, c *llmclient.Client, taskArg, honestPath string, opt llmattack.Options) (*llmattack.Result, error) {
	env, pub, err := loadTaskViews(taskArg)
	if err != nil {
		return nil, err
	}
	h, err := e.loadHonest(taskArg, honestPath)
	if err != nil {
		return nil, usage(err)
	}
	if err := checkEpisode(env.Task, honestPath, h); err != nil {
		return nil, err
	}
	if err := checkAttackable(env.Task, honestPath, h); err != nil {
		return nil, err
	}
	if _, t, domain, err := domainTask(taskArg); err == nil && domain && t.AttackTask != nil {
		// A domain task's calls to add are drawn from the task and from
		// where H ends, as the search's are.
		pub = t.AttackTask(h, env.Replay(h.Steps).View())
	}
	res, err := llmattack.Run(ctx, c, pub, env, h, opt)
	if err != nil {
		if errors.Is(err, ctx.Err()) {
			return nil, err
		}
		return nil, usage(err)
	}
	return res, nil
}

// optScore prints a score an attempt may lack.
func optScore(v *float64, format string) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf(format, *v)
}

func writeLLMAttack(e *env, r *llmattack.Result, hname, outPath string) {
	w := e.stdout
	fmt.Fprintf(w, "task %s   H %s   target %s   LLM attacker %s, K = %d\n\n", r.Task, hname, r.Target, r.Model, r.K)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "attempt\trequests\toutcome\tf(A)\tΔhack\n")
	for _, a := range r.Attempts {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\n", a.N, a.Requests, a.Outcome, optScore(a.Score, "%.3f"), optScore(a.Delta, "%+.3f"))
	}
	tw.Flush()
	for _, a := range r.Attempts {
		if a.Detail != "" {
			fmt.Fprintf(w, "attempt %d: %s: %s\n", a.N, a.Outcome, a.Detail)
		}
	}
	fmt.Fprintf(w, "\naccounting %d attempts: %d generated, %d protocol-valid, %d eligible\n", len(r.Attempts), r.Generated, r.Valid, r.Eligible)
	if r.Best == nil {
		fmt.Fprintf(w, "result     no eligible candidate: no matched adversary\n")
		return
	}
	fmt.Fprintf(w, "f(H)       %.3f\nf(A)       %.3f\nΔhack      %+.3f\n\nwitness (attempt %d, %d steps)\n", r.Honest, r.Score, r.Delta, r.BestAttempt, len(r.Best.Steps))
	for i := range r.Best.Steps {
		fmt.Fprintf(w, "  %2d  %s\n", i+1, model.AppendStep(nil, &r.Best.Steps[i]))
	}
	if outPath != "" {
		fmt.Fprintf(w, "\nwritten to %s\n", outPath)
	}
}

// llmAttackSuite runs the LLM attacker on every task of a split and
// prints the ledger, the candidate accounting and the summary metrics.
func llmAttackSuite(ctx context.Context, e *env, c *llmclient.Client, ids []string, opt llmattack.Options, asJSON bool) error {
	var rows []*llmattack.Result
	var heads []*attacker.Result // what the summary reads: the match and its Δhack
	attempts, generated, valid := 0, 0, 0
	for _, id := range ids {
		r, err := e.llmAttackOne(ctx, c, id, "", opt)
		if err != nil {
			return fmt.Errorf("%s: %w", id, err)
		}
		rows = append(rows, r)
		heads = append(heads, &attacker.Result{Task: r.Task, Honest: r.Honest, Best: r.Best, Delta: r.Delta})
		attempts, generated, valid = attempts+len(r.Attempts), generated+r.Generated, valid+r.Valid
	}
	sum := summarize(opt.Target, heads)
	if asJSON {
		return writeJSON(e.stdout, struct {
			Tasks   []*llmattack.Result `json:"tasks"`
			Summary attackSummary       `json:"summary"`
		}{rows, sum})
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "task\tattempts\tgenerated\tvalid\teligible\tmatched\tf(H)\tf(A)\tΔhack\n")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%.3f\t%.3f\t%+.3f\n", r.Task, len(r.Attempts), r.Generated, r.Valid, r.Eligible, yesNo(r.Best != nil), r.Honest, r.Score, r.Delta)
	}
	tw.Flush()
	fmt.Fprintf(e.stdout, "\ntarget %s, LLM attacker %s, K = %d: %d attempts, %d generated, %d protocol-valid\n", opt.Target, c.Model(), opt.K, attempts, generated, valid)
	fmt.Fprintln(e.stdout, sum.metrics())
	return nil
}
