package report

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parthack/parthack/model"
)

// ReadFile reads and strictly decodes a ledger file, JSON or CSV.
// A gzipped file (known by its first bytes) is read unpacked.
func ReadFile(path string) (*Ledger, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(src, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(src))
		if err == nil {
			src, err = io.ReadAll(zr)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", path, err)
		}
	}
	return Read(path, src)
}

// Read decodes a ledger; name is the file name errors cite. A name ending
// in .json or .csv chooses the format, any other is JSON when its first
// non-blank byte opens an object and CSV otherwise.
func Read(name string, src []byte) (*Ledger, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		return ReadJSON(name, src)
	case ".csv":
		return ReadCSV(name, src)
	}
	if t := bytes.TrimLeft(src, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		return ReadJSON(name, src)
	}
	return ReadCSV(name, src)
}

// rowSet collects decoded rows and rejects a repeated (set, target, task).
type rowSet struct {
	ledger Ledger
	seen   map[string]int // key → 1-based row number
}

func (s *rowSet) add(r Row) error {
	if s.seen == nil {
		s.seen = map[string]int{}
	}
	n := len(s.ledger.Rows) + 1
	if prev, ok := s.seen[r.key()]; ok {
		return fmt.Errorf("repeats row %d (set %s, target %s, task %s)", prev, r.Set, r.Target, r.Task)
	}
	s.seen[r.key()] = n
	s.ledger.Rows = append(s.ledger.Rows, r)
	return nil
}

func (s *rowSet) done(name string) (*Ledger, error) {
	if len(s.ledger.Rows) == 0 {
		return nil, fmt.Errorf("%s: the ledger has no rows", name)
	}
	return &s.ledger, nil
}

// ReadJSON strictly decodes a JSON ledger.
func ReadJSON(name string, src []byte) (*Ledger, error) {
	// The text first, as strictly as every file parthack reads: BOM,
	// invalid UTF-8, duplicate keys and syntax at line:column and path.
	if _, err := model.ParseJSON(name, src); err != nil {
		return nil, err
	}
	line := func(off int64) int { return 1 + bytes.Count(src[:min(int(off), len(src))], []byte("\n")) }
	fail := func(off int64, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line(off), fmt.Sprintf(format, args...))
	}
	syntax := func(dec *json.Decoder, err error) error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fail(se.Offset, "%v", err)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fail(int64(len(src)), "unexpected end of JSON")
		}
		return fail(dec.InputOffset(), "%v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	if err := expectDelim(dec, '{'); err != nil {
		return nil, syntax(dec, err)
	}
	var rows rowSet
	seen := map[string]bool{}
	for dec.More() {
		keyOff := nextValue(src, dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return nil, syntax(dec, err)
		}
		key := tok.(string) // object keys are strings
		if seen[key] {
			return nil, fail(keyOff, "field %q repeated", key)
		}
		seen[key] = true
		switch key {
		case "format":
			var f string
			if err := dec.Decode(&f); err != nil {
				var te *json.UnmarshalTypeError
				if !errors.As(err, &te) {
					return nil, syntax(dec, err)
				}
				return nil, fail(keyOff, "field \"format\": want a string")
			}
			if f != LedgerFormat {
				return nil, fail(keyOff, "field \"format\": %q is not %q", f, LedgerFormat)
			}
		case "shard":
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, syntax(dec, err)
			}
			si, err := decodeShard(raw)
			if err != nil {
				return nil, fail(keyOff, "field \"shard\": %v", err)
			}
			rows.ledger.Shard = si
		case "rows":
			if err := expectDelim(dec, '['); err != nil {
				if errors.Is(err, errNotDelim) {
					return nil, fail(keyOff, "field \"rows\": want an array of rows")
				}
				return nil, syntax(dec, err)
			}
			for dec.More() {
				off := nextValue(src, dec.InputOffset())
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return nil, syntax(dec, err)
				}
				n := len(rows.ledger.Rows) + 1
				r, fieldOff, err := decodeJSONRow(raw, n == 1, &rows.ledger.Minimal)
				if err != nil {
					return nil, fail(off+fieldOff, "row %d: %v", n, err)
				}
				if err := rows.add(r); err != nil {
					return nil, fail(off, "row %d: %v", n, err)
				}
			}
			if _, err := dec.Token(); err != nil {
				return nil, syntax(dec, err)
			}
		default:
			return nil, fail(keyOff, "unknown field %q (a ledger has \"format\", \"rows\" and, a shard's, \"shard\")", key)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, syntax(dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fail(dec.InputOffset(), "data after the ledger object")
	}
	for _, key := range []string{"format", "rows"} {
		if !seen[key] {
			return nil, fail(0, "missing field %q", key)
		}
	}
	return rows.done(name)
}

// decodeShard strictly decodes a shard ledger's metadata.
func decodeShard(raw []byte) (*ShardInfo, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var si ShardInfo
	if err := dec.Decode(&si); err != nil {
		return nil, err
	}
	if err := si.check(); err != nil {
		return nil, err
	}
	return &si, nil
}

// errNotDelim is expectDelim's error for valid JSON of the wrong kind.
var errNotDelim = errors.New("wrong kind of JSON value")

// expectDelim reads the next token and requires it to be d.
func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != d {
		return fmt.Errorf("%w: want %q, got %v", errNotDelim, d, tok)
	}
	return nil
}

// nextValue skips the blanks and separators after off: where the next
// key or value begins.
func nextValue(src []byte, off int64) int64 {
	for int(off) < len(src) && strings.IndexByte(" \t\r\n,:", src[off]) >= 0 {
		off++
	}
	return off
}

// decodeJSONRow decodes one row object. The first row of a ledger
// decides whether it is minimal (*minimal); a later one must agree. On
// error it returns the offset, within raw, of the field at fault (0: the
// row itself).
func decodeJSONRow(raw []byte, first bool, minimal *bool) (Row, int64, error) {
	var r Row
	if len(raw) == 0 || raw[0] != '{' {
		return r, 0, errors.New("want an object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.Token() // the '{' checked above
	offsets := map[string]int64{}
	for dec.More() {
		off := nextValue(raw, dec.InputOffset())
		tok, _ := dec.Token() // raw is one valid JSON value
		key := tok.(string)
		var v json.RawMessage
		dec.Decode(&v)
		if _, ok := offsets[key]; ok {
			return r, off, fmt.Errorf("field %q repeated", key)
		}
		offsets[key] = off
		c, ok := columnNamed(key)
		if !ok {
			return r, off, fmt.Errorf("unknown field %q (fields: %s)", key, columnNames())
		}
		if err := setJSON(&r, c, v); err != nil {
			return r, off, err
		}
	}
	names := slices.Collect(maps.Keys(offsets))
	if first {
		*minimal = isMinimal(names)
	}
	switch mini := isMinimal(names); {
	case mini && !*minimal:
		return r, 0, errors.New("has only the minimal fields (target, set, task, matched, delta) but row 1 has more: a ledger's rows are all full or all minimal")
	case !mini && *minimal:
		return r, 0, fmt.Errorf("has fields %s, but row 1 has only the minimal ones (target, set, task, matched, delta): a ledger's rows are all full or all minimal", strings.Join(sortedColumns(names), ", "))
	case !mini:
		for _, c := range columns {
			if _, ok := offsets[c.name]; c.required && !ok {
				return r, 0, errField(c.name, "missing (a minimal ledger has exactly target, set, task, matched and delta)")
			}
		}
	}
	if err := r.check(*minimal); err != nil {
		return r, offsets[err.field], err
	}
	return r, 0, nil
}

// setJSON stores one JSON value in the row's field for column c.
func setJSON(r *Row, c column, v json.RawMessage) error {
	s := string(v)
	if s == "null" {
		if c.required && !c.nullable {
			return errField(c.name, "must not be null")
		}
		return nil
	}
	switch c.kind {
	case 's':
		if v[0] != '"' {
			return errField(c.name, "want a string, got %s", s)
		}
		p := r.field(c.name).(*string)
		if err := json.Unmarshal(v, p); err != nil {
			return err
		}
		if *p == "" && !c.required {
			// Absent is the one way to say "none": an empty string would
			// be a second one.
			return errField(c.name, "must not be empty (leave it out)")
		}
	default:
		if err := setScalar(r, c, s, s); err != nil {
			return err
		}
	}
	return nil
}

// setScalar stores a boolean or a number, s its text, in the row's field
// for column c; shown is s as an error quotes it (JSON text as it is, a
// CSV cell quoted).
func setScalar(r *Row, c column, s, shown string) *fieldError {
	switch c.kind {
	case 'b':
		if s != "true" && s != "false" {
			return errField(c.name, "want true or false, got %s", shown)
		}
		if s == "false" && !c.required {
			return errNotFalse(c.name)
		}
		*r.field(c.name).(*bool) = s == "true"
	case 'B':
		if s != "true" && s != "false" {
			return errField(c.name, "want true or false, got %s", shown)
		}
		b := s == "true"
		*r.field(c.name).(**bool) = &b
	case 'f':
		x, ok := parseNumber(s)
		if !ok {
			return errField(c.name, "want a number, got %s", shown)
		}
		setNumber(r, c.name, x)
	case 'i':
		x, ok := parseInt(s)
		if !ok {
			return errField(c.name, "want a non-negative integer, got %s", shown)
		}
		*r.field(c.name).(*int) = x
	}
	return nil
}

// errNotFalse refuses false for an optional flag (capped): absent is the
// one way to say "no", as for the error field.
func errNotFalse(name string) *fieldError {
	return errField(name, "must not be false (leave it out)")
}

func setNumber(r *Row, name string, x float64) {
	switch p := r.field(name).(type) {
	case *float64:
		*p = x
	case **float64:
		*p = &x
	}
}

// sortedColumns orders column names as the format does.
func sortedColumns(names []string) []string {
	var out []string
	for _, c := range columns {
		if slices.Contains(names, c.name) {
			out = append(out, c.name)
		}
	}
	return out
}

func columnNamed(name string) (column, bool) {
	for _, c := range columns {
		if c.name == name {
			return c, true
		}
	}
	return column{}, false
}

// header lists the column names in the format's order.
func header() []string {
	names := make([]string, len(columns))
	for i, c := range columns {
		names[i] = c.name
	}
	return names
}

func columnNames() string { return strings.Join(header(), ", ") }

// ReadCSV strictly decodes a CSV ledger.
func ReadCSV(name string, src []byte) (*Ledger, error) {
	// A spreadsheet's UTF-8 BOM is allowed (Excel writes one); bytes that
	// are not UTF-8 are refused where they stand, never replaced.
	if !utf8.Valid(src) {
		off := 0
		for off < len(src) {
			r, size := utf8.DecodeRune(src[off:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			off += size
		}
		line := 1 + bytes.Count(src[:off], []byte("\n"))
		col := off - bytes.LastIndexByte(src[:off], '\n')
		return nil, fmt.Errorf("%s:%d:%d: invalid UTF-8: byte 0x%02X is not part of a UTF-8 character (save the file as UTF-8)", name, line, col, src[off])
	}
	cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(src, []byte("\uFEFF"))))
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file: want a header line naming the columns (%s)", name, columnNames())
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	cols := make([]column, len(head))
	at := map[string]int{}
	for i, h := range head {
		c, ok := columnNamed(h)
		if !ok {
			return nil, fmt.Errorf("%s:1: column %d: unknown column %q (columns: %s)", name, i+1, h, columnNames())
		}
		if j, ok := at[h]; ok {
			return nil, fmt.Errorf("%s:1: column %d: %q repeats column %d", name, i+1, h, j+1)
		}
		at[h] = i
		cols[i] = c
	}
	minimal := isMinimal(head)
	for _, c := range columns {
		if _, ok := at[c.name]; c.required && !ok && !minimal {
			return nil, fmt.Errorf("%s:1: missing required column %q (a minimal ledger has exactly target, set, task, matched and delta)", name, c.name)
		}
	}
	var rows rowSet
	rows.ledger.Minimal = minimal
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		n := len(rows.ledger.Rows) + 1
		lineOf := func(i int) int { l, _ := cr.FieldPos(i); return l }
		var r Row
		for i, c := range cols {
			if err := setCSV(&r, c, rec[i]); err != nil {
				return nil, fmt.Errorf("%s:%d: row %d, column %q: %s", name, lineOf(i), n, c.name, err.msg)
			}
		}
		if ferr := r.check(minimal); ferr != nil {
			i, ok := at[ferr.field]
			if !ok {
				i = 0
			}
			return nil, fmt.Errorf("%s:%d: row %d, column %q: %s", name, lineOf(i), n, ferr.field, ferr.msg)
		}
		if err := rows.add(r); err != nil {
			return nil, fmt.Errorf("%s:%d: row %d: %v", name, lineOf(0), n, err)
		}
	}
	return rows.done(name)
}

// setCSV stores one cell in the row's field for column c. An empty cell
// is an absent value.
func setCSV(r *Row, c column, s string) *fieldError {
	if s == "" {
		if c.required && !c.nullable && c.kind != 's' {
			return errField(c.name, "empty")
		}
		return nil
	}
	switch c.kind {
	case 's':
		*r.field(c.name).(*string) = s
		return nil
	}
	return setScalar(r, c, s, strconv.Quote(s))
}

// WriteJSON writes the ledger as JSON, one field per line, in the
// format's column order; absent values are null. A shard's metadata goes
// between the format and the rows; a minimal ledger's rows have the
// minimal fields only.
func WriteJSON(w io.Writer, l *Ledger) error {
	var rows any = l.Rows
	if l.Minimal {
		type minimalRow struct {
			Target  string   `json:"target"`
			Set     string   `json:"set"`
			Task    string   `json:"task"`
			Matched bool     `json:"matched"`
			Delta   *float64 `json:"delta"`
		}
		mr := make([]minimalRow, len(l.Rows))
		for i, r := range l.Rows {
			mr[i] = minimalRow{r.Target, r.Set, r.Task, r.Matched, r.Delta}
		}
		rows = mr
	}
	b, err := json.MarshalIndent(struct {
		Format string     `json:"format"`
		Shard  *ShardInfo `json:"shard,omitempty"`
		Rows   any        `json:"rows"`
	}{LedgerFormat, l.Shard, rows}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteCSV writes the ledger as CSV with every column, in the format's
// order, but the capped, same_end_state, attack_end, rise and error columns only when some row has them (a
// minimal ledger: its five columns only); absent values, and false in
// capped, are empty cells. Numbers are written in their shortest exact
// form, so a CSV ledger reads back to the same values.
func WriteCSV(w io.Writer, l *Ledger) error {
	if l.Shard != nil {
		return errShardCSV
	}
	cols := columns
	if l.Minimal {
		cols = slices.DeleteFunc(slices.Clone(columns), func(c column) bool { return !slices.Contains(minimalColumns, c.name) })
	} else {
		capped := slices.ContainsFunc(l.Rows, func(r Row) bool { return r.Capped })
		failed := slices.ContainsFunc(l.Rows, func(r Row) bool { return r.Error != "" })
		compared := slices.ContainsFunc(l.Rows, func(r Row) bool { return r.SameEnd != nil })
		ended := slices.ContainsFunc(l.Rows, func(r Row) bool { return r.End != "" })
		rose := slices.ContainsFunc(l.Rows, func(r Row) bool { return r.Rise != "" })
		cols = slices.DeleteFunc(slices.Clone(columns), func(c column) bool {
			return c.name == "capped" && !capped || c.name == "error" && !failed || c.name == "same_end_state" && !compared ||
				c.name == "attack_end" && !ended || c.name == "rise" && !rose
		})
	}
	cw := csv.NewWriter(w)
	rec := make([]string, len(cols))
	for j, c := range cols {
		rec[j] = c.name
	}
	cw.Write(rec)
	for i := range l.Rows {
		r := &l.Rows[i]
		for j, c := range cols {
			rec[j] = cell(r.field(c.name))
			if c.name == "capped" && !r.Capped {
				rec[j] = "" // absent: the search was not cut
			}
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

func cell(p any) string {
	switch v := p.(type) {
	case *string:
		return *v
	case *bool:
		return strconv.FormatBool(*v)
	case **bool:
		if *v == nil {
			return ""
		}
		return strconv.FormatBool(**v)
	case *int:
		return strconv.Itoa(*v)
	case *float64:
		return strconv.FormatFloat(*v, 'f', -1, 64)
	case **float64:
		if *v == nil {
			return ""
		}
		return strconv.FormatFloat(**v, 'f', -1, 64)
	}
	panic("report: no cell for " + fmt.Sprintf("%T", p))
}

var errShardCSV = errors.New("a shard's ledger is JSON only: CSV has no place for the shard metadata a merge checks")

// Write writes the ledger as JSON or CSV, by the extension of name.
func Write(w io.Writer, name string, l *Ledger) error {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		return WriteJSON(w, l)
	case ".csv":
		return WriteCSV(w, l)
	}
	return fmt.Errorf("%s: a ledger file ends in .json or .csv", name)
}
