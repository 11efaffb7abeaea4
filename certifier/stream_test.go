package certifier

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// batches streams a trajectory held in memory in batches of size k.
func batches(tr *model.Trajectory, k int) Steps {
	return func(each func([]model.Step)) (*model.Trajectory, int, error) {
		for i := 0; i < len(tr.Steps); i += k {
			each(tr.Steps[i:min(i+k, len(tr.Steps))])
		}
		header := *tr
		header.Steps = nil
		return &header, len(tr.Steps), nil
	}
}

// TestStreamEqualsDouble: certifying as the steps arrive, in batches of
// any size, gives DoubleCertify's certificate (log hash included) or its
// rejection, on every fixture trajectory, random ones, and candidates
// rejected for each per-step reason, while a watcher sees the replay's
// events one by one and the replay's final log; and DoublePairOf gives
// DoublePair's verdict.
func TestStreamEqualsDouble(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, dir := range fixtureDirs {
		env := fixtureEnv(t, dir)
		h := fixtureTrajectory(t, dir, "honest.json")
		trs := map[string]*model.Trajectory{}
		names, _ := filepath.Glob(filepath.Join("..", "testdata", dir, "*.json"))
		for _, n := range names {
			if n := filepath.Base(n); n != "task.json" {
				trs[n] = fixtureTrajectory(t, dir, n)
			}
		}
		for i := range 20 {
			trs[fmt.Sprintf("random %d", i)] = randomTrajectory(r, env.Task, 1+r.IntN(40))
		}
		if dir == exampleDir {
			trs["illegal"] = steps(t, "EX-01", closeT2, `{"op": "create", "type": "user", "id": "U9", "fields": {}}`)
			trs["misnumbered"] = steps(t, "EX-01", closeT2, `{"step": 3, "op": "update", "type": "ticket", "id": "T1", "fields": {"priority": 1}}`)
			trs["false claim"] = steps(t, "EX-01", `{"op": "update", "type": "ticket", "id": "T2", "fields": {"status": "closed"}, "claim": {"ok": false}}`)
			trs["other task"] = steps(t, "EX-02", closeT2)
			trs["goal claim"] = steps(t, "EX-01", closeT2)
			trs["goal claim"].GoalClaim = "v9"
		}
		for name, tr := range trs {
			t.Run(filepath.Base(dir)+"/"+name, func(t *testing.T) {
				want, wrej, err := DoubleCertify(env, tr)
				if err != nil {
					t.Fatal(err)
				}
				full := env.Replay(tr.Steps)
				for _, k := range []int{1, 3, max(len(tr.Steps), 1)} {
					var seen []string
					got, grej, log, err := DoubleCertifyStreamWatched(env, batches(tr, k), func(r *pbcste.Run, ev *pbcste.Event) {
						seen = append(seen, canonical(t, r.Record(ev)))
					})
					if err != nil {
						t.Fatalf("batches of %d: %v", k, err)
					}
					if len(seen) != len(full.Events) || log.Len() != full.Len() || log.FinalHash() != full.FinalHash() {
						t.Fatalf("batches of %d: watched %d events, log of %d; replay has %d", k, len(seen), log.Len(), len(full.Events))
					}
					for i := range seen {
						if w := canonical(t, full.Record(i)); seen[i] != w {
							t.Fatalf("batches of %d: watched event %d\n  %s\nreplay's\n  %s", k, i, seen[i], w)
						}
					}
					if err := sameRejection(grej, wrej); err != nil {
						t.Fatalf("batches of %d: %v", k, err)
					}
					if wrej != nil {
						continue
					}
					if g, w := canonical(t, got), canonical(t, want.Cert); g != w {
						t.Fatalf("batches of %d: certificate\n  %s\nwant\n  %s", k, g, w)
					}
					hc, hrej, err := DoubleCertifyStream(env, batches(h, 2))
					if err != nil {
						t.Fatal(err)
					}
					v, verr := DoublePairOf(hc, hrej, got, grej)
					wv, wverr := DoublePair(env, h, tr)
					if fmt.Sprint(verr) != fmt.Sprint(wverr) || canonical(t, v) != canonical(t, wv) {
						t.Fatalf("DoublePairOf %s %v, DoublePair %s %v", canonical(t, v), verr, canonical(t, wv), wverr)
					}
				}
			})
		}
	}
}

// TestStreamDecodeError: a stream that fails to decode gives its error,
// whatever was certified before it.
func TestStreamDecodeError(t *testing.T) {
	env := fixtureEnv(t, exampleDir)
	tr := fixtureTrajectory(t, exampleDir, "honest.json")
	bad := &model.DecodeError{File: "x.json", Line: 9, Msg: "expected a string"}
	_, _, err := DoubleCertifyStream(env, func(each func([]model.Step)) (*model.Trajectory, int, error) {
		each(tr.Steps)
		return nil, 0, bad
	})
	if err != bad {
		t.Fatalf("err = %v, want the decoding error", err)
	}
}

func canonical(t *testing.T, x any) string {
	t.Helper()
	b, err := model.Canonical(x)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
