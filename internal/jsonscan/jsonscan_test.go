package jsonscan

import "testing"

func TestPlainStringAndNumber(t *testing.T) {
	for _, tt := range []struct {
		s            string
		str          string
		end          int
		plain, isNum bool
		integer      bool
	}{
		{s: `"abc",`, str: "abc", end: 5, plain: true},
		{s: `"a\"b"`},
		{s: `"é"`},
		{s: `"open`},
		{s: `12,`, end: 2, isNum: true, integer: true},
		{s: `-0.5e+3]`, end: 7, isNum: true},
		{s: `1.`},
		{s: `1e`},
		{s: `-`},
	} {
		if str, end, ok := PlainString(tt.s, 0); ok != tt.plain || ok && (str != tt.str || end != tt.end) {
			t.Errorf("PlainString(%q) = %q, %d, %v", tt.s, str, end, ok)
		}
		if end, integer, ok := Number(tt.s, 0); ok != tt.isNum || ok && (end != tt.end || integer != tt.integer) {
			t.Errorf("Number(%q) = %d, %v, %v", tt.s, end, integer, ok)
		}
	}
}
