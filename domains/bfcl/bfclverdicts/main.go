// Command bfclverdicts prints parthack's verdict of every entry of BFCL
// result files, one JSON object a line ({"file", "line", "id", "valid",
// "error_type", "error_message", "turns"}, each turn's checks {"checked",
// "empty", "state_equal", "found", "gold"}), for
// scripts/bfcl-differential.sh to hold to BFCL's own checker. Each argument is a result file in BFCL's format
// (gzipped or not) or a folder whose *_result.json[.gz], *.jsonl and
// *.bfcl.json files (bench --witnesses' records) are read in name order; a
// file's path is written as the script's Python joins it.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/parthack/parthack/domains/bfcl"
)

type verdict struct {
	File         string `json:"file"`
	Line         int    `json:"line"`
	ID           string `json:"id"`
	Valid        bool   `json:"valid"`
	ErrorType    string `json:"error_type"`
	ErrorMessage string `json:"error_message"`
	Turns        []turn `json:"turns"`
}

// turn is one turn's checks, past the verdict's first failure.
type turn struct {
	Checked    bool `json:"checked"`
	Empty      bool `json:"empty"`
	StateEqual bool `json:"state_equal"`
	Found      int  `json:"found"`
	Gold       int  `json:"gold"`
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: bfclverdicts FILE|DIR...")
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for _, path := range files(os.Args[1:]) {
		f, err := os.Open(path)
		if err != nil {
			fail(err)
		}
		err = bfcl.StreamResults(path, f, func(r *bfcl.Result) error {
			e, err := bfcl.EntryByID(r.ID)
			if err != nil {
				return r.Errorf("%v", err)
			}
			v := bfcl.Checker{}.Score(e, r)
			out := verdict{File: path, Line: r.Line, ID: r.ID, Valid: v.Valid, ErrorType: v.ErrorType, ErrorMessage: v.ErrorMessage, Turns: []turn{}}
			for _, t := range v.Turns {
				out.Turns = append(out.Turns, turn{t.Checked, t.Empty, t.StateEqual, t.Found, len(t.GoldResults)})
			}
			return enc.Encode(out)
		})
		f.Close()
		if err != nil {
			fail(err)
		}
	}
}

// files expands folders as the differential's Python does (os.listdir,
// sorted, joined with os.path.join).
func files(args []string) []string {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			fail(err)
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		ents, err := os.ReadDir(a)
		if err != nil {
			fail(err)
		}
		var names []string
		for _, e := range ents {
			n := e.Name()
			if strings.HasSuffix(n, "_result.json") || strings.HasSuffix(n, "_result.json.gz") || strings.HasSuffix(n, ".jsonl") || strings.HasSuffix(n, ".bfcl.json") {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		sep := "/"
		if strings.HasSuffix(a, "/") {
			sep = ""
		}
		for _, n := range names {
			out = append(out, a+sep+n)
		}
	}
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bfclverdicts:", err)
	os.Exit(2)
}
