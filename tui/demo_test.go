package tui

import (
	"strings"
	"testing"
)

func TestDemoWalksThroughTheScenes(t *testing.T) {
	m := newTestApp(t, 120, 40, true)
	d := m.demo
	if d.err != nil || len(d.scenes) < 4 {
		t.Fatalf("demo: %v, %d scenes", d.err, len(d.scenes))
	}
	mustSee(t, m, "[1/", "Historical-witness attack", "space next scene")
	if m.page != pageInspect || m.inspect.cursor != 0 {
		t.Fatalf("scene 1 shows page %v at %d", m.page, m.inspect.cursor)
	}
	seen := map[page]bool{}
	var captions []string
	for i := 0; i < len(d.scenes); i++ {
		if d.at != i {
			t.Fatalf("at scene %d, want %d", d.at, i)
		}
		seen[m.page] = true
		captions = append(captions, d.text())
		// Every scene fits: the caption and the page share the screen.
		if n := strings.Count(m.View(), "\n") + 1; n != 40 {
			t.Fatalf("scene %d renders %d lines", i+1, n)
		}
		press(t, m, "space")
	}
	if d.at != len(d.scenes)-1 {
		t.Fatalf("space past the end moved to %d", d.at)
	}
	if !seen[pageInspect] || !seen[pageCompare] {
		t.Fatalf("the demo showed pages %v", seen)
	}
	all := strings.Join(captions, "\n")
	for _, want := range []string{"P_state", "Δhack(", "admits (H, A)", "End of the walkthroughs"} {
		if !strings.Contains(all, want) {
			t.Errorf("no caption says %q:\n%s", want, all)
		}
	}
	// Rollback and attribution walkthroughs play, or say why they cannot.
	for _, want := range []string{"2 · ", "3 · "} {
		found := false
		for _, s := range d.scenes {
			found = found || strings.HasPrefix(s.part, want)
		}
		if !found {
			t.Errorf("no scene of walkthrough %q", want)
		}
	}
	press(t, m, "b", "b")
	if d.at != len(d.scenes)-3 {
		t.Fatalf("b b went to scene %d", d.at+1)
	}
	if quit := press(t, m, "q"); !quit {
		t.Fatal("q did not end the demo")
	}
}

// Every caption is whole sentences, and names the candidate the way the
// screen does (A, or R for a rollback).
func TestDemoCaptionsAreSentences(t *testing.T) {
	m := newTestApp(t, 120, 40, true)
	for i, s := range m.demo.scenes {
		c := strings.TrimSpace(s.caption)
		if !strings.HasSuffix(c, ".") {
			t.Errorf("scene %d's caption lacks a full stop: %q", i+1, c)
		}
		if strings.Contains(c, " C ") || strings.Contains(c, " C.") || strings.Contains(c, "candidate C") {
			t.Errorf("scene %d calls the candidate C: %q", i+1, c)
		}
		if at := strings.Index(c, "The certifier"); at > 0 && !strings.HasSuffix(c[:at], ". ") {
			t.Errorf("scene %d runs a sentence into the next: %q", i+1, c)
		}
		if strings.Contains(c, ". .") || strings.Contains(c, "..") {
			t.Errorf("scene %d has a doubled stop: %q", i+1, c)
		}
	}
}

// A presenter's clicker sends PageDown/PageUp or arrows: they advance
// and go back like space and b.
func TestDemoClickerKeys(t *testing.T) {
	m := newTestApp(t, 120, 40, true)
	d := m.demo
	press(t, m, "pgdown", "pgdown", "right", "down")
	if d.at != 4 {
		t.Fatalf("pgdown, pgdown, →, ↓ went to scene %d", d.at+1)
	}
	press(t, m, "pgup", "left", "up")
	if d.at != 1 {
		t.Fatalf("pgup, ←, ↑ went to scene %d", d.at+1)
	}
}
