package tui

import (
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// TestJSONLexerIsChromas: the JSON lexer the workbench embeds cuts every
// text into the tokens chroma's own JSON lexer does, type and value.
func TestJSONLexerIsChromas(t *testing.T) {
	ours, theirs := newHighlighter(defaultTheme).lexer, chroma.Coalesce(lexers.Get("json"))
	for _, src := range []string{
		`{"a": 1, "b": [true, false, null], "c": {"d": "x\"y", "e": -1.5e3}}`,
		"{\n  \"task\": \"T2R-5\",\n  // a note\n  \"n\": 0\n}",
		`[1, 2.0, "three", {"four": [4]}]`, `not json at all`, ``,
	} {
		a, err := chroma.Tokenise(ours, nil, src)
		if err != nil {
			t.Fatal(err)
		}
		b, err := chroma.Tokenise(theirs, nil, src)
		if err != nil {
			t.Fatal(err)
		}
		if len(a) != len(b) {
			t.Fatalf("%q: %d tokens, chroma's lexer %d", src, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%q: token %d is %v, chroma's lexer's %v", src, i, a[i], b[i])
			}
		}
	}
}
