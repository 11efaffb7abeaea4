package bfcl

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/parthack/parthack/domains/bfcl/classes"
	"github.com/parthack/parthack/domains/bfcl/pyval"
	"github.com/parthack/parthack/internal/memo"
	"github.com/parthack/parthack/model"
)

// UserTurn is the user's step that starts a turn: BFCL's next fixed user
// message (the question's turn), which revises the goal to that turn's.
// It is the user's, never a tool of the agent's: an agent's call of the
// name fails as BFCL fails a name no class has.
const UserTurn = "user_turn"

// World is an entry's involved classes as a PB-CSTE domain: BFCL's
// executor over typed cells. An instance is one entity (its type and id
// are the class's name), each attribute one cell holding the attribute as
// pyval.Marshal encodes it, so that a call reads back exactly the Python
// value it left (int or float, a dict's order and key types). Cells are
// equal when their texts are: stricter than Python's == (1 and 1.0 are
// two values), which BFCL's own state check (the checker's port) applies.
type World struct {
	// session is the entry's instances as BFCL loads them, a stateful
	// one's attributes left out: each call runs on a copy of it whose
	// stateful instances' attributes are read from the state's cells.
	session *classes.Session
	// attrs names each stateful class's attributes in the order its
	// _load_scenario leaves them: the entity's fields.
	attrs map[string][]string
	// owner maps a method name to the class BFCL's executor runs it on.
	owner map[string]*classes.Class
	// offered holds, for a function miss_func withholds, the turn from
	// which it is offered to the model.
	offered map[string]int
	// id tells this world's calls from another's among the calls kept
	// (madeCalls), whatever worlds the process made before.
	id uint64
}

// worlds counts the worlds made, each one's id the count then.
var worlds atomic.Uint64

// decoded holds attributes already decoded, by their cell's text, for
// every world: a call takes a deep copy (cheaper than decoding again,
// and the call may change it in place), and the value kept tells whether
// the call changed it. Entries share most cells (a class's attributes
// as _load_scenario leaves them, a seeded generator's state): deriving
// the 600 entries' tasks decodes 908 distinct cells 11,584 times. Two
// generations of at most 16 MB of cell text each.
var decoded = memo.Cache[keptCell]{Max: 16 << 20}

// keptCell is a cell's attribute as decoded, and the cell's text as the
// cache holds it: one string for every reader of the same text while it
// is held, which a kept call's reads compare first by its address.
type keptCell struct {
	text string
	v    pyval.Value
}

// executorModel is the model name the world's instances are named after
// in the call text BFCL evaluates (InstanceName); no result shows it.
const executorModel = "parthack"

// errorPrefix starts the result BFCL's executor writes for a call that
// raised.
const errorPrefix = "Error during execution: "

// NewWorld is the world of an entry's involved classes, with the entity of
// each stateful one loaded from initial_config as BFCL loads it, and the
// entity schema they make.
func NewWorld(entryID string, involved []string, config *pyval.Dict) (*World, model.Schema, []model.Entity, error) {
	var schema model.Schema
	s, err := classes.NewSession(config, involved, executorModel, entryID)
	if err != nil {
		return nil, schema, nil, err
	}
	w := &World{session: s, attrs: map[string][]string{}, owner: map[string]*classes.Class{}, id: worlds.Add(1)}
	var initial []model.Entity
	for _, in := range s.Instances {
		c := in.Class
		for m := range c.Methods {
			w.owner[m] = c
		}
		if c.Stateless {
			continue
		}
		et := model.EntityType{Name: c.Name}
		e := model.Entity{Type: c.Name, ID: c.Name}
		for _, a := range in.Attrs {
			w.attrs[c.Name] = append(w.attrs[c.Name], a.Name)
			et.Fields = append(et.Fields, model.FieldDef{Name: a.Name, Kind: model.KindString})
			v, err := cell(a.Value)
			if err != nil {
				return nil, schema, nil, fmt.Errorf("%s.%s: %w", c.Name, a.Name, err)
			}
			e.Fields = append(e.Fields, model.Assign{Field: a.Name, Value: v})
		}
		schema.Types = append(schema.Types, et)
		initial = append(initial, e)
		in.Attrs = nil // each call reads them from the state
	}
	return w, schema, initial, nil
}

// cell is the cell value of an attribute, marshalled into a buffer kept
// for the next cell, so that its text is the one string allocated.
func cell(v pyval.Value) (model.Value, error) {
	b := cellBuffers.Get().(*bytes.Buffer)
	b.Reset()
	err := pyval.MarshalTo(b, v)
	c := model.Str(b.String())
	if b.Cap() <= 1<<20 { // a rare long cell's buffer is not kept
		cellBuffers.Put(b)
	}
	if err != nil {
		return model.Null, err
	}
	return c, nil
}

var cellBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Value reads an attribute back from its cell.
func Value(v model.Value) (pyval.Value, error) { return pyval.Unmarshal([]byte(v.AsString())) }

// kept reads an attribute back from its cell: the value as decoded,
// shared by every call, which none changes (a call reads a deep copy of
// it, classes.Attr.Shared). The cell may share the state's bytes (see
// cells): the cache keeps a copy of its text.
func kept(f model.Value) (keptCell, error) {
	if k, ok := decoded.Get(f.AsString()); ok {
		return k, nil
	}
	x, err := Value(f)
	if err != nil {
		return keptCell{}, err
	}
	k := keptCell{strings.Clone(f.AsString()), x}
	decoded.Add(k.text, k, len(k.text))
	return k, nil
}

// cells appends an instance's attributes' cells to dst, in names' order
// (the entity's fields): the whole record at once where the view can,
// sharing the state's bytes where it can (model.AliasView), for a call
// reads them only until it returns, before the state is written, and
// keeps none (kept copies what it keeps).
func (w *World) cells(dst []model.Value, v model.StateView, class string, names []string) []model.Value {
	n := len(dst)
	if av, ok := v.(model.AliasView); ok {
		if fs, ok := av.FieldsAlias(dst, class, class); ok && len(fs)-n == len(names) {
			return fs
		}
	} else if rv, ok := v.(model.RecordView); ok {
		if fs, ok := rv.Fields(class, class); ok && len(fs) == len(names) {
			return append(dst, fs...)
		}
	}
	dst = dst[:n]
	for _, name := range names {
		f, _ := v.Field(class, class, name)
		dst = append(dst, f)
	}
	return dst
}

// Name is the domain's id.
func (w *World) Name() string { return DomainName }

// EndsEpisode: no call ends a BFCL entry. A turn ends when the model
// answers without a call, the entry when its last turn does (or BFCL
// force-quits it past 20 steps of one turn).
func (w *World) EndsEpisode(string) bool { return false }

// OpenTools: BFCL evaluates whatever name the model calls.
func (w *World) OpenTools() bool { return true }

// Authors: the user, whose fixed messages start the turns.
func (w *World) Authors() []model.Actor { return []model.Actor{model.ActorUser} }

// Call is the agent's call.
func (w *World) Call(v model.StateView, tool string, args model.Value) ([]model.Action, string, string) {
	return w.CallAs(v, model.ActorAgent, tool, args)
}

// CallAs runs a call as BFCL's executor runs a decoded call string
// (CallString): on the instances as the state holds them, its result as
// BFCL writes it. A call that answers "Error during execution: …" and
// changed nothing is a failed call with that text; a Python exception
// raised after part of the state changed keeps those changes, as Python
// does, and answers the same text. The call gets the instances its text
// names (Session.Reaches), their attributes as decoded once for every
// call, each copied as it stands where the call first reads it
// (classes.Attr.Shared, pyval.Clone): as in Python, where calls run on the
// instances themselves, an instance or attribute the call does not reach
// is neither read nor written. A call the world made before on the same
// cells gives what it gave then (madeCalls). The user's step is the next
// turn's message.
func (w *World) CallAs(v model.StateView, actor model.Actor, tool string, args model.Value) ([]model.Action, string, string) {
	if actor == model.ActorUser {
		return w.userTurn(tool, args)
	}
	call := callText(tool, args)
	reached := w.session.Reaches(call)
	r := reads.Get().(*callReads)
	defer r.done()
	for k, in := range w.session.Instances {
		r.at = append(r.at, len(r.cells))
		c := in.Class
		if c.Stateless || !reached[k] {
			continue
		}
		names := w.attrs[c.Name]
		r.cells = w.cells(r.cells, v, c.Name, names)
		for i, f := range r.cells[r.at[k]:] {
			x, err := kept(f)
			if err != nil {
				return nil, "", fmt.Sprintf("%s.%s: cell unreadable: %v", c.Name, names[i], err)
			}
			r.kept = append(r.kept, x)
		}
	}
	key := r.key(w.id, call)
	if kc, ok := madeCalls.Get(unsafe.String(unsafe.SliceData(key), len(key))); ok && kc.read(r.kept) {
		return kc.out()
	}
	kc := &keptCall{reads: make([]string, len(r.kept))}
	for i, x := range r.kept {
		kc.reads[i] = x.text
	}
	kc.writes, kc.res, kc.fail = w.execute(r, call, reached)
	size := len(key) + len(kc.res) + len(kc.fail)
	for i := range kc.reads {
		size += len(kc.reads[i])
	}
	for _, wr := range kc.writes {
		for _, f := range wr.Fields {
			size += len(f.Value.AsString())
		}
	}
	madeCalls.Add(string(key), kc, size)
	return kc.out()
}

// execute runs a call on the cells read (r) of the instances it
// reaches, as CallAs describes.
func (w *World) execute(r *callReads, call string, reached []bool) ([]model.Action, string, string) {
	s := w.session.Clone()
	for k, in := range s.Instances {
		c := in.Class
		if c.Stateless || !reached[k] {
			continue
		}
		names := w.attrs[c.Name]
		in.Attrs = make([]classes.Attr, len(names))
		for i, name := range names {
			in.Attrs[i] = classes.Attr{Name: name, Value: r.kept[r.at[k]+i].v, Shared: true}
		}
	}
	res := s.Execute([]string{call})[0]
	var writes []model.Action
	for k, in := range s.Instances {
		c := in.Class
		if c.Stateless || !reached[k] {
			continue
		}
		cells, vals := r.cells[r.at[k]:r.at[k]+len(w.attrs[c.Name])], r.kept[r.at[k]:]
		if len(in.Attrs) != len(cells) {
			return nil, "", fmt.Sprintf("%s: the call set an attribute the class did not have after _load_scenario", c.Name)
		}
		var fields []model.Assign
		for i, was := range cells {
			a := in.Attrs[i]
			if a.Shared {
				continue // the call did not read it
			}
			if r.cmp.same(vals[i].v, a.Value) {
				continue // Marshal would write the cell it was read from
			}
			nv, err := cell(a.Value)
			if err != nil {
				return nil, "", fmt.Sprintf("%s.%s: %v", c.Name, a.Name, err)
			}
			if nv.AsString() != was.AsString() {
				fields = append(fields, model.Assign{Field: a.Name, Value: nv})
			}
		}
		if len(fields) > 0 {
			writes = append(writes, model.Action{Op: model.OpUpdate, Type: c.Name, ID: c.Name, Fields: fields})
		}
	}
	if len(writes) == 0 && strings.HasPrefix(res, errorPrefix) {
		return nil, "", res
	}
	return writes, res, ""
}

// madeCalls holds the calls worlds made, by the world, the call's text
// and where the texts of the cells it read are held (keptCell): a call
// of a world on the same cells gives the same writes and result, and a
// run certified twice makes each of its calls twice, on the same states
// (its task's derivation, which replays gold once more, comes long before
// for every entry at once). Two generations of at most 2 MB of the texts
// a call read and wrote: the two certifications of a run go side by side.
var madeCalls = memo.Cache[*keptCall]{Max: 2 << 20}

// keptCall is a call as made: the texts of the cells it read, in
// callReads' order, and what it gave.
type keptCall struct {
	reads     []string
	writes    []model.Action
	res, fail string
}

// read reports whether a call with these reads reads the same cells.
// The key found the call by its cells' addresses, which reads holds:
// none of them is another text's while the call is kept.
func (kc *keptCall) read(cells []keptCell) bool {
	if len(cells) != len(kc.reads) {
		return false
	}
	for i := range cells {
		if cells[i].text != kc.reads[i] {
			return false
		}
	}
	return true
}

// out is what the call gave, its writes the caller's own to change.
func (kc *keptCall) out() ([]model.Action, string, string) {
	if kc.writes == nil {
		return nil, kc.res, kc.fail
	}
	writes := slices.Clone(kc.writes)
	for i := range writes {
		writes[i].Fields = slices.Clone(writes[i].Fields)
	}
	return writes, kc.res, kc.fail
}

// callReads is what a call read, kept for the next call: the cells of
// the instances it reached, as the state holds them (which may share the
// state's bytes: see cells), at[k] where instance k's start (its
// attributes' values decoded at the same places of kept), and the walk
// that compares each attribute as the call left it.
type callReads struct {
	at    []int
	cells []model.Value
	kept  []keptCell
	cmp   sameWalk
	buf   []byte // the key of the call in madeCalls
}

// key is the key of a call of world id in madeCalls: the world, the call's
// text and its length, and where each cell's text read is held, its
// address and length.
func (r *callReads) key(id uint64, call string) []byte {
	b := binary.LittleEndian.AppendUint64(r.buf[:0], id)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(call)))
	b = append(b, call...)
	for _, x := range r.kept {
		b = binary.LittleEndian.AppendUint64(b, uint64(uintptr(unsafe.Pointer(unsafe.StringData(x.text)))))
		b = binary.LittleEndian.AppendUint64(b, uint64(len(x.text)))
	}
	r.buf = b
	return b
}

var reads = sync.Pool{New: func() any { return new(callReads) }}

// done gives the reads back, holding none of the state's bytes or
// values.
func (r *callReads) done() {
	clear(r.cells)
	clear(r.kept)
	r.at, r.cells, r.kept = r.at[:0], r.cells[:0], r.kept[:0]
	reads.Put(r)
}

// userTurn is the user's message that starts turn args.turn.
func (w *World) userTurn(tool string, args model.Value) ([]model.Action, string, string) {
	if tool != UserTurn {
		return nil, "", fmt.Sprintf("the user sends the next turn's message (%s), never calls %s", UserTurn, tool)
	}
	turn, ok := turnArg(args)
	if !ok {
		return nil, "", fmt.Sprintf(`%s takes {"turn": N}, N the turn's index from 0`, UserTurn)
	}
	return []model.Action{{Op: model.OpReviseGoal, Goal: GoalVersion(turn)}}, "", ""
}

// turnArg reads {"turn": N}: the text UserStep writes at once, any other
// as its JSON's members.
func turnArg(args model.Value) (int, bool) {
	if args.Kind() == model.JSONValue {
		if n, ok := strings.CutPrefix(args.AsString(), `{"turn":`); ok {
			if n, ok := strings.CutSuffix(n, "}"); ok && len(n) > 0 && len(n) < 10 && (n[0] != '0' || n == "0") &&
				strings.Trim(n, "0123456789") == "" {
				turn, _ := strconv.Atoi(n)
				return turn, true
			}
		}
	}
	return turnMember(args)
}

// turnMember reads {"turn": N} from its JSON's members.
func turnMember(args model.Value) (int, bool) {
	ms, _ := model.Members(args)
	if len(ms) != 1 || ms[0].Field != "turn" || ms[0].Value.Kind() != model.IntValue || ms[0].Value.AsInt() < 0 {
		return 0, false
	}
	return int(ms[0].Value.AsInt()), true
}

// GoalVersion names the goal of turn i (BFCL's turn index, from 0).
func GoalVersion(turn int) string { return "turn-" + strconv.Itoa(turn) }

// same reports whether a call left an attribute as it read it: a and b
// are of the same types with the same contents (floats to the bit), and
// their references have one shape (a pointer met again in one is met
// again at the same place in the other), so Marshal writes the same bytes
// for both. It may answer false for values Marshal writes alike (state
// Marshal skips, a hash table's layout); never true for values it writes
// differently.
func same(a, b pyval.Value) bool {
	var s sameWalk
	return s.same(a, b)
}

// sameWalk pairs the pointers met in a with those met in b, both ways.
// One walk compares attribute after attribute, each afresh, its maps
// kept for the next.
type sameWalk struct{ ab, ba map[uintptr]uintptr }

// same is same(a, b), with no pair from a comparison before.
func (s *sameWalk) same(a, b pyval.Value) bool {
	clear(s.ab)
	clear(s.ba)
	return s.values(a, b)
}

// pair records that pointer p of a is q of b; false where either is
// already paired otherwise. seen: the pair was met before (and is being
// compared or was).
func (s *sameWalk) pair(p, q uintptr) (ok, seen bool) {
	if s.ab == nil {
		s.ab, s.ba = map[uintptr]uintptr{}, map[uintptr]uintptr{}
	}
	x, inA := s.ab[p]
	y, inB := s.ba[q]
	switch {
	case inA || inB:
		return inA && inB && x == q && y == p, true
	}
	s.ab[p], s.ba[q] = q, p
	return true, false
}

// values compares Python values, pyval's own types directly and any other
// (an Object) field by field.
func (s *sameWalk) values(a, b pyval.Value) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case *big.Int:
		y, ok := b.(*big.Int)
		return ok && x.Cmp(y) == 0
	case *pyval.Random:
		// A seeded generator's state, its words and position, at
		// once.
		y, ok := b.(*pyval.Random)
		switch {
		case !ok:
			return false
		case x == nil || y == nil:
			return x == nil && y == nil
		}
		if ok, seen := s.pair(uintptr(unsafe.Pointer(x)), uintptr(unsafe.Pointer(y))); seen {
			return ok
		}
		return x.SameState(y)
	case *pyval.List:
		y, ok := b.(*pyval.List)
		if !ok {
			return false
		}
		if ok, seen := s.pair(uintptr(unsafe.Pointer(x)), uintptr(unsafe.Pointer(y))); seen {
			return ok
		}
		return s.seq(x.Items, y.Items)
	case pyval.Tuple:
		y, ok := b.(pyval.Tuple)
		return ok && s.seq(x, y)
	case *pyval.Dict:
		y, ok := b.(*pyval.Dict)
		if !ok {
			return false
		}
		if ok, seen := s.pair(uintptr(unsafe.Pointer(x)), uintptr(unsafe.Pointer(y))); seen {
			return ok
		}
		xs, ys := x.Items(), y.Items()
		if len(xs) != len(ys) {
			return false
		}
		for i := range xs {
			if !s.values(xs[i].Key, ys[i].Key) || !s.values(xs[i].Value, ys[i].Value) {
				return false
			}
		}
		return true
	}
	if b == nil {
		return false
	}
	return s.reflect(reflect.ValueOf(a), reflect.ValueOf(b))
}

func (s *sameWalk) seq(a, b []pyval.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !s.values(a[i], b[i]) {
			return false
		}
	}
	return true
}

var (
	dictType = reflect.TypeFor[*pyval.Dict]()
	listType = reflect.TypeFor[*pyval.List]()
)

// pointee is the *pyval.Dict or *pyval.List a reflected pointer holds,
// which may have been reached through an unexported field (whose value
// reflect will not hand out).
func pointee(v reflect.Value) pyval.Value {
	if v.Type() == dictType {
		return (*pyval.Dict)(unsafe.Pointer(v.Pointer()))
	}
	return (*pyval.List)(unsafe.Pointer(v.Pointer()))
}

// reflect compares two values of any Go type, every field, exported or
// not: an Object's state, whatever its class keeps.
func (s *sameWalk) reflect(a, b reflect.Value) bool {
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Complex64, reflect.Complex128:
		x, y := a.Complex(), b.Complex()
		return math.Float64bits(real(x)) == math.Float64bits(real(y)) && math.Float64bits(imag(x)) == math.Float64bits(imag(y))
	case reflect.String:
		return a.String() == b.String()
	case reflect.Array:
		for i := range a.Len() {
			if !s.reflect(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !s.reflect(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !s.reflect(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() && b.IsNil()
		}
		return s.reflect(a.Elem(), b.Elem())
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() && b.IsNil()
		}
		switch a.Type() {
		case dictType, listType:
			// An object's dict or list, reached through a field of its
			// own: as Marshal reads it (a dict's items, not its index).
			return s.values(pointee(a), pointee(b))
		}
		if ok, seen := s.pair(a.Pointer(), b.Pointer()); seen {
			return ok
		}
		return s.reflect(a.Elem(), b.Elem())
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if ok, seen := s.pair(a.Pointer(), b.Pointer()); seen {
			return ok
		}
		switch a.Type().Key().Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Chan, reflect.UnsafePointer, reflect.Func:
			return false // keys that are references: no pairing by equality
		}
		for it := a.MapRange(); it.Next(); {
			v := b.MapIndex(it.Key())
			if !v.IsValid() || !s.reflect(it.Value(), v) {
				return false
			}
		}
		return true
	}
	// A func, a channel, an unsafe pointer: equal only when both are nil.
	switch a.Kind() {
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return a.IsNil() && b.IsNil()
	}
	return false
}
