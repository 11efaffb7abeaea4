//go:build !linux

package mapfile

import "os"

// readRaw reads a file whole (on Linux it is mapped instead).
func readRaw(path string) ([]byte, func(), error) {
	src, err := os.ReadFile(path)
	return src, func() {}, err
}

// Scratch is a buffer of capacity n and what gives it back (on Linux it
// is outside the Go heap; here it is the heap's, and free does nothing).
func Scratch(n int) (buf []byte, free func()) { return make([]byte, 0, n), func() {} }
