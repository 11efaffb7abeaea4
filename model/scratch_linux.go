package model

import "syscall"

// scratch is a buffer of capacity n outside the Go heap (an anonymous
// mapping; the heap's where the system refuses one), and what gives it
// back. Its user copies out what it keeps and calls free, after which
// nothing may read the buffer: the memory goes back to the system at
// once, where a heap buffer would wait for the collector and count
// toward its next goal meanwhile.
func scratch(n int) (buf []byte, free func()) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]byte, 0, n), func() {}
	}
	return b[:0], func() { _ = syscall.Munmap(b) }
}
