package telecom

import (
	"testing"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/domains/tau2"
)

// BenchmarkConformance is the whole of the telecom conformance per call,
// as airline's and retail's: decoding the three shipped run files
// (gunzip, strict decode), replaying every run, recomputing tau2's
// reward with both DB hashes and the env assertions, and double
// certifying every run. Each iteration derives the tasks each file
// embeds (their set-up and gold runs), as an import does.
func BenchmarkConformance(b *testing.B) {
	checkers := map[bool]*Checker{}
	for _, solo := range []bool{false, true} {
		c, err := NewChecker(solo)
		if err != nil {
			b.Fatal(err)
		}
		checkers[solo] = c
	}
	names := tau2.RunFiles("telecom")
	var files [][]byte
	for _, name := range names {
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
			r, err := tau2.Decode(names[i], src)
			if err != nil {
				b.Fatal(err)
			}
			c := checkers[Solo(r)]
			for _, sim := range r.Simulations {
				rp, err := c.Replay(r, sim)
				if err != nil {
					b.Fatal(err)
				}
				calls += len(rp.Outputs)
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
