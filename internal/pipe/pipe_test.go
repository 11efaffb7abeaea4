package pipe

import (
	"slices"
	"testing"
)

// TestOrderAndReuse: every value arrives, in order, whatever the batch
// size, including a last batch that is not full and none at all; a
// slot's buffer is kept from fill to fill.
func TestOrderAndReuse(t *testing.T) {
	type slot struct {
		v   int
		buf []int
	}
	for _, n := range []int{0, 1, 7, 8, 9, 1000} {
		for _, size := range []int{1, 3, 8} {
			var got []int
			reused := 0
			p := New(size, 3, func(s *slot) {
				got = append(got, s.v)
				if len(s.buf) != 1 || s.buf[0] != s.v {
					t.Errorf("slot %d holds %v", s.v, s.buf)
				}
			})
			for i := range n {
				s := p.Next()
				if cap(s.buf) > 0 {
					reused++
				}
				s.v, s.buf = i, append(s.buf[:0], i)
			}
			p.Close()
			want := make([]int, n)
			for i := range want {
				want[i] = i
			}
			if !slices.Equal(got, want) {
				t.Errorf("n %d, size %d: got %v", n, size, got)
			}
			if slots := 3 * size; n > slots && reused < n-slots {
				t.Errorf("n %d, size %d: %d fills found a buffer, want at least %d", n, size, reused, n-slots)
			}
		}
	}
}
