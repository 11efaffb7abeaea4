package pipe

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// TestBytesCarriesEverything: what is written in writes of any size is
// read back whole and in order, whatever the reads' sizes, then the
// writer's error (io.EOF when it closed with none); a hashed pipe's sum
// is the digest of those bytes.
func TestBytesCarriesEverything(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	want := make([]byte, 1<<20)
	for i := range want {
		want[i] = byte(r.IntN(256))
	}
	for _, hashed := range []bool{false, true} {
		for _, werr := range []error{nil, errors.New("the builder failed")} {
			carries(t, r, want, werr, hashed)
		}
	}
}

func carries(t *testing.T, r *rand.Rand, want []byte, werr error, hashed bool) {
	p := NewBytes(3, 1000)
	if hashed {
		p = NewHashedBytes(3, 1000, sha256.New())
	}
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
	if sum := sha256.Sum256(want); hashed && !bytes.Equal(p.Sum(), sum[:]) {
		t.Fatalf("the hashed pipe's sum is not the sha256 of what was written")
	}
}

// TestBytesReaderStops: a writer blocked on a reader that stops gets the
// reader's error instead of waiting forever.
func TestBytesReaderStops(t *testing.T) {
	for _, p := range []*Bytes{NewBytes(2, 10), NewHashedBytes(2, 10, sha256.New())} {
		readerStops(t, p)
	}
	// A hashed pipe whose reader stopped still gives its sum once the
	// writer closes, rather than waiting forever.
	p := NewHashedBytes(2, 10, sha256.New())
	p.CloseRead(errors.New("stopped"))
	p.Write([]byte("x"))
	p.CloseWrite(nil)
	p.Sum()
}

func readerStops(t *testing.T, p *Bytes) {
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

// TestBytesTake: buffers handed over by Take arrive whole and in order
// among Write's, through a hashed pipe too, without a copy; after the
// reader stops, Take fails and gives back no buffer of the pipe's.
func TestBytesTake(t *testing.T) {
	for _, hashed := range []bool{false, true} {
		p := NewBytes(2, 8)
		if hashed {
			p = NewHashedBytes(2, 8, sha256.New())
		}
		var want []byte
		go func() {
			buf := []byte(nil)
			for i := range 200 {
				piece := []byte(fmt.Sprintf("piece %d;", i))
				want = append(want, piece...)
				if i%3 == 0 {
					if _, err := p.Write(piece); err != nil {
						t.Error(err)
						return
					}
					continue
				}
				var err error
				if buf, err = p.Take(append(buf, piece...)); err != nil || len(buf) != 0 {
					t.Errorf("Take: %q, %v", buf, err)
					return
				}
			}
			p.CloseWrite(nil)
		}()
		got, err := io.ReadAll(p)
		if err != nil || string(got) != string(want) {
			t.Fatalf("hashed %v: read %q (%v)", hashed, got, err)
		}
		if sum := sha256.Sum256(want); hashed && !bytes.Equal(p.Sum(), sum[:]) {
			t.Fatal("the sum is not the sha256 of what was taken and written")
		}
	}
	p := NewBytes(1, 8)
	p.CloseRead(errors.New("stopped"))
	mine := []byte("abc")
	back, err := p.Take(mine)
	if err == nil || &back[:1][0] != &mine[0] {
		t.Fatalf("Take after the reader stopped: %q, %v; want mine back and an error", back, err)
	}
}
