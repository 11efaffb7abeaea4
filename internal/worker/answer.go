package worker

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

// headBuffer keeps the first max bytes written to it and notes whether
// more came. It never fails a write, so the program is never blocked or
// killed by a full pipe before the parent decides.
type headBuffer struct {
	max  int
	buf  []byte
	over bool
}

func (h *headBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if room := h.max - len(h.buf); len(p) > room {
		p, h.over = p[:room], true
	}
	h.buf = append(h.buf, p...)
	return n, nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return n, nil
	}
	if drop := len(t.buf) + len(p) - t.max; drop > 0 {
		t.buf = append(t.buf[:0], t.buf[drop:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// String is the tail, trimmed, with control characters replaced.
func (t *tailBuffer) String() string {
	return printable(strings.TrimSpace(strings.ToValidUTF8(string(t.buf), "\uFFFD")))
}

// jsonSpace is white space as JSON defines it.
const jsonSpace = " \t\r\n"

// parseAnswer reads a scorer's stdout strictly: valid UTF-8 holding one
// JSON object with a "score" number in [0, 1] and optionally a
// "rationale" string, each key once, nothing else but white space around
// it.
func parseAnswer(b []byte) (Result, error) {
	if !utf8.Valid(b) {
		return Result{}, errors.New("the answer is not valid UTF-8")
	}
	if len(bytes.Trim(b, jsonSpace)) == 0 {
		return Result{}, errors.New(`no answer on stdout; want {"score": s} with s in [0, 1]`)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var r Result
	seen := map[string]bool{}
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return Result{}, fmt.Errorf("the answer is not a JSON object: %q", clip(b))
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return Result{}, fmt.Errorf("the answer is not valid JSON: %v", err)
		}
		key := tok.(string) // an object's member names are strings
		if seen[key] {
			return Result{}, fmt.Errorf("key %q twice", key)
		}
		seen[key] = true
		if tok, err = dec.Token(); err != nil {
			return Result{}, fmt.Errorf("the answer is not valid JSON: %v", err)
		}
		switch key {
		case "score":
			n, ok := tok.(json.Number)
			if !ok {
				return Result{}, fmt.Errorf("score is %v, not a number", describe(tok))
			}
			f, err := n.Float64()
			if err != nil || math.IsNaN(f) || f < 0 || f > 1 {
				return Result{}, fmt.Errorf("score %s is not in [0, 1]", n)
			}
			r.Score = f
		case "rationale":
			s, ok := tok.(string)
			if !ok {
				return Result{}, fmt.Errorf("rationale is %v, not a string", describe(tok))
			}
			r.Rationale = s
		default:
			return Result{}, fmt.Errorf("unknown key %q (the answer holds score and optionally rationale)", key)
		}
	}
	if _, err := dec.Token(); err != nil {
		return Result{}, fmt.Errorf("the answer is not valid JSON: %v", err)
	}
	if !seen["score"] {
		return Result{}, errors.New("the answer has no score")
	}
	if rest := b[dec.InputOffset():]; len(bytes.Trim(rest, jsonSpace)) > 0 {
		return Result{}, fmt.Errorf("more after the answer: %q", clip(rest))
	}
	return r, nil
}

// describe names a JSON token that is not the expected scalar.
func describe(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return "an object"
		}
		return "an array"
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", clip([]byte(t)))
	}
	return fmt.Sprint(tok)
}

// clip shortens output quoted in an error.
func clip(b []byte) string {
	const n = 200
	if len(b) > n {
		return printable(strings.ToValidUTF8(string(b[:n]), "\uFFFD")) + "…"
	}
	return printable(string(b))
}
