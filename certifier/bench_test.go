package certifier

import (
	"runtime"
	"testing"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/model"
)

// BenchmarkCertify1M certifies a 1,000,000-step trajectory as `certify`
// does. single is the primary certifier alone: replay with a state hash
// per event (and latest causes), claims, the vectors, and the canonical
// log hash. double is what every command runs, DoubleCertify: both
// certifiers and their comparison.
func BenchmarkCertify1M(b *testing.B) {
	env := fixture.ExampleEnv(b)
	tr := &model.Trajectory{Task: env.Task.ID, Steps: fixture.Churn(1_000_000)}
	b.Run("single", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			res, rej := certify(env, tr)
			if rej != nil {
				b.Fatal(rej)
			}
			runtime.KeepAlive(res)
		}
		b.ReportMetric(float64(len(tr.Steps))*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
	})
	b.Run("double", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			res, rej, err := DoubleCertify(env, tr)
			if err != nil || rej != nil {
				b.Fatal(err, rej)
			}
			runtime.KeepAlive(res)
		}
		b.ReportMetric(float64(len(tr.Steps))*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
	})
}
