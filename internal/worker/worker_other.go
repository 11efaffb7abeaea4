//go:build !linux

package worker

import (
	"context"
	"errors"
	"fmt"
	"runtime"
)

// Score refuses: the sandbox is built from Linux's network namespaces,
// Landlock and seccomp, and there is no weaker fallback.
func Score(context.Context, Config, []byte) (Result, error) {
	return Result{}, &LayerError{Layer: "platform", Err: fmt.Errorf("the worker's sandbox needs Linux; this is %s", runtime.GOOS)}
}

// LaunchIfRequested does nothing: no launcher is started off Linux.
func LaunchIfRequested() {}

// Session is a scorer program serving many inputs; off Linux none starts.
type Session struct{}

// Start refuses, as Score does.
func Start(context.Context, Config) (*Session, error) {
	return nil, &LayerError{Layer: "platform", Err: fmt.Errorf("the worker's sandbox needs Linux; this is %s", runtime.GOOS)}
}

// Score is never reached: no session starts.
func (*Session) Score([]byte) (Result, error) {
	return Result{}, errors.New("worker: no session off Linux")
}

// Close has nothing to end.
func (*Session) Close() error { return nil }
