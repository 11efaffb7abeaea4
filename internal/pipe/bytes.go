package pipe

import (
	"hash"
	"io"
	"sync"
)

// Bytes is an in-memory pipe whose writer may run ahead of its reader by
// a few chunks: unlike io.Pipe, a Write returns once its bytes are
// queued, not once they are read, so that the two sides work at once.
type Bytes struct {
	in         chan []byte // the writer's chunks: full itself, or a digest's stage before it
	full, free chan []byte
	stop       chan struct{} // closed when the reader stops
	digested   chan []byte   // NewHashedBytes: the digest's sum, once every chunk is in it
	cur        []byte        // the reader's chunk
	off        int           // how much of it is read
	mu         sync.Mutex
	werr, rerr error // why the writer, or the reader, stopped
}

// NewBytes makes a pipe of chunks chunks of size bytes.
func NewBytes(chunks, size int) *Bytes {
	// free has room for one more chunk than it starts with: the one a
	// writer hands over by Take.
	b := &Bytes{full: make(chan []byte, chunks), free: make(chan []byte, chunks+1), stop: make(chan struct{})}
	for range chunks {
		b.free <- make([]byte, 0, size)
	}
	b.in = b.full
	return b
}

// NewHashedBytes is NewBytes with h written every byte on a goroutine of
// its own, between the writer and the reader: the chunks pass through it
// without a copy. Sum is h's sum.
func NewHashedBytes(chunks, size int, h hash.Hash) *Bytes {
	b := NewBytes(chunks, size)
	b.in, b.digested = make(chan []byte, chunks), make(chan []byte, 1)
	go func() {
		stopped := false
		for c := range b.in {
			h.Write(c)
			if !stopped {
				select {
				case b.full <- c:
					continue
				case <-b.stop: // nobody reads: the rest is hashed and dropped
					stopped = true
				}
			}
		}
		close(b.full)
		b.digested <- h.Sum(nil)
	}()
	return b
}

// Sum is the digest of every byte written, once the writer has closed;
// only for a pipe made by NewHashedBytes.
func (b *Bytes) Sum() []byte { return <-b.digested }

// Write queues a copy of p, waiting for a free chunk when the reader is
// behind. It fails once the reader has stopped.
func (b *Bytes) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		select {
		case <-b.stop: // before a free chunk, which select might pick as well
			return n, b.readErr()
		default:
		}
		var c []byte
		select {
		case c = <-b.free:
		case <-b.stop:
			return n, b.readErr()
		}
		k := min(len(p), cap(c))
		c = append(c[:0], p[:k]...)
		select {
		case b.in <- c:
		case <-b.stop:
			return n, b.readErr()
		}
		n, p = n+k, p[k:]
	}
	return n, nil
}

// Take queues b itself, not a copy of it, and returns an empty chunk to
// fill next, waiting for one when the reader is behind: a writer that
// fills its own buffers saves Write's copy. b is the pipe's from then on,
// unless Take fails before it queued b, when it gives b back. It fails
// once the reader has stopped.
func (b *Bytes) Take(p []byte) ([]byte, error) {
	select {
	case <-b.stop:
		return p[:0], b.readErr()
	default:
	}
	select {
	case b.in <- p:
	case <-b.stop:
		return p[:0], b.readErr()
	}
	select {
	case c := <-b.free:
		return c[:0], nil
	case <-b.stop:
		return nil, b.readErr()
	}
}

// CloseWrite ends the stream: the reader reads what is queued, then err
// (io.EOF when err is nil).
func (b *Bytes) CloseWrite(err error) {
	if err == nil {
		err = io.EOF
	}
	b.mu.Lock()
	b.werr = err
	b.mu.Unlock()
	close(b.in)
}

// Read reads what the writer queued.
func (b *Bytes) Read(p []byte) (int, error) {
	if b.cur == nil {
		c, ok := <-b.full
		if !ok {
			b.mu.Lock()
			defer b.mu.Unlock()
			return 0, b.werr
		}
		b.cur, b.off = c, 0
	}
	n := copy(p, b.cur[b.off:])
	if b.off += n; b.off == len(b.cur) {
		b.free <- b.cur[:0]
		b.cur = nil
	}
	return n, nil
}

// CloseRead stops the reader: every later Write fails with err. It is
// called once.
func (b *Bytes) CloseRead(err error) {
	b.mu.Lock()
	b.rerr = err
	b.mu.Unlock()
	close(b.stop)
}

func (b *Bytes) readErr() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.rerr
}
