package tau2_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/parthack/parthack/certifier"
	"github.com/parthack/parthack/domains"
	_ "github.com/parthack/parthack/domains/all"
	"github.com/parthack/parthack/domains/tau2"
	"github.com/parthack/parthack/model"
)

// TestOrchestratorStepsOfShippedRuns: every shipped tau2 run's trajectory
// carries its file's max_steps and the steps tau2's orchestrator counted,
// and the count is at max_steps or past it exactly on the runs tau2
// ended by max_steps (five of gpt-oss-120b's on airline).
func TestOrchestratorStepsOfShippedRuns(t *testing.T) {
	stopped := 0
	for _, name := range []string{"tau2-airline", "tau2-retail", "tau2-telecom"} {
		d, err := domains.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := d.Runs()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			h, err := r.Trajectory()
			if err != nil {
				t.Fatal(err)
			}
			if h.MaxSteps != 200 && h.MaxSteps != 100 || h.BenchmarkSteps < 1 {
				t.Fatalf("%s: max_steps %d, steps %d", r.Name, h.MaxSteps, h.BenchmarkSteps)
			}
			if past := h.BenchmarkSteps >= h.MaxSteps; past != (h.Termination == "max_steps") {
				t.Errorf("%s: %d steps of %d, termination %q", r.Name, h.BenchmarkSteps, h.MaxSteps, h.Termination)
			} else if past {
				stopped++
			}
			back, err := model.DecodeTrajectory("t.json", model.EncodeTrajectory(h))
			if err != nil || back.MaxSteps != h.MaxSteps || back.BenchmarkSteps != h.BenchmarkSteps {
				t.Fatalf("%s: the file does not keep max_steps and benchmark_steps: %v", r.Name, err)
			}
		}
	}
	if stopped != 5 {
		t.Errorf("%d runs ended by max_steps, want 5", stopped)
	}
}

// TestWitnessWithinMaxSteps: a witness of a tau2 run may add calls only
// while tau2's orchestrator would not stop the run at max_steps, two
// steps each: up to max_steps less one it is within the bound, at
// max_steps it is refused (illegal_action, naming max_steps), by
// model.CheckLimit and by the double certifier.
func TestWitnessWithinMaxSteps(t *testing.T) {
	d, err := domains.Lookup("tau2-airline")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := d.Runs()
	if err != nil {
		t.Fatal(err)
	}
	var r *domains.Run
	var h *model.Trajectory
	for _, x := range runs {
		if h, err = x.Trajectory(); err != nil {
			t.Fatal(err)
		}
		if h.Termination == "" && len(h.Steps) > 0 && (h.MaxSteps-h.BenchmarkSteps)%2 == 1 {
			r = x
			break
		}
	}
	if r == nil {
		t.Fatal("no run to test")
	}
	first := h.Steps[0] // read again at the end: any call, the bound counts them
	with := func(added int) ([]model.Step, []int) {
		a := slices.Clone(h.Steps)
		for range added {
			a = append(a, model.Step{Action: first.Action})
		}
		return a, model.Kept(h.Steps, a)
	}
	room := (h.MaxSteps - h.BenchmarkSteps - 1) / 2 // calls that keep the run below max_steps
	if a, kept := with(room); model.CheckLimit(r.Embedded.Model, h, a, kept) != nil {
		t.Errorf("%s: %d calls added, %d steps of %d, refused", r.Name, room, h.BenchmarkSteps+2*room, h.MaxSteps)
	}
	a, kept := with(room + 1)
	rej := model.CheckLimit(r.Embedded.Model, h, a, kept)
	if rej == nil || rej.Reason != model.IllegalAction || !strings.Contains(rej.Evidence.Detail, "max_steps (200)") {
		t.Errorf("%s: %d calls added, %d steps of %d: %+v", r.Name, room+1, h.BenchmarkSteps+2*room+2, h.MaxSteps, rej)
	}
	// The certifier holds an eligible pair to it: H's bound lowered to
	// its own steps and two, so that one call added reaches it.
	env, err := r.Embedded.Env()
	if err != nil {
		t.Fatal(err)
	}
	low := *h
	low.MaxSteps = h.BenchmarkSteps + 2
	for _, tt := range []struct {
		added   int
		refused bool
	}{{0, false}, {1, true}} {
		a, _ := with(tt.added)
		v, err := certifier.DoublePair(env, &low, &model.Trajectory{Task: h.Task, Steps: a})
		if err != nil {
			t.Fatal(err)
		}
		if refused := v.Reason == model.IllegalAction && strings.Contains(v.Evidence.Detail, "max_steps"); refused != tt.refused {
			t.Errorf("%s, %d calls added to a run at %d of %d steps: %s %+v", r.Name, tt.added, low.BenchmarkSteps, low.MaxSteps, v.Reason, v.Evidence)
		}
	}
}

// TestFullDuplexRefused: a run of tau2's audio-native (full-duplex)
// mode, told by its info's audio_native_config or its simulation's ticks,
// is refused at that member: its turns and steps are not the half-duplex
// orchestrator's (both imported as half-duplex runs).
func TestFullDuplexRefused(t *testing.T) {
	gz, err := tau2.RunFile("runs/airline-gpt-4o.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	z, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	src, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	// insert puts text just inside the object that follows key.
	insert := func(key, text string) []byte {
		i := bytes.Index(src, []byte(key))
		j := bytes.IndexByte(src[i:], '{') + i + 1
		return append(append(append([]byte{}, src[:j]...), text...), src[j:]...)
	}
	for _, tt := range []struct {
		path string
		bad  []byte
	}{
		{"info.audio_native_config", insert(`"info": `, `"audio_native_config": {"tick_duration_seconds": 0.2}, `)},
		{"simulations[0].ticks", insert(`"simulations": `, `"ticks": [{"tick": 0}], `)},
	} {
		bad := tt.bad
		_, err := tau2.Decode("f.json", bad)
		if err == nil || !strings.Contains(err.Error(), tt.path+": a run of tau2's audio-native (full-duplex) mode") {
			t.Errorf("%s: %v", tt.path, err)
		}
	}
}
