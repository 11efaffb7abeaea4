//go:build race

package model

// raceEnabled reports a -race build, whose instrumentation makes
// allocation totals meaningless.
const raceEnabled = true
