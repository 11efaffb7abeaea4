//go:build !linux

package cli

import "os"

// mapFile reads a file whole (on Linux it is mapped instead).
func mapFile(path string) ([]byte, func(), error) {
	src, err := os.ReadFile(path)
	return src, func() {}, err
}
