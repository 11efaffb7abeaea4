package telecom

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/parthack/parthack/domains/tau2"
)

// parseTOML reads the TOML that tau2's telecom databases are written in:
// tables ([a.b]), arrays of tables ([[a]], [[a.b]] under the last
// element of a), and key = value lines whose value is a basic string, an
// integer, a float, a boolean or a one-line array of those. Tables keep
// their keys in file order, as Python's tomllib does. Anything else is an
// error naming its line: the shipped files need no more, and a reader
// that half-understood a richer file would load the wrong database.
func parseTOML(name string, src []byte) (tau2.Obj, error) {
	root := &table{}
	cur := root
	for n, line := range strings.Split(string(src), "\n") {
		fail := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, n+1, fmt.Sprintf(format, args...))
		}
		line = strings.TrimSpace(stripComment(line))
		switch {
		case line == "":
		case strings.HasPrefix(line, "[["):
			if !strings.HasSuffix(line, "]]") {
				return nil, fail("an array of tables header ends with ]]")
			}
			path := splitKey(line[2 : len(line)-2])
			parent, err := root.walk(path[:len(path)-1])
			if err != nil {
				return nil, fail("%v", err)
			}
			last := path[len(path)-1]
			x, ok := parent.get(last)
			if !ok {
				x = &tableArray{}
				parent.set(last, x)
			}
			arr, ok := x.(*tableArray)
			if !ok {
				return nil, fail("%q is not an array of tables", last)
			}
			cur = &table{}
			arr.items = append(arr.items, cur)
		case strings.HasPrefix(line, "["):
			if !strings.HasSuffix(line, "]") {
				return nil, fail("a table header ends with ]")
			}
			t, err := root.walk(splitKey(line[1 : len(line)-1]))
			if err != nil {
				return nil, fail("%v", err)
			}
			cur = t
		default:
			eq := strings.IndexByte(line, '=')
			if eq < 0 {
				return nil, fail("expected key = value, got %q", line)
			}
			key := strings.TrimSpace(line[:eq])
			if key == "" || strings.ContainsAny(key, " \".'") {
				return nil, fail("unsupported key %q (bare keys only)", key)
			}
			v, rest, err := parseValue(strings.TrimSpace(line[eq+1:]))
			if err == nil && strings.TrimSpace(rest) != "" {
				err = fmt.Errorf("text after the value: %q", rest)
			}
			if err != nil {
				return nil, fail("%s: %v", key, err)
			}
			if _, dup := cur.get(key); dup {
				return nil, fail("key %q defined twice", key)
			}
			cur.set(key, v)
		}
	}
	return root.obj(), nil
}

// table is a TOML table being read: its keys in order.
type table struct {
	keys []string
	vals []any // a scalar, []any, *table or *tableArray
}

type tableArray struct{ items []*table }

func (t *table) get(k string) (any, bool) {
	for i, key := range t.keys {
		if key == k {
			return t.vals[i], true
		}
	}
	return nil, false
}

func (t *table) set(k string, v any) { t.keys = append(t.keys, k); t.vals = append(t.vals, v) }

// walk finds or makes the table at path; an array of tables on the way
// means its last element.
func (t *table) walk(path []string) (*table, error) {
	for _, k := range path {
		x, ok := t.get(k)
		if !ok {
			nt := &table{}
			t.set(k, nt)
			t = nt
			continue
		}
		switch y := x.(type) {
		case *table:
			t = y
		case *tableArray:
			t = y.items[len(y.items)-1]
		default:
			return nil, fmt.Errorf("%q is a value, not a table", k)
		}
	}
	return t, nil
}

func (t *table) obj() tau2.Obj {
	out := make(tau2.Obj, 0, len(t.keys))
	for i, k := range t.keys {
		var v any
		switch x := t.vals[i].(type) {
		case *table:
			v = x.obj()
		case *tableArray:
			items := make([]any, len(x.items))
			for j, it := range x.items {
				items[j] = it.obj()
			}
			v = items
		default:
			v = x
		}
		out = append(out, tau2.Member{Key: k, Value: v})
	}
	return out
}

func splitKey(s string) []string {
	parts := strings.Split(s, ".")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// stripComment drops a # comment that is not inside a string.
func stripComment(line string) string {
	in := false
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && in:
			i++
		case line[i] == '"':
			in = !in
		case line[i] == '#' && !in:
			return line[:i]
		}
	}
	return line
}

// parseValue reads one value from the start of s and returns the rest.
func parseValue(s string) (any, string, error) {
	switch {
	case s == "":
		return nil, "", fmt.Errorf("no value")
	case s[0] == '"':
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			switch c := s[i]; c {
			case '"':
				return b.String(), s[i+1:], nil
			case '\\':
				if i+1 >= len(s) {
					return nil, "", fmt.Errorf("unterminated escape")
				}
				i++
				switch s[i] {
				case '"', '\\':
					b.WriteByte(s[i])
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				default:
					return nil, "", fmt.Errorf("unsupported escape \\%c", s[i])
				}
			default:
				b.WriteByte(c)
			}
		}
		return nil, "", fmt.Errorf("unterminated string")
	case s[0] == '[':
		out := []any{}
		rest := strings.TrimSpace(s[1:])
		for {
			if strings.HasPrefix(rest, "]") {
				return out, rest[1:], nil
			}
			v, r, err := parseValue(rest)
			if err != nil {
				return nil, "", err
			}
			out = append(out, v)
			rest = strings.TrimSpace(r)
			if strings.HasPrefix(rest, ",") {
				rest = strings.TrimSpace(rest[1:])
			} else if !strings.HasPrefix(rest, "]") {
				return nil, "", fmt.Errorf("expected , or ] in an array")
			}
		}
	}
	end := strings.IndexAny(s, ",] \t")
	if end < 0 {
		end = len(s)
	}
	tok, rest := s[:end], s[end:]
	switch tok {
	case "true":
		return true, rest, nil
	case "false":
		return false, rest, nil
	}
	if !strings.ContainsAny(tok, ".eE") {
		if i, err := strconv.ParseInt(strings.ReplaceAll(tok, "_", ""), 10, 64); err == nil {
			return i, rest, nil
		}
	}
	if f, err := strconv.ParseFloat(strings.ReplaceAll(tok, "_", ""), 64); err == nil {
		return f, rest, nil
	}
	return nil, "", fmt.Errorf("unsupported value %q (strings, numbers, booleans and arrays only)", tok)
}
