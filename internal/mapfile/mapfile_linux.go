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
