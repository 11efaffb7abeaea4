package pyval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"
)

// Marshal encodes v as tagged JSON that Unmarshal reads back to an equal
// value of the same types: None null, bool true/false, an int as a JSON
// integer (past int64 {"int":"digits"}), a float {"float":"repr"} (so
// -0.0, nan and inf survive), a str a JSON string, a list an array, a
// tuple {"tuple":[...]}, a dict {"dict":[[k,v],...]} in order, an object
// {"object":ClassName,"state":MarshalState}. The same value always gives
// the same bytes. Shared references are not kept: a list reached twice
// is written twice and read back as two lists.
func Marshal(v Value) ([]byte, error) {
	var b bytes.Buffer
	if err := marshal(&b, v, 0); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// MarshalTo appends Marshal(v) to b (a buffer a caller reuses); on an
// error what it appended is left in b.
func MarshalTo(b *bytes.Buffer, v Value) error { return marshal(b, v, 0) }

func marshal(b *bytes.Buffer, v Value, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("pyval: Marshal: nesting deeper than %d (a cycle?)", maxDepth)
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case int:
		b.WriteString(strconv.Itoa(x))
	case *big.Int:
		if x.IsInt64() {
			b.WriteString(x.String())
		} else {
			b.WriteString(`{"int":"`)
			b.WriteString(x.String())
			b.WriteString(`"}`)
		}
	case float64:
		b.WriteString(`{"float":"`)
		b.WriteString(FloatRepr(x))
		b.WriteString(`"}`)
	case string:
		if !utf8.ValidString(x) {
			return fmt.Errorf("pyval: Marshal: a str holds bytes that are not UTF-8")
		}
		writeJSONString(b, x, true)
	case *List:
		return marshalSeq(b, "", x.Items, depth)
	case Tuple:
		return marshalSeq(b, "tuple", x, depth)
	case *Dict:
		b.WriteString(`{"dict":[`)
		for i, it := range x.items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('[')
			if err := marshal(b, it.Key, depth+1); err != nil {
				return err
			}
			b.WriteByte(',')
			if err := marshal(b, it.Value, depth+1); err != nil {
				return err
			}
			b.WriteByte(']')
		}
		b.WriteString("]}")
	case StateAppender:
		b.WriteString(`{"object":`)
		writeJSONString(b, x.ClassName(), true)
		b.WriteString(`,"state":`)
		st, err := x.AppendState(b.AvailableBuffer())
		if err != nil {
			return fmt.Errorf("pyval: Marshal %s: %w", x.ClassName(), err)
		}
		b.Write(st)
		b.WriteByte('}')
	case Object:
		state, err := x.MarshalState()
		if err != nil {
			return fmt.Errorf("pyval: Marshal %s: %w", x.ClassName(), err)
		}
		b.WriteString(`{"object":`)
		writeJSONString(b, x.ClassName(), true)
		b.WriteString(`,"state":`)
		if err := json.Compact(b, state); err != nil {
			return fmt.Errorf("pyval: Marshal %s: its state is no JSON: %w", x.ClassName(), err)
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("pyval: Marshal: %T is no Python value", v)
	}
	return nil
}

// A StateAppender is an Object that appends its MarshalState text to a
// buffer itself, as compact as json.Compact leaves it, so that Marshal
// writes it neither scanned again nor, where the buffer has room, copied:
// a seeded generator's 624 words, which a call that draws marshals, a
// file system's graph.
type StateAppender interface {
	Object
	AppendState([]byte) ([]byte, error)
}

func marshalSeq(b *bytes.Buffer, tag string, items []Value, depth int) error {
	if tag != "" {
		b.WriteString(`{"`)
		b.WriteString(tag)
		b.WriteString(`":`)
	}
	b.WriteByte('[')
	for i, e := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := marshal(b, e, depth+1); err != nil {
			return err
		}
	}
	b.WriteByte(']')
	if tag != "" {
		b.WriteByte('}')
	}
	return nil
}

// objectDecoders are RegisterObject's decoders, by class name.
var objectDecoders = map[string]func([]byte) (Object, error){}

// RegisterObject makes Unmarshal decode objects of className with decode,
// which gets the object's MarshalState bytes.
func RegisterObject(className string, decode func([]byte) (Object, error)) {
	objectDecoders[className] = decode
}

// Unmarshal reads what Marshal wrote; an error names the JSON path
// where the input is not such an encoding. An object's decoder gets its
// state's bytes as written.
func Unmarshal(data []byte) (Value, error) {
	if v, ok := readMarshalled(data); ok {
		return v, nil
	}
	return unmarshalJSON(data)
}

// unmarshalJSON is Unmarshal of any JSON text, read with encoding/json.
func unmarshalJSON(data []byte) (Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("pyval: Unmarshal: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("pyval: Unmarshal: data after the value")
	}
	return unmarshal(raw, "$")
}

func unmarshal(raw json.RawMessage, path string) (Value, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, fmt.Errorf("pyval: Unmarshal %s: no value", path)
	}
	switch raw[0] {
	case 'n':
		return nil, nil
	case 't':
		return true, nil
	case 'f':
		return false, nil
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("pyval: Unmarshal %s: %w", path, err)
		}
		return s, nil
	case '[':
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, fmt.Errorf("pyval: Unmarshal %s: %w", path, err)
		}
		l := &List{Items: make([]Value, len(items))}
		for i, e := range items {
			v, err := unmarshal(e, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			l.Items[i] = v
		}
		return l, nil
	case '{':
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("pyval: Unmarshal %s: %w", path, err)
		}
		return unmarshalTagged(m, path)
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("pyval: Unmarshal %s: %s is no int64 (ints past it are {\"int\":...}, floats {\"float\":...})", path, raw)
	}
	return n, nil
}

func unmarshalTagged(m map[string]json.RawMessage, path string) (Value, error) {
	str := func(key string) (string, error) {
		var s string
		if err := json.Unmarshal(m[key], &s); err != nil {
			return "", fmt.Errorf("pyval: Unmarshal %s.%s: want a string", path, key)
		}
		return s, nil
	}
	switch {
	case len(m) == 1 && m["int"] != nil:
		s, err := str("int")
		if err != nil {
			return nil, err
		}
		b, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, fmt.Errorf("pyval: Unmarshal %s.int: %q is no integer", path, s)
		}
		return normInt(b), nil
	case len(m) == 1 && m["float"] != nil:
		s, err := str("float")
		if err != nil {
			return nil, err
		}
		f, err := parseFloatRepr(s)
		if err != nil {
			return nil, fmt.Errorf("pyval: Unmarshal %s.float: %w", path, err)
		}
		return f, nil
	case len(m) == 1 && m["tuple"] != nil:
		var items []json.RawMessage
		if err := json.Unmarshal(m["tuple"], &items); err != nil {
			return nil, fmt.Errorf("pyval: Unmarshal %s.tuple: want an array", path)
		}
		t := make(Tuple, len(items))
		for i, e := range items {
			v, err := unmarshal(e, fmt.Sprintf("%s.tuple[%d]", path, i))
			if err != nil {
				return nil, err
			}
			t[i] = v
		}
		return t, nil
	case len(m) == 1 && m["dict"] != nil:
		var pairs [][]json.RawMessage
		if err := json.Unmarshal(m["dict"], &pairs); err != nil {
			return nil, fmt.Errorf("pyval: Unmarshal %s.dict: want an array of [key, value]", path)
		}
		d := NewDict()
		for i, kv := range pairs {
			at := fmt.Sprintf("%s.dict[%d]", path, i)
			if len(kv) != 2 {
				return nil, fmt.Errorf("pyval: Unmarshal %s: want [key, value]", at)
			}
			k, err := unmarshal(kv[0], at+"[0]")
			if err != nil {
				return nil, err
			}
			v, err := unmarshal(kv[1], at+"[1]")
			if err != nil {
				return nil, err
			}
			if err := d.SetItem(k, v); err != nil {
				return nil, fmt.Errorf("pyval: Unmarshal %s[0]: %v", at, err)
			}
		}
		return d, nil
	case len(m) == 2 && m["object"] != nil && m["state"] != nil:
		name, err := str("object")
		if err != nil {
			return nil, err
		}
		decode, ok := objectDecoders[name]
		if !ok {
			return nil, fmt.Errorf("pyval: Unmarshal %s: no decoder registered for class %q", path, name)
		}
		o, err := decode(m["state"])
		if err != nil {
			return nil, fmt.Errorf("pyval: Unmarshal %s (%s): %w", path, name, err)
		}
		return o, nil
	}
	return nil, fmt.Errorf("pyval: Unmarshal %s: an object must be one of {\"int\"}, {\"float\"}, {\"tuple\"}, {\"dict\"}, {\"object\",\"state\"}", path)
}

// parseFloatRepr reads a float's repr back ("nan", "inf", "-0.0", "1e+16").
func parseFloatRepr(s string) (float64, error) {
	switch s {
	case "nan":
		return math.NaN(), nil
	case "inf":
		return math.Inf(1), nil
	case "-inf":
		return math.Inf(-1), nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is no float repr", s)
	}
	return f, nil
}
