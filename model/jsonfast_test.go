package model

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestFastParserMatchesTokens holds the fast parser to the tokenizer's
// tree (kinds, offsets, strings, numbers, order) and errors on every JSON
// file of the repository and on tricky hand-written documents.
func TestFastParserMatchesTokens(t *testing.T) {
	docs := map[string]string{
		"escapes":      `{"a": "line\nbreak \"quoted\" \u00e9 \ud83d\ude00 \/ tab\t", "b": ["x\\y"]}`,
		"invalid utf8": "{\"a\": \"caf\xe9\"}",
		"invalid key":  "{\"a\": 1, \"b\xff\": 2}",
		"surrogates":   `["\ud83d\ude00", "\ud83d", "\ude00", "\ud83d\u0041", "\ufffd"]`,
		"lone high":    `{"a": ["\ud83dx"]}`,
		"lone low":     `{"a": {"b": "x\udfff"}}`,
		"numbers":      `[0, -1, 1.5, 2e10, -3E-2, 12345678901234567890]`,
		"literals":     ` { "t" : true , "f" : false , "n" : null } `,
		"empty":        `{"a": {}, "b": [], "c": ""}`,
		"dup small":    `{"a": 1, "b": 2, "a": 3}`,
		"dup large":    `{` + manyKeys(20) + `, "k7": 0}`,
		"large ok":     `{` + manyKeys(40) + `}`,
		"deep":         strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2),
		"nested dup":   `{"steps": [{"op": "update", "fields": {"x": 1, "x": 2}}]}`,
	}
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".json" {
			return err
		}
		b, err := os.ReadFile(path)
		docs[path] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range docs {
		fast, ferr := parseValid(name, []byte(src))
		slow, serr := parseTokens(name, []byte(src))
		if fmt.Sprint(ferr) != fmt.Sprint(serr) {
			t.Errorf("%s: fast error %v, tokenizer error %v", name, ferr, serr)
			continue
		}
		if ferr == nil && !reflect.DeepEqual(fast.root, slow.root) {
			t.Errorf("%s: the two parsers build different trees", name)
		}
	}
}

func manyKeys(n int) string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf(`"k%d": %d`, i, i)
	}
	return strings.Join(keys, ", ")
}

// FuzzParsersAgree: on any text json.Valid accepts, the fast parser and
// the tokenizer build the same tree or report the same located error.
func FuzzParsersAgree(f *testing.F) {
	f.Add([]byte(`{"a": ["x\ud83d", "caf` + "\xe9" + `"], "b": {"c": 1}}`))
	f.Add([]byte(`{"a": 1, "a": 2}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		if !json.Valid(src) {
			return
		}
		fast, ferr := parseValid("f.json", src)
		slow, serr := parseTokens("f.json", src)
		if fmt.Sprint(ferr) != fmt.Sprint(serr) {
			t.Fatalf("fast error %v, tokenizer error %v", ferr, serr)
		}
		if ferr == nil && !reflect.DeepEqual(fast.root, slow.root) {
			t.Fatalf("the two parsers build different trees")
		}
	})
}
