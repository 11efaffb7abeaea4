package model_test

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
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

// BenchmarkDecodeTrajectoryFile1M reads and strictly decodes a
// 1,000,000-step trajectory file written to a temporary directory, as
// certify and replay do, and reports steps per second and the bytes the
// decoded trajectory keeps per step.
func BenchmarkDecodeTrajectoryFile1M(b *testing.B) {
	const n = 1_000_000
	path := filepath.Join(b.TempDir(), "1m.json")
	if err := os.WriteFile(path, model.EncodeTrajectory(&model.Trajectory{Task: "EX-01", Steps: fixture.Churn(n)}), 0o644); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var tr *model.Trajectory
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr = nil
		src, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if tr, err = model.DecodeTrajectory(path, src); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(n*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "B/step-retained")
	runtime.KeepAlive(tr)
}

// BenchmarkStreamTrajectoryFile1M reads a 1,000,000-step trajectory file
// from disk and stream-decodes it in batches of 4096 steps, dropping
// each, as a pipeline that certifies batch by batch does. It reports
// steps per second, the bytes allocated per step, and the peak of the
// heap's objects (live or not yet swept, the file's bytes included) as
// sampled at every batch.
func BenchmarkStreamTrajectoryFile1M(b *testing.B) {
	const n = 1_000_000
	path := filepath.Join(b.TempDir(), "1m.json")
	if err := os.WriteFile(path, model.EncodeTrajectory(&model.Trajectory{Task: "EX-01", Steps: fixture.Churn(n)}), 0o644); err != nil {
		b.Fatal(err)
	}
	heap := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	each := func([]model.Step) {
		metrics.Read(heap)
		peak = max(peak, heap[0].Value.Uint64())
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		src, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		_, got, err := model.StreamTrajectory(path, src, 4096, each)
		if err != nil || got != n {
			b.Fatalf("%d steps, error %v", got, err)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(n*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/(n*float64(b.N)), "B/step-alloc")
	b.ReportMetric(float64(peak)/(1<<20), "MB-heap-peak")
}
