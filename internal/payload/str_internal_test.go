package payload

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestAppendStrIsEncodingJSON: appendStr writes what encoding/json writes
// without HTML escaping, for strings and their bytes alike, invalid UTF-8
// as U+FFFD; the parser reads every one back.
func TestAppendStrIsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, `{"status":"open"}`, "<html> & co", "tab\t nl\n cr\r ctl\x01 \b\f",
		"del \x7f nbsp \u00a0", "é 中文 😀", "sep \u2028 \u2029", "bad \xff utf8", strings.Repeat(`\"`, 40)} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(strings.ToValidUTF8(s, "\uFFFD")); err != nil {
			t.Fatal(err)
		}
		w := strings.TrimSuffix(want.String(), "\n")
		if got := string(appendStr(nil, s)); got != w {
			t.Errorf("%q: %s, encoding/json %s", s, got, w)
		}
		if got := string(appendStr(nil, []byte(s))); got != w {
			t.Errorf("%q as bytes: %s, encoding/json %s", s, got, w)
		}
		r := &parser{b: []byte(w)}
		if back := r.str(); r.err != nil || back != strings.ToValidUTF8(s, "\uFFFD") {
			t.Errorf("%s reads back as %q (%v)", w, back, r.err)
		}
	}
}
