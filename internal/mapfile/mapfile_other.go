//go:build !linux

package mapfile

import "os"

// readRaw reads a file whole (on Linux it is mapped instead).
func readRaw(path string) ([]byte, func(), error) {
	src, err := os.ReadFile(path)
	return src, func() {}, err
}
