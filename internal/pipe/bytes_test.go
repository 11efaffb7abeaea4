package pipe

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// TestBytesCarriesEverything: what is written in writes of any size is
// read back whole and in order, whatever the reads' sizes, then the
// writer's error (io.EOF when it closed with none).
func TestBytesCarriesEverything(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	want := make([]byte, 1<<20)
	for i := range want {
		want[i] = byte(r.IntN(256))
	}
	for _, werr := range []error{nil, errors.New("the builder failed")} {
		p := NewBytes(3, 1000)
		go func() {
			for rest := want; len(rest) > 0; {
				k := min(len(rest), 1+r.IntN(5000))
				if _, err := p.Write(rest[:k]); err != nil {
					t.Error(err)
					return
				}
				rest = rest[k:]
			}
			p.CloseWrite(werr)
		}()
		var got bytes.Buffer
		buf := make([]byte, 777)
		var err error
		for {
			var n int
			n, err = p.Read(buf)
			got.Write(buf[:n])
			if err != nil {
				break
			}
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("read %d bytes, not the %d written", got.Len(), len(want))
		}
		if w := werr; (w == nil && err != io.EOF) || (w != nil && err != w) {
			t.Fatalf("the reader ends with %v, want %v", err, werr)
		}
	}
}

// TestBytesReaderStops: a writer blocked on a reader that stops gets the
// reader's error instead of waiting forever.
func TestBytesReaderStops(t *testing.T) {
	p := NewBytes(2, 10)
	stopped := errors.New("the evaluators stopped")
	done := make(chan error)
	go func() {
		_, err := p.Write(make([]byte, 1000)) // more than two chunks: it blocks
		done <- err
	}()
	p.CloseRead(stopped)
	if err := <-done; err != stopped {
		t.Fatalf("the blocked write ended with %v, want the reader's error", err)
	}
	if _, err := p.Write([]byte("x")); err != stopped {
		t.Fatalf("a later write ended with %v", err)
	}
}
