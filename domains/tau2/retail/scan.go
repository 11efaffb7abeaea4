package retail

import (
	"encoding/binary"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/parthack/parthack/internal/jsonscan"
	"github.com/parthack/parthack/model"
)

// scanDB reads db.json as parseDB does, without the Python values of the
// whole document: the text is scanned once, a record's members are
// sliced from it, and a nested value is written straight as the
// canonical JSON tau2.ModelValue gives it (keys sorted, a float as Python
// writes it, the integers pydantic reads as floats written as floats).
// It reads the text tau2 ships: strings of printable ASCII without
// escapes, integers of at most 18 digits, finite floats, no key twice,
// records where records are; false for any other text, which parseDB
// reads (and words its errors).
func scanDB(src []byte) (*DB, bool) {
	s := &dbScanner{src: src, out: make([]byte, 0, len(src)/2)}
	top, end, ok := s.members(ws(src, 0), 0)
	if !ok || ws(src, end) != len(src) {
		return nil, false
	}
	db := &DB{pms: map[string][]string{}, variants: map[string][]string{}, options: map[string][]string{}, optionOf: map[string]string{}}
	colls := map[string][]member{}
	for _, m := range top {
		colls[m.key] = m.sub
	}
	for _, k := range []string{"products", "users", "orders"} {
		if m, ok := colls[k]; !ok || m == nil {
			return nil, false
		}
	}
	for _, p := range colls["products"] {
		if p.sub == nil || !s.product(db, p) {
			return nil, false
		}
	}
	for _, u := range colls["users"] {
		if u.sub == nil || !s.user(db, u) {
			return nil, false
		}
	}
	for _, o := range colls["orders"] {
		if o.sub == nil || !s.add(db, TypeOrder, o.key, o.sub, 2, orderRule, nil) {
			return nil, false
		}
		db.orders = append(db.orders, o.key)
	}
	db.sorted.products = sortedCopy(db.products)
	db.sorted.users = sortedCopy(db.users)
	db.sorted.orders = sortedCopy(db.orders)
	return db, true
}

// rule says which numbers of a record pydantic reads as floats (floats:
// its own members), and the rules of its nested records: a member's
// (members), every member's of a dict of records (each), every item's of
// a list (items).
type rule struct {
	floats  []string
	members map[string]*rule
	each    *rule
	items   *rule
}

func (r *rule) member(key string) *rule {
	switch {
	case r == nil:
		return nil
	case r.each != nil:
		return r.each
	}
	return r.members[key]
}

var (
	productRule = &rule{members: map[string]*rule{"variants": {each: &rule{floats: []string{"price"}}}}}
	pmRule      = &rule{floats: []string{"balance"}}
	orderRule   = &rule{floats: []string{"exchange_price_difference"}, members: map[string]*rule{
		"items":           {items: &rule{floats: []string{"price"}}},
		"payment_history": {items: &rule{floats: []string{"amount"}}},
	}}
)

// dbScanner reads one db.json text, which nothing writes again: the
// strings it makes share it, and the canonical texts share out.
type dbScanner struct {
	src   []byte
	out   []byte   // canonical texts made so far, never rewritten
	tmp   []byte   // the canonical text being made
	obj   []byte   // an object's text while its members are sorted
	spans []span   // the members of the objects being made
	mems  []member // the members of the records being read
}

// member is one member of an object: its key, its value's place and,
// for an object within treeDepth, its members (never nil: an empty
// object has none).
type member struct {
	key        string
	start, end int
	sub        []member
}

// treeDepth is how deep objects are read as members: db.json (0), its
// collections (1), their records (2), a record's nested records (3: a
// product's variants, a user's payment methods), theirs (4) and a
// variant's options (5). Deeper values are checked and placed.
const treeDepth = 6

// span is a member made canonical, in tmp.
type span struct {
	key        string
	start, end int
}

// ws skips JSON white space: db.json is indented, so runs of eight
// spaces are skipped a word at a time.
func ws(src []byte, i int) int {
	for i < len(src) {
		if i+8 <= len(src) && binary.LittleEndian.Uint64(src[i:]) == 0x2020202020202020 {
			i += 8
			continue
		}
		if c := src[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return i
		}
		i++
	}
	return i
}

// str is the plain string at i (printable ASCII, no escape), sharing the
// text.
func (s *dbScanner) str(i int) (string, int, bool) {
	src := s.src
	if i >= len(src) || src[i] != '"' {
		return "", i, false
	}
	j := i + 1
	for j < len(src) && !stops[src[j]] {
		j++
	}
	if j >= len(src) || src[j] != '"' {
		return "", j, false
	}
	if j == i+1 {
		return "", j + 1, true
	}
	return unsafe.String(&src[i+1], j-i-1), j + 1, true
}

// stops are the bytes a plain string does not hold: its end, an escape,
// a control character, DEL and non-ASCII.
var stops = func() (t [256]bool) {
	for c := range t {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= 0x7f
	}
	return t
}()

// number is the number at i by the JSON grammar, and whether it is an
// integer (no fraction, no exponent).
func (s *dbScanner) number(i int) (lit string, integer bool, end int, ok bool) {
	src, start := s.src, i
	if i, integer, ok = jsonscan.Number(src, i); !ok {
		return "", false, i, false
	}
	if integer && i-start > 18 {
		return "", false, i, false // parseDB reads a longer one (as a float if it must)
	}
	return unsafe.String(&src[start], i-start), integer, i, true
}

// members reads the object at i: its members in the text's order, each
// value checked (canon) and placed. A key given twice is refused.
func (s *dbScanner) members(i, depth int) ([]member, int, bool) {
	src := s.src
	if i >= len(src) || src[i] != '{' || depth > 200 {
		return nil, i, false
	}
	base := len(s.mems)
	defer func() { s.mems = s.mems[:base] }()
	if i = ws(src, i+1); i < len(src) && src[i] == '}' {
		return []member{}, i + 1, true
	}
	for {
		key, end, ok := s.str(ws(src, i))
		if !ok {
			return nil, end, false
		}
		if i = ws(src, end); i >= len(src) || src[i] != ':' {
			return nil, i, false
		}
		i = ws(src, i+1)
		var sub []member
		if depth+1 < treeDepth && i < len(src) && src[i] == '{' {
			sub, end, ok = s.members(i, depth+1)
		} else {
			end, ok = s.skip(i, depth+1)
		}
		if !ok {
			return nil, end, false
		}
		s.mems = append(s.mems, member{key: key, start: i, end: end, sub: sub})
		if i = ws(src, end); i < len(src) && src[i] == ',' {
			i++
			continue
		}
		if i >= len(src) || src[i] != '}' {
			return nil, i, false
		}
		out := slices.Clone(s.mems[base:])
		if twice(out) {
			return nil, i, false
		}
		return out, i + 1, true
	}
}

func twice(ms []member) bool {
	keys := make([]string, len(ms))
	for i, m := range ms {
		keys[i] = m.key
	}
	slices.Sort(keys)
	return len(slices.Compact(keys)) < len(keys)
}

// skip is the end of the value at i, checked as canon reads values.
func (s *dbScanner) skip(i, depth int) (int, bool) {
	src := s.src
	if i >= len(src) || depth > 200 {
		return i, false
	}
	switch c := src[i]; {
	case c == '"':
		_, end, ok := s.str(i)
		return end, ok
	case c == '{' || c == '[':
		close := byte('}')
		if c == '[' {
			close = ']'
		}
		if i = ws(src, i+1); i < len(src) && src[i] == close {
			return i + 1, true
		}
		for {
			if c == '{' {
				_, end, ok := s.str(ws(src, i))
				if !ok {
					return end, false
				}
				if i = ws(src, end); i >= len(src) || src[i] != ':' {
					return i, false
				}
				i++
			}
			end, ok := s.skip(ws(src, i), depth+1)
			if !ok {
				return end, false
			}
			if i = ws(src, end); i < len(src) && src[i] == ',' {
				i++
				continue
			}
			if i >= len(src) || src[i] != close {
				return i, false
			}
			return i + 1, true
		}
	case c == '-' || '0' <= c && c <= '9':
		_, _, end, ok := s.number(i)
		return end, ok
	}
	for _, lit := range []string{"true", "false", "null"} {
		if len(src)-i >= len(lit) && string(src[i:i+len(lit)]) == lit {
			return i + len(lit), true
		}
	}
	return i, false
}

// canon appends the canonical JSON of the value at i to tmp, by its rule;
// asFloat says an integer there is one pydantic reads as a float.
func (s *dbScanner) canon(i, depth int, r *rule, asFloat bool) (int, bool) {
	src := s.src
	if i >= len(src) || depth > 200 {
		return i, false
	}
	switch c := src[i]; {
	case c == '"':
		_, end, ok := s.str(i)
		s.tmp = append(s.tmp, src[i:end]...)
		return end, ok
	case c == '{':
		return s.object(i, depth, r)
	case c == '[':
		s.tmp = append(s.tmp, '[')
		i = ws(src, i+1)
		if i < len(src) && src[i] == ']' {
			s.tmp = append(s.tmp, ']')
			return i + 1, true
		}
		var items *rule
		if r != nil {
			items = r.items
		}
		for {
			if items != nil && (i >= len(src) || src[i] != '{') {
				return i, false // parseDB makes such an item {}
			}
			end, ok := s.canon(i, depth+1, items, false)
			if !ok {
				return end, false
			}
			if i = ws(src, end); i < len(src) && src[i] == ',' {
				s.tmp = append(s.tmp, ',')
				i = ws(src, i+1)
				continue
			}
			if i >= len(src) || src[i] != ']' {
				return i, false
			}
			s.tmp = append(s.tmp, ']')
			return i + 1, true
		}
	case c == '-' || '0' <= c && c <= '9':
		lit, integer, end, ok := s.number(i)
		if !ok {
			return end, false
		}
		if integer {
			n, err := strconv.ParseInt(lit, 10, 64)
			if err != nil {
				return end, false
			}
			if asFloat {
				s.tmp = model.AppendPyFloat(s.tmp, float64(n))
			} else {
				s.tmp = strconv.AppendInt(s.tmp, n, 10)
			}
			return end, true
		}
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil || math.IsInf(f, 0) {
			return end, false
		}
		s.tmp = model.AppendPyFloat(s.tmp, f)
		return end, true
	}
	for _, lit := range []string{"true", "false", "null"} {
		if len(src)-i >= len(lit) && string(src[i:i+len(lit)]) == lit {
			s.tmp = append(s.tmp, lit...)
			return i + len(lit), true
		}
	}
	return i, false
}

// object appends the canonical text of the object at i: its members made
// canonical in turn, then written in the order of their keys.
func (s *dbScanner) object(i, depth int, r *rule) (int, bool) {
	src := s.src
	mark, base := len(s.tmp), len(s.spans)
	defer func() { s.spans = s.spans[:base] }()
	if i = ws(src, i+1); i < len(src) && src[i] == '}' {
		s.tmp = append(s.tmp, "{}"...)
		return i + 1, true
	}
	for {
		key, end, ok := s.str(ws(src, i))
		if !ok {
			return end, false
		}
		if i = ws(src, end); i >= len(src) || src[i] != ':' {
			return i, false
		}
		start := len(s.tmp)
		asFloat := r != nil && slices.Contains(r.floats, key)
		if end, ok = s.canon(ws(src, i+1), depth+1, r.member(key), asFloat); !ok {
			return end, false
		}
		s.spans = append(s.spans, span{key, start, len(s.tmp)})
		if i = ws(src, end); i < len(src) && src[i] == ',' {
			i++
			continue
		}
		if i >= len(src) || src[i] != '}' {
			return i, false
		}
		ms := s.spans[base:]
		slices.SortStableFunc(ms, func(a, b span) int { return strings.Compare(a.key, b.key) })
		s.obj = append(s.obj[:0], '{')
		for j, m := range ms {
			if j > 0 {
				if m.key == ms[j-1].key {
					return i, false // a key given twice
				}
				s.obj = append(s.obj, ',')
			}
			s.obj = append(append(append(s.obj, '"'), m.key...), `":`...)
			s.obj = append(s.obj, s.tmp[m.start:m.end]...)
		}
		s.tmp = append(append(s.tmp[:mark], s.obj...), '}')
		return i + 1, true
	}
}

// value is a member's field value as tau2.ModelValue gives its Python
// value, the member being one of a record read by its rule: a string, an
// integer, a boolean or None as itself, a list of strings as one, any
// other value as its canonical JSON.
func (s *dbScanner) value(m member, depth int, r *rule) (model.Value, bool) {
	src := s.src
	switch c := src[m.start]; {
	case c == '"':
		x, _, ok := s.str(m.start)
		return model.Str(x), ok
	case c == 't' || c == 'f':
		return model.Bool(c == 't'), true
	case c == 'n':
		return model.Null, true
	case c == '[':
		if xs, ok := s.strings(m); ok {
			return model.List(xs), true
		}
	case c == '-' || '0' <= c && c <= '9':
		if lit, integer, _, ok := s.number(m.start); ok && integer && (r == nil || !slices.Contains(r.floats, m.key)) {
			n, err := strconv.ParseInt(lit, 10, 64)
			return model.Int(n), err == nil
		}
	}
	s.tmp = s.tmp[:0]
	asFloat := r != nil && slices.Contains(r.floats, m.key)
	if _, ok := s.canon(m.start, depth, r.member(m.key), asFloat); !ok {
		return model.Null, false
	}
	at := len(s.out)
	s.out = append(s.out, s.tmp...)
	return model.CanonicalJSON(unsafe.String(&s.out[at], len(s.out)-at)), true
}

// strings are the items of a list of strings; false when one is none.
func (s *dbScanner) strings(m member) ([]string, bool) {
	xs := []string{}
	for i := ws(s.src, m.start+1); s.src[i] != ']'; {
		x, end, ok := s.str(i)
		if !ok {
			return nil, false
		}
		xs = append(xs, x)
		if i = ws(s.src, end); s.src[i] == ',' {
			i = ws(s.src, i+1)
		}
	}
	return xs, true
}

// add makes a record, its members, an entity of typ, each member its field, in
// the record's order (pre, the members its place gives it, first), as
// DB.add does.
func (s *dbScanner) add(db *DB, typ, id string, ms []member, depth int, r *rule, pre []model.Assign) bool {
	et, _ := schema.Type(typ)
	e := model.Entity{Type: typ, ID: id}
	if n := len(pre) + len(ms); n > 0 {
		e.Fields = make([]model.Assign, 0, n)
	}
	e.Fields = append(e.Fields, pre...)
	for _, m := range ms {
		if slices.ContainsFunc(pre, func(a model.Assign) bool { return a.Field == m.key }) {
			return false // parseDB keeps both
		}
		if typ == TypeUser && m.key == "payment_methods" {
			continue // entities of their own
		}
		fd, ok := et.Field(m.key)
		if !ok {
			return false
		}
		v, ok := s.value(m, depth+1, r)
		if !ok || model.CheckValue(fd, v) != "" {
			return false
		}
		if !v.IsNull() {
			e.Fields = append(e.Fields, model.Assign{Field: m.key, Value: v})
		}
	}
	db.Entities = append(db.Entities, e)
	return true
}

// product adds a product, and the orders of its variants and their
// options.
func (s *dbScanner) product(db *DB, p member) bool {
	for _, m := range p.sub {
		if m.key != "variants" {
			continue
		}
		if m.sub == nil {
			return false
		}
		for _, v := range m.sub {
			if v.sub == nil {
				return false
			}
			db.variants[p.key] = append(db.variants[p.key], v.key)
			for _, o := range v.sub {
				if o.key != "options" {
					continue
				}
				if o.sub == nil {
					return false
				}
				for _, k := range o.sub {
					db.options[v.key] = append(db.options[v.key], k.key)
				}
			}
			db.optionOf[v.key] = p.key
		}
	}
	db.products = append(db.products, p.key)
	return s.add(db, TypeProduct, p.key, p.sub, 2, productRule, nil)
}

// user adds a user's payment methods, then the user.
func (s *dbScanner) user(db *DB, u member) bool {
	for _, m := range u.sub {
		if m.key != "payment_methods" {
			continue
		}
		if m.sub == nil {
			return false
		}
		for _, pm := range m.sub {
			if pm.sub == nil {
				return false
			}
			db.pms[u.key] = append(db.pms[u.key], pm.key)
			if !s.add(db, TypePaymentMethod, u.key+"/"+pm.key, pm.sub, 3, pmRule, []model.Assign{{Field: "user", Value: model.Str(u.key)}}) {
				return false
			}
		}
	}
	db.users = append(db.users, u.key)
	return s.add(db, TypeUser, u.key, u.sub, 2, nil, nil)
}
