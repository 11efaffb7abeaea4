// Package audit holds the integrity audits of SPEC §4 that cross package
// lines, run as tests: the trusted parent's view (the sealed suite, its
// canaries, the CLI) held against what leaves it for an evaluator, here
// the LLM judges' requests and recordings.
package audit
