// Package memo keeps values a process computes again and again from the
// same text (an attribute's cell decoded, a run's calls checked), within
// a bound: a Cache holds two generations, each of at most Max units (a
// value's size, as its Add says); once the newer is full it becomes the
// older, the older is dropped, and a value found in the older moves to
// the newer. A value is handed out as it was added, shared by every
// caller: it must never change after.
package memo

import (
	"strings"
	"sync"
)

// Cache maps a text to its value, safe for concurrent use. Its zero value
// holds nothing and adds nothing; set Max first.
type Cache[V any] struct {
	// Max bounds a generation's total size; a value larger is not kept.
	Max int

	mu       sync.Mutex
	new, old map[string]entry[V]
	newSize  int
}

type entry[V any] struct {
	v    V
	size int
}

// Get is the value added for key, if the cache still holds it. It keeps
// no part of key (a value moved to the newer generation is kept under a
// copy), so key may share bytes that change once Get returns.
func (c *Cache[V]) Get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.new[key]; ok {
		return e.v, true
	}
	e, ok := c.old[key]
	if ok {
		c.put(strings.Clone(key), e)
	}
	return e.v, ok
}

// Add keeps v for key, counting size units against Max; a key already
// held keeps its first value.
func (c *Cache[V]) Add(key string, v V, size int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.put(key, entry[V]{v, size})
}

func (c *Cache[V]) put(key string, e entry[V]) {
	if e.size > c.Max {
		return
	}
	if _, ok := c.new[key]; ok {
		return
	}
	if c.newSize+e.size > c.Max {
		c.old, c.new, c.newSize = c.new, nil, 0
	}
	if c.new == nil {
		c.new = map[string]entry[V]{}
	}
	c.new[key] = e
	c.newSize += e.size
}
