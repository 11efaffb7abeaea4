package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestJSONOutputIsOneDocument: every command that prints JSON prints
// exactly one JSON document on stdout, so `… | jq .` works; headers,
// progress and notes go to stderr.
func TestJSONOutputIsOneDocument(t *testing.T) {
	for _, args := range [][]string{
		{"tasks", "--json"},
		{"replay", "--task", "PH-D01", "--trajectory", "witness", "--json"},
		{"certify", "--task", "PH-D01", "--candidate", "witness", "--json"},
		{"score", "--task", "PH-D01", "--trajectory", "witness", "--json"},
		{"score", "--task", "PH-D01", "--trajectory", "witness", "--steps", "--json"},
		{"payload", "--task", "PH-D01", "--trajectory", "witness"},
		{"payload", "--task", "TAU-A04", "--trajectory", "trial0", "--projection", "idj"},
		{"attack", "--task", "PH-D01", "--edits", "1", "--json"},
		{"attack", "--task", "development", "--edits", "1", "--json"},
		{"bench", "--split", "development", "--edits", "1", "--format", "json"},
		{"bench", "--domain", "tau-airline", "--tasks", "TAU-A04,TAU-A01", "--format", "json"},
		{"report", "--ledger", "../testdata/report/minimal.csv", "--format", "json"},
		{"domain", "list", "--json"},
		{"domain", "tasks", "--domain", "tau-airline", "--json"},
		{"domain", "runs", "--domain", "tau-airline", "--tasks", "TAU-A04", "--json"},
		{"audit", "--json"},
		{"import", "tau2", "--dry-run", "--format", "json", "../domains/tau2/data/runs/retail-gpt-4.1.json.gz"},
		{"bench", "--domain", "tau2-retail", "--tasks", "T2R-5", "--format", "json"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errs := run(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			dec := json.NewDecoder(strings.NewReader(out))
			var doc any
			if err := dec.Decode(&doc); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, head(out))
			}
			if _, err := dec.Token(); !errors.Is(err, io.EOF) {
				t.Fatalf("stdout holds more than one JSON document (after the first, at byte %d): %s", dec.InputOffset(), head(out[dec.InputOffset():]))
			}
			if bytes.TrimSpace([]byte(out))[0] != '{' && bytes.TrimSpace([]byte(out))[0] != '[' {
				t.Fatalf("stdout is a bare JSON value: %s", head(out))
			}
		})
	}
}

func head(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
