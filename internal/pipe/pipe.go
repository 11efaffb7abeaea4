// Package pipe hands values from one goroutine to another in batches
// that are reused: the producer fills the next slot of a batch in place,
// the consumer takes each full batch on its own goroutine and hands it
// back to be filled again. A slot keeps whatever buffers it holds from
// fill to fill, so a steady stream allocates nothing.
package pipe

// Pipe is one producer's stream of values to one consumer.
type Pipe[T any] struct {
	full, free chan []T
	done       chan struct{}
	cur        []T
	n          int
}

// New starts the consumer: take is called with every value filled, in
// order, on a goroutine of its own. size values go at once, and at most
// batches batches are in use.
func New[T any](size, batches int, take func(*T)) *Pipe[T] {
	size, batches = max(size, 1), max(batches, 2)
	p := &Pipe[T]{full: make(chan []T, batches), free: make(chan []T, batches), done: make(chan struct{})}
	for range batches - 1 {
		p.free <- make([]T, size)
	}
	p.cur = make([]T, size)
	go func() {
		defer close(p.done)
		for b := range p.full {
			for i := range b {
				take(&b[i])
			}
			p.free <- b[:cap(b)]
		}
	}()
	return p
}

// Next is the slot to fill with the next value: it holds what the last
// value to use it left, for its buffers' sake.
func (p *Pipe[T]) Next() *T {
	if p.n == len(p.cur) {
		p.full <- p.cur
		p.cur, p.n = <-p.free, 0
	}
	p.n++
	return &p.cur[p.n-1]
}

// Close hands on the values filled and waits until the consumer has
// taken every one. Nothing may be filled after it.
func (p *Pipe[T]) Close() {
	p.full <- p.cur[:p.n]
	close(p.full)
	<-p.done
}
