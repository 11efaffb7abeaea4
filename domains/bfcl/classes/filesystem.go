package classes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parthack/parthack/domains/bfcl/pyval"
)

// GorillaFileSystem (gorilla_file_system.py) is a tree of Directory and
// File objects under root, and a current directory. Its methods are
// ported statement by statement, with Python's sharing kept: mv of a
// directory gives the new one the old one's contents dict (the children
// keep the old one as parent), cp gives a shallow copy of it (files are
// shared), and a name is whatever value the model passed.
//
// Not ported: the long_context branches of _load_scenario (BFCL loads the
// three multi-turn categories with long_context=False).
func init() {
	Register(&Class{
		Name: "GorillaFileSystem",
		Init: func(self *Instance) {
			self.Set("_api_description", "This tool belongs to the Gorilla file system. It is a simple file system that allows users to perform basic file operations such as navigating directories, creating files and directories, reading and writing to files, etc.")
		},
		Load: fsLoad,
		Methods: map[string]*Method{
			"pwd":   {Body: fsPwd},
			"ls":    {Params: []Param{{Name: "a", Default: false, HasDefault: true}}, Body: fsLs},
			"cd":    {Params: []Param{{Name: "folder"}}, Body: fsCd},
			"mkdir": {Params: []Param{{Name: "dir_name"}}, Body: fsMkdir},
			"touch": {Params: []Param{{Name: "file_name"}}, Body: fsTouch},
			"echo":  {Params: []Param{{Name: "content"}, {Name: "file_name", HasDefault: true}}, Body: fsEcho},
			"cat":   {Params: []Param{{Name: "file_name"}}, Body: fsCat},
			"find": {Params: []Param{{Name: "path", Default: ".", HasDefault: true}, {Name: "name", HasDefault: true}},
				Body: fsFind},
			"wc":    {Params: []Param{{Name: "file_name"}, {Name: "mode", Default: "l", HasDefault: true}}, Body: fsWc},
			"sort":  {Params: []Param{{Name: "file_name"}}, Body: fsSort},
			"grep":  {Params: []Param{{Name: "file_name"}, {Name: "pattern"}}, Body: fsGrep},
			"du":    {Params: []Param{{Name: "human_readable", Default: false, HasDefault: true}}, Body: fsDu},
			"tail":  {Params: []Param{{Name: "file_name"}, {Name: "lines", Default: int64(10), HasDefault: true}}, Body: fsTail},
			"diff":  {Params: []Param{{Name: "file_name1"}, {Name: "file_name2"}}, Body: fsDiff},
			"mv":    {Params: []Param{{Name: "source"}, {Name: "destination"}}, Body: fsMv},
			"rm":    {Params: []Param{{Name: "file_name"}}, Body: fsRm},
			"rmdir": {Params: []Param{{Name: "dir_name"}}, Body: fsRmdir},
			"cp":    {Params: []Param{{Name: "source"}, {Name: "destination"}}, Body: fsCp},
		},
	})
	pyval.RegisterObject("File", fsDecodeFile)
	pyval.RegisterObject("Directory", fsDecodeDirectory)
}

// fsFile is BFCL's File. Its _last_modified (datetime.now() at creation
// and at each _write) is not held: no method, repr, == or state check
// reads it, so it could only make outputs depend on the clock.
type fsFile struct {
	name    pyval.Value
	content pyval.Value
}

func (f *fsFile) ClassName() string { return "File" }

// Repr is __repr__: "<<File: name, Content: content>>".
func (f *fsFile) Repr() string {
	return "<<File: " + pyval.Str(f.name) + ", Content: " + pyval.Str(f.content) + ">>"
}

// Equal is __eq__: a File of equal name and content.
func (f *fsFile) Equal(other pyval.Value) bool {
	o, ok := other.(*fsFile)
	return ok && pyval.Equal(f.name, o.name) && pyval.Equal(f.content, o.content)
}

// Unhashable: File defines __eq__ and no __hash__.
func (f *fsFile) Unhashable() {}

func (f *fsFile) DeepCopy(memo map[any]pyval.Value) pyval.Value {
	if c, ok := memo[f]; ok {
		return c
	}
	c := &fsFile{}
	memo[f] = c
	c.name = pyval.DeepCopyMemo(f.name, memo)
	c.content = pyval.DeepCopyMemo(f.content, memo)
	return c
}

type fsFileState struct {
	Name    json.RawMessage `json:"name"`
	Content json.RawMessage `json:"content"`
}

func (f *fsFile) MarshalState() ([]byte, error) {
	name, err := pyval.Marshal(f.name)
	if err != nil {
		return nil, err
	}
	content, err := pyval.Marshal(f.content)
	if err != nil {
		return nil, err
	}
	return json.Marshal(fsFileState{Name: name, Content: content})
}

func fsDecodeFile(data []byte) (pyval.Object, error) {
	var st fsFileState
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("File: %w", err)
	}
	f := &fsFile{}
	return f, f.fill(st)
}

func (f *fsFile) fill(st fsFileState) error {
	var err error
	if f.name, err = pyval.Unmarshal(st.Name); err != nil {
		return fmt.Errorf("File name: %w", err)
	}
	if f.content, err = pyval.Unmarshal(st.Content); err != nil {
		return fmt.Errorf("File content: %w", err)
	}
	return nil
}

// fsDir is BFCL's Directory: a name, a parent (nil for None) and its
// contents, a dict of names to *fsFile and *fsDir that two directories
// share after an mv.
type fsDir struct {
	name     pyval.Value
	parent   *fsDir
	contents *pyval.Dict
}

func fsNewDir(name pyval.Value, parent *fsDir) *fsDir {
	return &fsDir{name: name, parent: parent, contents: pyval.NewDict()}
}

func (d *fsDir) ClassName() string { return "Directory" }

// Repr is __repr__: "<Directory: name, Parent: parent's name or None,
// Contents: {…}>"; a contents dict met again inside its own repr shows
// as {...}, as Python's dict repr does.
func (d *fsDir) Repr() string {
	var b strings.Builder
	d.writeRepr(&b, map[*pyval.Dict]bool{})
	return b.String()
}

func (d *fsDir) writeRepr(b *strings.Builder, active map[*pyval.Dict]bool) {
	b.WriteString("<Directory: ")
	b.WriteString(pyval.Str(d.name))
	b.WriteString(", Parent: ")
	if d.parent != nil {
		b.WriteString(pyval.Str(d.parent.name))
	} else {
		b.WriteString("None")
	}
	b.WriteString(", Contents: ")
	switch {
	case d.contents.Len() == 0:
		b.WriteString("{}")
	case active[d.contents]:
		b.WriteString("{...}")
	default:
		active[d.contents] = true
		b.WriteByte('{')
		for i, it := range d.contents.Items() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pyval.Repr(it.Key))
			b.WriteString(": ")
			if sub, ok := it.Value.(*fsDir); ok {
				sub.writeRepr(b, active)
			} else {
				b.WriteString(pyval.Repr(it.Value))
			}
		}
		b.WriteByte('}')
		delete(active, d.contents)
	}
	b.WriteByte('>')
}

// Equal is __eq__: a Directory of equal name and contents (dict ==,
// values compared identity first, as PyObject_RichCompareBool does).
// Where Python would exceed its recursion limit (a directory inside
// itself) Python raises RecursionError; this reports unequal.
func (d *fsDir) Equal(other pyval.Value) bool { return fsDirEqual(d, other, 0) }

func fsDirEqual(d *fsDir, other pyval.Value, depth int) bool {
	o, ok := other.(*fsDir)
	if !ok || depth > fsRecursionLimit || !pyval.Equal(d.name, o.name) || d.contents.Len() != o.contents.Len() {
		return false
	}
	for _, it := range d.contents.Items() {
		ov, ok := o.contents.Get(it.Key)
		if !ok {
			return false
		}
		switch v := it.Value.(type) {
		case *fsDir:
			if v != ov && !fsDirEqual(v, ov, depth+1) {
				return false
			}
		case *fsFile:
			if v != ov && !v.Equal(ov) {
				return false
			}
		default:
			if !pyval.Equal(v, ov) {
				return false
			}
		}
	}
	return true
}

// fsRecursionLimit stands for sys.getrecursionlimit() (1000): how deep
// the recursive walks (find, du, ==) go before Python raises
// RecursionError.
const fsRecursionLimit = 990

// Unhashable: Directory defines __eq__ and no __hash__.
func (d *fsDir) Unhashable() {}

func (d *fsDir) DeepCopy(memo map[any]pyval.Value) pyval.Value {
	if c, ok := memo[d]; ok {
		return c
	}
	c := &fsDir{}
	memo[d] = c
	c.name = pyval.DeepCopyMemo(d.name, memo)
	if d.parent != nil {
		c.parent = pyval.DeepCopyMemo(d.parent, memo).(*fsDir)
	}
	c.contents = pyval.DeepCopyMemo(d.contents, memo).(*pyval.Dict)
	return c
}

// A Directory's MarshalState is the whole graph it belongs to: every
// directory and file reachable from the top of its parent chain (the
// file system's root) through contents and parent links, then from the
// directory itself, each contents dict once (shared dicts stay shared),
// and which node the directory is. Decoding rebuilds that graph, parent
// links included; a file system whose root and current directory were
// marshalled apart is joined again by fsDirs.
type fsGraphState struct {
	Self  int           `json:"self"`
	Nodes []fsNodeState `json:"nodes"`
	Dicts [][]fsEntry   `json:"dicts"`
}

type fsNodeState struct {
	File   *fsFileState    `json:"file,omitempty"`
	Name   json.RawMessage `json:"name,omitempty"` // a directory's
	Parent *int            `json:"parent,omitempty"`
	Dict   int             `json:"dict"`
}

type fsEntry struct {
	Key  json.RawMessage `json:"key"`
	Node int             `json:"node"`
}

type fsEncoder struct {
	st    fsGraphState
	nodes map[any]int
	dicts map[*pyval.Dict]int
}

func (e *fsEncoder) node(v pyval.Value) (int, error) {
	if id, ok := e.nodes[v]; ok {
		return id, nil
	}
	id := len(e.st.Nodes)
	switch x := v.(type) {
	case *fsFile:
		e.nodes[x] = id
		e.st.Nodes = append(e.st.Nodes, fsNodeState{})
		// The file's MarshalState, kept as its parts: json.Marshal
		// writes them as it writes them there.
		name, err := pyval.Marshal(x.name)
		if err != nil {
			return 0, err
		}
		content, err := pyval.Marshal(x.content)
		if err != nil {
			return 0, err
		}
		e.st.Nodes[id].File = &fsFileState{Name: name, Content: content}
	case *fsDir:
		e.nodes[x] = id
		e.st.Nodes = append(e.st.Nodes, fsNodeState{})
		name, err := pyval.Marshal(x.name)
		if err != nil {
			return 0, err
		}
		e.st.Nodes[id].Name = name
		if x.parent != nil {
			p, err := e.node(x.parent)
			if err != nil {
				return 0, err
			}
			e.st.Nodes[id].Parent = &p
		}
		dict, err := e.dict(x.contents)
		if err != nil {
			return 0, err
		}
		e.st.Nodes[id].Dict = dict
	default:
		return 0, fmt.Errorf("a directory holds a %s, not a File or Directory", pyval.TypeName(v))
	}
	return id, nil
}

func (e *fsEncoder) dict(d *pyval.Dict) (int, error) {
	if id, ok := e.dicts[d]; ok {
		return id, nil
	}
	id := len(e.st.Dicts)
	e.dicts[d] = id
	e.st.Dicts = append(e.st.Dicts, nil)
	entries := make([]fsEntry, 0, d.Len())
	for _, it := range d.Items() {
		key, err := pyval.Marshal(it.Key)
		if err != nil {
			return 0, err
		}
		n, err := e.node(it.Value)
		if err != nil {
			return 0, err
		}
		entries = append(entries, fsEntry{Key: key, Node: n})
	}
	e.st.Dicts[id] = entries
	return id, nil
}

// top is the end of d's parent chain.
func (d *fsDir) top() *fsDir {
	for d.parent != nil {
		d = d.parent
	}
	return d
}

func (d *fsDir) graph() (fsGraphState, error) {
	e := &fsEncoder{nodes: map[any]int{}, dicts: map[*pyval.Dict]int{}}
	if _, err := e.node(d.top()); err != nil {
		return fsGraphState{}, err
	}
	self, err := e.node(d)
	if err != nil {
		return fsGraphState{}, err
	}
	e.st.Self = self
	return e.st, nil
}

func (d *fsDir) MarshalState() ([]byte, error) { return d.AppendState(nil) }

// AppendState appends MarshalState's text (pyval.StateAppender): the
// graph as json.Marshal writes it (appendJSON).
func (d *fsDir) AppendState(b []byte) ([]byte, error) {
	st, err := d.graph()
	if err != nil {
		return nil, err
	}
	return st.appendJSON(b), nil
}

// appendJSON appends json.Marshal's text of the graph: its fields in
// order, a nil slice null, omitempty's fields left out where empty, and
// each RawMessage (pyval.Marshal's text, compact JSON) with "<", ">",
// "&", U+2028 and U+2029 escaped as json.Marshal escapes them.
func (st *fsGraphState) appendJSON(b []byte) []byte {
	b = append(b, `{"self":`...)
	b = strconv.AppendInt(b, int64(st.Self), 10)
	b = append(b, `,"nodes":`...)
	if st.Nodes == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range st.Nodes {
			if i > 0 {
				b = append(b, ',')
			}
			b = st.Nodes[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	b = append(b, `,"dicts":`...)
	if st.Dicts == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, es := range st.Dicts {
			if i > 0 {
				b = append(b, ',')
			}
			if es == nil {
				b = append(b, "null"...)
				continue
			}
			b = append(b, '[')
			for j, e := range es {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"key":`...)
				b = appendRawJSON(b, e.Key)
				b = append(b, `,"node":`...)
				b = strconv.AppendInt(b, int64(e.Node), 10)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func (n *fsNodeState) appendJSON(b []byte) []byte {
	b = append(b, '{')
	if n.File != nil {
		b = append(b, `"file":{"name":`...)
		b = appendRawJSON(b, n.File.Name)
		b = append(b, `,"content":`...)
		b = appendRawJSON(b, n.File.Content)
		b = append(b, "},"...)
	}
	if len(n.Name) > 0 {
		b = append(b, `"name":`...)
		b = appendRawJSON(b, n.Name)
		b = append(b, ',')
	}
	if n.Parent != nil {
		b = append(b, `"parent":`...)
		b = strconv.AppendInt(b, int64(*n.Parent), 10)
		b = append(b, ',')
	}
	b = append(b, `"dict":`...)
	b = strconv.AppendInt(b, int64(n.Dict), 10)
	return append(b, '}')
}

// appendRawJSON appends a RawMessage of compact JSON as json.Marshal
// writes it: null for none, "<", ">" and "&" as \u003c, \u003e and
// \u0026, U+2028 and U+2029 as \u2028 and \u2029.
func appendRawJSON(b []byte, m json.RawMessage) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	start := 0
	for i := 0; i < len(m); i++ {
		c := m[i]
		switch {
		case c == '<' || c == '>' || c == '&':
			b = append(b, m[start:i]...)
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
			start = i + 1
		case c == 0xe2 && i+2 < len(m) && m[i+1] == 0x80 && m[i+2]&^1 == 0xa8:
			b = append(b, m[start:i]...)
			b = append(b, `\u202`...)
			b = append(b, "89"[m[i+2]&1])
			i += 2
			start = i + 1
		}
	}
	return append(b, m[start:]...)
}

func fsDecodeDirectory(data []byte) (pyval.Object, error) {
	var st fsGraphState
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("Directory: %w", err)
	}
	nodes := make([]pyval.Value, len(st.Nodes))
	for i, n := range st.Nodes {
		if n.File != nil {
			nodes[i] = &fsFile{}
		} else {
			nodes[i] = &fsDir{}
		}
	}
	dicts := make([]*pyval.Dict, len(st.Dicts))
	for i := range dicts {
		dicts[i] = pyval.NewDict()
	}
	for i, entries := range st.Dicts {
		for j, en := range entries {
			if en.Node < 0 || en.Node >= len(nodes) {
				return nil, fmt.Errorf("Directory: dicts[%d][%d]: node %d out of range", i, j, en.Node)
			}
			key, err := pyval.Unmarshal(en.Key)
			if err != nil {
				return nil, fmt.Errorf("Directory: dicts[%d][%d].key: %w", i, j, err)
			}
			if err := dicts[i].SetItem(key, nodes[en.Node]); err != nil {
				return nil, fmt.Errorf("Directory: dicts[%d][%d].key: %v", i, j, err)
			}
		}
	}
	for i, n := range st.Nodes {
		if n.File != nil {
			if err := nodes[i].(*fsFile).fill(*n.File); err != nil {
				return nil, fmt.Errorf("Directory: nodes[%d]: %w", i, err)
			}
			continue
		}
		d := nodes[i].(*fsDir)
		name, err := pyval.Unmarshal(n.Name)
		if err != nil {
			return nil, fmt.Errorf("Directory: nodes[%d].name: %w", i, err)
		}
		d.name = name
		if n.Parent != nil {
			p, ok := fsNodeAt(nodes, *n.Parent).(*fsDir)
			if !ok {
				return nil, fmt.Errorf("Directory: nodes[%d].parent: %d is no directory", i, *n.Parent)
			}
			d.parent = p
		}
		if n.Dict < 0 || n.Dict >= len(dicts) {
			return nil, fmt.Errorf("Directory: nodes[%d].dict: %d out of range", i, n.Dict)
		}
		d.contents = dicts[n.Dict]
	}
	self, ok := fsNodeAt(nodes, st.Self).(*fsDir)
	if !ok {
		return nil, fmt.Errorf("Directory: self %d is no directory", st.Self)
	}
	return self, nil
}

func fsNodeAt(nodes []pyval.Value, i int) pyval.Value {
	if i < 0 || i >= len(nodes) {
		return nil
	}
	return nodes[i]
}

// fsDirs reads root and _current_dir. In Python the current directory's
// parent chain always ends at root; where it ends at another directory
// equal in its whole graph (root and _current_dir were marshalled, or
// copied, apart), that directory becomes root, so the two are one file
// system again.
func fsDirs(self *Instance) (root, cur *fsDir, err error) {
	r, _ := self.Get("root")
	c, _ := self.Get("_current_dir")
	root, ok := r.(*fsDir)
	if !ok {
		return nil, nil, &pyval.Exception{Type: "AttributeError", Msg: "'GorillaFileSystem' object has no attribute 'root'"}
	}
	cur, ok = c.(*fsDir)
	if !ok {
		return nil, nil, &pyval.Exception{Type: "AttributeError", Msg: "'GorillaFileSystem' object has no attribute '_current_dir'"}
	}
	if t := cur.top(); t != root && fsSameGraph(t, root) {
		self.Set("root", t)
		root = t
	}
	return root, cur, nil
}

// fsSameGraph reports whether the graphs reachable from two roots encode
// alike (MarshalState writes the same bytes for both), walking the two
// in step as the encoder walks each rather than encoding them.
func fsSameGraph(a, b *fsDir) bool {
	p := fsGraphPair{ab: map[any]any{}, ba: map[any]any{}}
	return p.node(a.top(), b.top()) && p.node(a, b)
}

// fsGraphPair pairs the nodes and dicts met in one graph with those met
// at the same place of the other, both ways: the encoder numbers them in
// the order it meets them, so two graphs encode alike exactly when each
// is met where its partner is, and names, keys and files marshal alike.
type fsGraphPair struct{ ab, ba map[any]any }

// pair records that x of one graph is y of the other; seen: either was
// met before, and ok whether as each other's partner.
func (p *fsGraphPair) pair(x, y any) (ok, seen bool) {
	px, inA := p.ab[x]
	py, inB := p.ba[y]
	if inA || inB {
		return inA && inB && px == y && py == x, true
	}
	p.ab[x], p.ba[y] = y, x
	return true, false
}

// node is fsEncoder.node of both graphs at once: false where the
// encodings differ or either fails.
func (p *fsGraphPair) node(x, y pyval.Value) bool {
	switch a := x.(type) {
	case *fsFile:
		b, ok := y.(*fsFile)
		if !ok {
			return false
		}
		if ok, seen := p.pair(a, b); seen {
			return ok
		}
		return fsMarshalAlike(a.name, b.name) && fsMarshalAlike(a.content, b.content)
	case *fsDir:
		b, ok := y.(*fsDir)
		if !ok {
			return false
		}
		if ok, seen := p.pair(a, b); seen {
			return ok
		}
		if !fsMarshalAlike(a.name, b.name) || (a.parent == nil) != (b.parent == nil) {
			return false
		}
		if a.parent != nil && !p.node(a.parent, b.parent) {
			return false
		}
		return p.dict(a.contents, b.contents)
	}
	return false
}

// dict is fsEncoder.dict of both graphs at once.
func (p *fsGraphPair) dict(a, b *pyval.Dict) bool {
	if ok, seen := p.pair(a, b); seen {
		return ok
	}
	xs, ys := a.Items(), b.Items()
	if len(xs) != len(ys) {
		return false
	}
	for i := range xs {
		if !fsMarshalAlike(xs[i].Key, ys[i].Key) || !p.node(xs[i].Value, ys[i].Value) {
			return false
		}
	}
	return true
}

// fsMarshalAlike reports whether pyval.Marshal writes the same bytes for
// two values, both without error: two str of UTF-8 text are compared as
// they are.
func fsMarshalAlike(x, y pyval.Value) bool {
	if s, ok := x.(string); ok {
		if t, ok := y.(string); ok && utf8.ValidString(s) && utf8.ValidString(t) {
			return s == t
		}
	}
	mx, err := pyval.Marshal(x)
	if err != nil {
		return false
	}
	my, err := pyval.Marshal(y)
	return err == nil && bytes.Equal(mx, my)
}

// fsLoad is _load_scenario: root is a fresh Directory("/") unless the
// scenario has "root", whose first key names the root and whose
// contents load recursively.
func fsLoad(self *Instance, scenario *pyval.Dict) error {
	self.Set("long_context", false)
	root := fsNewDir("/", nil)
	has, err := pyval.In("root", scenario)
	if err != nil {
		return err
	}
	if has {
		tree, err := scenario.GetItem("root")
		if err != nil {
			return err
		}
		td, ok := tree.(*pyval.Dict)
		if !ok {
			return pyval.AttributeError(tree, "keys")
		}
		if td.Len() == 0 {
			return pyval.IndexError("list index out of range")
		}
		first := td.Items()[0]
		contents, err := pyval.GetItem(first.Value, "contents")
		if err != nil {
			return err
		}
		root = fsNewDir(first.Key, nil)
		if err := fsLoadDirectory(contents, root); err != nil {
			return err
		}
	}
	self.Set("root", root)
	self.Set("_current_dir", root)
	return nil
}

// fsLoadDirectory is _load_directory(current, parent).
func fsLoadDirectory(current pyval.Value, parent *fsDir) error {
	cd, ok := current.(*pyval.Dict)
	if !ok {
		return pyval.AttributeError(current, "items")
	}
	for _, it := range cd.Items() {
		typ, err := pyval.GetItem(it.Value, "type")
		if err != nil {
			return err
		}
		switch {
		case pyval.Equal(typ, "directory"):
			sub := fsNewDir(it.Key, parent)
			contents, err := pyval.GetItem(it.Value, "contents")
			if err != nil {
				return err
			}
			if err := fsLoadDirectory(contents, sub); err != nil {
				return err
			}
			if err := parent.contents.SetItem(it.Key, sub); err != nil {
				return err
			}
		case pyval.Equal(typ, "file"):
			content, err := pyval.GetItem(it.Value, "content")
			if err != nil {
				return err
			}
			if err := parent.contents.SetItem(it.Key, &fsFile{name: it.Key, content: content}); err != nil {
				return err
			}
		}
	}
	return nil
}

// addFile is Directory._add_file.
func (d *fsDir) addFile(name, content pyval.Value) error {
	in, err := pyval.In(name, d.contents)
	if err != nil {
		return err
	}
	if in {
		return pyval.ValueError(fmt.Sprintf("File '%s' already exists in directory '%s'.", pyval.Str(name), pyval.Str(d.name)))
	}
	return d.contents.SetItem(name, &fsFile{name: name, content: content})
}

// addDirectory is Directory._add_directory.
func (d *fsDir) addDirectory(name pyval.Value) error {
	in, err := pyval.In(name, d.contents)
	if err != nil {
		return err
	}
	if in {
		return pyval.ValueError(fmt.Sprintf("Directory '%s' already exists in directory '%s'.", pyval.Str(name), pyval.Str(d.name)))
	}
	return d.contents.SetItem(name, fsNewDir(name, d))
}

// getItem is Directory._get_item: the directory itself for ".", else
// contents.get(name) (nil when absent).
func (d *fsDir) getItem(name pyval.Value) (pyval.Value, error) {
	if pyval.Equal(name, ".") {
		return d, nil
	}
	return d.contents.GetOr(name, nil)
}

// has is name in d.contents (TypeError for an unhashable name).
func (d *fsDir) has(name pyval.Value) (bool, error) { return pyval.In(name, d.contents) }

// fsValidName is _validate_file_or_directory_name: c in name for each of
// the forbidden characters (so a name that is no str is tested by
// membership, or raises TypeError).
func fsValidName(name pyval.Value) (bool, error) {
	for _, c := range `|/\?%*:"><` {
		in, err := pyval.In(string(c), name)
		if err != nil {
			return false, err
		}
		if in {
			return false, nil
		}
	}
	return true, nil
}

func fsErr(format string, args ...any) *pyval.Dict {
	return fsResult("error", fmt.Sprintf(format, args...))
}

func fsResult(key string, v pyval.Value) *pyval.Dict {
	return pyval.DictOf(pyval.Item{Key: key, Value: v})
}

// s is str(v), what an f-string writes for {v}.
func fsStr(v pyval.Value) string { return pyval.Str(v) }

// fsStrArg is v as a str for one of str's methods: AttributeError
// "'int' object has no attribute 'rstrip'" for another type.
func fsStrArg(v pyval.Value, method string) (string, error) {
	x, ok := v.(string)
	if !ok {
		return "", pyval.AttributeError(v, method)
	}
	return x, nil
}

func fsPwd(self *Instance, _ []pyval.Value) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	// dir.name != self.root compares a name with a Directory: always
	// true, so the path runs to the top and includes root's name.
	var path []pyval.Value
	for d := cur; d != nil; d = d.parent {
		path = append(path, d.name)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	joined, err := pyval.Join("/", pyval.NewList(path...))
	if err != nil {
		return nil, err
	}
	return fsResult("current_working_directory", "/"+joined), nil
}

func fsLs(self *Instance, args []pyval.Value) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	contents := cur.contents.Keys()
	if !pyval.Truth(args[0]) {
		kept := []pyval.Value{}
		for _, item := range contents {
			name, err := fsStrArg(item, "startswith")
			if err != nil {
				return nil, err
			}
			if !strings.HasPrefix(name, ".") {
				kept = append(kept, item)
			}
		}
		contents = kept
	}
	return fsResult("current_directory_content", pyval.NewList(contents...)), nil
}

func fsCd(self *Instance, args []pyval.Value) (pyval.Value, error) {
	root, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	folder, err := fsStrArg(args[0], "rstrip")
	if err != nil {
		return nil, err
	}
	folder = strings.TrimRight(folder, "/")
	if folder == "" {
		folder = "/"
	}
	if folder != "." && folder != ".." && folder != "/" && strings.Contains(folder, "/") {
		return fsErr("cd: %s: Unsupported path. Only one folder level at a time is supported.", folder), nil
	}
	if folder == ".." {
		switch {
		case cur.parent != nil:
			self.Set("_current_dir", cur.parent)
		case root.Equal(cur):
			return fsErr("Current directory is already the root. Cannot go back."), nil
		default:
			return fsErr("cd: ..: No such directory"), nil
		}
		return pyval.NewDict(), nil
	}
	target, errd, err := fsNavigate(root, cur, folder)
	if err != nil || errd != nil {
		return errd, err
	}
	self.Set("_current_dir", target)
	return fsResult("current_working_directory", target.name), nil
}

// fsNavigate is _navigate_to_directory: the directory at path, or an
// error dict ("cd: 'path': No such file or directory").
func fsNavigate(root, cur *fsDir, path pyval.Value) (*fsDir, *pyval.Dict, error) {
	if path == nil || pyval.Equal(path, ".") {
		return cur, nil, nil
	}
	if pyval.Equal(path, "/") {
		return root, nil, nil
	}
	p, err := fsStrArg(path, "strip")
	if err != nil {
		return nil, nil, err
	}
	dirs := strings.Split(strings.Trim(p, "/"), "/")
	temp := cur
	if strings.HasPrefix(p, "/") {
		temp = root
	}
	for _, name := range dirs {
		next, err := temp.getItem(name)
		if err != nil {
			return nil, nil, err
		}
		d, ok := next.(*fsDir)
		if !ok {
			return nil, fsErr("cd: '%s': No such file or directory", p), nil
		}
		temp = d
	}
	return temp, nil, nil
}

func fsMkdir(self *Instance, args []pyval.Value) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	name := args[0]
	ok, err := fsValidName(name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return fsErr("mkdir: cannot create directory '%s': Invalid character", fsStr(name)), nil
	}
	if in, err := cur.has(name); err != nil || in {
		if err != nil {
			return nil, err
		}
		return fsErr("mkdir: cannot create directory '%s': File exists", fsStr(name)), nil
	}
	return nil, cur.addDirectory(name)
}

func fsTouch(self *Instance, args []pyval.Value) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	name := args[0]
	ok, err := fsValidName(name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return fsErr("touch: cannot touch '%s': Invalid character", fsStr(name)), nil
	}
	if in, err := cur.has(name); err != nil || in {
		if err != nil {
			return nil, err
		}
		return fsErr("touch: cannot touch '%s': File exists", fsStr(name)), nil
	}
	return nil, cur.addFile(name, "")
}

func fsEcho(self *Instance, args []pyval.Value) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	content, name := args[0], args[1]
	if name == nil {
		return fsResult("terminal_output", content), nil
	}
	ok, err := fsValidName(name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return fsErr("echo: cannot write to '%s': Invalid character", fsStr(name)), nil
	}
	if !pyval.Truth(name) {
		return fsResult("terminal_output", content), nil
	}
	in, err := cur.has(name)
	if err != nil {
		return nil, err
	}
	if !in {
		return fsErr("echo: cannot write to '%s': No such file", fsStr(name)), nil
	}
	item, err := cur.getItem(name)
	if err != nil {
		return nil, err
	}
	f, ok := item.(*fsFile)
	if !ok {
		return nil, pyval.AttributeError(item, "_write")
	}
	f.content = content
	return nil, nil
}

func fsCat(self *Instance, args []pyval.Value) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	name := args[0]
	ok, err := fsValidName(name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return fsErr("cat: '%s': Invalid character", fsStr(name)), nil
	}
	in, err := cur.has(name)
	if err != nil {
		return nil, err
	}
	if !in {
		return fsErr("cat: '%s': No such file or directory", fsStr(name)), nil
	}
	item, err := cur.getItem(name)
	if err != nil {
		return nil, err
	}
	if f, ok := item.(*fsFile); ok {
		return fsResult("file_content", f.content), nil
	}
	return fsErr("cat: '%s': Is a directory", fsStr(name)), nil
}

func fsFind(self *Instance, args []pyval.Value) (pyval.Value, error) {
	root, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	path, name := args[0], args[1]
	target, errd, err := fsNavigate(root, cur, path)
	if err != nil {
		return nil, err
	}
	if errd != nil {
		msg, _ := errd.Get("error")
		if m, ok := msg.(string); ok && strings.HasPrefix(m, "cd:") {
			return fsResult("error", strings.Replace(m, "cd:", "find:", 1)), nil
		}
		return errd, nil
	}
	p, err := fsStrArg(path, "rstrip")
	if err != nil {
		return nil, err
	}
	var matches []pyval.Value
	var search func(d *fsDir, base string, depth int) error
	search = func(d *fsDir, base string, depth int) error {
		if depth > fsRecursionLimit {
			return pyval.Errorf("RecursionError", "maximum recursion depth exceeded")
		}
		for _, it := range d.contents.Items() {
			itemPath := base + "/" + fsStr(it.Key)
			if name == nil {
				matches = append(matches, itemPath)
			} else if in, err := pyval.In(name, it.Key); err != nil {
				return err
			} else if in {
				matches = append(matches, itemPath)
			}
			if sub, ok := it.Value.(*fsDir); ok {
				if err := search(sub, itemPath, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := search(target, strings.TrimRight(p, "/"), 0); err != nil {
		return nil, err
	}
	return fsResult("matches", pyval.NewList(matches...)), nil
}

// fsFileIn is the File named name in d, or nil (absent, or a directory):
// the `if name in contents: item = _get_item(name); if isinstance(item,
// File)` that wc, sort, grep, tail and diff begin with.
func fsFileIn(d *fsDir, name pyval.Value) (*fsFile, error) {
	in, err := d.has(name)
	if err != nil || !in {
		return nil, err
	}
	item, err := d.getItem(name)
	if err != nil {
		return nil, err
	}
	f, _ := item.(*fsFile)
	return f, nil
}

// fsSplitLines is content.splitlines() of a file's content.
func fsSplitLines(content pyval.Value) ([]string, error) {
	c, err := fsStrArg(content, "splitlines")
	if err != nil {
		return nil, err
	}
	return pyval.SplitLines(c), nil
}

func fsWc(self *Instance, args []pyval.Value) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	name, mode := args[0], args[1]
	if !pyval.Equal(mode, "l") && !pyval.Equal(mode, "w") && !pyval.Equal(mode, "c") {
		return fsErr("wc: invalid mode '%s'", fsStr(mode)), nil
	}
	f, err := fsFileIn(cur, name)
	if err != nil {
		return nil, err
	}
	if f != nil {
		switch {
		case pyval.Equal(mode, "l"):
			lines, err := fsSplitLines(f.content)
			if err != nil {
				return nil, err
			}
			return fsCount(len(lines), "lines"), nil
		case pyval.Equal(mode, "w"):
			c, err := fsStrArg(f.content, "split")
			if err != nil {
				return nil, err
			}
			return fsCount(len(pyval.SplitWhitespace(c)), "words"), nil
		default:
			n, err := pyval.Len(f.content)
			if err != nil {
				return nil, err
			}
			return fsCount(n, "characters"), nil
		}
	}
	return fsErr("wc: %s: No such file or directory", fsStr(name)), nil
}

func fsCount(n int, unit string) *pyval.Dict {
	return pyval.DictOf(pyval.Item{Key: "count", Value: int64(n)}, pyval.Item{Key: "type", Value: unit})
}

func fsSort(self *Instance, args []pyval.Value) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	f, err := fsFileIn(cur, args[0])
	if err != nil {
		return nil, err
	}
	if f == nil {
		return fsErr("sort: %s: No such file or directory", fsStr(args[0])), nil
	}
	lines, err := fsSplitLines(f.content)
	if err != nil {
		return nil, err
	}
	sort.Strings(lines) // code point order, as Python compares str
	return fsResult("sorted_content", strings.Join(lines, "\n")), nil
}

func fsGrep(self *Instance, args []pyval.Value) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	f, err := fsFileIn(cur, args[0])
	if err != nil {
		return nil, err
	}
	if f == nil {
		return fsErr("grep: %s: No such file or directory", fsStr(args[0])), nil
	}
	lines, err := fsSplitLines(f.content)
	if err != nil {
		return nil, err
	}
	matching := []pyval.Value{}
	for _, line := range lines {
		in, err := pyval.In(args[1], line)
		if err != nil {
			return nil, err
		}
		if in {
			matching = append(matching, line)
		}
	}
	return fsResult("matching_lines", pyval.NewList(matching...)), nil
}

func fsDu(self *Instance, args []pyval.Value) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	var size func(item pyval.Value, depth int) (int64, error)
	size = func(item pyval.Value, depth int) (int64, error) {
		if depth > fsRecursionLimit {
			return 0, pyval.Errorf("RecursionError", "maximum recursion depth exceeded")
		}
		switch x := item.(type) {
		case *fsFile:
			c, err := fsStrArg(x.content, "encode")
			if err != nil {
				return 0, err
			}
			return int64(pyval.ByteLen(c)), nil
		case *fsDir:
			var total int64
			for _, v := range x.contents.Values() {
				n, err := size(v, depth+1)
				if err != nil {
					return 0, err
				}
				total += n
			}
			return total, nil
		}
		return 0, nil
	}
	total, err := size(cur, 0)
	if err != nil {
		return nil, err
	}
	if !pyval.Truth(args[0]) {
		return fsResult("disk_usage", strconv.FormatInt(total, 10)+" bytes"), nil
	}
	// total_size /= 1024 turns the int into a float; "{:.2f}" of either
	// is the float correctly rounded to two places.
	v := float64(total)
	for _, unit := range []string{"B", "KB", "MB", "GB", "TB"} {
		if v < 1024 {
			return fsResult("disk_usage", strconv.FormatFloat(v, 'f', 2, 64)+" "+unit), nil
		}
		v /= 1024
	}
	return fsResult("disk_usage", strconv.FormatFloat(v, 'f', 2, 64)+" PB"), nil
}

func fsTail(self *Instance, args []pyval.Value) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	f, err := fsFileIn(cur, args[0])
	if err != nil {
		return nil, err
	}
	if f == nil {
		return fsErr("tail: %s: No such file or directory", fsStr(args[0])), nil
	}
	content, err := fsSplitLines(f.content)
	if err != nil {
		return nil, err
	}
	lines := args[1]
	n := int64(len(content))
	gt, err := pyval.Compare(">", lines, n)
	if err != nil {
		return nil, err
	}
	if gt {
		lines = n
	}
	neg, err := pyval.Neg(lines)
	if err != nil {
		return nil, err
	}
	items := make([]pyval.Value, len(content))
	for i, l := range content {
		items[i] = l
	}
	last, err := pyval.Slice(pyval.NewList(items...), neg, nil, nil)
	if err != nil {
		return nil, err
	}
	joined, err := pyval.Join("\n", last)
	if err != nil {
		return nil, err
	}
	return fsResult("last_lines", joined), nil
}

func fsDiff(self *Instance, args []pyval.Value) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	n1, n2 := args[0], args[1]
	in1, err := cur.has(n1)
	if err != nil {
		return nil, err
	}
	in2 := false
	if in1 {
		if in2, err = cur.has(n2); err != nil {
			return nil, err
		}
	}
	if in1 && in2 {
		i1, err := cur.getItem(n1)
		if err != nil {
			return nil, err
		}
		i2, err := cur.getItem(n2)
		if err != nil {
			return nil, err
		}
		f1, ok1 := i1.(*fsFile)
		f2, ok2 := i2.(*fsFile)
		if ok1 && ok2 {
			c1, err := fsSplitLines(f1.content)
			if err != nil {
				return nil, err
			}
			c2, err := fsSplitLines(f2.content)
			if err != nil {
				return nil, err
			}
			var diffs []string
			for i := 0; i < len(c1) && i < len(c2); i++ {
				if c1[i] != c2[i] {
					diffs = append(diffs, "- "+c1[i]+"\n+ "+c2[i])
				}
			}
			return fsResult("diff_lines", strings.Join(diffs, "\n")), nil
		}
	}
	return fsErr("diff: %s or %s: No such file or directory", fsStr(n1), fsStr(n2)), nil
}

// fsMoveOrCopy is mv (move true) and cp, which differ in their verbs and
// in what the new directory's contents are: mv shares the source's dict,
// cp a shallow copy of it, and mv removes the source first.
func fsMoveOrCopy(self *Instance, args []pyval.Value, move bool) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	verb, done := "cp", "copied"
	cannot := "cp: cannot copy"
	if move {
		verb, done, cannot = "mv", "moved", "mv: cannot move"
	}
	source, dest := args[0], args[1]
	in, err := cur.has(source)
	if err != nil {
		return nil, err
	}
	if !in {
		return fsErr("%s '%s': No such file or directory", cannot, fsStr(source)), nil
	}
	item, err := cur.getItem(source)
	if err != nil {
		return nil, err
	}
	slash, err := pyval.In("/", dest)
	if err != nil {
		return nil, err
	}
	if slash {
		return fsErr("%s: path not allowed in destination. Provide only a file or directory name.", verb), nil
	}
	// place adds the item under name into d (a new File with its content,
	// or a new Directory given its contents).
	place := func(d *fsDir, name pyval.Value) error {
		if f, ok := item.(*fsFile); ok {
			return d.addFile(name, f.content)
		}
		if err := d.addDirectory(name); err != nil {
			return err
		}
		made, err := d.contents.GetItem(name)
		if err != nil {
			return err
		}
		contents := item.(*fsDir).contents
		if !move {
			contents = contents.Copy()
		}
		made.(*fsDir).contents = contents
		return nil
	}
	in, err = cur.has(dest)
	if err != nil {
		return nil, err
	}
	if !in {
		if move {
			if _, err := cur.contents.Pop(source); err != nil {
				return nil, err
			}
		}
		if err := place(cur, dest); err != nil {
			return nil, err
		}
		return fsResult("result", fmt.Sprintf("'%s' %s to '%s'", fsStr(source), done, fsStr(dest))), nil
	}
	destItem, err := cur.getItem(dest)
	if err != nil {
		return nil, err
	}
	dd, ok := destItem.(*fsDir)
	if !ok {
		return fsErr("%s '%s' to '%s': Not a directory", cannot, fsStr(source), fsStr(dest)), nil
	}
	// mv looks for f"{source}" in the destination; cp for
	// f"{destination}/{source}", which no name there holds.
	inner := fsStr(dest) + "/" + fsStr(source)
	if move {
		inner = fsStr(source)
	}
	exists, err := dd.has(inner)
	if err != nil {
		return nil, err
	}
	if exists {
		return fsErr("%s '%s' to '%s/%s': File exists", cannot, fsStr(source), fsStr(dest), fsStr(source)), nil
	}
	if move {
		if _, err := cur.contents.Pop(source); err != nil {
			return nil, err
		}
	}
	if err := place(dd, source); err != nil {
		return nil, err
	}
	return fsResult("result", fmt.Sprintf("'%s' %s to '%s/%s'", fsStr(source), done, fsStr(dest), fsStr(source))), nil
}

func fsMv(self *Instance, args []pyval.Value) (pyval.Value, error) {
	return fsMoveOrCopy(self, args, true)
}
func fsCp(self *Instance, args []pyval.Value) (pyval.Value, error) {
	return fsMoveOrCopy(self, args, false)
}

func fsRm(self *Instance, args []pyval.Value) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	name := args[0]
	in, err := cur.has(name)
	if err != nil {
		return nil, err
	}
	if !in {
		return fsErr("rm: cannot remove '%s': No such file or directory", fsStr(name)), nil
	}
	if _, err := cur.contents.Pop(name); err != nil {
		return nil, err
	}
	return fsResult("result", fmt.Sprintf("'%s' removed", fsStr(name))), nil
}

func fsRmdir(self *Instance, args []pyval.Value) (pyval.Value, error) {
	_, cur, err := fsDirs(self)
	if err != nil {
		return nil, err
	}
	name := args[0]
	in, err := cur.has(name)
	if err != nil {
		return nil, err
	}
	if !in {
		return fsErr("rmdir: cannot remove '%s': No such file or directory", fsStr(name)), nil
	}
	item, err := cur.getItem(name)
	if err != nil {
		return nil, err
	}
	d, ok := item.(*fsDir)
	if !ok {
		return fsErr("rmdir: cannot remove '%s': Not a directory", fsStr(name)), nil
	}
	if d.contents.Len() > 0 {
		return fsErr("rmdir: cannot remove '%s': Directory not empty", fsStr(name)), nil
	}
	if _, err := cur.contents.Pop(name); err != nil {
		return nil, err
	}
	return fsResult("result", fmt.Sprintf("'%s' removed", fsStr(name))), nil
}
