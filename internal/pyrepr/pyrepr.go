// Package pyrepr writes values as Python's repr() writes them, for the
// texts the benchmarks' Python puts together from them (tau2's error
// messages, the prompt of its NL-assertion judge).
package pyrepr

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// AppendStr appends Python 3's repr of a str: single quotes unless the
// text has a single quote and no double one; escapes for backslash, the
// quote, \t \n \r, other control characters and what Python does not
// print (\xhh, \uhhhh, \Uhhhhhhhh).
func AppendStr(b []byte, s string) []byte {
	q := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = '"'
	}
	b = append(b, q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r < 0x20 || r == 0x7f:
			b = append(b, '\\', 'x', hexDigit(r>>4), hexDigit(r))
		case r < utf8.RuneSelf || unicode.IsPrint(r):
			b = utf8.AppendRune(b, r)
		case r <= 0xff:
			b = append(b, '\\', 'x', hexDigit(r>>4), hexDigit(r))
		case r <= 0xffff:
			b = append(b, '\\', 'u', hexDigit(r>>12), hexDigit(r>>8), hexDigit(r>>4), hexDigit(r))
		default:
			b = append(b, '\\', 'U')
			for sh := 28; sh >= 0; sh -= 4 {
				b = append(b, hexDigit(r>>sh))
			}
		}
	}
	return append(b, q)
}

func hexDigit(r rune) byte { return "0123456789abcdef"[r&15] }
