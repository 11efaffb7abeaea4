package certifier

import (
	"sync"

	"github.com/parthack/parthack/certifier/internal/independent"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// Steps is a trajectory's steps as they are decoded: it hands them to
// each, in order, in batches the callee may keep, and returns the
// trajectory's header (its Steps unset), the number of steps and any
// decoding error. model.StreamTrajectory over a file's bytes is one.
type Steps func(each func([]model.Step)) (header *model.Trajectory, n int, err error)

// inFlight bounds the batches decoded but not yet certified by both
// certifiers, and so the memory a stream holds whatever its length.
const inFlight = 8

// DoubleCertifyStream certifies a trajectory with both certifiers while
// it is decoded: each certifier on its own goroutine, fed the same
// batches, neither keeping a history (pbcste.Env.Stream and
// independent.Stream). Memory is a few batches whatever the trajectory's
// length. The outcome is DoubleCertify's without the replay log; a
// decoding error is returned as it is, and a disagreement as
// ErrDisagreement.
func DoubleCertifyStream(env *pbcste.Env, steps Steps) (*model.Certificate, *model.Rejection, error) {
	cert, rej, _, err := DoubleCertifyStreamWatched(env, steps, nil)
	return cert, rej, err
}

// DoubleCertifyStreamWatched is DoubleCertifyStream that also hands
// every event of the primary certifier's replay to watch (when not nil),
// in order, with the run that recorded it, on the primary's goroutine as
// it replays, and returns the primary's finished log (its Events the last
// ones only): a caller that measures or prints the events replays nothing
// of its own. watch must not keep an event past its call.
func DoubleCertifyStreamWatched(env *pbcste.Env, steps Steps, watch func(*pbcste.Run, *pbcste.Event)) (*model.Certificate, *model.Rejection, *pbcste.Log, error) {
	primary := newStream(env.Stream())
	primary.watch = watch
	second := independent.NewStream(env.Task)
	toPrimary, toSecond := make(chan []model.Step, inFlight), make(chan []model.Step, inFlight)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for b := range toPrimary {
			primary.add(b)
		}
	}()
	go func() {
		defer wg.Done()
		for b := range toSecond {
			second.Add(b)
		}
	}()
	header, n, err := steps(func(b []model.Step) {
		toPrimary <- b
		toSecond <- b
	})
	close(toPrimary)
	close(toSecond)
	wg.Wait()
	if err != nil {
		return nil, nil, nil, err
	}
	res, rej := primary.finish(header)
	icert, irej := second.Finish(header, n)
	if err := sameRejection(rej, irej); err != nil {
		return nil, nil, nil, err
	}
	if rej != nil {
		return nil, rej, primary.log, nil
	}
	if err := sameCertificate("certificate", res.Cert, icert); err != nil {
		return nil, nil, nil, err
	}
	return res.Cert, nil, primary.log, nil
}

// DoublePairOf decides (H, A) from their double certification (a
// certificate or a rejection each, as DoubleCertifyStream gives them)
// with both certifiers' pair checks, which must agree.
func DoublePairOf(h *model.Certificate, hrej *model.Rejection, a *model.Certificate, arej *model.Rejection) (model.Verdict, error) {
	v, err := pairOf(h, hrej, a, arej)
	iv, ierr := independent.PairOf(h, hrej, a, arej)
	return agree(v, err, iv, ierr)
}
