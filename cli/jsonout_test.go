package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONOutputIsOneDocument: every command that prints JSON prints
// exactly one JSON document on stdout, so `… | jq .` works; headers,
// progress and notes go to stderr.
func TestJSONOutputIsOneDocument(t *testing.T) {
	noAttackerEnv(t)
	dir := t.TempDir()
	runs, db := filepath.Join(dir, "runs.json"), filepath.Join(dir, "store.db")
	if code, _, errs := run(t, "domain", "export", "--domain", "tau-airline", runs); code != 0 {
		t.Fatalf("export: %s", errs)
	}
	if code, _, errs := run(t, "--db", db, "import", "tau-bench", runs); code != 0 {
		t.Fatalf("import: %s", errs)
	}
	witness, err := os.ReadFile(example("witness.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := attackerServer(t, string(witness))
	const telecom = "T2T-[mobile_data_issue]data_saver_mode_on|user_abroad_roaming_enabled_off[PERSONA:Easy]"
	tau2Runs := filepath.Join("..", "domains", "tau2", "data", "runs")
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
		{"bench", "--domain", "tau2-airline", "--tasks", "T2A-7", "--format", "json"},
		{"bench", "--domain", "tau2-telecom", "--tasks", telecom, "--format", "json"},
		{"bench", "--domain", "tau-airline", "--tasks", "TAU-A01", "--any-end", "--format", "json"},
		{"replay", "--task", "TAU-A04", "--trajectory", "trial0", "--json"},
		{"certify", "--task", "TAU-A04", "--honest", "trial0", "--candidate", "trial1", "--json"},
		{"score", "--task", "TAU-A04", "--trajectory", "trial0", "--json"},
		{"score", "--task", "T2R-5", "--trajectory", "T2R-5-gpt-4.1-trial0", "--steps", "--json"},
		{"attack", "--task", "TAU-A01", "--honest", "trial0", "--edits", "2", "--json"},
		{"attack", "--llm", "--task", example("task.json"), "--honest", example("honest.json"), "--k", "1", "--attacker-base-url", srv.URL, "--attacker-model", "m", "--json"},
		{"attack", "--llm", "--task", "development", "--k", "1", "--attacker-base-url", srv.URL, "--attacker-model", "m", "--json"},
		{"domain", "tasks", "--domain", "tau2-telecom", "--json"},
		{"domain", "runs", "--domain", "tau2-airline", "--tasks", "T2A-7", "--json"},
		{"import", "tau-bench", "--dry-run", "--format", "json", runs},
		{"import", "tau2", "--dry-run", "--format", "json", filepath.Join(tau2Runs, "airline-gpt-4.1.json.gz"), filepath.Join(tau2Runs, "telecom-gpt-4o.json.gz")},
		{"--db", db, "store", "ls", "--json"},
		{"--db", db, "store", "show", "runs-t04-trial0", "--json"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errs := run(t, args...)
			if code != 0 && !(args[0] == "certify" && code == ExitRejected) {
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
