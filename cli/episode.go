package cli

import (
	"errors"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/model"
)

// checkEpisode refuses, as bad input, a trajectory of a domain task with
// a step after the call that ended its episode: no run of the benchmark
// can have one. The error is located at that step's line in the file.
func checkEpisode(t *model.Task, path string, tr *model.Trajectory) error {
	err := model.CheckEpisode(t, tr.Steps)
	var ee *model.EpisodeError
	if !errors.As(err, &ee) {
		return err
	}
	return locateEpisode(path, ee)
}

// locateEpisode is an episode error as bad input at its step's line.
func locateEpisode(path string, ee *model.EpisodeError) error {
	if ee.Line > 0 {
		return usageErr("%s:%d: %w", path, ee.Line, ee)
	}
	return usageErr("%s: %w", path, ee)
}

// episodeSteps is a stream of a trajectory's steps that stops at the
// first step after the call that ended the episode and then fails with
// checkEpisode's located error, so a streamed command refuses such a file
// as a whole one is refused.
func episodeSteps(t *model.Task, path string, steps certifier.Steps) certifier.Steps {
	if t.Domain == nil {
		return steps
	}
	return func(each func([]model.Step)) (*model.Trajectory, int, error) {
		var bad error
		passed := 0
		var end *model.Step
		endAt := 0
		head, _, err := steps(func(batch []model.Step) {
			if bad != nil {
				return
			}
			for i := range batch {
				if end != nil {
					var ee *model.EpisodeError
					if errors.As(model.CheckEpisode(t, []model.Step{*end, batch[i]}), &ee) {
						ee.End, ee.Step = endAt, passed+i+1
						bad = locateEpisode(path, ee)
					}
					batch = batch[:i]
					break
				}
				if batch[i].Op == model.OpCall && t.Domain.EndsEpisode(batch[i].Tool) {
					st := batch[i]
					end, endAt = &st, passed+i+1
				}
			}
			passed += len(batch)
			if len(batch) > 0 {
				each(batch)
			}
		})
		if err == nil {
			err = bad
		}
		return head, passed, err
	}
}

// checkAttackable refuses, as bad usage, an H the benchmark ended itself
// (model.EndedItself): no witness keeps its conversation, so there is
// nothing to search.
func checkAttackable(t *model.Task, name string, h *model.Trajectory) error {
	if why := model.EndedItself(t, h); why != "" {
		return usageErr("--honest %s: H is a run the benchmark ended itself (%s): no witness keeps its conversation; attack a run its conversation ended", name, why)
	}
	return nil
}
