package airline

import (
	"testing"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/domains/tau2"
)

// BenchmarkConformance is the whole of the airline conformance per call:
// decoding the five shipped run files (gunzip, strict decode), replaying
// every run, recomputing tau2's reward with both DB hashes, and double
// certifying every run whose task has a goal. The first iteration pays
// for deriving the tasks and hashing the initial database once.
func BenchmarkConformance(b *testing.B) {
	c := checker(b)
	var files [][]byte
	for _, name := range tau2.RunFiles("airline") {
		src, err := tau2.RunFile(name)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, src)
	}
	calls := 0
	for b.Loop() {
		calls = 0
		for i, src := range files {
			r, err := tau2.Decode(tau2.RunFiles("airline")[i], src)
			if err != nil {
				b.Fatal(err)
			}
			for _, sim := range r.Simulations {
				rp, err := c.Replay(r, sim)
				if err != nil {
					b.Fatal(err)
				}
				calls += len(rp.Outputs)
				if rp.Task.M() == 0 {
					continue
				}
				env, err := rp.Task.Env()
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := certifier.DoubleCertify(env, rp.Traj); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e6/float64(b.N*calls), "µs/call")
	b.ReportMetric(float64(calls), "calls")
}

// BenchmarkLoad is the database's load from tau-bench's, already read
// (tauair's BenchmarkLoad times that): tau2's shape, its revisions and
// payment orders, as a command that needs the database pays it once.
func BenchmarkLoad(b *testing.B) {
	if _, err := Load(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := load(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInitialTexts is the hash text of every initial record, which
// the first hash of a process writes once (a command that attacks or
// scores one task pays it whole).
func BenchmarkInitialTexts(b *testing.B) {
	db, err := Load()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		db.initialTexts()
	}
}
