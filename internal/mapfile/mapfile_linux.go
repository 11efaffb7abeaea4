package mapfile

import (
	"os"
	"syscall"
)

// readRaw gives a file's bytes to read, and a release to call once
// nothing decoded from them is read any more. A regular file is mapped
// with its pages populated in one call: a 1,000,000-step trajectory is
// 80 MB, and reading it into the heap costs a page fault for each of its
// 20,000 pages, which on a virtual machine is a third of certify's time.
// The decoders copy what they keep, so the bytes may go once decoded.
// As with any mapping, a file cut short by another process while it is
// decoded would fault; inputs here are files at rest.
func readRaw(path string) ([]byte, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() || info.Size() == 0 || int64(int(info.Size())) != info.Size() {
		src, err := os.ReadFile(path)
		return src, func() {}, err
	}
	src, err := syscall.Mmap(int(f.Fd()), 0, int(info.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_POPULATE)
	if err != nil {
		src, err := os.ReadFile(path)
		return src, func() {}, err
	}
	return src, func() { _ = syscall.Munmap(src) }, nil
}

// Scratch is a buffer of capacity n outside the Go heap (an anonymous
// mapping; the heap where the system refuses one), and what gives it
// back. Its user copies out what it keeps and calls free, after which
// nothing may read the buffer: the memory goes back to the system at
// once, where a heap buffer would wait for the collector and be counted
// toward its next goal meanwhile.
func Scratch(n int) (buf []byte, free func()) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]byte, 0, n), func() {}
	}
	return b[:0], func() { _ = syscall.Munmap(b) }
}
