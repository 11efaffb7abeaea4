//go:build !amd64 && !arm64

package pbcste

func prefetch([]uintptr) {}
