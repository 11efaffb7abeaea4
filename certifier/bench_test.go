package certifier

import (
	"runtime"
	"testing"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/model"
)

// BenchmarkCertify1M replays and certifies a 1,000,000-step trajectory:
// replay with a state hash per event (and latest causes), claims, the
// vectors, and the canonical log hash.
func BenchmarkCertify1M(b *testing.B) {
	env := fixture.ExampleEnv(b)
	tr := &model.Trajectory{Task: env.Task.ID, Steps: fixture.Churn(1_000_000)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, rej := certify(env, tr)
		if rej != nil {
			b.Fatal(rej)
		}
		runtime.KeepAlive(res)
	}
	b.ReportMetric(float64(len(tr.Steps))*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}
