package telecom

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// A record struct is read as an entity field by field (see records.go):
// strings are strings or enums, *string and *int64 are nullable, bools
// and int64s are themselves, float64s (Python floats) and nested records
// are json fields holding what pydantic dumps.

// kind is one record type as an entity type.
type kind struct {
	name   string
	typ    reflect.Type
	idx    int   // the id field's index
	fields []int // the indexes of the entity's fields, in order
	def    model.EntityType
}

func kindOf(name string, proto any) *kind {
	t := reflect.TypeOf(proto)
	k := &kind{name: name, typ: t, idx: -1, def: model.EntityType{Name: name}}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Tag.Get("id") != "" {
			k.idx = i
		}
		py := f.Tag.Get("py")
		if py == "-" {
			continue
		}
		fd := model.FieldDef{Name: py}
		switch f.Type.Kind() {
		case reflect.String:
			fd.Kind = model.KindString
			if e := f.Tag.Get("enum"); e != "" {
				fd.Kind, fd.Values = model.KindEnum, strings.Split(e, ",")
			}
		case reflect.Bool:
			fd.Kind = model.KindBool
		case reflect.Int64:
			fd.Kind = model.KindInt
		case reflect.Pointer:
			fd.Kind = model.KindString
			if f.Type.Elem().Kind() == reflect.Int64 {
				fd.Kind = model.KindInt
			}
		case reflect.Slice:
			fd.Kind = model.KindJSON
			if f.Type.Elem().Kind() == reflect.String {
				fd.Kind = model.KindStrings
			}
		default:
			fd.Kind = model.KindJSON
		}
		k.fields = append(k.fields, i)
		k.def.Fields = append(k.def.Fields, fd)
	}
	return k
}

// id is a record's entity id.
func (k *kind) id(rec reflect.Value) string { return rec.Field(k.idx).String() }

// values are a record's field values, in the entity type's order.
func (k *kind) values(rec reflect.Value) []model.Value {
	out := make([]model.Value, len(k.fields))
	for j, i := range k.fields {
		out[j] = valueOf(rec.Field(i))
	}
	return out
}

// entity is a record as an entity of the initial snapshot (a null field
// is left out: absent is null).
func (k *kind) entity(rec reflect.Value) model.Entity {
	e := model.Entity{Type: k.name, ID: k.id(rec)}
	for j, v := range k.values(rec) {
		if !v.IsNull() {
			e.Fields = append(e.Fields, model.Assign{Field: k.def.Fields[j].Name, Value: v})
		}
	}
	return e
}

// read fills a record (a pointer's element) from the state: its fields
// at once where the state reads records whole (model.RecordView).
func (k *kind) read(v model.StateView, id string, rec reflect.Value) error {
	rec.Field(k.idx).SetString(id)
	if rv, ok := v.(model.RecordView); ok {
		if vals, alive := rv.Fields(k.name, id); alive && len(vals) == len(k.fields) {
			for j, i := range k.fields {
				if err := setValue(rec.Field(i), vals[j]); err != nil {
					return fmt.Errorf("%s %s: field %s: %w", k.name, id, k.def.Fields[j].Name, err)
				}
			}
			return nil
		}
	}
	for j, i := range k.fields {
		name := k.def.Fields[j].Name
		x, _ := v.Field(k.name, id, name)
		if err := setValue(rec.Field(i), x); err != nil {
			return fmt.Errorf("%s %s: field %s: %w", k.name, id, name, err)
		}
	}
	return nil
}

// valueOf is one Go field as an entity field value.
func valueOf(f reflect.Value) model.Value {
	switch f.Kind() {
	case reflect.String:
		return model.Str(f.String())
	case reflect.Bool:
		return model.Bool(f.Bool())
	case reflect.Int64:
		return model.Int(f.Int())
	case reflect.Pointer:
		if f.IsNil() {
			return model.Null
		}
		return valueOf(f.Elem())
	case reflect.Slice:
		if f.Type().Elem().Kind() == reflect.String {
			return model.List(f.Interface().([]string))
		}
	}
	return tau2.ModelValue(pyOf(f)) // FromJSON of its json.dumps, written straight
}

// setValue stores an entity field value in a Go field.
func setValue(f reflect.Value, x model.Value) error {
	switch f.Kind() {
	case reflect.String:
		f.SetString(x.AsString())
	case reflect.Bool:
		f.SetBool(x.AsBool())
	case reflect.Int64:
		f.SetInt(x.AsInt())
	case reflect.Pointer:
		if x.IsNull() {
			f.SetZero()
			return nil
		}
		p := reflect.New(f.Type().Elem())
		if err := setValue(p.Elem(), x); err != nil {
			return err
		}
		f.Set(p)
	case reflect.Float64:
		// a float is read as ParsePy reads the number, without it
		if x.Kind() == model.IntValue {
			f.SetFloat(float64(x.AsInt()))
			return nil
		}
		if s := x.AsString(); x.Kind() == model.JSONValue && s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
			if n, err := strconv.ParseFloat(s, 64); err == nil {
				f.SetFloat(n)
				return nil
			}
		}
		return setPy(f, x)
	default:
		if f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.String {
			f.Set(reflect.ValueOf(append([]string{}, x.AsList()...)))
			return nil
		}
		return setPy(f, x)
	}
	return nil
}

// setPy stores a value in a Go field as pydantic validates its JSON.
func setPy(f reflect.Value, x model.Value) error {
	text := x.AsString()
	if x.Kind() == model.JSONValue {
		if py, ok := nested.Load(text); ok {
			return fromPy(py, f)
		}
	}
	py, err := tau2.ParsePy(x.AppendJSON(nil))
	if err != nil {
		return err
	}
	if x.Kind() == model.JSONValue && nestedN.Add(1) <= nestedCap {
		nested.Store(text, py)
	}
	return fromPy(py, f)
}

// nested holds the Python value of each nested field's text read so far
// (the first nestedCap texts): a customer's address, a bill's items and
// the signal where the user is are read again on every call, and
// ParsePy was most of reading them. fromPy only reads a value, so one
// value serves every reader.
var (
	nested  sync.Map // canonical JSON text → its Python value
	nestedN atomic.Int64
)

const nestedCap = 1 << 14

// pyOf is a Go value as the Python value pydantic's model_dump gives.
func pyOf(f reflect.Value) any {
	switch f.Kind() {
	case reflect.String:
		return f.String()
	case reflect.Bool:
		return f.Bool()
	case reflect.Int64:
		return f.Int()
	case reflect.Float64:
		return f.Float()
	case reflect.Pointer:
		if f.IsNil() {
			return nil
		}
		return pyOf(f.Elem())
	case reflect.Slice:
		out := make([]any, f.Len())
		for i := range out {
			out[i] = pyOf(f.Index(i))
		}
		return out
	case reflect.Struct:
		t := f.Type()
		out := make(tau2.Obj, 0, t.NumField())
		for i := range t.NumField() {
			if py := t.Field(i).Tag.Get("py"); py != "-" {
				out = append(out, tau2.Member{Key: py, Value: pyOf(f.Field(i))})
			}
		}
		return out
	}
	panic(fmt.Sprintf("telecom: no Python value for %s", f.Type()))
}

// fromPy stores a Python value in a Go field of the matching shape.
func fromPy(x any, f reflect.Value) error {
	bad := func() error { return fmt.Errorf("expected %s, got %s", f.Type(), tau2.Dumps(x, false)) }
	switch f.Kind() {
	case reflect.String:
		s, ok := x.(string)
		if !ok {
			return bad()
		}
		f.SetString(s)
	case reflect.Bool:
		b, ok := x.(bool)
		if !ok {
			return bad()
		}
		f.SetBool(b)
	case reflect.Int64:
		n, ok := x.(int64)
		if !ok {
			return bad()
		}
		f.SetInt(n)
	case reflect.Float64:
		switch n := x.(type) {
		case float64:
			f.SetFloat(n)
		case int64: // pydantic validates an int for a float field as a float
			f.SetFloat(float64(n))
		default:
			return bad()
		}
	case reflect.Pointer:
		if x == nil {
			f.SetZero()
			return nil
		}
		p := reflect.New(f.Type().Elem())
		if err := fromPy(x, p.Elem()); err != nil {
			return err
		}
		f.Set(p)
	case reflect.Slice:
		xs, ok := x.([]any)
		if !ok {
			return bad()
		}
		s := reflect.MakeSlice(f.Type(), len(xs), len(xs))
		for i, y := range xs {
			if err := fromPy(y, s.Index(i)); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		f.Set(s)
	case reflect.Struct:
		o, ok := x.(tau2.Obj)
		if !ok {
			return bad()
		}
		t := f.Type()
		for _, m := range o {
			i := fieldIndex(t, m.Key)
			if i < 0 {
				return fmt.Errorf("unexpected key %q (a %s has no such field)", m.Key, t.Name())
			}
			if err := fromPy(m.Value, f.Field(i)); err != nil {
				return fmt.Errorf("%s: %w", m.Key, err)
			}
		}
	default:
		return bad()
	}
	return nil
}

func fieldIndex(t reflect.Type, key string) int {
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("py") == key {
			return i
		}
	}
	return -1
}

// deepCopy is a copy of a record sharing nothing with it.
func deepCopy(rec reflect.Value) reflect.Value {
	c := reflect.New(rec.Type()).Elem()
	copyInto(c, rec)
	return c
}

func copyInto(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if !src.IsNil() {
			p := reflect.New(src.Type().Elem())
			copyInto(p.Elem(), src.Elem())
			dst.Set(p)
		}
	case reflect.Slice:
		if !src.IsNil() {
			s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
			for i := range src.Len() {
				copyInto(s.Index(i), src.Index(i))
			}
			dst.Set(s)
		}
	case reflect.Struct:
		for i := range src.NumField() {
			copyInto(dst.Field(i), src.Field(i))
		}
	default:
		dst.Set(src)
	}
}

// same reports whether two values of a record's type are one value to
// valueOf: floats bit for bit (0.0 and -0.0 are two Python floats), a
// nil slice and an empty one alike.
func same(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() && b.IsNil()
		}
		return same(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !same(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !same(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	panic(fmt.Sprintf("telecom: no comparison for %s", a.Type()))
}
