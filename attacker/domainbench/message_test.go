package domainbench

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/domains"
	"github.com/parthack/parthack/model"
)

// TestScoresHoldNoMessage: the scores of a run whose user message is
// 16 MB, set aside as a stream sets a long string aside, read the message
// into the payload's bytes once, and the payload the evaluators decode
// from them shares them: under 3 times the message is allocated (5 before:
// the message made whole for the payload, its bytes grown twice, and
// Decode's re-encoding and copy). Once made, the scores keep none of it
// (before, the domain's rewards kept the last payload they scored, and
// the scores the rewards).
func TestScoresHoldNoMessage(t *testing.T) {
	d, err := domains.Lookup("tau2-retail")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := d.Runs()
	if err != nil {
		t.Fatal(err)
	}
	c, err := certify(d, runs[0])
	if err != nil || c.info.Excluded != "" {
		t.Fatalf("%s: %v %s", runs[0].Name, err, c.info.Excluded)
	}
	const size = 16 << 20
	var big model.Text
	src := `["` + strings.Repeat("lorem ipsum ", size/12) + `"]`
	if err := model.StreamJSONArray("big.json", strings.NewReader(src), nil, func(_ int, v model.JSON) error {
		big, err = v.Text()
		return err
	}); err != nil {
		t.Fatal(err)
	}
	h := *c.h
	h.Transcript = slices.Clone(h.Transcript)
	k := slices.IndexFunc(h.Transcript, func(t model.Turn) bool { return t.Role == "user" })
	h.Transcript[k].Content = big
	var before, after, kept runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := scores(d, c.task.Model, c.res.Log, &h)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&kept)
	runtime.KeepAlive(s)
	if made := after.TotalAlloc - before.TotalAlloc; made > 3*size {
		t.Errorf("scoring a run with a 16 MB message allocated %d MB, want under 48", made>>20)
	}
	if held := int64(kept.HeapAlloc) - int64(before.HeapAlloc); held > size/4 {
		t.Errorf("the scores of a run with a 16 MB message hold %d MB", held>>20)
	}
}
