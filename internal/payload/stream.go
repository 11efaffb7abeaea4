package payload

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync/atomic"

	"github.com/parthack/parthack/internal/pipe"
	"github.com/parthack/parthack/model"
)

// Decoder reads payload bytes from a reader as Decode reads them whole,
// and as strictly, a piece at a time: Head (everything before the
// events), then Next for each event, then Finish (the terminal state,
// provenance and transcript). Each piece is checked, and held to its
// canonical encoding, when it is read, and none is held once handed on:
// memory is bounded by the longest piece, not the payload, but for the
// events' actors (a byte each), which the provenance must repeat.
//
// The bytes Decode accepts are the bytes a Decoder reads through without
// an error. Where they are not, the error may differ from Decode's: a
// Decoder finds the first fault in the order of the bytes, where Decode
// parses everything before it checks anything.
type Decoder struct {
	src    io.Reader
	buf    []byte // buf[pos:] is read but not parsed; buf[0] is the stream's byte base
	pos    int
	base   int
	eof    bool
	err    error
	r      parser
	c      *checker
	n      int // events read
	ended  bool
	actors actorCodes
	ev     Event
	enc    []byte      // a piece's canonical encoding, to compare with its bytes
	recent [256]string // the parser's recent strings
}

// actorCodes are the actors of the events read, one byte each.
type actorCodes struct {
	names []model.Actor
	codes []byte
}

func (a *actorCodes) add(actor model.Actor) {
	c := slices.Index(a.names, actor)
	if c < 0 {
		c = len(a.names)
		a.names = append(a.names, actor)
	}
	a.codes = append(a.codes, byte(c))
}

// NewDecoder reads a payload from r.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{src: r, ev: Event{Diff: []Cell{}}}
}

// readSize is how many bytes a Decoder asks its reader for at least.
const readSize = 64 << 10

// fill reads more of the stream into the buffer, first dropping what is
// parsed; false at the end of the stream or on a read error.
func (d *Decoder) fill() bool {
	if d.eof {
		return false
	}
	if d.pos > 0 {
		n := copy(d.buf, d.buf[d.pos:])
		d.buf, d.base, d.pos = d.buf[:n], d.base+d.pos, 0
	}
	// Grow geometrically, so that a long piece is parsed again only a
	// few times as it arrives.
	if room := cap(d.buf) - len(d.buf); room < max(readSize, len(d.buf)) {
		d.buf = slices.Grow(d.buf, max(readSize, len(d.buf)))
	}
	n, err := d.src.Read(d.buf[len(d.buf):cap(d.buf)])
	d.buf = d.buf[:len(d.buf)+n]
	switch {
	case errors.Is(err, io.EOF):
		d.eof = true
	case err != nil:
		d.eof, d.err = true, fmt.Errorf("decode payload: read: %w", err)
		return false
	}
	return n > 0 || d.eof
}

// parse runs f on the unparsed bytes as one piece, reading on and running
// it again while it runs off their end. It returns the piece's bytes,
// valid until the next read, or nil after an error.
func (d *Decoder) parse(f func(r *parser)) []byte {
	for d.err == nil {
		d.r = parser{b: d.buf, pos: d.pos, base: d.base, more: !d.eof, recent: &d.recent}
		f(&d.r)
		if d.r.short {
			if !d.fill() && d.err == nil {
				d.eof = true // a reader that gives nothing more: parse once more as the end
			}
			continue
		}
		if d.r.err != nil {
			d.err = fmt.Errorf("decode payload: %w", d.r.err)
			return nil
		}
		piece := d.buf[d.pos:d.r.pos]
		d.pos = d.r.pos
		return piece
	}
	return nil
}

// canonical holds a piece's bytes to the canonical encoding of what was
// parsed from them: the piece named what, element i of it when i >= 0.
func (d *Decoder) canonical(piece []byte, what string, i int) {
	if d.err != nil || bytes.Equal(d.enc, piece) {
		return
	}
	if i >= 0 {
		what = fmt.Sprintf("%s[%d]", what, i)
	}
	d.err = fmt.Errorf("decode payload: %s: the bytes are not the canonical encoding of what they hold", what)
}

// Head reads the payload up to its events and checks it; the payload it
// returns has no events, terminal state, provenance or transcript.
func (d *Decoder) Head() (*Payload, error) {
	var p *Payload
	piece := d.parse(func(r *parser) {
		p = r.head()
		r.lit(`,"events":[`)
	})
	if d.err != nil {
		return nil, d.err
	}
	c, err := p.checkHead()
	if err != nil {
		d.err = fmt.Errorf("decode payload: %w", err)
		return nil, d.err
	}
	d.c = c
	d.enc = append(appendState(append(p.appendGoals(appendHeader(d.enc[:0], "payload_version", p.Version, p.Task, p.Title, p.Instruction, p.Schema)),
		`,"initial":`...), &p.Initial), `,"events":[`...)
	d.canonical(piece, "head", -1)
	return p, d.err
}

// elem reads what comes before element n of a list whose "[" is read:
// false at the list's end, which it reads.
func elem(r *parser, n int) bool {
	if n == 0 {
		return !r.opt("]")
	}
	if r.opt(",") {
		return true
	}
	r.lit("]")
	return false
}

// Next reads the next event and checks it; nil after the last. The event
// is valid until the next call.
func (d *Decoder) Next() (*Event, error) {
	if d.err != nil || d.ended {
		return nil, d.err
	}
	var more bool
	piece := d.parse(func(r *parser) {
		if more = elem(r, d.n); more {
			r.eventInto(&d.ev)
		}
	})
	if d.err != nil {
		return nil, d.err
	}
	if !more {
		d.ended = true
		return nil, nil
	}
	if err := d.c.event(&d.ev, d.n); err != nil {
		d.err = fmt.Errorf("decode payload: events[%d]: %w", d.n, err)
		return nil, d.err
	}
	if d.r.odd {
		d.enc = appendEvent(d.enc[:0], &d.ev)
		d.canonical(piece[min(d.n, 1):], "events", d.n)
	}
	if d.err != nil {
		return nil, d.err
	}
	d.actors.add(d.ev.Actor)
	d.n++
	return &d.ev, nil
}

// EachEvent reads the events not yet read and hands each to fn, in
// order, on a goroutine of its own, so that what fn does with an event
// is done while the events after it are decoded. The event is valid
// during the call. EachEvent stops at the first error, fn's or the
// decoder's, and returns the first in the events' order.
func (d *Decoder) EachEvent(fn func(ev *Event) error) error {
	var (
		ferr    error
		stopped atomic.Bool
	)
	p := pipe.New(eventsAhead, 4, func(c *eventCopy) {
		if ferr == nil {
			if ferr = fn(&c.ev); ferr != nil {
				stopped.Store(true)
			}
		}
	})
	var err error
	for !stopped.Load() {
		var ev *Event
		if ev, err = d.Next(); err != nil || ev == nil {
			break
		}
		p.Next().set(ev)
	}
	p.Close()
	if ferr != nil { // fn failed on an event before any the decoder refused
		return ferr
	}
	return err
}

// eventsAhead is how many events go to EachEvent's fn at once.
const eventsAhead = 256

// eventCopy is an event handed across goroutines, with room for its
// lists that is kept from event to event.
type eventCopy struct {
	ev   Event
	args Fields
	diff []Cell
}

// set copies ev; a list it leaves out stays left out (nil).
func (c *eventCopy) set(ev *Event) {
	c.ev = *ev
	if ev.Args != nil {
		c.args = append(c.args[:0], ev.Args...)
		c.ev.Args = c.args
	}
	if ev.Diff != nil {
		c.diff = append(c.diff[:0], ev.Diff...)
		c.ev.Diff = c.diff
	}
}

// list reads the elements of a list whose "[" is read, one piece each,
// and its "]"; read parses element i, checks it and, when the parser
// notes it odd, writes its canonical encoding to d.enc. It returns the
// number of elements.
func (d *Decoder) list(what string, read func(r *parser, i int)) int {
	n := 0
	for d.err == nil {
		var more bool
		piece := d.parse(func(r *parser) {
			if more = elem(r, n); more {
				read(r, n)
			}
		})
		if d.err != nil || !more {
			break
		}
		if d.r.odd {
			d.canonical(piece[min(n, 1):], what, n)
		}
		n++
	}
	return n
}

// Finish reads the rest of the payload after the last event (reading any
// events not yet read), checks it, and returns the terminal state.
func (d *Decoder) Finish() (*State, error) {
	for !d.ended && d.err == nil {
		if _, err := d.Next(); err != nil {
			return nil, err
		}
	}
	var s State
	piece := d.parse(func(r *parser) {
		r.lit(`,"terminal":`)
		s = r.state()
		r.lit(`,"provenance":[`)
	})
	if d.err != nil {
		return nil, d.err
	}
	if err := d.c.state("terminal", &s); err != nil {
		d.err = fmt.Errorf("decode payload: %w", err)
		return nil, d.err
	}
	d.enc = append(appendState(append(d.enc[:0], `,"terminal":`...), &s), `,"provenance":[`...)
	d.canonical(piece, "terminal", -1)
	n := d.list("provenance", func(r *parser, i int) {
		pr := r.provenance()
		switch {
		case r.err != nil:
			return
		case i >= d.n:
			r.err = fmt.Errorf("provenance: more than %d entries for %d events", d.n, d.n)
		default:
			r.err = checkProvenance(i, &pr, d.actors.names[d.actors.codes[i]])
		}
		d.enc = appendProvenance(d.enc[:0], &pr)
	})
	if d.err == nil && n != d.n {
		d.err = fmt.Errorf("decode payload: provenance: %d entries for %d events", n, d.n)
	}
	d.parse(func(r *parser) { r.lit(`,"transcript":[`) })
	d.list("transcript", func(r *parser, i int) {
		// The content is not kept: read again only when it is odd.
		start := r.pos
		var t Turn
		r.lit(`{"role":`)
		t.Role = r.str()
		r.lit(`,"content":`)
		r.skipStr()
		r.lit("}")
		if r.err != nil {
			return
		}
		if r.odd {
			again := parser{b: r.b[:r.pos], pos: start, base: r.base}
			t = again.turn()
			d.enc = appendTurn(d.enc[:0], &t)
		}
		r.err = checkTurn(i, &t)
	})
	var termination string
	piece = d.parse(func(r *parser) {
		termination = r.termination()
		r.lit("}")
	})
	if d.err == nil && len(piece) > 1 {
		d.enc = append(appendTermination(d.enc[:0], termination), '}')
		d.canonical(piece, "termination_reason", -1)
	}
	for d.err == nil && d.pos == len(d.buf) && d.fill() {
	}
	if d.err == nil && d.pos < len(d.buf) {
		d.err = fmt.Errorf("decode payload: byte %d: unexpected data after the payload", d.base+d.pos)
	}
	if d.err != nil {
		return nil, d.err
	}
	return &s, nil
}
