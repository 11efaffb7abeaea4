package pyval

import (
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/parthack/parthack/internal/memo"
)

// Random is random.Random(seed): CPython's Mersenne Twister (MT19937),
// seeded as CPython seeds it, drawing integers as randint does.
type Random struct {
	// mt is never changed once a generator holds it: a draw that
	// regenerates the state makes a new one, so that a deep copy shares
	// it until then (a call that draws nothing copies no 624 words).
	mt  *[624]uint32
	mti int
}

// NewRandom is random.Random(seed) for an int seed (its absolute value's
// 32-bit words fed to init_by_array, least significant first), a float
// seed (its hash), or a str seed (version 2: the UTF-8 bytes followed by
// their SHA-512, read as a big-endian int).
func NewRandom(seed Value) (*Random, error) {
	i, small := seed.(int64)
	if small {
		if mt, ok := seeded.Get(strconv.FormatInt(i, 10)); ok {
			return &Random{mt: mt, mti: 624}, nil
		}
	}
	r, err := newRandom(seed)
	if err == nil && small {
		seeded.Add(strconv.FormatInt(i, 10), r.mt, 1)
	}
	return r, err
}

// seeded holds the words random.Random(seed) starts from, by int seed:
// the classes seed their generators with a few constants (or a
// scenario's), and no generator changes the words it holds (see mt).
// Two generations of at most 64 seeds.
var seeded = memo.Cache[*[624]uint32]{Max: 64}

func newRandom(seed Value) (*Random, error) {
	var n *big.Int
	switch x := seed.(type) {
	case string:
		sum := sha512.Sum512([]byte(x))
		n = new(big.Int).SetBytes(append([]byte(x), sum[:]...))
	case float64:
		if math.IsNaN(x) {
			return nil, ValueError("pyval: random.Random(nan) seeds from the object's address, which a port cannot reproduce")
		}
		// CPython seeds from hash(x) read as an unsigned 64-bit integer.
		n = new(big.Int).SetUint64(uint64(hashFloat(x)))
	case bool:
		n = bigOf(x)
	default:
		if !isInt(seed) {
			return nil, TypeError("The only supported seed types are: None,\nint, float, str, bytes, and bytearray.")
		}
		n = bigOf(seed)
		n.Abs(n)
	}
	var key []uint32
	words := n.Bits()
	for _, w := range words {
		key = append(key, uint32(w))
		if math.MaxUint == math.MaxUint64 {
			key = append(key, uint32(uint64(w)>>32))
		}
	}
	for len(key) > 1 && key[len(key)-1] == 0 {
		key = key[:len(key)-1]
	}
	if len(key) == 0 {
		key = []uint32{0}
	}
	r := &Random{mt: new([624]uint32)}
	r.initByArray(key)
	return r, nil
}

func (r *Random) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < 624; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.mti = 624
}

func (r *Random) initByArray(key []uint32) {
	r.initGenrand(19650218)
	i, j := 1, 0
	k := 624
	if len(key) > k {
		k = len(key)
	}
	for ; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= 624 {
			r.mt[0] = r.mt[623]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = 623; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= 624 {
			r.mt[0] = r.mt[623]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
}

func (r *Random) genrand() uint32 {
	const upper, lower = 0x80000000, 0x7fffffff
	mag01 := [2]uint32{0, 0x9908b0df}
	if r.mti >= 624 {
		next := *r.mt
		r.mt = &next
		var kk int
		for kk = 0; kk < 624-397; kk++ {
			y := (r.mt[kk] & upper) | (r.mt[kk+1] & lower)
			r.mt[kk] = r.mt[kk+397] ^ (y >> 1) ^ mag01[y&1]
		}
		for ; kk < 623; kk++ {
			y := (r.mt[kk] & upper) | (r.mt[kk+1] & lower)
			r.mt[kk] = r.mt[kk+(397-624)] ^ (y >> 1) ^ mag01[y&1]
		}
		y := (r.mt[623] & upper) | (r.mt[0] & lower)
		r.mt[623] = r.mt[396] ^ (y >> 1) ^ mag01[y&1]
		r.mti = 0
	}
	y := r.mt[r.mti]
	r.mti++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// getrandbits is random.getrandbits(k) for 0 < k <= 64.
func (r *Random) getrandbits(k int) uint64 {
	if k <= 32 {
		return uint64(r.genrand() >> (32 - k))
	}
	lo := uint64(r.genrand())
	hi := uint64(r.genrand() >> (64 - k))
	return hi<<32 | lo
}

// Randint is random.randint(a, b): randrange(a, b+1), the offset drawn by
// _randbelow_with_getrandbits (k = width.bit_length() bits, redrawn
// until below width). ValueError when a > b, as Python raises it.
func (r *Random) Randint(a, b int64) (int64, error) {
	if a > b {
		return 0, ValueError(fmt.Sprintf("empty range for randrange() (%d, %d, %d)", a, b+1, b+1-a))
	}
	width := uint64(b-a) + 1
	if width == 0 {
		return 0, ValueError("pyval: randint range wider than 64 bits")
	}
	k := 0
	for w := width; w > 0; w >>= 1 {
		k++
	}
	v := r.getrandbits(k)
	for v >= width {
		v = r.getrandbits(k)
	}
	return a + int64(v), nil
}

// ClassName is "Random".
func (r *Random) ClassName() string { return "Random" }

// Repr is the generator's repr; Python's holds a memory address, which a
// port cannot reproduce, so this names the class alone.
func (r *Random) Repr() string { return "<random.Random object>" }

// Equal is identity, as random.Random defines no __eq__.
func (r *Random) Equal(other Value) bool { o, ok := other.(*Random); return ok && o == r }

// DeepCopy copies the generator's whole state (its words shared until
// either draws past them).
func (r *Random) DeepCopy(map[any]Value) Value { c := *r; return &c }

// SameState reports whether two generators hold one state, and so draw
// alike.
func (r *Random) SameState(o *Random) bool {
	return r.mti == o.mti && (r.mt == o.mt || *r.mt == *o.mt)
}

type randomState struct {
	MT  []uint32 `json:"mt"`
	MTI int      `json:"mti"`
}

// MarshalState is the full Mersenne Twister state: its 624 words and the
// position of the next draw, the JSON text json.Marshal writes of a
// randomState, written straight (a call that draws marshals it).
func (r *Random) MarshalState() ([]byte, error) {
	return r.AppendState(make([]byte, 0, 16+11*len(r.mt)))
}

// AppendState appends MarshalState's text (StateAppender).
func (r *Random) AppendState(b []byte) ([]byte, error) {
	b = append(b, `{"mt":[`...)
	for i, w := range r.mt {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, uint64(w), 10)
	}
	b = append(b, `],"mti":`...)
	b = strconv.AppendInt(b, int64(r.mti), 10)
	return append(b, '}'), nil
}

func init() {
	RegisterObject("Random", func(data []byte) (Object, error) {
		var st randomState
		if err := json.Unmarshal(data, &st); err != nil {
			return nil, fmt.Errorf("Random state: %w", err)
		}
		if len(st.MT) != 624 || st.MTI < 0 || st.MTI > 624 {
			return nil, fmt.Errorf("Random state: want 624 words and a position 0..624, got %d words and %d", len(st.MT), st.MTI)
		}
		r := &Random{mt: new([624]uint32), mti: st.MTI}
		copy(r.mt[:], st.MT)
		return r, nil
	})
}

// hashFloat is CPython's _Py_HashDouble for a float that is no NaN.
func hashFloat(v float64) int64 {
	const bits = 61
	const modulus = uint64(1)<<bits - 1
	if math.IsInf(v, 1) {
		return 314159
	}
	if math.IsInf(v, -1) {
		return -314159
	}
	m, e := math.Frexp(v)
	sign := int64(1)
	if m < 0 {
		sign, m = -1, -m
	}
	var x uint64
	for m != 0 {
		x = ((x << 28) & modulus) | x>>(bits-28)
		m *= 268435456.0
		e -= 28
		y := uint64(m)
		m -= float64(y)
		x += y
		if x >= modulus {
			x -= modulus
		}
	}
	if e >= 0 {
		e %= bits
	} else {
		e = bits - 1 - ((-1 - e) % bits)
	}
	x = ((x << uint(e)) & modulus) | x>>(bits-uint(e))
	h := int64(x) * sign
	if h == -1 {
		h = -2
	}
	return h
}
