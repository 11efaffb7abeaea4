//go:build race

package bfcl

// raceEnabled reports a -race build, whose instrumentation makes
// allocation counts meaningless (a sync.Pool, among others, drops at
// random what it is given).
const raceEnabled = true
