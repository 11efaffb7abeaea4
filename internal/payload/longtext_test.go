package payload_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/parthack/parthack/internal/fixture"
	"github.com/parthack/parthack/internal/payload"
	"github.com/parthack/parthack/model"
)

// encode writes p through an Encoder, a piece at a time.
func encode(p *payload.Payload) []byte {
	var b bytes.Buffer
	enc := payload.NewEncoder(&b)
	enc.Head(p)
	for i := range p.Events {
		enc.Event(&p.Events[i])
	}
	enc.Terminal(&p.Terminal)
	for _, pr := range p.Provenance {
		enc.Provenance(pr)
	}
	for i := range p.Transcript {
		enc.Turn(&p.Transcript[i])
	}
	if err := enc.CloseWith(p.Termination); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// TestLongTurns: a turn longer than an Encoder's piece (64 KiB) is
// written a piece at a time, by an Encoder and by TextBytes, as Bytes
// writes it whole, whatever it holds where the pieces are cut: escapes,
// characters beyond ASCII, runs of invalid UTF-8 (each written as one
// U+FFFD). Decode holds the bytes to that encoding a piece at a time, and
// refuses a long content escaped otherwise; DecodeOwned reads the same
// payload, its long content sharing the bytes where nothing in it is
// escaped, where Decode's is a copy of them.
func TestLongTurns(t *testing.T) {
	env := fixture.ExampleEnv(t)
	base := build(t, env.Task, env, fixture.Trajectory(t, "honest.json").Steps)
	const long = 3 << 20 // many pieces, and over the 1 MiB DecodeOwned shares
	for _, c := range []struct {
		name, content string
		escaped       bool // written with escapes, which Decode reads into a string of its own
	}{
		{"plain", strings.Repeat("lorem ipsum ", long/12), false},
		{"escapes", strings.Repeat(`say "hi" \ `, long/11), true},
		{"beyond ASCII, no cut", strings.Repeat("é", long/2), false},
		{"mixed", strings.Repeat("naïve café\n\t\x01 “q” \u2028", long/24), true},
		{"invalid UTF-8", strings.Repeat("ab\xff\xfe\xfdcd\xc3", long/8), false},
		{"an invalid run across a cut", strings.Repeat("a", 64<<10-3) + strings.Repeat("\xff", 10) + strings.Repeat("b", long), false},
		{"a character across a cut", strings.Repeat("a", 64<<10-1) + strings.Repeat("€", long/3), false},
	} {
		p := *base
		p.Transcript = []payload.Turn{{Role: "user", Content: c.content}, {Role: "assistant", Content: "ok"}}
		want := p.Bytes()
		texts := []model.Turn{{Role: "user", Content: model.TextOf(c.content)}, {Role: "assistant", Content: model.TextOf("ok")}}
		fromTexts, err := p.TextBytes(texts)
		if err != nil {
			t.Fatal(err)
		}
		for how, got := range map[string][]byte{"the Encoder's": encode(&p), "TextBytes's": fromTexts} {
			if !bytes.Equal(got, want) {
				i := 0
				for i < min(len(got), len(want)) && got[i] == want[i] {
					i++
				}
				t.Errorf("%s: %s bytes differ from Bytes's at byte %d of %d", c.name, how, i, len(want))
			}
		}
		text := strings.ToValidUTF8(c.content, "\uFFFD")
		for _, owned := range []bool{false, true} {
			b := bytes.Clone(want)
			decode := payload.Decode
			if owned {
				decode = payload.DecodeOwned
			}
			q, err := decode(b)
			if err != nil {
				t.Errorf("%s (owned %t): %v", c.name, owned, err)
				continue
			}
			got := q.Transcript[0].Content
			if got != text || !bytes.Equal(q.Bytes(), want) {
				t.Errorf("%s (owned %t): reads otherwise", c.name, owned)
			}
			at := uintptr(unsafe.Pointer(unsafe.StringData(got)))
			inB := at >= uintptr(unsafe.Pointer(&b[0])) && at < uintptr(unsafe.Pointer(&b[0]))+uintptr(len(b))
			if shares := owned && !c.escaped; inB != shares {
				t.Errorf("%s (owned %t): the content shares the bytes: %t, want %t", c.name, owned, inB, shares)
			}
		}
		// The same text, one letter deep in it escaped as \uXXXX.
		i := len(want) * 3 / 4
		r, n := utf8.DecodeRune(want[i:])
		for !unicode.IsLetter(r) {
			i--
			r, n = utf8.DecodeRune(want[i:])
		}
		bad := append(fmt.Appendf(bytes.Clone(want[:i]), `\u%04x`, r), want[i+n:]...)
		if _, err := payload.Decode(bad); err == nil {
			t.Errorf("%s: Decode accepts a content escaped otherwise", c.name)
		}
	}
}
