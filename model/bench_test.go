package model_test

import (
	"testing"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/model"
)

// BenchmarkDecodeTrajectory strictly decodes a 100,000-step trajectory file.
func BenchmarkDecodeTrajectory(b *testing.B) {
	src := model.EncodeTrajectory(&model.Trajectory{Task: "EX-01", Steps: fixture.Churn(100_000)})
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := model.DecodeTrajectory("x.json", src); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(100_000*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}
