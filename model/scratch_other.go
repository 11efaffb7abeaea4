//go:build !linux

package model

// scratch is a buffer of capacity n and what gives it back (on Linux it
// is outside the Go heap; here it is the heap's, and free does nothing).
func scratch(n int) (buf []byte, free func()) { return make([]byte, 0, n), func() {} }
