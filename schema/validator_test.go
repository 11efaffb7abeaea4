package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// validator checks a JSON document against a JSON Schema, for the subset
// of draft 2020-12 the shipped schemas use: $ref to #/$defs, type, enum,
// const, properties, required, additionalProperties, propertyNames,
// items, minItems, minLength, pattern, minimum, minProperties,
// maxProperties, anyOf. Any other keyword is an error, so a schema that
// grows past the subset fails its test instead of being half checked.
type validator struct {
	root map[string]any
}

var annotations = []string{"$schema", "$id", "$defs", "title", "description"}

func newValidator(src []byte) (*validator, error) {
	var root map[string]any
	if err := decode(src, &root); err != nil {
		return nil, err
	}
	return &validator{root: root}, nil
}

func decode(src []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(src))
	d.UseNumber()
	return d.Decode(v)
}

// validate returns every violation, each located by JSON path.
func (v *validator) validate(doc any) []string {
	var errs []string
	v.check(v.root, doc, "$", &errs)
	return errs
}

func (v *validator) check(s map[string]any, x any, path string, errs *[]string) {
	fail := func(format string, args ...any) { *errs = append(*errs, path+": "+fmt.Sprintf(format, args...)) }
	for kw, arg := range s {
		switch kw {
		case "$ref":
			ref, _ := arg.(string)
			name, ok := strings.CutPrefix(ref, "#/$defs/")
			def, found := v.root["$defs"].(map[string]any)[name].(map[string]any)
			if !ok || !found {
				fail("schema: unresolved $ref %q", ref)
				continue
			}
			v.check(def, x, path, errs)
		case "type":
			var types []string
			switch t := arg.(type) {
			case string:
				types = []string{t}
			case []any:
				for _, e := range t {
					types = append(types, e.(string))
				}
			}
			if !slices.ContainsFunc(types, func(t string) bool { return hasType(x, t) }) {
				fail("expected %s, got %s", strings.Join(types, " or "), typeOf(x))
			}
		case "enum":
			if !slices.ContainsFunc(arg.([]any), func(e any) bool { return equal(e, x) }) {
				fail("%s is not one of %s", show(x), show(arg))
			}
		case "const":
			if !equal(arg, x) {
				fail("expected %s, got %s", show(arg), show(x))
			}
		case "properties", "additionalProperties", "propertyNames", "required", "minProperties", "maxProperties":
			o, ok := x.(map[string]any)
			if !ok {
				continue
			}
			switch kw {
			case "properties":
				for k, sub := range arg.(map[string]any) {
					if val, ok := o[k]; ok {
						v.check(sub.(map[string]any), val, path+"."+k, errs)
					}
				}
			case "additionalProperties":
				props, _ := s["properties"].(map[string]any)
				for k, val := range o {
					if _, ok := props[k]; ok {
						continue
					}
					switch a := arg.(type) {
					case bool:
						if !a {
							fail("unknown member %q", k)
						}
					case map[string]any:
						v.check(a, val, path+"."+k, errs)
					}
				}
			case "propertyNames":
				for k := range o {
					v.check(arg.(map[string]any), k, path+"."+k+"(name)", errs)
				}
			case "required":
				for _, k := range arg.([]any) {
					if _, ok := o[k.(string)]; !ok {
						fail("missing member %q", k)
					}
				}
			case "minProperties":
				if n, _ := arg.(json.Number).Int64(); int64(len(o)) < n {
					fail("expected at least %d members", n)
				}
			case "maxProperties":
				if n, _ := arg.(json.Number).Int64(); int64(len(o)) > n {
					fail("expected at most %d members", n)
				}
			}
		case "items", "minItems":
			a, ok := x.([]any)
			if !ok {
				continue
			}
			if kw == "minItems" {
				if n, _ := arg.(json.Number).Int64(); int64(len(a)) < n {
					fail("expected at least %d items", n)
				}
				continue
			}
			for i, e := range a {
				v.check(arg.(map[string]any), e, fmt.Sprintf("%s[%d]", path, i), errs)
			}
		case "minLength", "pattern":
			str, ok := x.(string)
			if !ok {
				continue
			}
			if kw == "minLength" {
				if n, _ := arg.(json.Number).Int64(); int64(len([]rune(str))) < n {
					fail("expected at least %d characters", n)
				}
			} else if !regexp.MustCompile(arg.(string)).MatchString(str) {
				fail("%q does not match %s", str, arg)
			}
		case "minimum":
			if n, ok := x.(json.Number); ok {
				f, _ := n.Float64()
				m, _ := arg.(json.Number).Float64()
				if f < m {
					fail("%s is below %s", n, arg)
				}
			}
		case "anyOf":
			var all []string
			ok := false
			for _, sub := range arg.([]any) {
				var e []string
				v.check(sub.(map[string]any), x, path, &e)
				if len(e) == 0 {
					ok = true
					break
				}
				all = append(all, e...)
			}
			if !ok {
				fail("matches none of anyOf: %s", strings.Join(all, "; "))
			}
		default:
			if !slices.Contains(annotations, kw) {
				fail("schema: keyword %q is outside the validator's subset", kw)
			}
		}
	}
}

func hasType(x any, t string) bool {
	switch t {
	case "object":
		_, ok := x.(map[string]any)
		return ok
	case "array":
		_, ok := x.([]any)
		return ok
	case "string":
		_, ok := x.(string)
		return ok
	case "boolean":
		_, ok := x.(bool)
		return ok
	case "null":
		return x == nil
	case "number":
		_, ok := x.(json.Number)
		return ok
	case "integer":
		n, ok := x.(json.Number)
		if !ok {
			return false
		}
		_, err := n.Int64()
		return err == nil
	}
	return false
}

func typeOf(x any) string {
	for _, t := range []string{"object", "array", "string", "boolean", "null", "integer", "number"} {
		if hasType(x, t) {
			return t
		}
	}
	return "?"
}

func equal(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func show(x any) string { b, _ := json.Marshal(x); return string(b) }
