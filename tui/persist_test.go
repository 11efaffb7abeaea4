package tui

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/parthack/parthack/store"
)

const holderEnv = "PARTHACK_TUI_STORE_HOLDER" // the store's path

// TestStoreHolderProcess is not a test: it is the second process of
// TestSaveWaitsForABusyStore. It opens the store and keeps a write
// transaction open until its stdin closes.
func TestStoreHolderProcess(t *testing.T) {
	path := os.Getenv(holderEnv)
	if path == "" {
		t.Skip("child process of TestSaveWaitsForABusyStore")
	}
	s, err := store.Open(path) // create the store with its buckets
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(*bolt.Tx) error {
		os.Stdout.WriteString("writing\n")
		_, err := io.Copy(io.Discard, os.Stdin) // a long write: until the parent says stop
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	os.Exit(0)
}

// Two workbenches may share a store, since each opens it only for an
// operation; a save that meets another process in a long write waits
// about a second, then says the store is busy, and the witness stays in
// the editor; once the other process is done, saving works.
func TestSaveWaitsForABusyStore(t *testing.T) {
	m := openEditor(t, 120, 40)
	holder := exec.Command(os.Args[0], "-test.run=^TestStoreHolderProcess$")
	holder.Env = append(os.Environ(), holderEnv+"="+m.c.dbPath)
	holder.Stderr = os.Stderr
	stdin, err := holder.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = holder.Process.Kill(); _ = holder.Wait() })
	if lines := bufio.NewScanner(stdout); !lines.Scan() || lines.Text() != "writing" {
		t.Fatalf("the other process did not start its write: %q", lines.Text())
	}

	press(t, m, "$")
	addStep(t, m, "T103", "", "desktop")
	steps := len(m.editor.steps)
	start := time.Now()
	press(t, m, "s", "ctrl+u", "kept", "enter")
	if d := time.Since(start); d < 900*time.Millisecond || d > 3*time.Second {
		t.Errorf("the save gave up after %v, want about a second", d)
	}
	if !m.statusErr || !strings.Contains(m.status, "store busy") || !strings.Contains(m.status, "still in the editor") {
		t.Fatalf("a busy store says %q", m.status)
	}
	if m.page != pageEditor || !m.editor.modified || len(m.editor.steps) != steps || m.editor.name != "kept" || m.editor.rec.Key != 0 {
		t.Fatalf("the witness was lost: page %v, modified %v, %d steps, name %q", m.page, m.editor.modified, len(m.editor.steps), m.editor.name)
	}

	// A list waits the same second and says the same.
	drive(t, m, listRecordsCmd(m.c.dbPath))
	if !errors.Is(m.browse.recErr, store.ErrLocked) {
		t.Fatalf("listing a busy store: %v", m.browse.recErr)
	}

	// The other process finishes; the same save now goes through.
	stdin.Close()
	if err := holder.Wait(); err != nil {
		t.Fatalf("holder: %v", err)
	}
	press(t, m, "s", "enter")
	if m.statusErr || m.editor.modified {
		t.Fatalf("saving after the store was released says %q", m.status)
	}
	if recs := listRecords(t, m.c.dbPath, store.KindWitness); len(recs) != 1 || recs[0].Name != "kept" {
		t.Fatalf("stored: %+v", recs)
	}
}
