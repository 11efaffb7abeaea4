package bfcl

import (
	"embed"
	"fmt"
	"maps"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/parthack/parthack/domains/bfcl/pyval"
	"github.com/parthack/parthack/internal/mapfile"
)

// data is BFCL's multi-turn data as parthack ships it: the questions, the
// gold calls and the function docs of gorilla 8db0b7ca, with BFCL's
// Apache-2.0 licence and a NOTICE naming each file's origin.
//
//go:embed data
var data embed.FS

// Categories are BFCL's multi-turn categories parthack ships, in BFCL's
// order.
var Categories = []string{"multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param"}

// Message is one message of a user turn.
type Message struct {
	Role    string
	Content string
}

// Entry is one BFCL multi-turn test entry, its question file's line and
// its possible_answer line together.
type Entry struct {
	ID       string // "multi_turn_base_0"
	Category string // BFCL's test category: the id less its last "_N"
	// Question holds the user turns, each a list of messages; a turn of
	// miss_func where a held-out function comes back has none (BFCL
	// sends its fixed message then).
	Question [][]Message
	// InitialConfig is each class's starting state, by class name, as
	// json.loads gives it.
	InitialConfig   *pyval.Dict
	InvolvedClasses []string
	// Path and ExcludedFunction are the functions the entry is about and
	// those not offered (nil when the entry names none); BFCL's checker
	// reads neither.
	Path, ExcludedFunction []string
	// MissedFunction (miss_func) holds the functions withheld until a
	// turn, by that turn's index; nil elsewhere.
	MissedFunction map[int][]string
	// GroundTruth holds, per turn, the gold calls as Python call strings.
	GroundTruth [][]string
}

// Unrunnable is why BFCL's inference cannot run the entry, "" when it
// can: a turn that gives a held-out function back must have no user
// message (BFCL asserts it and records the assertion as the entry's
// inference error). 8 miss_func entries of gorilla 8db0b7ca have one; a
// later commit moved their held-out turn.
func (e *Entry) Unrunnable() string {
	for turn := range e.MissedFunction {
		if len(e.Question[turn]) != 0 {
			return "Holdout turn should not have user message."
		}
	}
	return ""
}

// FuncDoc is one function's schema as BFCL offers it to a model.
type FuncDoc struct {
	Name        string
	Description string
	Parameters  *Schema
	Response    *Schema
	// Raw is the doc as its file has it (one JSON line).
	Raw string
}

// Schema is a parameter's or a response's schema in BFCL's words (types
// "dict", "string", "integer", "float", "boolean", "array", "any", ...).
type Schema struct {
	Type        string
	Description string
	Properties  []Property // a dict's, in the doc's order
	Required    []string
	Items       *Schema // an array's items
	// Default is the parameter's default as json.loads gives it, when
	// HasDefault.
	Default    pyval.Value
	HasDefault bool
}

// Property is one named member of a dict schema.
type Property struct {
	Name   string
	Schema *Schema
}

// funcDocFiles maps each class to its function-doc file, as BFCL's
// MULTI_TURN_FUNC_DOC_FILE_MAPPING does.
var funcDocFiles = map[string]string{
	"GorillaFileSystem": "gorilla_file_system.json",
	"MathAPI":           "math_api.json",
	"MessageAPI":        "message_api.json",
	"TwitterAPI":        "posting_api.json",
	"TicketAPI":         "ticket_api.json",
	"TradingBot":        "trading_bot.json",
	"TravelAPI":         "travel_booking.json",
	"VehicleControlAPI": "vehicle_control.json",
}

var loaded struct {
	once    sync.Once
	entries []*Entry
	byID    map[string]*Entry
	docs    map[string][]*FuncDoc
	err     error
}

func load() {
	l := &loaded
	l.byID = map[string]*Entry{}
	var names []string
	for _, cat := range Categories {
		q := "BFCL_v4_" + cat + ".json.gz"
		names = append(names, q, "possible_answer/"+q)
	}
	srcs, err := shippedAll(names)
	if err != nil {
		l.err = err
		return
	}
	for i, cat := range Categories {
		es, err := decodeCategory(cat, names[2*i], srcs[2*i], names[2*i+1], srcs[2*i+1])
		if err != nil {
			l.err = err
			return
		}
		for _, e := range es {
			l.byID[e.ID] = e
		}
		l.entries = append(l.entries, es...)
	}
	l.docs = map[string][]*FuncDoc{}
	for _, class := range slices.Sorted(maps.Keys(funcDocFiles)) {
		docs, err := decodeFuncDocs("multi_turn_func_doc/" + funcDocFiles[class])
		if err != nil {
			l.err = err
			return
		}
		l.docs[class] = docs
	}
}

// Entries are BFCL's multi-turn entries parthack ships, the three
// categories in Categories' order, each in its file's order. They are
// decoded once; callers must not modify them.
func Entries() ([]*Entry, error) {
	loaded.once.Do(load)
	return loaded.entries, loaded.err
}

// EntryByID finds a shipped entry by BFCL's id ("multi_turn_base_0").
func EntryByID(id string) (*Entry, error) {
	loaded.once.Do(load)
	if loaded.err != nil {
		return nil, loaded.err
	}
	e, ok := loaded.byID[id]
	if !ok {
		return nil, fmt.Errorf("bfcl: no multi-turn entry %q (ids are %s_N, N from 0 to 199)", id, strings.Join(Categories, "_N, "))
	}
	return e, nil
}

// FuncDocs are a class's function docs, in its file's order
// ("GorillaFileSystem": gorilla_file_system.json).
func FuncDocs(class string) ([]*FuncDoc, error) {
	loaded.once.Do(load)
	if loaded.err != nil {
		return nil, loaded.err
	}
	docs, ok := loaded.docs[class]
	if !ok {
		return nil, fmt.Errorf("bfcl: no class %q (BFCL's multi-turn classes are GorillaFileSystem, MathAPI, MessageAPI, TwitterAPI, TicketAPI, TradingBot, TravelAPI, VehicleControlAPI)", class)
	}
	return docs, nil
}

// shipped reads a shipped file, gunzipped (its checksum verified) when
// it is gzipped.
func shipped(name string) ([]byte, error) {
	b, err := data.ReadFile(path.Join("data", name))
	if err != nil {
		return nil, fmt.Errorf("bfcl data: %w", err)
	}
	out, err := mapfile.Unpack(b)
	if err != nil {
		return nil, fmt.Errorf("bfcl data %s: %w", name, err)
	}
	return out, nil
}

// shippedAll reads shipped files, each gunzipped on a core of its own;
// the error is the first file's in names' order.
func shippedAll(names []string) ([][]byte, error) {
	srcs := make([][]byte, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() { srcs[i], errs[i] = shipped(name) })
	}
	wg.Wait()
	return srcs, firstErr(errs)
}

// firstErr is the first error of errs that is not nil.
func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// eachLine decodes every line of a file of one JSON value a line (BFCL's
// format, read as its load_file does: `for line in f: json.loads(line)`),
// line n (from 1) by decode, the lines spread over the cores. The results
// and errors are in line order, as a reader line by line meets them.
func eachLine[T any](src []byte, decode func(line string, n int) (T, error)) ([]T, []error) {
	var ls []string
	for s := string(src); s != ""; {
		line, rest, _ := strings.Cut(s, "\n")
		ls, s = append(ls, line), rest
	}
	out := make([]T, len(ls))
	errs := make([]error, len(ls))
	onEveryCore(len(ls), func(i int) { out[i], errs[i] = decode(ls[i], i+1) })
	return out, errs
}

// onEveryCore calls fn(i) for every i below n, spread over the cores,
// each i taken by the next core free.
func onEveryCore(n int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(i)
			}
		})
	}
	wg.Wait()
}

// decodeCategory decodes a category's questions and their answers,
// paired by position as BFCL pairs them.
func decodeCategory(cat, qfile string, qsrc []byte, afile string, asrc []byte) ([]*Entry, error) {
	out, errs := eachLine(qsrc, func(line string, n int) (*Entry, error) {
		c, err := parseLine(qfile, line, n)
		if err != nil {
			return nil, err
		}
		return decodeQuestion(c, cat)
	})
	if err := firstErr(errs); err != nil {
		return nil, err
	}
	// An answer line is parsed on any core; it is paired with its
	// question, and its ground truth read, in line order.
	type answer struct {
		o  jobj
		id string
	}
	answers, errs := eachLine(asrc, func(line string, n int) (answer, error) {
		c, err := parseLine(afile, line, n)
		if err != nil {
			return answer{}, err
		}
		o, err := c.object("id", "ground_truth")
		if err != nil {
			return answer{}, err
		}
		id, err := o.needStr("id")
		return answer{o, id}, err
	})
	for i, a := range answers {
		if errs[i] != nil {
			return nil, errs[i]
		}
		o, id := a.o, a.id
		if i >= len(out) {
			return nil, o.at("id").fail("entry %q has no question: %s holds %d", id, qfile, len(out))
		}
		e := out[i]
		if id != e.ID {
			return nil, o.at("id").fail("expected %q, the id of line %d of %s (BFCL pairs questions and answers by position)", e.ID, i+1, qfile)
		}
		gt, err := o.need("ground_truth")
		if err != nil {
			return nil, err
		}
		turns, err := gt.array()
		if err != nil {
			return nil, err
		}
		if len(turns) != len(e.Question) {
			return nil, gt.fail("expected %d turns, one per turn of the question, got %d", len(e.Question), len(turns))
		}
		for _, t := range turns {
			calls, err := t.strs()
			if err != nil {
				return nil, err
			}
			e.GroundTruth = append(e.GroundTruth, calls)
		}
	}
	if len(answers) != len(out) {
		return nil, fmt.Errorf("bfcl data %s: %d answers for %d questions of %s", afile, len(answers), len(out), qfile)
	}
	return out, nil
}

func decodeQuestion(c jc, cat string) (*Entry, error) {
	o, err := c.object("id", "question", "initial_config", "involved_classes", "path", "excluded_function", "missed_function")
	if err != nil {
		return nil, err
	}
	e := &Entry{}
	if e.ID, err = o.needStr("id"); err != nil {
		return nil, err
	}
	if i := strings.LastIndexByte(e.ID, '_'); i > 0 {
		e.Category = e.ID[:i]
	}
	if e.Category != cat {
		return nil, o.at("id").fail("expected an id of category %s (%s_N), got %q", cat, cat, e.ID)
	}
	q, err := o.need("question")
	if err != nil {
		return nil, err
	}
	turns, err := q.array()
	if err != nil {
		return nil, err
	}
	for _, t := range turns {
		msgs, err := t.array()
		if err != nil {
			return nil, err
		}
		turn := []Message{}
		for _, m := range msgs {
			mo, err := m.object("role", "content")
			if err != nil {
				return nil, err
			}
			var msg Message
			if msg.Role, err = mo.needStr("role"); err != nil {
				return nil, err
			}
			if msg.Content, err = mo.needStr("content"); err != nil {
				return nil, err
			}
			turn = append(turn, msg)
		}
		e.Question = append(e.Question, turn)
	}
	ic, err := o.need("initial_config")
	if err != nil {
		return nil, err
	}
	if _, err := ic.object(); err != nil {
		return nil, err
	}
	e.InitialConfig = ic.n.py().(*pyval.Dict)
	for _, f := range []struct {
		key      string
		dst      *[]string
		optional bool
	}{{"involved_classes", &e.InvolvedClasses, false}, {"path", &e.Path, false}, {"excluded_function", &e.ExcludedFunction, true}} {
		v, ok := o.get(f.key)
		if !ok {
			if f.optional {
				continue
			}
			return nil, o.fail("missing %q", f.key)
		}
		if *f.dst, err = v.strs(); err != nil {
			return nil, err
		}
	}
	for i, class := range e.InvolvedClasses {
		if _, ok := funcDocFiles[class]; !ok {
			return nil, o.at("involved_classes").item(i).fail("expected one of BFCL's multi-turn classes, got %q", class)
		}
	}
	if mf, ok := o.get("missed_function"); ok {
		mo, err := mf.object()
		if err != nil {
			return nil, err
		}
		e.MissedFunction = map[int][]string{}
		for _, key := range mo.n.keys {
			v := mo.at(key)
			turn, err := strconv.Atoi(key)
			if err != nil || strconv.Itoa(turn) != key || turn < 0 || turn >= len(e.Question) {
				return nil, v.fail("expected a turn index from 0 to %d as the key, got %q", len(e.Question)-1, key)
			}
			if e.MissedFunction[turn], err = v.strs(); err != nil {
				return nil, err
			}
		}
	}
	return e, nil
}

func decodeFuncDocs(file string) ([]*FuncDoc, error) {
	src, err := shipped(file)
	if err != nil {
		return nil, err
	}
	out, errs := eachLine(src, func(line string, n int) (*FuncDoc, error) {
		c, err := parseLine(file, line, n)
		if err != nil {
			return nil, err
		}
		o, err := c.object("name", "description", "parameters", "response")
		if err != nil {
			return nil, err
		}
		d := &FuncDoc{Raw: line}
		if d.Name, err = o.needStr("name"); err != nil {
			return nil, err
		}
		if d.Description, err = o.needStr("description"); err != nil {
			return nil, err
		}
		if p, ok := o.get("parameters"); ok {
			if d.Parameters, err = decodeSchema(p); err != nil {
				return nil, err
			}
		}
		if r, ok := o.get("response"); ok {
			if d.Response, err = decodeSchema(r); err != nil {
				return nil, err
			}
		}
		return d, nil
	})
	if err := firstErr(errs); err != nil {
		return nil, err
	}
	return out, nil
}

func decodeSchema(c jc) (*Schema, error) {
	o, err := c.object("type", "description", "properties", "required", "items", "default")
	if err != nil {
		return nil, err
	}
	s := &Schema{}
	if s.Type, err = o.needStr("type"); err != nil {
		return nil, err
	}
	if d, ok := o.get("description"); ok {
		if s.Description, err = d.str(); err != nil {
			return nil, err
		}
	}
	if p, ok := o.get("properties"); ok {
		po, err := p.object()
		if err != nil {
			return nil, err
		}
		for _, key := range po.n.keys {
			ps, err := decodeSchema(po.at(key))
			if err != nil {
				return nil, err
			}
			s.Properties = append(s.Properties, Property{Name: key, Schema: ps})
		}
	}
	if r, ok := o.get("required"); ok {
		if s.Required, err = r.strs(); err != nil {
			return nil, err
		}
	}
	if it, ok := o.get("items"); ok {
		if s.Items, err = decodeSchema(it); err != nil {
			return nil, err
		}
	}
	if d, ok := o.get("default"); ok {
		s.Default, s.HasDefault = d.n.py(), true
	}
	return s, nil
}
