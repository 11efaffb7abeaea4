// Package schema ships the JSON Schemas of the task and trajectory file
// formats (task.schema.json, trajectory.schema.json; draft 2020-12) for
// editors and authors. model/decode.go is the authority on the formats;
// schema_test.go validates every task and trajectory the project has
// against these schemas, with a small validator for the subset of JSON
// Schema they use, so the two cannot drift apart. A file may name its
// schema in a "$schema" member, which the decoder accepts and ignores.
package schema

import _ "embed"

// Task is the JSON Schema of the task file format (parthack.task/1).
//
//go:embed task.schema.json
var Task []byte

// Trajectory is the JSON Schema of the trajectory file format
// (parthack.trajectory/1).
//
//go:embed trajectory.schema.json
var Trajectory []byte
