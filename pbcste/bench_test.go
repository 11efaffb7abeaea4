package pbcste_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// BenchmarkReplay1M replays a 1,000,000-step trajectory with a state hash
// per event and reports steps per second and the memory the log retains
// per step.
func BenchmarkReplay1M(b *testing.B) {
	env := fixture.ExampleEnv(b)
	steps := fixture.Churn(1_000_000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runtime.KeepAlive(env.Replay(steps))
	}
	b.StopTimer()
	b.ReportMetric(float64(len(steps))*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	log := env.Replay(steps)
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(len(log.Events)), "B/step-retained")
	runtime.KeepAlive(log)
}

// BenchmarkSnapshot rebuilds the snapshot at random steps of a
// 1,000,000-step log.
func BenchmarkSnapshot(b *testing.B) {
	env := fixture.ExampleEnv(b)
	log := env.Replay(fixture.Churn(1_000_000))
	rng := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	var worst time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		s := log.Snapshot(rng.IntN(len(log.Events)))
		if d := time.Since(start); d > worst {
			worst = d
		}
		runtime.KeepAlive(s)
	}
	b.ReportMetric(float64(worst.Microseconds()), "worst-µs")
}

// BenchmarkReplayLargeState replays with a state hash after every step on
// an initial snapshot of 50,000 entities, its updates spread over every
// entity (fixture.Spread): the per-step cost must not grow with the state.
func BenchmarkReplayLargeState(b *testing.B) {
	for _, n := range []int{1_000, 50_000} {
		b.Run(fmt.Sprintf("entities=%d", n), func(b *testing.B) {
			env := fixture.BigEnv(b, n)
			steps := fixture.Spread(500_000, n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				runtime.KeepAlive(env.Replay(steps))
			}
			b.ReportMetric(float64(len(steps))*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}

// BenchmarkReplayLargeStateSlowdown replays the spread trajectory on
// 1,000 and on 50,000 entities in turn, so that both meet the same load on
// a shared machine, and reports how much slower the larger state replays
// (the bound is 15%). Each replay starts on a collected heap that has
// held a log before, so that neither pays for the other's garbage nor
// alone for the first touch of fresh memory (page faults are dear on a
// virtual machine, and would fall on whichever replay comes first).
func BenchmarkReplayLargeStateSlowdown(b *testing.B) {
	small, large := fixture.BigEnv(b, 1_000), fixture.BigEnv(b, 50_000)
	smallSteps, largeSteps := fixture.Spread(500_000, 1_000), fixture.Spread(500_000, 50_000)
	runtime.KeepAlive(small.Replay(smallSteps))
	runtime.KeepAlive(large.Replay(largeSteps))
	var ts, tl time.Duration
	timed := func(env *pbcste.Env, steps []model.Step) time.Duration {
		b.StopTimer()
		runtime.GC()
		b.StartTimer()
		start := time.Now()
		runtime.KeepAlive(env.Replay(steps))
		return time.Since(start)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ts += timed(small, smallSteps)
		tl += timed(large, largeSteps)
	}
	b.ReportMetric(100*(float64(tl)/float64(ts)-1), "%slower")
	b.ReportMetric(float64(len(smallSteps)*b.N)/ts.Seconds(), "steps/s@1k")
	b.ReportMetric(float64(len(largeSteps)*b.N)/tl.Seconds(), "steps/s@50k")
}

// TestSnapshotLatency keeps the snapshot bound honest outside benchmarks:
// the median over random steps of a long log stays under 1 ms. (The
// benchmark reports the worst case; a test on a shared machine can only
// hold the median without flaking.)
func TestSnapshotLatency(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("a timing bound: not under -short or -race")
	}
	env := fixture.ExampleEnv(t)
	log := env.Replay(fixture.Churn(200_000))
	rng := rand.New(rand.NewPCG(3, 4))
	var ds []time.Duration
	for i := 0; i < 200; i++ {
		start := time.Now()
		runtime.KeepAlive(log.Snapshot(rng.IntN(len(log.Events))))
		ds = append(ds, time.Since(start))
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	if median := ds[len(ds)/2]; median > time.Millisecond {
		t.Errorf("snapshot median = %v, want < 1ms", median)
	}
}
