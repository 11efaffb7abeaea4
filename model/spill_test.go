package model

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"unicode/utf8"
	"unsafe"
)

// spilling runs f with every string longer than 8 bytes at the end of a
// 16-byte read buffer set aside in a spill file.
func spilling(t *testing.T, f func()) {
	t.Helper()
	defer SpillShortStrings(8)()
	f()
}

// TestStrictReadsWithSpills: the strict stream's tests pass as they are
// when it sets aside nearly every string: the same values, places and
// errors.
func TestStrictReadsWithSpills(t *testing.T) {
	for name, test := range map[string]func(*testing.T){
		"StreamJSONArray":           TestStreamJSONArray,
		"StreamJSONObject":          TestStreamJSONObject,
		"JSONReads":                 TestJSONReads,
		"StreamReadError":           TestStreamReadError,
		"StreamedArrayPlaced":       TestStreamedArrayPlaced,
		"StreamLargeAndSplitValues": TestStreamLargeAndSplitValues,
		"JSONRaw":                   TestJSONRaw,
	} {
		t.Run(name, func(t *testing.T) { spilling(t, func() { test(t) }) })
	}
}

// dumpStream reads src as a stream and writes down everything a reader
// can see of it: each value's kind, place, path and text, each string
// read both ways, what a wrong typed read says, and the stream's error.
// spilled counts the strings set aside.
func dumpStream(src string, oneByte bool) (dump string, spilled int) {
	var b strings.Builder
	var walk func(v JSON)
	walk = func(v JSON) {
		line, col := v.Pos()
		fmt.Fprintf(&b, "%s %s %d:%d raw=%q\n", v.Path(), v.Kind(), line, col, v.Raw())
		switch v.Kind() {
		case "string":
			s, err := v.Str()
			tx, terr := v.Text()
			fmt.Fprintf(&b, "  str=%q %v text=%q len=%d %v\n", s, err, tx.String(), tx.Len(), terr)
			if !tx.Equal(s) || tx.Equal(s+"x") {
				b.WriteString("  Equal is wrong\n")
			}
			var pieces strings.Builder
			tx.Pieces(func(p string) error { pieces.WriteString(p); return nil })
			if pieces.String() != s {
				b.WriteString("  Pieces differ\n")
			}
			if tx.sp != nil {
				spilled++
			}
			_, err = v.Int()
			fmt.Fprintf(&b, "  int: %v\n", err)
		case "array":
			items, _ := v.Array()
			for _, it := range items {
				walk(it)
			}
		case "object":
			keys, vals, err := v.Entries()
			fmt.Fprintf(&b, "  keys=%q %v\n", keys, err)
			for _, it := range vals {
				walk(it)
			}
			x, _ := v.Value()
			fmt.Fprintf(&b, "  value=%s\n", x.AsString())
		}
	}
	var r = strings.NewReader(src)
	var err error
	if oneByte {
		err = StreamJSONArray("f.json", iotest.OneByteReader(r), nil, func(i int, v JSON) error { walk(v); return nil })
	} else {
		err = StreamJSONArray("f.json", r, nil, func(i int, v JSON) error { walk(v); return nil })
	}
	fmt.Fprintf(&b, "error: %v\n", err)
	return b.String(), spilled
}

// spillCorpus is documents whose strings hold every kind of character
// and escape, cut anywhere by a small buffer, and each flaw the parser
// refuses, inside strings long enough to be set aside.
func spillCorpus() []string {
	long := strings.Repeat("abcdefghij", 3)
	docs := []string{
		`["` + long + `", "` + long + `"]`,
		"[{\"a\": \"" + long + "\", \"b\": 1, \"a\": 2}]", // a duplicate key after a spilled string, on its line
		"[{\"a\": \"" + long + "\",\n \"b\": [1, \"" + long + "\", true], \"c\": x}]",
		`[{"` + long + `": 1, "k": "` + long + `"}]`, // a long key
		`[{"` + long + `": 1, "` + long + `": 2}]`,   // a long key twice
		`["caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t ` + long + `"]`,
		"[\"café, 東京, 😀 " + long + "😀東\"]",
		"[\"" + long + "\xff" + long + "\"]",
		"[\"" + long + "\xe6\x9d" + "\"]",
		`["` + long + `\ud83d` + long + `"]`,
		`["` + long + `\ude00` + long + `"]`,
		`["` + long + `\ud83d\u0041` + long + `"]`,
		`["` + long + `\x` + long + `"]`,
		`["` + long + `\u12` + `"]`,
		"[\"" + long + "\t" + long + "\"]",
		"[\"" + long + "\n" + long + "\"]",
		"[\"" + long + long,            // the file ends inside it
		"[\"" + long + "\\",            // inside an escape
		"[\"" + long + "\", \"" + long, // inside the second
		"[\"" + long + "\"] x",
		"[1, {\"s\": \"" + long + "\"}, {\"s\": \"" + long + "\"}, [\"" + long + "\"]]",
		"[\"" + long + "\", " + "{\"n\": 1.5e400, \"s\": \"" + long + "\"}]",
	}
	rng := rand.New(rand.NewSource(28))
	pieces := []string{"a", "é", "東", "😀", `\"`, `\\`, `\/`, `\n`, `\t`, `\u00e9`, `\u6771`, `\ud83d\ude00`, `\u0000`, " ", "~"}
	for range 40 {
		var b strings.Builder
		b.WriteString("[")
		for e := range 1 + rng.Intn(4) {
			if e > 0 {
				b.WriteString(", ")
			}
			b.WriteString(`{"s": "`)
			for range rng.Intn(60) {
				b.WriteString(pieces[rng.Intn(len(pieces))])
			}
			b.WriteString(`", "n": `)
			fmt.Fprint(&b, rng.Intn(1000))
			if rng.Intn(3) == 0 {
				b.WriteString(",\n \"t\": [\"" + long + "\", null]")
			}
			b.WriteString("}")
		}
		b.WriteString("]")
		docs = append(docs, b.String())
	}
	return docs
}

// TestSpillReadsAsMemory: a stream that sets aside nearly every string
// reads what one that sets aside none reads, byte for byte of what a
// reader sees, errors included, whole or a byte at a time; and it does
// set strings aside.
func TestSpillReadsAsMemory(t *testing.T) {
	total := 0
	for i, src := range spillCorpus() {
		for _, oneByte := range []bool{false, true} {
			want, none := dumpStream(src, oneByte)
			var got string
			var n int
			spilling(t, func() { got, n = dumpStream(src, oneByte) })
			if none != 0 {
				t.Fatalf("document %d: %d strings set aside at the default length", i, none)
			}
			total += n
			if got != want {
				t.Errorf("document %d (one byte at a time: %v) reads otherwise with spills:\n%s\nwant\n%s", i, oneByte, got, want)
			}
		}
	}
	if total < 100 {
		t.Errorf("%d strings set aside in the corpus, want many", total)
	}
}

// TestSpillLargeValue: a string set aside inside a value read in parts
// (take) gives the parts it covered back, and the value reads whole.
func TestSpillLargeValue(t *testing.T) {
	big := strings.Repeat("x", 3*valuePart)
	src := "[{\"n\": [" + strings.Repeat("1,", valuePart) + "1], \"s\": \"" + big + "\", \"t\": \"" + big + "\"}]"
	err := StreamJSONArray("f.json", strings.NewReader(src), nil, func(i int, v JSON) error {
		for _, k := range []string{"s", "t"} {
			m, _ := v.Member(k)
			tx, err := m.Text()
			if err != nil || tx.sp == nil || tx.Len() != len(big) || !tx.Equal(big) {
				t.Errorf("%s: set aside %v, %d bytes (%v), want %d", k, tx.sp != nil, tx.Len(), err, len(big))
			}
		}
		if n, _ := v.Member("n"); string(n.Raw()) != "["+strings.Repeat("1,", valuePart)+"1]" {
			t.Errorf("the array before the strings reads %d bytes", len(n.Raw()))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTextEncodesAsString: a Turn's Text encodes through encoding/json
// as a string field does, with HTML escaping and without.
func TestTextEncodesAsString(t *testing.T) {
	text := "<a href=\"x\">&amp;</a> \u2028 é \x01 \\"
	type plain struct {
		Role    string `json:"role"`
		Content string `json:"content"`
		Step    int    `json:"step,omitempty"`
	}
	for _, html := range []bool{true, false} {
		enc := func(v any) string {
			var b strings.Builder
			e := json.NewEncoder(&b)
			e.SetEscapeHTML(html)
			if err := e.Encode(v); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
		got, want := enc(Turn{Role: "user", Content: TextOf(text)}), enc(plain{Role: "user", Content: text})
		if got != want {
			t.Errorf("escaping HTML %v: %s, want %s", html, got, want)
		}
		var back Turn
		if err := json.Unmarshal([]byte(got), &back); err != nil || back.Content.String() != text {
			t.Errorf("read back %q, %v", back.Content.String(), err)
		}
	}
}

// spilledText reads s, as a JSON string in a stream, set aside.
func spilledText(t *testing.T, s string) Text {
	t.Helper()
	defer SpillShortStrings(8)()
	var got Text
	err := StreamJSONArray("f.json", strings.NewReader("["+string(appendJSONString(nil, s))+"]"), nil, func(_ int, v JSON) error {
		var err error
		got, err = v.Text()
		return err
	})
	if err != nil || got.sp == nil {
		t.Fatalf("not set aside (%v)", err)
	}
	return got
}

// TestTextReadsInPieces: a spilled text answers Contains, HasPrefix,
// Blank and Says as the string does, a match across the pieces it is
// read in included.
func TestTextReadsInPieces(t *testing.T) {
	body := strings.Repeat("Ünïcode, \"quoted\"\ttext 東京 ", 12_000) // escapes and multi-byte characters: pieces end off their raw size
	at := func(i int) int {                                         // the start of the character at byte i
		for !utf8.RuneStart(body[i]) {
			i--
		}
		return i
	}
	first := 0 // the first piece's length: the needle goes across its end
	spilledText(t, body).Pieces(func(p string) error {
		if first == 0 {
			first = len(p)
		}
		return nil
	})
	cases := []string{
		body,
		body[:at(first-3)] + "NEEDLE, found" + body[at(first-3):],
		strings.Repeat(" \t\n\u00a0", 40_000),
		strings.Repeat(" ", 100_000) + "x",
	}
	needles := []string{"NEEDLE, found", "needle found", "東京 ü", "x", "Ünïcode", "text 東京 Ü", "absent", ""}
	for i, s := range cases {
		tx := spilledText(t, s)
		if tx.Len() != len(s) || tx.String() != s {
			t.Fatalf("case %d: reads back %d bytes, want %d", i, tx.Len(), len(s))
		}
		if got, want := tx.Blank(), strings.TrimSpace(s) == ""; got != want {
			t.Errorf("case %d: Blank %v, want %v", i, got, want)
		}
		for _, n := range needles {
			if got, want := tx.Contains(n, nil), strings.Contains(s, n); got != want {
				t.Errorf("case %d: Contains(%q) %v, want %v", i, n, got, want)
			}
			if got, want := Says(tx, n), strings.Contains(SaidForm(s), strings.ToLower(n)); got != want {
				t.Errorf("case %d: Says(%q) %v, want %v", i, n, got, want)
			}
			if got, want := tx.HasPrefix(n), strings.HasPrefix(s, n); got != want {
				t.Errorf("case %d: HasPrefix(%q) %v, want %v", i, n, got, want)
			}
		}
		for _, k := range []int{0, 1, 7, first - 1, first, first + 1, 3*first + 2, len(s), len(s) + 5} {
			if got, want := tx.Head(k), TextOf(s).Head(k); got != want || len(got) > k || !utf8.ValidString(got) || len(got) < min(k, len(s))-3 {
				t.Errorf("case %d: Head(%d) is %d bytes, want %d", i, k, len(got), len(want))
			}
		}
		if !tx.HasPrefix(s[:100_000]) || tx.HasPrefix(s+"x") {
			t.Errorf("case %d: HasPrefix of a prefix longer than a piece, or of more than the text", i)
		}
	}
}

// TestTextMadeOnce: a spilled text made whole is made once while
// anything holds it, so that readers that need it whole share it.
func TestTextMadeOnce(t *testing.T) {
	tx := spilledText(t, strings.Repeat("shared ", 50_000))
	a, b := tx.String(), tx.String()
	if unsafe.StringData(a) != unsafe.StringData(b) || a != strings.Repeat("shared ", 50_000) {
		t.Errorf("made twice, or not the text")
	}
	runtime.KeepAlive(a)
}

// TestSpillFilesTakeTurns: a stream starts a new spill file once the one
// it writes is full, and a text set aside in a full one still reads.
func TestSpillFilesTakeTurns(t *testing.T) {
	defer SpillShortStrings(8)()
	full := spillFileMax
	spillFileMax = 100
	defer func() { spillFileMax = full }()
	var b strings.Builder
	b.WriteString("[")
	for i := range 20 {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"s": "%02d %s"}`, i, strings.Repeat("é", 30))
	}
	b.WriteString("]")
	var texts []Text
	files := map[*spillFile]bool{}
	err := StreamJSONArray("f.json", strings.NewReader(b.String()), nil, func(i int, v JSON) error {
		m, _ := v.Member("s")
		tx, err := m.Text()
		if tx.sp != nil {
			files[tx.sp.f] = true
		}
		texts = append(texts, tx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 {
		t.Errorf("%d spill files for 20 strings of 60 bytes at most 100 bytes a file, want at least 5", len(files))
	}
	for i, tx := range texts {
		if want := fmt.Sprintf("%02d %s", i, strings.Repeat("é", 30)); tx.String() != want {
			t.Errorf("text %d reads %q", i, tx.String())
		}
	}
}

// TestTextReadConcurrently: goroutines read one spilled text at once,
// whole and in pieces, as bench's workers read a run's messages.
func TestTextReadConcurrently(t *testing.T) {
	want := strings.Repeat("concurrent, ", 30_000)
	tx := spilledText(t, want)
	var wg sync.WaitGroup
	errs := make(chan string, 32)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 4 {
				switch {
				case g%2 == 0 && tx.String() != want:
					errs <- "String"
				case g%2 == 1 && !tx.Contains("concurrent concurrent", SaidForm):
					errs <- "Contains"
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("%s read otherwise beside other readers", e)
	}
}
