package tau2

import (
	"bytes"
	"testing"
)

// TestAppendPlainDumps holds the plain writer to json.dumps of the value
// read, and leaves any other text to the long way.
func TestAppendPlainDumps(t *testing.T) {
	for _, tc := range []struct {
		text  string
		plain bool
	}{
		{`"a/b c"`, true}, {`0`, true}, {`-12`, true}, {`-0`, true}, {`-0.0`, true}, {`123456789012345678`, true}, {`-12345678901234567`, true}, {`9223372036854775807`, true}, {`28.0`, true}, {`1e+16`, true}, {`99999999999999999999`, true},
		{`[]`, true}, {`[1,"x",null,true,false]`, true}, {`{}`, true}, {`{"a":{"b":[2.5]},"c":"d"}`, true},
		{`{"b":1,"a":2}`, false}, {`{"a": 1}`, false}, {`"caf\u00e9"`, false}, {`"it\"s"`, false}, {`[1,]`, false}, {`1 `, false},
	} {
		got, ok := AppendPlainDumps(nil, tc.text)
		if ok != tc.plain {
			t.Errorf("%s: plain %t, want %t", tc.text, ok, tc.plain)
			continue
		}
		x, err := ParsePy([]byte(tc.text))
		if ok && err == nil {
			if want := AppendDumps(nil, x, true); !bytes.Equal(got, want) {
				t.Errorf("%s: %s, json.dumps %s", tc.text, got, want)
			}
		}
	}
}
