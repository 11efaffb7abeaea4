//go:build amd64 || arm64

package pbcste

// prefetch asks the processor to bring the line at each address into
// its caches. It reads nothing Go can see and never faults, so an address
// that is stale by the time the line arrives costs a wasted fetch only.
// It is an instruction per address on amd64 and arm64, and nothing
// elsewhere.
//
//go:noescape
func prefetch(addrs []uintptr)
