// Package sealed is the private half of the PartHackBench suite: per task,
// the hidden fields and their initial values, the Oracle goal versions,
// the hidden test descriptions and the canary strings (data/<id>/sealed.json,
// embedded). Only the trusted side imports it — the certification pipeline
// and the CLI, which is the trusted parent. Evaluators never do: they see
// the public half, package tasks, alone.
//
// The trusted task the environment runs is the public task with the hidden
// fields appended to its entity types, their values added to the initial
// snapshot, and the Oracle goal versions in place of the public ones.
// Hidden fields are never allowlisted, so redacting a trusted state is
// dropping every field the public schema does not declare.
package sealed

import (
	"embed"
	"fmt"
	"path"
	"slices"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/tasks"
)

//go:embed data
var files embed.FS

// File is the name of the sealed file in each task directory under data/.
const File = "sealed.json"

// Open reads the sealed part of the public task pub and returns it with
// the trusted task it completes. The trusted task shares pub's allowlist,
// script and alphabet, which callers must not modify.
func Open(pub *model.Task) (*model.Task, *model.Sealed, error) {
	name := path.Join("data", pub.ID, File)
	src, err := files.ReadFile(name)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: no sealed part: %w", pub.ID, err)
	}
	part, err := model.DecodeSealed(pub.ID+"/"+File, src, pub)
	if err != nil {
		return nil, nil, err
	}
	trusted, err := merge(pub, part)
	if err != nil {
		return nil, nil, err
	}
	return trusted, part, nil
}

// Trusted returns the task the environment runs for suite task id: the
// public task plus the hidden fields and their initial values, with the
// Oracle goal versions instead of the public ones.
func Trusted(id string) (*model.Task, error) {
	t, err := tasks.Get(id)
	if err != nil {
		return nil, err
	}
	trusted, _, err := Open(t.Public)
	return trusted, err
}

// Canaries returns the canary strings of suite task id: distinctive
// strings planted in its sealed part that no public artifact may contain.
func Canaries(id string) ([]string, error) {
	t, err := tasks.Get(id)
	if err != nil {
		return nil, err
	}
	_, part, err := Open(t.Public)
	if err != nil {
		return nil, err
	}
	return slices.Clone(part.Canaries), nil
}

// merge builds the trusted task. The Oracle must mirror the public goal
// schema: the same goal versions in the same order, and in each the same
// predicate ids in the same order (the one-to-one correspondence).
func merge(pub *model.Task, part *model.Sealed) (*model.Task, error) {
	if len(part.Oracle) != len(pub.Goals) {
		return nil, fmt.Errorf("%s: the Oracle has %d goal versions, the public goal schema %d", pub.ID, len(part.Oracle), len(pub.Goals))
	}
	for i, og := range part.Oracle {
		pg := &pub.Goals[i]
		if og.Version != pg.Version {
			return nil, fmt.Errorf("%s: Oracle goal version %d is %q, the public one %q", pub.ID, i+1, og.Version, pg.Version)
		}
		if len(og.Predicates) != len(pg.Predicates) {
			return nil, fmt.Errorf("%s: goal %s: %d Oracle predicates for %d public ones", pub.ID, og.Version, len(og.Predicates), len(pg.Predicates))
		}
		for j := range og.Predicates {
			if og.Predicates[j].ID != pg.Predicates[j].ID {
				return nil, fmt.Errorf("%s: goal %s: predicate %s: Oracle predicate %d is %s; the public goal schema has %s there",
					pub.ID, og.Version, pg.Predicates[j].ID, j+1, og.Predicates[j].ID, pg.Predicates[j].ID)
			}
		}
	}
	t := *pub
	t.Schema = part.Schema
	t.Goals = part.Oracle
	t.Initial = make([]model.Entity, len(pub.Initial))
	for i, e := range pub.Initial {
		e.Fields = slices.Clone(e.Fields)
		for _, h := range part.HiddenValues {
			if h.Type == e.Type && h.ID == e.ID {
				e.Fields = append(e.Fields, h.Fields...)
			}
		}
		t.Initial[i] = e
	}
	return &t, nil
}
