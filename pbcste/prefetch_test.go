package pbcste

import (
	"testing"
	"unsafe"
)

// TestPrefetchNeverFaults: prefetch is a hint: it takes any address,
// none, or one that maps nothing, and changes nothing it is pointed at.
func TestPrefetchNeverFaults(t *testing.T) {
	b := []byte("a line of a record")
	addrs := []uintptr{uintptr(unsafe.Pointer(&b[0])), 0, 64}
	prefetch(nil)
	prefetch(addrs)
	if string(b) != "a line of a record" {
		t.Fatalf("prefetch changed what it was pointed at: %q", b)
	}
}
