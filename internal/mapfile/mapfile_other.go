//go:build !linux

package mapfile

import "os"

// Read reads a file whole (on Linux it is mapped instead).
func Read(path string) ([]byte, func(), error) {
	src, err := os.ReadFile(path)
	return src, func() {}, err
}
