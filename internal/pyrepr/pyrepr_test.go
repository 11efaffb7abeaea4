package pyrepr

import "testing"

// TestAppendStr: what Python 3.11 prints for repr() of each string.
func TestAppendStr(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{"abc", `'abc'`},
		{"it's", `"it's"`},
		{`a"b'c`, `'a"b\'c'`},
		{"tab\there\nnl\r", `'tab\there\nnl\r'`},
		{"\x00\x7f", `'\x00\x7f'`},
		{"é", `'é'`},
		{"\u200b", `'\u200b'`},
		{"😀", `'😀'`},
		{"\u00a0", `'\xa0'`},
		{"\U000e0001", `'\U000e0001'`},
		{`back\slash`, `'back\\slash'`},
	} {
		if got := string(AppendStr(nil, c.s)); got != c.want {
			t.Errorf("repr(%q) = %s, Python prints %s", c.s, got, c.want)
		}
	}
}
