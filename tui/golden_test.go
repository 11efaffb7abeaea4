package tui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
)

// TestGolden drives the real program loop at fixed sizes and compares the
// final screen with testdata/TestGolden/*.golden (go test -update rewrites
// them). It runs on the worked example, not the embedded suite, so the
// screens change only when the workbench does. Each step sends keys and
// waits until the screen shows a marker, because replay and
// certification finish in the background.
func TestGolden(t *testing.T) {
	type step struct {
		keys   []string
		marker string
	}
	cases := []struct {
		name  string
		demo  bool
		steps []step
	}{
		{"browse", false, []step{{nil, "Tasks · "}}},
		{"inspector", false, []step{{[]string{"enter"}, "EX-01 · honest"}, {[]string{"t"}, "EX-01 · witness"}, {[]string{"l", "l"}, "Event 2 of"}}},
		{"compare", false, []step{{[]string{"enter"}, "EX-01 · honest"}, {[]string{"c"}, "eligible"}}},
		{"rollback", false, []step{{[]string{"enter"}, "EX-01 · honest"}, {[]string{"r"}, "misses"}}},
		{"editor", false, []step{{[]string{"enter"}, "EX-01 · honest"}, {[]string{"e"}, "✓ eligible"}, {[]string{"a"}, "New step 2"}}},
		{"demo", true, []step{{nil, "[1/"}, {[]string{"space", "space", "space"}, "[4/"}}},
		{"editor_line", false, []step{{[]string{"enter"}, "EX-01 · honest"}, {[]string{"e"}, "✓ eligible"}, {[]string{"$", ":", "update ticket T1 sta"}, "status (now"}}},
		{"compare_state", false, []step{{[]string{"enter"}, "EX-01 · honest"}, {[]string{"c"}, "eligible"}, {[]string{"d"}, "State: H vs A"}}},
		{"inspector_whole_state", false, []step{{[]string{"enter"}, "EX-01 · honest"}, {append([]string{"l", "w", "tab"}, strings.Split(strings.Repeat("j", 30), "")...), "· touched"}}},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s_%dx%d", c.name, size[0], size[1]), func(t *testing.T) {
				m := exampleApp(t, c.demo)
				tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(size[0], size[1]))
				for _, s := range c.steps {
					for _, k := range s.keys {
						for _, msg := range keyMsgs(k) {
							tm.Send(msg)
						}
					}
					teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s.marker)) },
						teatest.WithDuration(10*time.Second))
				}
				if err := tm.Quit(); err != nil {
					t.Fatal(err)
				}
				final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*workbench)
				golden.RequireEqual(t, []byte(final.View()))
			})
		}
	}
}
