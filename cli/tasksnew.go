package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parthack/parthack/model"
	"github.com/parthack/parthack/tasks"
)

func newTasksNewCmd(e *env) *cobra.Command {
	var from, id string
	cmd := &cobra.Command{
		Use:   "new --from ID FILE",
		Short: "Write a starting point for a task of your own, copied from a suite task",
		Long: "Write FILE, the public task of suite task ID (PH-D01 … PH-H18) as its author wrote it, under a new id,\n" +
			"and next to it the suite task's stored trajectories (honest.json, and rollback.json, witness.json,\n" +
			"attribution.json where it has them) for the new id; a trajectory file that already exists is left\n" +
			"alone. The public task holds the public goal schema, not the sealed Oracle predicates: it is a task of\n" +
			"its own, whose predicates are its goals. docs/authoring.md explains each part; check your edits with\n" +
			"`parthack tasks validate FILE` and open the task with `parthack workbench --task FILE`.\n\n" +
			"--id sets the new task's id (default: FILE's base name without .json). Ids starting with PH- are the\n" +
			"suite's. FILE must not exist.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			if from == "" {
				return usageErr("--from is required: the suite task to start from (e.g. PH-D01)")
			}
			st, err := tasks.Get(from)
			if err != nil {
				return usage(err)
			}
			if id == "" {
				id = strings.TrimSuffix(filepath.Base(path), ".json")
			}
			if id == "" || strings.HasPrefix(id, "PH-") || strings.ContainsAny(id, "\"\\ \t\n") {
				return usageErr("--id %q: a task id is non-empty, has no quotes, backslashes or white space, and does not start with PH- (the suite's ids)", id)
			}
			if _, err := os.Stat(path); err == nil {
				return usageErr("%s exists; choose another FILE", path)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return usage(err)
			}
			src, err := tasks.File(from, tasks.FileTask)
			if err != nil {
				return err
			}
			out := renameTask(src, from, id)
			if t, err := model.DecodeTask(path, out); err != nil || t.ID != id {
				return fmt.Errorf("rename %s to %s: %v", from, id, err)
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return usage(err)
			}
			if err := os.WriteFile(path, out, 0o644); err != nil {
				return usage(err)
			}
			fmt.Fprintf(e.stdout, "wrote %s: task %s, from %s (%s)\n", path, id, from, st.Public.Title)
			dir := filepath.Dir(path)
			for _, n := range st.Trajectories() {
				tp := filepath.Join(dir, n.File)
				if _, err := os.Stat(tp); err == nil {
					fmt.Fprintf(e.stdout, "kept %s: it exists\n", tp)
					continue
				}
				src, err := tasks.File(from, n.File)
				if err != nil {
					return err
				}
				if err := os.WriteFile(tp, renameTask(src, from, id), 0o644); err != nil {
					return usage(err)
				}
				fmt.Fprintf(e.stdout, "wrote %s\n", tp)
			}
			fmt.Fprintf(e.stdout, "next: edit %s (docs/authoring.md), then `parthack tasks validate %s`\n", path, path)
			return nil
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "the suite task to copy (PH-D01 … PH-H18)")
	cmd.Flags().StringVar(&id, "id", "", "the new task's id (default: FILE's base name)")
	return cmd
}

// renameTask replaces a suite task's id, as a JSON string, by id.
func renameTask(src []byte, from, id string) []byte {
	return []byte(strings.ReplaceAll(string(src), `"`+from+`"`, `"`+id+`"`))
}
