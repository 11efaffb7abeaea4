package independent

import (
	"runtime"
	"testing"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/model"
)

// BenchmarkCertify1M certifies a 1,000,000-step trajectory of the example
// task with this certifier alone, the half of double certification it
// runs on its own goroutine, and reports steps per second.
func BenchmarkCertify1M(b *testing.B) {
	task := fixture.ExampleEnv(b).Task
	tr := &model.Trajectory{Task: task.ID, Steps: fixture.Churn(1_000_000)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, rej := Certify(task, tr)
		if rej != nil {
			b.Fatal(rej)
		}
		runtime.KeepAlive(c)
	}
	b.ReportMetric(float64(len(tr.Steps))*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}
