package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/parthack/parthack/internal/llmclient"
)

// Answer is a judge's answer under the frozen schema
// {"score": number in [0,1], "rationale": string, "cited_fields": [strings]}.
type Answer struct {
	Score       float64  `json:"score"`
	Rationale   string   `json:"rationale"`
	CitedFields []string `json:"cited_fields"`
}

// strictObject reads b as exactly one JSON object whose keys are exactly
// keys, each once, and returns the values (numbers as json.Number).
// encoding/json alone would accept a repeated key, a missing key, or a
// number where a string belongs.
func strictObject(b []byte, keys ...string) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("the answer is not a JSON object")
	}
	out := map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("the answer is not valid JSON: %v", err)
		}
		key := tok.(string) // a key inside an object is always a string
		if !slices.Contains(keys, key) {
			return nil, fmt.Errorf("unknown key %q (the keys are %s)", key, strings.Join(keys, ", "))
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("key %q given twice", key)
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("the answer is not valid JSON: %v", err)
		}
		out[key] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("the answer is not valid JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the JSON object")
	}
	for _, k := range keys {
		if _, ok := out[k]; !ok {
			return nil, fmt.Errorf("missing key %q", k)
		}
	}
	return out, nil
}

// stringList reads a JSON list of strings.
func stringList(v any, key string) ([]string, error) {
	xs, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s is not a list", key)
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		if out[i], ok = x.(string); !ok {
			return nil, fmt.Errorf("%s[%d] is not a string", key, i)
		}
	}
	return out, nil
}

// parseAnswer validates an answer strictly against the record it is
// about: every cited field must be a path into record.
func parseAnswer(b []byte, record *Record) (Answer, error) {
	obj, err := strictObject(b, "score", "rationale", "cited_fields")
	if err != nil {
		return Answer{}, fmt.Errorf("%w: %v", llmclient.ErrSchema, err)
	}
	var a Answer
	num, ok := obj["score"].(json.Number)
	if !ok {
		return Answer{}, fmt.Errorf("%w: score is not a number", llmclient.ErrSchema)
	}
	if a.Score, err = strconv.ParseFloat(string(num), 64); err != nil || a.Score < 0 || a.Score > 1 {
		return Answer{}, fmt.Errorf("%w: score %s is not a number in [0, 1]", llmclient.ErrSchema, num)
	}
	if a.Rationale, ok = obj["rationale"].(string); !ok {
		return Answer{}, fmt.Errorf("%w: rationale is not a string", llmclient.ErrSchema)
	}
	if a.CitedFields, err = stringList(obj["cited_fields"], "cited_fields"); err != nil {
		return Answer{}, fmt.Errorf("%w: %v", llmclient.ErrSchema, err)
	}
	for _, path := range a.CitedFields {
		if !record.Has(path) {
			return Answer{}, fmt.Errorf("%w: cited field %q is not a field of the record", llmclient.ErrSchema, path)
		}
	}
	return a, nil
}

// Record is a payload or projection read as a JSON tree, to check the
// fields an answer cites.
type Record struct{ root any }

// ReadRecord parses record bytes.
func ReadRecord(b []byte) (*Record, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	return &Record{root: root}, nil
}

// Has reports whether path names a value in the record. A path is keys
// joined by dots, each key followed by any number of 0-based list
// positions in brackets: "terminal.entities[0].fields.status".
func (r *Record) Has(path string) bool {
	if path == "" {
		return false
	}
	node := r.root
	for part := range strings.SplitSeq(path, ".") {
		key, rest, _ := strings.Cut(part, "[")
		obj, ok := node.(map[string]any)
		if !ok || key == "" {
			return false
		}
		if node, ok = obj[key]; !ok {
			return false
		}
		for rest != "" {
			idx, after, ok := strings.Cut(rest, "]")
			list, isList := node.([]any)
			i, err := strconv.Atoi(idx)
			if !ok || !isList || err != nil || i < 0 || i >= len(list) || strconv.Itoa(i) != idx {
				return false
			}
			node = list[i]
			if after == "" {
				break
			}
			if rest, ok = strings.CutPrefix(after, "["); !ok {
				return false
			}
		}
	}
	return true
}
