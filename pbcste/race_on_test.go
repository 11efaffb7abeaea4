//go:build race

package pbcste_test

// raceEnabled reports a -race build, whose instrumentation makes timing
// bounds meaningless.
const raceEnabled = true
