package model

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// fastParser builds the node tree of a document json.Valid accepted: it
// need not report syntax errors, only duplicate keys and nesting depth,
// and it allocates one node per value and one string per key or string
// value, which is what keeps large trajectories quick to load.
type fastParser struct {
	d    *doc
	off  int
	path []step
	// each, when set, is called with every element of the array that is
	// the root object's "steps" member as soon as it is parsed; the
	// element is then dropped from the tree, so a long trajectory is
	// decoded step by step and never held whole as a tree.
	each func(i int, n *node, end int)
	// intern shares the text of short strings, which repeat from step to
	// step (ops, types, ids, field names, values).
	intern map[string]string
}

func (f *fastParser) where() string { return (&parser{path: f.path}).where() }

func (f *fastParser) skip() {
	src := f.d.src
	for f.off < len(src) {
		switch src[f.off] {
		case ' ', '\t', '\r', '\n':
			f.off++
			continue
		}
		return
	}
}

func (f *fastParser) value(depth int) (*node, error) {
	f.skip()
	if depth > maxDepth {
		return nil, f.d.errAt(f.off, f.where(), fmt.Sprintf("nesting deeper than %d", maxDepth))
	}
	src := f.d.src
	n := &node{off: f.off}
	switch c := src[f.off]; {
	case c == '{':
		n.kind = nodeObject
		f.off++
		var seen map[string]bool // only for objects too large to scan
		for {
			f.skip()
			if src[f.off] == '}' {
				f.off++
				return n, nil
			}
			if src[f.off] == ',' {
				f.off++
				f.skip()
			}
			koff := f.off
			key, err := f.str("an object key")
			if err != nil {
				return nil, err
			}
			f.path = append(f.path, step{key: key, index: -1})
			if dup(n.members, &seen, key) {
				return nil, f.d.errAt(koff, f.where(), fmt.Sprintf("duplicate key %q (each key may appear once)", key))
			}
			f.skip()
			f.off++ // ':'
			val, err := f.value(depth + 1)
			if err != nil {
				return nil, err
			}
			f.path = f.path[:len(f.path)-1]
			n.members = append(n.members, member{key: key, val: val})
		}
	case c == '[':
		n.kind = nodeArray
		f.off++
		streamed := f.each != nil && depth == 1 && len(f.path) == 1 && f.path[0].key == "steps"
		count := 0
		for {
			f.skip()
			if src[f.off] == ']' {
				f.off++
				return n, nil
			}
			if src[f.off] == ',' {
				f.off++
			}
			f.path = append(f.path, step{index: count})
			item, err := f.value(depth + 1)
			if err != nil {
				return nil, err
			}
			f.path = f.path[:len(f.path)-1]
			if streamed {
				f.each(count, item, f.off)
			} else {
				n.items = append(n.items, item)
			}
			count++
		}
	case c == '"':
		s, err := f.str("a string")
		if err != nil {
			return nil, err
		}
		n.kind, n.str = nodeString, s
	case c == 't':
		n.kind, n.b = nodeBool, true
		f.off += 4
	case c == 'f':
		n.kind = nodeBool
		f.off += 5
	case c == 'n':
		n.kind = nodeNull
		f.off += 4
	default:
		start := f.off
		for f.off < len(src) {
			switch src[f.off] {
			case '-', '+', '.', 'e', 'E', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				f.off++
				continue
			}
			break
		}
		n.kind, n.str = nodeNumber, string(src[start:f.off])
	}
	return n, nil
}

// dup reports whether key is already among an object's members: a scan
// while the object is small, a map once it is not.
func dup(members []member, seen *map[string]bool, key string) bool {
	if len(members) < 16 {
		for _, m := range members {
			if m.key == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*len(members))
		for _, m := range members {
			(*seen)[m.key] = true
		}
	}
	if (*seen)[key] {
		return true
	}
	(*seen)[key] = true
	return false
}

// str reads the string starting at the cursor. Plain strings are copied
// as they stand; one with escapes goes through encoding/json, so both
// paths give exactly the decoder's result. Invalid UTF-8 and lone
// surrogate escapes, which the decoder would replace by U+FFFD, are
// errors at the offending byte; what names the string for them.
func (f *fastParser) str(what string) (string, error) {
	src := f.d.src
	start := f.off
	f.off++
	plain := true
	for src[f.off] != '"' {
		if src[f.off] == '\\' {
			plain = false
			f.off++
		}
		f.off++
	}
	f.off++
	raw := src[start+1 : f.off-1]
	if plain && utf8.Valid(raw) {
		if f.intern == nil || len(raw) > maxInterned {
			return string(raw), nil
		}
		if s, ok := f.intern[string(raw)]; ok {
			return s, nil
		}
		s := string(raw)
		if len(f.intern) < maxInternedStrings {
			f.intern[s] = s
		}
		return s, nil
	}
	if i, msg := badString(raw); i >= 0 {
		return "", f.d.errAt(start+1+i, f.where(), msg+" in "+what)
	}
	var out string
	if err := json.Unmarshal(src[start:f.off], &out); err != nil {
		panic(err) // json.Valid accepted the document
	}
	return out, nil
}

// Interning bounds: strings up to maxInterned bytes, at most
// maxInternedStrings of them per document.
const (
	maxInterned        = 32
	maxInternedStrings = 1 << 14
)
