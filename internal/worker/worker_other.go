//go:build !linux

package worker

import (
	"context"
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
