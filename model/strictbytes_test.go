package model_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/parthack/parthack/model"
)

// trajLines is a small trajectory, one step per line, with a step's
// comment replaced: the comment starts at 3:88.
func trajLines(comment string) string {
	return "{\"task\": \"EX-01\",\n" +
		" \"steps\": [\n" +
		"  {\"op\": \"update\", \"type\": \"ticket\", \"id\": \"T1\", \"fields\": {\"priority\": 1}, \"comment\": " + comment + "},\n" +
		"  {\"op\": \"delete\", \"type\": \"ticket\", \"id\": \"T2\"}\n" +
		" ]}\n"
}

// TestStrictBytes: invalid UTF-8, byte order marks and syntax errors are
// located errors that point at the offending byte, with exact messages.
func TestStrictBytes(t *testing.T) {
	cases := []struct {
		name string
		task bool
		src  string
		want string
	}{
		{
			name: "bad first character",
			src:  "x",
			want: "f.json:1:1: $: malformed JSON: invalid character 'x' looking for beginning of value",
		},
		{
			name: "bad first character after white space",
			src:  "\n  x",
			want: "f.json:2:3: $: malformed JSON: invalid character 'x' looking for beginning of value",
		},
		{
			name: "NaN inside a value, at 7:75 (was reported at the end of line 6)",
			task: true,
			src: "{\"id\": \"D-01\",\n" +
				" \"schema\": {\"ticket\": {\"priority\": \"int\"}},\n" +
				" \"initial\": [{\"type\": \"ticket\", \"id\": \"T1\", \"fields\": {\"priority\": 1}}],\n" +
				" \"allowlist\": {\"ops\": [\"update\"], \"fields\": {\"ticket\": [\"priority\"]}},\n" +
				" \"goals\": [{\"version\": \"v1\", \"predicates\": [\n" +
				"   {\"id\": \"g1\", \"expr\": {\"field\": {\"type\": \"ticket\", \"id\": \"T1\", \"field\": \"priority\",\n" +
				"                                                    \"cmp\": \"eq\", \"value\": NaN}}}]}]}\n",
			want: "f.json:7:75: $.goals[0].predicates[0].expr.field.value: malformed JSON: invalid character 'N' looking for beginning of value",
		},
		{
			name: "bad literal",
			src:  trajLines("tru"),
			want: "f.json:3:91: $.steps[0].comment: malformed JSON: invalid character '}' in literal true (expecting 'e')",
		},
		{
			name: "bad number",
			src:  trajLines("1."),
			want: "f.json:3:90: $.steps[0].comment: malformed JSON: invalid character '}' after decimal point in numeric literal",
		},
		{
			name: "control character in a string",
			src:  trajLines("\"a\tb\""),
			want: "f.json:3:90: $.steps[0].comment: malformed JSON: invalid character '\\t' in string literal",
		},
		{
			name: "bad escape",
			src:  trajLines(`"a\qb"`),
			want: "f.json:3:91: $.steps[0].comment: malformed JSON: invalid character 'q' in string escape code",
		},
		{
			name: "missing comma",
			src:  "{\"task\": \"EX-01\",\n \"steps\": [{\"op\": \"update\" \"type\": \"ticket\"}]}",
			want: "f.json:2:28: $.steps[0]: malformed JSON: invalid character '\"' after object key:value pair",
		},
		{
			name: "trailing comma",
			src:  "{\"task\": \"EX-01\",\n \"steps\": [{\"op\": \"update\"},\n ]}",
			want: "f.json:3:2: $.steps[1]: malformed JSON: invalid character ']' looking for beginning of value",
		},
		{
			name: "unexpected end",
			src:  "{\"task\": \"EX-01\",\n \"steps\": [",
			want: "f.json:2:12: $.steps: malformed JSON: unexpected end of input",
		},
		{
			name: "data after the value",
			src:  "{\"task\": \"EX-01\", \"steps\": []}\n}",
			want: "f.json:2:1: $: unexpected data after the top-level value",
		},
		{
			name: "UTF-8 byte order mark",
			src:  "\xef\xbb\xbf" + trajLines(`""`),
			want: "f.json:1:1: $: the file starts with a UTF-8 byte order mark (BOM, bytes EF BB BF); JSON files must not have one: save the file as UTF-8 without BOM",
		},
		{
			name: "UTF-16 byte order mark",
			src:  "\xff\xfe{\x00}\x00",
			want: "f.json:1:1: $: the file starts with a UTF-16 byte order mark: it is UTF-16, and JSON files must be UTF-8: save the file as UTF-8 without BOM",
		},
		{
			name: "invalid UTF-8 in a comment",
			src:  trajLines("\"caf\xe9 au lait\""),
			want: "f.json:3:92: $.steps[0].comment: invalid UTF-8: byte 0xE9 is not part of a UTF-8 character (save the file as UTF-8) in a string",
		},
		{
			name: "invalid UTF-8 in an id",
			src:  "{\"task\": \"EX-01\", \"steps\": [{\"op\": \"delete\", \"type\": \"ticket\", \"id\": \"T\xff(\"}]}",
			want: "f.json:1:72: $.steps[0].id: invalid UTF-8: byte 0xFF is not part of a UTF-8 character (save the file as UTF-8) in a string",
		},
		{
			name: "invalid UTF-8 in a task id",
			task: true,
			src:  "{\"id\": \"D\xc3\"}",
			want: "f.json:1:10: $.id: invalid UTF-8: byte 0xC3 is not part of a UTF-8 character (save the file as UTF-8) in a string",
		},
		{
			name: "invalid UTF-8 in a key",
			src:  "{\"task\": \"EX-01\",\n \"st\xe8ps\": []}",
			want: "f.json:2:5: $: invalid UTF-8: byte 0xE8 is not part of a UTF-8 character (save the file as UTF-8) in an object key",
		},
		{
			name: "UTF-8 encoded surrogate",
			src:  trajLines("\"a\xed\xa0\x80\""),
			want: "f.json:3:90: $.steps[0].comment: invalid UTF-8: byte 0xED is not part of a UTF-8 character (save the file as UTF-8) in a string",
		},
		{
			name: "invalid UTF-8 before a syntax error",
			src:  "{\"task\": \"EX-01\",\n \"steps\": [{\"comment\": \"\x80\"} {]}",
			want: "f.json:2:25: $.steps[0].comment: invalid UTF-8: byte 0x80 is not part of a UTF-8 character (save the file as UTF-8) in a string",
		},
		{
			name: "syntax error before invalid UTF-8",
			src:  "{\"task\": \"EX-01\",\n \"steps\": [{\"comment\" \"\x80\"}]}",
			want: "f.json:2:23: $.steps[0].comment: malformed JSON: invalid character '\"' after object key",
		},
		{
			name: "invalid UTF-8 outside any string",
			src:  "{\"task\": \"EX-01\",\n \"steps\": [\xe9]}",
			want: "f.json:2:12: $.steps[0]: invalid UTF-8: byte 0xE9 is not part of a UTF-8 character (save the file as UTF-8) outside any string",
		},
		{
			name: "typographic quote",
			src:  "{\"task\": \u201cEX-01\u201d}",
			want: "f.json:1:10: $.task: malformed JSON: invalid character '\u201c' (U+201C) looking for beginning of value",
		},
		{
			name: "lone high surrogate escape",
			src:  trajLines(`"smile \ud83d!"`),
			want: `f.json:3:95: $.steps[0].comment: invalid escape \ud83d: a high UTF-16 surrogate without a low one after it in a string`,
		},
		{
			name: "lone low surrogate escape",
			src:  trajLines(`"\ude00"`),
			want: `f.json:3:89: $.steps[0].comment: invalid escape \ude00: a low UTF-16 surrogate without a high one before it in a string`,
		},
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			var err error
			if tc.task {
				_, err = model.DecodeTask("f.json", []byte(tc.src))
			} else {
				_, err = model.DecodeTrajectory("f.json", []byte(tc.src))
			}
			var de *model.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("got %v (%T), want a *DecodeError", err, err)
			}
			if got := err.Error(); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestStrictBytesAccepts: what is valid stays valid: non-ASCII text,
// escapes, surrogate pairs and a literal U+FFFD.
func TestStrictBytesAccepts(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`"café, 東京, 😀"`, "café, 東京, 😀"},
		{`"caf\u00e9 \ud83d\ude00 \"q\" \\ \/"`, `café 😀 "q" \ /`},
		{"\"\uFFFD\"", "\uFFFD"},
		{`"\ufffd"`, "\uFFFD"},
	} {
		tr, err := model.DecodeTrajectory("f.json", []byte(trajLines(tc.src)))
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if got := tr.Steps[0].Comment; got != tc.want {
			t.Errorf("%s: decoded to %q, want %q", tc.src, got, tc.want)
		}
	}
}
