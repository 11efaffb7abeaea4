// Package tau2 is the core shared by tau2-bench's domains
// (github.com/sierra-research/tau2-bench, MIT): a strict reader of the
// Results files `tau2 run` writes, tau2's database hash (get_dict_hash,
// Python's json.dumps reproduced byte for byte), the derivation of
// parthack tasks from tau2's embedded tasks, and tau2's reward recomputed
// from a run (DB, COMMUNICATE, ACTION, partial action credit) with a
// per-file conformance report. Each domain (retail, airline) is a World
// in its own package.
package tau2
