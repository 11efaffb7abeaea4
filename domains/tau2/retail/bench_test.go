package retail

import (
	"testing"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/domains/tau2"
)

// BenchmarkConformance is the whole of the retail conformance per call:
// decoding both shipped run files (gunzip, strict decode), replaying
// every run, recomputing tau2's reward with both DB hashes, and double
// certifying every run whose task has a goal. The first iteration pays
// for deriving the tasks and hashing the initial database once.
func BenchmarkConformance(b *testing.B) {
	c := checker(b)
	var files [][]byte
	for _, name := range tau2.RunFiles("retail") {
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
			r, err := tau2.Decode(tau2.RunFiles("retail")[i], src)
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

// BenchmarkLoad is the database's load from its text, unpacked (scanDB:
// 1,550 records), as a command that needs the database pays it once;
// /parse is the same through tau2's Python values (parseDB), which reads
// any other text.
func BenchmarkLoad(b *testing.B) {
	src, err := tau2.Data("retail/db.json.gz")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		load func([]byte) (*DB, error)
	}{{"scan", Load}, {"parse", parseDB}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.load(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
