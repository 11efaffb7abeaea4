// Package spool keeps a stream of records that may be too long to hold in
// memory until it is read back, once, in order: what a command that
// streams a long trajectory must print after something it learns only at
// the end (a table's head that names the whole payload's hash, a list
// that follows the events). The records go to an unnamed temporary file,
// removed as soon as it is created, so a crash leaves nothing behind.
package spool

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// Spool is records written, then read back once.
type Spool struct {
	f   *os.File
	w   *bufio.Writer
	n   int
	err error
}

// New creates a spool in the temporary directory (TMPDIR).
func New() (*Spool, error) {
	f, err := os.CreateTemp("", "parthack-spool-*")
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, fmt.Errorf("spool: %w", err)
	}
	return &Spool{f: f, w: bufio.NewWriterSize(f, 256<<10)}, nil
}

// Add appends a record. A write error is kept and returned by Each.
func (s *Spool) Add(rec []byte) {
	if s.err != nil {
		return
	}
	var head [binary.MaxVarintLen64]byte
	s.w.Write(head[:binary.PutUvarint(head[:], uint64(len(rec)))])
	if _, err := s.w.Write(rec); err != nil {
		s.err = fmt.Errorf("spool: %w", err)
	}
	s.n++
}

// Len is the number of records added.
func (s *Spool) Len() int { return s.n }

// Each hands every record to fn, in the order added; a record is valid
// only during its call. Nothing may be added after.
func (s *Spool) Each(fn func(rec []byte)) error {
	if s.err == nil {
		if err := s.w.Flush(); err != nil {
			s.err = fmt.Errorf("spool: %w", err)
		}
	}
	if s.err != nil {
		return s.err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	r := bufio.NewReaderSize(s.f, 256<<10)
	var buf []byte
	for range s.n {
		size, err := binary.ReadUvarint(r)
		if err != nil {
			return fmt.Errorf("spool: reading back: %w", err)
		}
		if uint64(cap(buf)) < size {
			buf = make([]byte, size)
		}
		buf = buf[:size]
		if _, err := io.ReadFull(r, buf); err != nil {
			return fmt.Errorf("spool: reading back: %w", err)
		}
		fn(buf)
	}
	return nil
}

// Close releases the file; the spool is gone.
func (s *Spool) Close() error { return s.f.Close() }
