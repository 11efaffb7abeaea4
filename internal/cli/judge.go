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

	"github.com/parthack/parthack/evaluators/llm"
)

// judgeFlags are score's flags for the two LLM evaluators. Flags win
// over the environment; an API key is only ever read from the
// environment, so it never shows in a process list or shell history.
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
	fs.DurationVar(&f.timeout, "judge-timeout", llm.DefaultTimeout, "timeout of one judge request")
	fs.IntVar(&f.maxTokens, "judge-max-tokens", llm.DefaultMaxTokens, "token cap of a judge answer")
	fs.BoolVar(&f.noResponseFormat, "judge-no-response-format", false, "leave response_format out, for a server that rejects it")
	fs.StringVar(&f.record, "record", "", "append every judge request and response, and IDJ's frozen checklists, to this file (JSON lines)")
	fs.StringVar(&f.replay, "replay", "", "answer the judges from this recording instead of a server")
}

// on reports whether any judge was asked for, and checks that the
// judge flags are used together sensibly.
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
	case f.timeout <= 0 || f.maxTokens <= 0:
		return false, usageErr("--judge-timeout and --judge-max-tokens must be positive")
	}
	return true, nil
}

// configs are the judge's and IDJ's endpoints from flags and environment.
func (f *judgeFlags) configs() (judge, idj llm.Config) {
	pick := func(flag, env string) string {
		if flag != "" {
			return flag
		}
		return os.Getenv(env)
	}
	judge = llm.Config{BaseURL: pick(f.baseURL, llm.JudgeEnv+"BASE_URL"), Model: pick(f.model, llm.JudgeEnv+"MODEL"), APIKey: os.Getenv(f.keyEnv)}
	idj = llm.Config{BaseURL: pick(f.idjBaseURL, llm.IDJEnv+"BASE_URL"), Model: pick(f.idjModel, llm.IDJEnv+"MODEL")}
	if idj.BaseURL != "" {
		idj.APIKey = os.Getenv(f.idjKeyEnv)
	}
	idj = idj.Or(judge)
	for _, c := range []*llm.Config{&judge, &idj} {
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
}

const (
	stateScored        = "scored"
	stateNotConfigured = "not configured"
	stateError         = "error"
)

// judgeClient is a client, or why there is none.
type judgeClient struct {
	c   *llm.Client
	why string
}

// score runs the judges asked for on payload bytes b.
func (f *judgeFlags) score(ctx context.Context, b []byte) ([]judgeRow, error) {
	judgeCfg, idjCfg := f.configs()
	var jc, ic judgeClient
	if f.replay != "" {
		rp, err := llm.OpenReplay(f.replay)
		if err != nil {
			return nil, usageErr("--replay: %v", err)
		}
		jc = replayClient(rp, judgeCfg, "--judge-model", llm.CallJudge)
		ic = replayClient(rp, idjCfg, "--idj-model", llm.CallChecklist, llm.CallIDJ)
	} else {
		var rec llm.Recorder
		if f.record != "" {
			log, err := llm.OpenLog(f.record)
			if err != nil {
				return nil, usageErr("--record: %v", err)
			}
			defer log.Close()
			rec = log
		}
		var err error
		if jc, err = liveClient(judgeCfg, rec, "--judge-base-url", "--judge-base-url and --judge-model, or set "+llm.JudgeEnv+"BASE_URL and "+llm.JudgeEnv+"MODEL"); err != nil {
			return nil, err
		}
		if f.idj {
			if ic, err = liveClient(idjCfg, rec, "--idj-base-url", "the judge's endpoint, --idj-base-url and --idj-model, or set "+llm.IDJEnv+"BASE_URL and "+llm.IDJEnv+"MODEL"); err != nil {
				return nil, err
			}
		}
	}
	row := judgeRow{Name: "llm_judge", Label: "LLM judge (schema-aware)"}
	res, err := llm.NewJudge(jc.c).Score(ctx, b)
	if row.set(jc, err) {
		row.Value, row.Judge = &res.Score, res
	}
	rows := []judgeRow{row}
	if f.idj {
		row := judgeRow{Name: "idj", Label: "IDJ"}
		res, err := llm.NewIDJ(ic.c).Score(ctx, b)
		if row.set(ic, err) {
			row.Value, row.IDJ = &res.Score, res
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// set records a call's state and reports whether it scored.
func (r *judgeRow) set(c judgeClient, err error) bool {
	switch {
	case errors.Is(err, llm.ErrNotConfigured):
		r.State, r.Detail = stateNotConfigured, c.why
	case err != nil:
		r.State, r.Detail = stateError, err.Error()
	default:
		r.State = stateScored
	}
	return err == nil
}

// liveClient is a client for cfg, or none when cfg names no endpoint.
func liveClient(cfg llm.Config, rec llm.Recorder, flag, needs string) (judgeClient, error) {
	c, err := llm.NewClient(cfg, rec)
	switch {
	case errors.Is(err, llm.ErrNotConfigured):
		return judgeClient{why: "give " + needs}, nil
	case err != nil:
		return judgeClient{}, usageErr("%s: %v", flag, err)
	}
	return judgeClient{c: c}, nil
}

// replayClient is a client answering from the recording, or none when
// no model is named and the recording holds no single one.
func replayClient(rp *llm.Replay, cfg llm.Config, modelFlag string, calls ...llm.Call) judgeClient {
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
