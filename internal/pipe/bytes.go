package pipe

import (
	"io"
	"sync"
)

// Bytes is an in-memory pipe whose writer may run ahead of its reader by
// a few chunks: unlike io.Pipe, a Write returns once its bytes are
// queued, not once they are read, so that the two sides work at once.
type Bytes struct {
	full, free chan []byte
	stop       chan struct{} // closed when the reader stops
	cur        []byte        // the reader's chunk
	off        int           // how much of it is read
	mu         sync.Mutex
	werr, rerr error // why the writer, or the reader, stopped
}

// NewBytes makes a pipe of chunks chunks of size bytes.
func NewBytes(chunks, size int) *Bytes {
	b := &Bytes{full: make(chan []byte, chunks), free: make(chan []byte, chunks), stop: make(chan struct{})}
	for range chunks {
		b.free <- make([]byte, 0, size)
	}
	return b
}

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
		case b.full <- c:
		case <-b.stop:
			return n, b.readErr()
		}
		n, p = n+k, p[k:]
	}
	return n, nil
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
	close(b.full)
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
