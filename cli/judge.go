package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/attacker/bench"
	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/evaluators/llm"
	"github.com/parthack/parthack/internal/llmclient"
	"github.com/parthack/parthack/report"
)

// judgeFlags are the flags for the two LLM evaluators, the same for score
// and bench. Flags win over the environment; an API key is only ever
// read from the environment, so it never shows in a process list or
// shell history.
type judgeFlags struct {
	judge, idj                      bool
	baseURL, model, keyEnv          string
	idjBaseURL, idjModel, idjKeyEnv string
	timeout                         time.Duration
	maxTokens                       int
	noResponseFormat                bool
	record, replay                  string
}

func (f *judgeFlags) add(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.BoolVar(&f.judge, "judge", false, "also score with the schema-aware LLM judge")
	fs.BoolVar(&f.idj, "idj", false, "also score with IDJ, the independent-checklist judge (implies --judge)")
	fs.StringVar(&f.baseURL, "judge-base-url", "", "OpenAI-compatible base URL, POST {url}/chat/completions (default $"+llm.JudgeEnv+"BASE_URL)")
	fs.StringVar(&f.model, "judge-model", "", "judge model (default $"+llm.JudgeEnv+"MODEL)")
	fs.StringVar(&f.keyEnv, "judge-api-key-env", llm.JudgeEnv+"API_KEY", "environment variable holding the judge's API key")
	fs.StringVar(&f.idjBaseURL, "idj-base-url", "", "IDJ's base URL (default $"+llm.IDJEnv+"BASE_URL, else the judge's)")
	fs.StringVar(&f.idjModel, "idj-model", "", "IDJ's checklist and scoring model (default $"+llm.IDJEnv+"MODEL, else the judge's)")
	fs.StringVar(&f.idjKeyEnv, "idj-api-key-env", llm.IDJEnv+"API_KEY", "environment variable holding IDJ's API key (with IDJ's own base URL)")
	durationFlag(fs, &f.timeout, "judge-timeout", llmclient.DefaultTimeout, timeoutRange, "timeout of one judge request")
	intFlag(fs, &f.maxTokens, "judge-max-tokens", llmclient.DefaultMaxTokens, maxTokensRange, "token cap of a judge answer")
	fs.BoolVar(&f.noResponseFormat, "judge-no-response-format", false, "leave response_format out, for a server that rejects it")
	fs.StringVar(&f.record, "record", "", "append every judge request and response, and IDJ's frozen checklists, to this file (JSON lines)")
	fs.StringVar(&f.replay, "replay", "", "answer the judges from this recording instead of a server")
}

// on reports whether any judge was asked for, and checks that the
// judge flags are used together sensibly; steps is score's --steps,
// which scores prefixes no judge is asked about (bench has none).
func (f *judgeFlags) on(cmd *cobra.Command, steps bool) (bool, error) {
	f.judge = f.judge || f.idj
	if !f.judge {
		for _, name := range []string{"judge-base-url", "judge-model", "judge-api-key-env", "idj-base-url", "idj-model", "idj-api-key-env",
			"judge-timeout", "judge-max-tokens", "judge-no-response-format", "record", "replay"} {
			if cmd.Flags().Changed(name) {
				return false, usageErr("--%s needs --judge", name)
			}
		}
		return false, nil
	}
	switch {
	case steps:
		return false, usageErr("--judge scores the whole trajectory; it does not go with --steps")
	case f.record != "" && f.replay != "":
		return false, usageErr("--record and --replay exclude each other")
	}
	return true, nil
}

// configs are the judge's and IDJ's endpoints from flags and environment.
func (f *judgeFlags) configs() (judge, idj llmclient.Config) {
	judge = llmclient.Endpoint(llm.JudgeEnv, f.baseURL, f.model, f.keyEnv, os.Getenv)
	idj = llmclient.Endpoint(llm.IDJEnv, f.idjBaseURL, f.idjModel, f.idjKeyEnv, os.Getenv)
	idj = idj.Or(judge)
	for _, c := range []*llmclient.Config{&judge, &idj} {
		c.Timeout, c.MaxTokens, c.NoResponseFormat = f.timeout, f.maxTokens, f.noResponseFormat
	}
	return judge, idj
}

// judgeRow is one LLM evaluator's outcome for the score command: a
// score, "not configured", or an error, never a made-up score.
type judgeRow struct {
	Name   string         `json:"name"`
	Label  string         `json:"label"`
	State  string         `json:"state"` // "scored", "not configured" or "error"
	Value  *float64       `json:"value,omitempty"`
	Detail string         `json:"detail,omitempty"` // the error, or what configuring takes
	Judge  *llm.Result    `json:"judge,omitempty"`
	IDJ    *llm.IDJResult `json:"idj,omitempty"`
	NL     *llm.NLResult  `json:"nl_assertions,omitempty"`
}

const (
	stateScored        = "scored"
	stateNotConfigured = "not configured"
	stateError         = "error"
)

// judgeClient is a client, or why there is none.
type judgeClient struct {
	c   *llmclient.Client
	why string
}

// judgeClients are the clients the flags ask for: the judge's, and IDJ's
// when --idj is given (or a replay is); the NL_ASSERTION judge asks the
// judge's endpoint.
type judgeClients struct {
	judge, idj, nl judgeClient
	log            *llmclient.Log // the --record file; nil without one
}

// open makes the clients: answering from the --replay recording, or
// live and recording to --record. Close the result when done.
func (f *judgeFlags) open() (*judgeClients, error) {
	judgeCfg, idjCfg := f.configs()
	cs := &judgeClients{}
	if f.replay != "" {
		rp, err := llm.OpenReplay(f.replay)
		if err != nil {
			return nil, usageErr("--replay: %w", err)
		}
		cs.judge = replayClient(rp, judgeCfg, "--judge-model", llm.CallJudge)
		cs.idj = replayClient(rp, idjCfg, "--idj-model", llm.CallChecklist, llm.CallIDJ)
		cs.nl = replayClient(rp, judgeCfg, "--judge-model", llm.CallNLAssertions)
		return cs, nil
	}
	var rec llmclient.Recorder
	if f.record != "" {
		log, err := llm.OpenLog(f.record)
		if err != nil {
			return nil, usageErr("--record: %w", err)
		}
		cs.log, rec = log, log
	}
	var err error
	if cs.judge, err = liveClient(judgeCfg, rec, "--judge-base-url", "--judge-base-url and --judge-model, or set "+llm.JudgeEnv+"BASE_URL and "+llm.JudgeEnv+"MODEL"); err != nil {
		cs.close()
		return nil, err
	}
	cs.nl = cs.judge
	if f.idj {
		if cs.idj, err = liveClient(idjCfg, rec, "--idj-base-url", "the judge's endpoint, --idj-base-url and --idj-model, or set "+llm.IDJEnv+"BASE_URL and "+llm.IDJEnv+"MODEL"); err != nil {
			cs.close()
			return nil, err
		}
	}
	return cs, nil
}

// close closes the recording, if there is one.
func (cs *judgeClients) close() error {
	if cs.log == nil {
		return nil
	}
	return cs.log.Close()
}

// score runs the judges asked for on payload bytes b, and the
// NL_ASSERTION judge when nl is true (the payload's reward basis holds
// it).
func (f *judgeFlags) score(ctx context.Context, b []byte, nl bool) ([]judgeRow, error) {
	cs, err := f.open()
	if err != nil {
		return nil, err
	}
	defer cs.close()
	row := judgeRow{Name: report.TargetJudge, Label: report.Label(report.TargetJudge)}
	res, err := llm.NewJudge(cs.judge.c).Score(ctx, b)
	if row.set(cs.judge, err) {
		row.Value, row.Judge = &res.Score, res
	}
	rows := []judgeRow{row}
	if f.idj {
		row := judgeRow{Name: report.TargetIDJ, Label: report.Label(report.TargetIDJ)}
		res, err := llm.NewIDJ(cs.idj.c).Score(ctx, b)
		if row.set(cs.idj, err) {
			row.Value, row.IDJ = &res.Score, res
		}
		rows = append(rows, row)
	}
	if nl {
		row := judgeRow{Name: evaluators.Tau2NLName, Label: evaluators.Tau2Label(evaluators.Tau2NLName)}
		res, err := llm.NewNLAssertions(cs.nl.c).Score(ctx, b)
		if row.set(cs.nl, err) {
			row.Value, row.NL = &res.Score, res
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// benchJudges are the judges for a benchmark run. Unlike score, bench
// does not run with a judge that is not configured: its report would
// lack the rows that were asked for.
func (f *judgeFlags) benchJudges(cs *judgeClients) ([]bench.Judge, error) {
	for _, c := range []struct {
		on     bool
		client judgeClient
		target string
	}{{true, cs.judge, report.TargetJudge}, {f.idj, cs.idj, report.TargetIDJ}} {
		if c.on && c.client.c == nil {
			return nil, usageErr("--judge: %s not configured: %s", report.Label(c.target), c.client.why)
		}
	}
	judge := llm.NewJudge(cs.judge.c)
	js := []bench.Judge{{Target: report.TargetJudge, Score: func(ctx context.Context, b []byte) (float64, error) {
		res, err := judge.Score(ctx, b)
		if err != nil {
			return 0, err
		}
		return res.Score, nil
	}}}
	if f.idj {
		idj := llm.NewIDJ(cs.idj.c)
		js = append(js, bench.Judge{Target: report.TargetIDJ, Score: func(ctx context.Context, b []byte) (float64, error) {
			res, err := idj.Score(ctx, b)
			if err != nil {
				return 0, err
			}
			return res.Score, nil
		}})
	}
	return js, nil
}

// set records a call's state and reports whether it scored.
func (r *judgeRow) set(c judgeClient, err error) bool {
	switch {
	case errors.Is(err, llmclient.ErrNotConfigured):
		r.State, r.Detail = stateNotConfigured, c.why
	case err != nil:
		r.State, r.Detail = stateError, err.Error()
	default:
		r.State = stateScored
	}
	return err == nil
}

// liveClient is a client for cfg, or none when cfg names no endpoint.
func liveClient(cfg llmclient.Config, rec llmclient.Recorder, flag, needs string) (judgeClient, error) {
	c, err := llmclient.NewClient(cfg, rec)
	switch {
	case errors.Is(err, llmclient.ErrNotConfigured):
		return judgeClient{why: "give " + needs}, nil
	case err != nil:
		return judgeClient{}, usageErr("%s: %w", flag, err)
	}
	return judgeClient{c: c}, nil
}

// replayClient is a client answering from the recording, or none when
// no model is named and the recording holds no single one.
func replayClient(rp *llmclient.Replay, cfg llmclient.Config, modelFlag string, calls ...llmclient.Call) judgeClient {
	c, err := rp.Client(cfg, calls...)
	if err != nil {
		return judgeClient{why: "the recording holds no single model for it; give " + modelFlag}
	}
	return judgeClient{c: c}
}

// cell is a row's entry in the score table.
func (r *judgeRow) cell() string {
	if r.Value != nil {
		return fmt.Sprintf("%.3f", *r.Value)
	}
	return r.State
}

// writeJudgeDetails prints what each LLM score rests on, below the table.
func writeJudgeDetails(w io.Writer, rows []judgeRow) {
	fmt.Fprintln(w)
	for _, r := range rows {
		switch {
		case r.State != stateScored:
			fmt.Fprintf(w, "%s: %s: %s\n", r.Label, r.State, r.Detail)
		case r.Judge != nil:
			j := r.Judge
			fmt.Fprintf(w, "%s: model %s, %d attempt(s), request sha256 %s\n", r.Label, j.Model, j.Attempts, j.RequestSHA)
			fmt.Fprintf(w, "  rationale: %s\n  cited: %s\n", j.Rationale, strings.Join(j.CitedFields, ", "))
		case r.IDJ != nil:
			d := r.IDJ
			scores := make([]string, len(d.Scores))
			for i, s := range d.Scores {
				scores[i] = fmt.Sprintf("%.3f", s)
			}
			fmt.Fprintf(w, "%s: model %s, checklist sha256 %s (%d conditions), projection sha256 %s\n", r.Label, d.Model, d.Checklist.SHA, len(d.Checklist.Items), d.Subject)
			fmt.Fprintf(w, "  scores %s, median %.3f, spread %.3f\n", strings.Join(scores, " "), d.Score, d.Spread)
		case r.NL != nil:
			n := r.NL
			if n.Attempts == 0 {
				fmt.Fprintf(w, "%s: the task has no NL assertions: 1, with no call\n", r.Label)
				continue
			}
			fmt.Fprintf(w, "%s: model %s, %d attempt(s), request sha256 %s\n", r.Label, n.Model, n.Attempts, n.RequestSHA)
			for _, c := range n.Checks {
				verdict := "met    "
				if !c.Met {
					verdict = "not met"
				}
				fmt.Fprintf(w, "  %s  %s\n           %s\n", verdict, printable(c.Assertion), printable(c.Reasoning))
			}
		}
	}
}

// judgeFailure is the exit error when a judge gave no score.
func judgeFailure(rows []judgeRow) error {
	for _, r := range rows {
		if r.State == stateError {
			return &exitError{code: ExitUsage, err: fmt.Errorf("%s gave no score", r.Label)}
		}
	}
	return nil
}
