package certifier

import (
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/mapfile"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// BenchmarkCertify1M certifies a 1,000,000-step trajectory held in
// memory. single is the primary certifier alone with its full replay log
// (what score, payload and the workbench build on): replay with a state
// hash per event and latest causes, claims, the vectors, the canonical
// log hash. double is DoubleCertify: both certifiers side by side.
// stream-single and stream-double are the same without a history
// (DoubleCertifyStream, fed batches of 4,096 steps), as certify runs.
func BenchmarkCertify1M(b *testing.B) {
	env := fixture.ExampleEnv(b)
	tr := &model.Trajectory{Task: env.Task.ID, Steps: fixture.Churn(1_000_000)}
	perSec := func(b *testing.B) {
		b.ReportMetric(float64(len(tr.Steps))*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
	}
	b.Run("single", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			res, rej := certify(env, tr)
			if rej != nil {
				b.Fatal(rej)
			}
			runtime.KeepAlive(res)
		}
		perSec(b)
	})
	b.Run("double", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			res, rej, err := DoubleCertify(env, tr)
			if err != nil || rej != nil {
				b.Fatal(err, rej)
			}
			runtime.KeepAlive(res)
		}
		perSec(b)
	})
	b.Run("stream-single", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if rej := streamSingle(env, tr); rej != nil {
				b.Fatal(rej)
			}
		}
		perSec(b)
	})
	b.Run("stream-double", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, rej, err := DoubleCertifyStream(env, batches(tr, 4096)); err != nil || rej != nil {
				b.Fatal(err, rej)
			}
		}
		perSec(b)
	})
}

// BenchmarkCertifyFile1M is certify end to end on a 1,000,000-step
// trajectory file (81 MB): mapped from disk as certify maps it, decoded as
// a stream and double-certified as it is decoded. It reports steps per second and
// the peak of the Go heap (objects, live and not yet collected) over the
// runs, sampled every batch.
func BenchmarkCertifyFile1M(b *testing.B) {
	env := fixture.ExampleEnv(b)
	path := filepath.Join(b.TempDir(), "churn-1m.json")
	if err := fixture.WriteChurnFile(path, 1_000_000); err != nil {
		b.Fatal(err)
	}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	runtime.GC()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		src, release, err := mapfile.Read(path)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		_, rej, err := DoubleCertifyStream(env, func(each func([]model.Step)) (*model.Trajectory, int, error) {
			tr, k, err := model.StreamTrajectory(path, src, 4096, func(batch []model.Step) {
				if n++; n%16 == 0 {
					metrics.Read(sample)
					peak = max(peak, sample[0].Value.Uint64())
				}
				each(batch)
			})
			return tr, k, err
		})
		release()
		if err != nil || rej != nil {
			b.Fatal(err, rej)
		}
	}
	b.StopTimer()
	b.ReportMetric(1_000_000*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
	b.ReportMetric(float64(peak)/(1<<20), "MB-peak-heap")
}

// BenchmarkCertifyLargeState is certify's work (a stream, in batches of
// 4,096 steps) on the spread trajectory over 1,000 and over 50,000
// entities, in turn and each on a collected heap, as
// pbcste.BenchmarkReplayLargeStateSlowdown pairs its replays: single is
// the primary certifier alone, double both side by side, as certify
// runs. It reports how much slower the larger state certifies, and both
// rates.
func BenchmarkCertifyLargeState(b *testing.B) {
	type size struct {
		env *pbcste.Env
		tr  *model.Trajectory
	}
	var sizes [2]size
	for i, n := range []int{1_000, 50_000} {
		env := fixture.BigEnv(b, n)
		sizes[i] = size{env, &model.Trajectory{Task: env.Task.ID, Steps: fixture.Spread(500_000, n)}}
	}
	modes := []struct {
		name    string
		certify func(*pbcste.Env, *model.Trajectory) *model.Rejection
	}{
		{"stream-single", streamSingle},
		{"stream-double", func(env *pbcste.Env, tr *model.Trajectory) *model.Rejection {
			_, rej, err := DoubleCertifyStream(env, batches(tr, 4096))
			if err != nil {
				b.Fatal(err)
			}
			return rej
		}},
	}
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			var took [2]time.Duration
			run := func(i int) time.Duration {
				runtime.GC()
				start := time.Now()
				if rej := m.certify(sizes[i].env, sizes[i].tr); rej != nil {
					b.Fatal(rej)
				}
				return time.Since(start)
			}
			run(0)
			run(1)
			b.ResetTimer()
			for range b.N {
				took[0] += run(0)
				took[1] += run(1)
			}
			b.ReportMetric(100*(float64(took[1])/float64(took[0])-1), "%slower")
			b.ReportMetric(float64(500_000*b.N)/took[0].Seconds(), "steps/s@1k")
			b.ReportMetric(float64(500_000*b.N)/took[1].Seconds(), "steps/s@50k")
		})
	}
}

// streamSingle is the primary certifier alone on a stream without a
// history, fed batches of 4,096 steps as certify feeds it.
func streamSingle(env *pbcste.Env, tr *model.Trajectory) *model.Rejection {
	s := newStream(env.Stream())
	for k := 0; k < len(tr.Steps); k += 4096 {
		s.add(tr.Steps[k:min(k+4096, len(tr.Steps))])
	}
	_, rej := s.finish(tr)
	return rej
}
