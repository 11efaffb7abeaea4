//go:build race

package cli

// raceEnabled reports a -race build, whose instrumentation makes memory
// bounds meaningless.
const raceEnabled = true
