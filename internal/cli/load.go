package cli

import (
	"fmt"
	"os"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/pbcste"
)

// loadTask reads, decodes and compiles a task file.
func loadTask(path string) (*pbcste.Env, error) {
	if path == "" {
		return nil, usageErr("--task is required")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, usageErr("read task: %v", err)
	}
	t, err := model.DecodeTask(path, src)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	env, err := pbcste.Compile(t)
	if err != nil {
		return nil, usageErr("%s: %v", path, err)
	}
	return env, nil
}

// loadTrajectory reads and strictly decodes a trajectory file. A file
// that does not decode is bad input (exit 2) here; the certify command
// turns it into a malformed_schema verdict instead.
func loadTrajectory(flag, path string) (*model.Trajectory, error) {
	if path == "" {
		return nil, usageErr("--%s is required", flag)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, usageErr("read %s: %v", flag, err)
	}
	tr, err := model.DecodeTrajectory(path, src)
	if err != nil {
		return nil, fmt.Errorf("%w", err)
	}
	return tr, nil
}
