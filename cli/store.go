package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/internal/atomicfile"
	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/store"
	"github.com/parthack/parthack/tui"
)

// storeKinds are the kinds `store` shows, in the order it lists them.
var storeKinds = []store.Kind{store.KindWitness, store.KindRun, store.KindNote}

// refHelp says how a record is named on the command line.
const refHelp = "A record is named by its name, or as KIND:KEY (witness:3) when names repeat."

func newStoreCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "store",
		Short: "List, show, remove and export what the store (--db) holds: witnesses, runs and notes",
		Long: "The store holds the witnesses, runs and notes the workbench and `import` save. " + refHelp + "\n" +
			"Every command that takes a trajectory file (--trajectory, --honest, --candidate, --rollback) also takes a\n" +
			"stored witness's or run's name (a run gives its candidate); see `parthack certify --help`.",
	}
	cmd.AddCommand(newStoreLsCmd(e), newStoreShowCmd(e), newStoreRmCmd(e), newStoreExportCmd(e))
	return cmd
}

// recordJSON is a record as `store ls --json` and `store show --json`
// print it; Body only for show.
type recordJSON struct {
	Kind    store.Kind      `json:"kind"`
	Key     uint64          `json:"key"`
	Ref     string          `json:"ref"`
	Task    string          `json:"task"`
	Name    string          `json:"name"`
	Note    string          `json:"note"`
	Created int64           `json:"created"`
	Body    json.RawMessage `json:"body,omitempty"`
	Text    string          `json:"text,omitempty"` // a body that is not JSON
}

func refOf(r store.Record) string { return fmt.Sprintf("%s:%d", r.Kind, r.Key) }

func asJSONRecord(r store.Record) recordJSON {
	return recordJSON{Kind: r.Kind, Key: r.Key, Ref: refOf(r), Task: r.Task, Name: r.Name, Note: r.Note, Created: r.Created}
}

func newStoreLsCmd(e *env) *cobra.Command {
	var asJSON bool
	var kind, task string
	cmd := &cobra.Command{
		Use:   "ls [--kind witness|run|note] [--task ID] [--json]",
		Short: "List every saved witness, run and note: kind:key, task, name, note",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			kinds := storeKinds
			if kind != "" {
				k, err := parseKind(kind)
				if err != nil {
					return err
				}
				kinds = []store.Kind{k}
			}
			s, err := e.openExistingStore()
			if err != nil {
				return err
			}
			rows := []recordJSON{}
			if s != nil {
				defer s.Close()
				for _, k := range kinds {
					recs, err := s.Heads(k)
					if err != nil {
						return err
					}
					for _, r := range recs {
						if task == "" || r.Task == task {
							rows = append(rows, asJSONRecord(r))
						}
					}
				}
			}
			if asJSON {
				return writeJSON(e.stdout, rows)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ref\ttask\tname\tnote")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Ref, orDash(r.Task), r.Name, oneLine(r.Note, 80))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&kind, "kind", "", "only this kind: witness, run or note")
	cmd.Flags().StringVar(&task, "task", "", "only the records of this task")
	return cmd
}

func newStoreShowCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show NAME|KIND:KEY [--json]",
		Short: "Print one record: its kind, key, task, name and note, then its body",
		Long:  "Print one record: its kind, key, task, name and note, then its body as stored (a witness's is a trajectory file). " + refHelp,
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			r, err := e.needRecord(args[0], storeKinds...)
			if err != nil {
				return err
			}
			if asJSON {
				out := asJSONRecord(r)
				if json.Valid(r.Body) {
					out.Body = r.Body
				} else {
					out.Text = string(r.Body)
				}
				return writeJSON(e.stdout, out)
			}
			fmt.Fprintf(e.stdout, "%s   task %s   name %s   created %d\n", refOf(r), orDash(r.Task), r.Name, r.Created)
			if r.Note != "" {
				fmt.Fprintf(e.stdout, "note %s\n", r.Note)
			}
			fmt.Fprintln(e.stdout)
			if _, err := e.stdout.Write(r.Body); err != nil {
				return err
			}
			if len(r.Body) > 0 && r.Body[len(r.Body)-1] != '\n' {
				fmt.Fprintln(e.stdout)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: the record's fields and its body")
	return cmd
}

func newStoreRmCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "rm NAME|KIND:KEY",
		Short: "Remove one record from the store",
		Long:  "Remove one record from the store. " + refHelp,
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			r, err := e.needRecord(args[0], storeKinds...)
			if err != nil {
				return err
			}
			s, err := openStore(e)
			if err != nil {
				return err
			}
			defer s.Close()
			if err := s.Delete(r.Kind, r.Key); err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "store rm: removed %s %q (task %s) from %s\n", refOf(r), r.Name, orDash(r.Task), s.Path())
			return nil
		},
	}
}

func newStoreExportCmd(e *env) *cobra.Command {
	var honest bool
	cmd := &cobra.Command{
		Use:   "export NAME|KIND:KEY FILE [--honest]",
		Short: "Write a stored witness (or a run's candidate) as a trajectory file, conversation kept",
		Long: "Write a stored witness, or the candidate of a run the workbench saved (--honest: its H), as the trajectory\n" +
			"file certify, replay and score read, its conversation kept. " + refHelp,
		Args: cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			r, err := e.needRecord(args[0], store.KindWitness, store.KindRun)
			if err != nil {
				return err
			}
			var tr *model.Trajectory
			switch {
			case r.Kind == store.KindRun:
				var h, a *model.Trajectory
				if _, h, a, err = tui.DecodeRun(r); err == nil {
					tr = a
					if honest {
						tr = h
					}
				}
			case honest:
				return usageErr("--honest: %s is a witness; only a run holds an H", refOf(r))
			default:
				tr, err = tui.DecodeWitness(r)
			}
			if err != nil {
				return err
			}
			if err := atomicfile.WriteFunc(args[1], 0o644, func(w io.Writer) error { return model.WriteTrajectory(w, tr) }); err != nil {
				return usageErr("store export: %w", err)
			}
			fmt.Fprintf(e.stderr, "store export: %s %q (task %s, %d steps) written to %s\n", refOf(r), r.Name, tr.Task, len(tr.Steps), args[1])
			return nil
		},
	}
	cmd.Flags().BoolVar(&honest, "honest", false, "of a run, write its H instead of its candidate")
	return cmd
}

func parseKind(s string) (store.Kind, error) {
	for _, k := range storeKinds {
		if string(k) == s {
			return k, nil
		}
	}
	return "", usageErr("--kind: %q is not a kind of record (witness, run, note)", s)
}

// storePath is --db, or the default store's path.
func (e *env) storePath() (string, error) {
	if e.db != "" {
		return e.db, nil
	}
	p, err := store.DefaultPath()
	if err != nil {
		return "", usageErr("%w (use --db PATH)", err)
	}
	return p, nil
}

// openExistingStore opens the store, or gives nil when there is no
// default store yet: reading never creates one. A store the user named
// (--db) that is not there is an error: the path is mistyped, or the
// store is elsewhere.
func (e *env) openExistingStore() (*store.Store, error) {
	path, err := e.storePath()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		if e.db != "" {
			return nil, usageErr("--db %s: no such store (import and the workbench create one)", path)
		}
		return nil, nil
	}
	s, err := store.Open(path)
	if err != nil {
		return nil, usage(err)
	}
	return s, nil
}

// storeRecord finds the record ref names among kinds: KIND:KEY, or the
// one record of that name. ok is false when there is none (or no store);
// two records of one name are an error that lists them.
func (e *env) storeRecord(ref string, kinds ...store.Kind) (store.Record, bool, error) {
	s, err := e.openExistingStore()
	if err != nil {
		return store.Record{}, false, &unreadableStore{err}
	}
	if s == nil {
		return store.Record{}, false, nil
	}
	defer s.Close()
	if k, key, ok := strings.Cut(ref, ":"); ok {
		if n, err := strconv.ParseUint(key, 10, 64); err == nil {
			for _, kind := range kinds {
				if string(kind) != k {
					continue
				}
				r, err := s.Get(kind, n)
				if errors.Is(err, store.ErrNotFound) {
					return store.Record{}, false, nil
				}
				return r, err == nil, err
			}
		}
	}
	var found []store.Record
	for _, kind := range kinds {
		recs, err := s.Heads(kind)
		if err != nil {
			return store.Record{}, false, err
		}
		for _, r := range recs {
			if r.Name == ref {
				found = append(found, r)
			}
		}
	}
	switch len(found) {
	case 0:
		return store.Record{}, false, nil
	case 1:
		r, err := s.Get(found[0].Kind, found[0].Key) // the head found it; the body comes now
		return r, err == nil, err
	}
	refs := make([]string, len(found))
	for i, r := range found {
		refs[i] = refOf(r)
	}
	return store.Record{}, false, usageErr("%d records of %s are named %q (%s): name one as KIND:KEY", len(found), s.Path(), ref, strings.Join(refs, ", "))
}

// unreadableStore is storeRecord's error when the store cannot be
// opened, as against one about the record.
type unreadableStore struct{ err error }

func (u *unreadableStore) Error() string { return u.err.Error() }
func (u *unreadableStore) Unwrap() error { return u.err }

// needRecord is storeRecord with a missing record an error.
func (e *env) needRecord(ref string, kinds ...store.Kind) (store.Record, error) {
	r, ok, err := e.storeRecord(ref, kinds...)
	if err != nil || ok {
		return r, err
	}
	path, _ := e.storePath()
	return r, usageErr("no record named %q in %s (see parthack store ls)", ref, path)
}

// notInStore says, after a file that could not be read, that its name is
// no stored record's either, when it could have been one.
func (e *env) notInStore(arg string) string {
	if strings.ContainsAny(arg, "./") {
		return ""
	}
	path, err := e.storePath()
	if err != nil {
		return ""
	}
	return fmt.Sprintf(" (nor is it a witness or run in the store %s)", path)
}

// oneLine shortens s to one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
