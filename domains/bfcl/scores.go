package bfcl

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/parthack/parthack/internal/mapfile"
	"github.com/parthack/parthack/model"
)

// Scores is a BFCL score file (BFCL_v4_<category>_score.json) as its
// eval_runner writes it: line 1 the accuracy, then one line per entry it
// failed with the error its checker gave.
type Scores struct {
	File         string
	Accuracy     float64
	CorrectCount int
	TotalCount   int
	Failed       []*ScoreEntry // in file order
	byID         map[string]*ScoreEntry
}

// ScoreEntry is one failed entry of a score file.
type ScoreEntry struct {
	ID        string
	Category  string // test_category
	ModelName string
	ErrorType string // "multi_turn:instance_state_mismatch", ...
	// ErrorMessage is error_message: the checker's sentence, or for
	// force_terminated and inference_error the items of its list, one a
	// line.
	ErrorMessage string
	Line         int // its line in the file, from 1
}

// ByID finds a failed entry; false when the file scores it valid (or
// does not hold it).
func (s *Scores) ByID(id string) (*ScoreEntry, bool) { e, ok := s.byID[id]; return e, ok }

// ReadScores reads a BFCL score file from r, gzipped or not (a gzip
// stream's checksum is verified). It checks what the header says against
// the lines: total_count minus correct_count failed entries, each id once,
// and the accuracy correct_count / total_count as Python divides. Every
// error is a *model.DecodeError naming the file, line, column, JSON path
// and what was expected.
func ReadScores(file string, r io.Reader) (*Scores, error) {
	s := &Scores{File: file, byID: map[string]*ScoreEntry{}}
	header := jc{}
	err := streamLines(file, r, func(c jc, _ string) error {
		if c.line == 1 {
			header = c
			return s.header(c)
		}
		e, err := scoreEntry(c)
		if err != nil {
			return err
		}
		if _, dup := s.byID[e.ID]; dup {
			return c.fail("entry %q is scored twice", e.ID)
		}
		s.byID[e.ID] = e
		s.Failed = append(s.Failed, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if header.n == nil {
		return nil, &model.DecodeError{File: file, Msg: "empty: a score file's first line is its accuracy ({\"accuracy\": …, \"correct_count\": …, \"total_count\": …})"}
	}
	if got := s.TotalCount - s.CorrectCount; len(s.Failed) != got {
		return nil, header.fail("total_count %d less correct_count %d is %d failed entries, but the file has %d", s.TotalCount, s.CorrectCount, got, len(s.Failed))
	}
	return s, nil
}

func (s *Scores) header(c jc) error {
	o, err := c.object()
	if err != nil {
		return err
	}
	for _, f := range []struct {
		key string
		dst *int
	}{{"correct_count", &s.CorrectCount}, {"total_count", &s.TotalCount}} {
		v, err := o.need(f.key)
		if err != nil {
			return err
		}
		if err := v.expect(jInt); err != nil {
			return err
		}
		if _, err := fmt.Sscan(v.n.s, f.dst); err != nil || *f.dst < 0 {
			return v.fail("expected a count, got %s", v.n.s)
		}
	}
	a, err := o.need("accuracy")
	if err != nil {
		return err
	}
	if a.n.kind != jFloat && a.n.kind != jInt {
		return a.fail("expected a number, got %s", a.describe())
	}
	acc, _ := a.n.py().(float64)
	if a.n.kind == jInt {
		acc = float64(a.n.py().(int64))
	}
	if s.CorrectCount > s.TotalCount || s.TotalCount > 0 && acc != float64(s.CorrectCount)/float64(s.TotalCount) {
		return a.fail("expected correct_count / total_count = %d / %d, got %s", s.CorrectCount, s.TotalCount, a.n.s)
	}
	s.Accuracy = acc
	return nil
}

func scoreEntry(c jc) (*ScoreEntry, error) {
	o, err := c.object()
	if err != nil {
		return nil, err
	}
	e := &ScoreEntry{Line: c.line}
	if e.ID, err = o.needStr("id"); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"model_name", &e.ModelName}, {"test_category", &e.Category}} {
		if v, ok := o.get(f.key); ok {
			if *f.dst, err = v.str(); err != nil {
				return nil, err
			}
		}
	}
	if v, ok := o.get("valid"); ok && (v.n.kind != jBool || v.n.b) {
		return nil, v.fail("expected false (a score file lists the entries that failed), got %s", v.describe())
	}
	ec, err := o.need("error")
	if err != nil {
		return nil, err
	}
	eo, err := ec.object()
	if err != nil {
		return nil, err
	}
	if e.ErrorType, err = eo.needStr("error_type"); err != nil {
		return nil, err
	}
	m, err := eo.need("error_message")
	if err != nil {
		return nil, err
	}
	if m.n.kind == jArr {
		items, err := m.strs()
		if err != nil {
			return nil, err
		}
		e.ErrorMessage = strings.Join(items, "\n")
	} else if e.ErrorMessage, err = m.str(); err != nil {
		return nil, err
	}
	return e, nil
}

// streamLines reads a file of one JSON value a line from r, gzipped or
// not, handing each line's value, strictly parsed and placed, and its text
// to each.
func streamLines(file string, r io.Reader, each func(c jc, text string) error) error {
	src, gz, err := unpacked(file, r)
	if err != nil {
		return err
	}
	lr := bufio.NewReaderSize(src, 1<<16)
	for n := 1; ; n++ {
		line, rerr := lr.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			if gz {
				rerr = mapfile.GzipError(rerr)
			}
			return &model.DecodeError{File: file, Line: n, Msg: rerr.Error()}
		}
		if line == "" && rerr == io.EOF {
			return nil
		}
		text := strings.TrimSuffix(line, "\n")
		c, perr := parseLine(file, text, n)
		if perr != nil {
			if gz {
				// A damaged stream's text is garbage: its damage is the
				// error to report, not where the garbage stops parsing.
				if _, derr := io.Copy(io.Discard, lr); derr != nil {
					return &model.DecodeError{File: file, Msg: mapfile.GzipError(derr).Error()}
				}
			}
			return perr
		}
		if err := each(c, text); err != nil {
			return err
		}
		if rerr == io.EOF {
			return nil
		}
	}
}
