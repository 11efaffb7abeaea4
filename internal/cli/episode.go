package cli

import (
	"errors"

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
	if ee.Line > 0 {
		return usageErr("%s:%d: %w", path, ee.Line, err)
	}
	return usageErr("%s: %w", path, err)
}
