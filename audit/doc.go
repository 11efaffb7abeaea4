// Package audit holds the integrity audits of SPEC §4 that cross package
// lines, run as tests: the trusted parent's view (the sealed suite, its
// canaries, the CLI) held against what leaves it for an evaluator — the
// LLM judges' requests and recordings, and the sandboxed worker that runs
// a user's own scorer. The audits `parthack audit` runs live in the
// subpackage isolation, so the CLI can import them.
package audit
