package model

import (
	"bytes"
	"strconv"
)

// StreamTrajectory decodes a trajectory file as DecodeTrajectory does but
// hands its steps to each, in order, in batches of at most batch steps, as
// they are decoded, and keeps none of them: the returned Trajectory has
// nil Steps and n is the number of steps. Each batch is a fresh slice the
// callee owns (it may keep it or pass it to other goroutines). The error,
// when not nil, is exactly the error DecodeTrajectory returns for the same
// bytes; each may already have been called with steps decoded before the
// error was found, and the caller discards what it built from them.
//
// A batch below 1 counts as 1. After the first bad step no step is handed
// on. With an error, tr is nil and n is 0. The file is parsed once, strictly, by the fast parser, which
// decodes a step of the common shape straight from its bytes and any
// other step from its node tree; on anything wrong with the text itself
// the whole file is decoded again by the exact, slower path that words
// the error.
func StreamTrajectory(file string, src []byte, batch int, each func([]Step)) (tr *Trajectory, n int, err error) {
	if err := checkBOM(file, src); err != nil {
		return nil, 0, err
	}
	s := &stepStream{batch: max(batch, 1), each: each}
	d := &doc{file: file, src: src}
	f := &fastParser{d: d, intern: map[string]string{}, recent: new([256]string), steps: s, line: 1}
	if !f.document() {
		return s.exact(file, src)
	}
	if tr, err = decodeTrajectory(d, s); err != nil {
		return nil, 0, err
	}
	return tr, s.n, nil
}

// stepStream collects decoded steps into batches and hands them on.
type stepStream struct {
	batch int
	each  func([]Step)
	// cur is the batch being filled; spare takes a step when there is no
	// room in it, for keep to place.
	cur    []Step
	spare  Step
	per    int   // the first step's length in bytes, to size batches
	n      int   // steps decoded
	handed int   // steps handed on
	err    error // the first bad step's error; no step is decoded after it
}

// slot is where the next step is decoded: its place in the batch being
// filled when there is room, else spare. A slot is zero until written.
func (s *stepStream) slot() *Step {
	if len(s.cur) < cap(s.cur) {
		s.cur = s.cur[:len(s.cur)+1]
		return &s.cur[len(s.cur)-1]
	}
	s.spare = Step{}
	return &s.spare
}

// keep keeps the step decoded in st, its slot, which spans
// src[start:end], handing the batch on when it is full. A step in spare
// goes to a new batch, with room for as many steps as the rest of the
// file holds if they are a little shorter than the first (at most
// batch), so that a batch is seldom copied as it grows.
func (s *stepStream) keep(st *Step, start, end, size int) {
	if st == &s.spare {
		if s.cur == nil {
			if s.per == 0 {
				s.per = max(end-start, 16)
			}
			s.cur = make([]Step, 0, min(s.batch, (size-start)/s.per*5/4+16, 1<<26))
		}
		s.cur = append(s.cur, *st)
	}
	s.n++
	if len(s.cur) >= s.batch {
		s.flush()
	}
}

// fail records the first bad step's error and drops the batch.
func (s *stepStream) fail(err error) {
	s.err, s.cur = err, nil
}

// flush hands on the batch being filled, if any.
func (s *stepStream) flush() {
	if len(s.cur) > 0 {
		s.each(s.cur)
		s.handed += len(s.cur)
	}
	s.cur = nil
}

// exact decodes the file by the tokenizer's tree, the path whose errors
// DecodeTrajectory reports. Should it accept a text the fast parser
// refused, the steps not handed on yet are handed on from its tree.
func (s *stepStream) exact(file string, src []byte) (*Trajectory, int, error) {
	d, err := parseTokens(file, src)
	if err != nil {
		return nil, 0, err
	}
	tr, err := decodeTrajectory(d, nil)
	if err != nil {
		return nil, 0, err
	}
	steps := tr.Steps
	tr.Steps = nil
	for i := s.handed; i < len(steps); i += s.batch {
		j := min(i+s.batch, len(steps))
		s.each(steps[i:j:j])
	}
	return tr, len(steps), nil
}

// lineAt is the line of offset off, at or after the last offset asked.
func (f *fastParser) lineAt(off int) int {
	f.line += bytes.Count(f.d.src[f.lineOff:off], newline)
	f.lineOff = off
	return f.line
}

// stepArray parses the root object's "steps" array, handing each step to
// the stream as soon as it is decoded; the node it returns has no items.
func (f *fastParser) stepArray(depth int) (*node, bool) {
	n := &node{kind: nodeArray, off: f.off}
	f.off++
	if f.expect(']') {
		return n, true
	}
	for i := 0; ; i++ {
		if !f.step(i, depth) {
			return nil, false
		}
		if !f.expect(',') {
			f.steps.flush()
			return n, f.expect(']')
		}
	}
}

// step parses the i-th step and, unless a step before it was bad, decodes
// it into its slot: by fastStep when it can, else from its node tree by
// decodeStep. It reports false when the text itself is wrong.
func (f *fastParser) step(i, depth int) bool {
	f.ws()
	s, start := f.steps, f.off
	if s.err != nil {
		_, ok := f.value(depth + 1)
		return ok
	}
	st := s.slot()
	if f.peek() == '{' {
		if end, ok := f.fastStep(st, start); ok {
			st.Index, st.Line = i, f.lineAt(start)
			f.off = end
			s.keep(st, start, end, len(f.d.src))
			return true
		}
	}
	n, ok := f.value(depth + 1)
	if !ok {
		return false
	}
	d := f.d
	sd := &doc{file: d.file, src: d.src, root: n, base: "$.steps[" + strconv.Itoa(i) + "]", lineOff: d.lineOff, line: d.line, col: d.col}
	decoded, err := decodeStep(cursor{d: sd, n: n}, i)
	d.lineOff, d.line, d.col = sd.lineOff, sd.line, sd.col
	if err != nil {
		s.fail(err)
		return true
	}
	*st = decoded
	s.keep(st, start, f.off, len(d.src))
	return true
}
