package evaluators_test

import (
	"sync"
	"testing"

	"github.com/parthack/parthack/evaluators"
	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/internal/payload/builder"
)

// payload1M is built once per test binary: the benchmark function runs
// more than once (b.N = 1, then the requested count), and building a
// 1,000,000-event payload takes seconds.
var payload1M struct {
	once sync.Once
	p    *payload.Payload
	err  error
}

// BenchmarkPrefixes1M scores every prefix of a generated 1,000,000-step
// trajectory of the example task with all six evaluators. The payload is
// built, encoded and decoded outside the timer, as an evaluator receives
// it; only Prefixes is measured.
func BenchmarkPrefixes1M(b *testing.B) {
	env := fixture.ExampleEnv(b)
	payload1M.once.Do(func() {
		built, err := builder.Build(env.Task, env.Replay(fixture.Churn(1_000_000)), nil)
		if err != nil {
			payload1M.err = err
			return
		}
		payload1M.p, payload1M.err = payload.Decode(built.Bytes())
	})
	if payload1M.err != nil {
		b.Fatal(payload1M.err)
	}
	p := payload1M.p
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := evaluators.Prefixes(p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(p.Events))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
