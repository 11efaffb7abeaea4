package report

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/report")

// golden compares got with testdata/report/name, or rewrites it under
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := testdata(name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test ./report -update if intended):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

var goldenFiles = map[Format]string{
	FormatTable:    "report.txt",
	FormatMarkdown: "report.md",
	FormatLaTeX:    "report.tex",
	FormatCSV:      "report.csv",
	FormatJSON:     "report.json",
	FormatSVG:      "figure.svg",
}

func TestRenderGolden(t *testing.T) {
	l, err := ReadFile(testdata("ledger.json"))
	if err != nil {
		t.Fatal(err)
	}
	csvLedger, err := ReadFile(testdata("ledger.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range formats {
		t.Run(string(f), func(t *testing.T) {
			render := func(l *Ledger) string {
				var b bytes.Buffer
				if err := Render(&b, Compute(l), f); err != nil {
					t.Fatal(err)
				}
				return b.String()
			}
			got := render(l)
			golden(t, goldenFiles[f], got)
			if again := render(l); again != got {
				t.Errorf("a second rendering of the same ledger differs")
			}
			if fromCSV := render(csvLedger); fromCSV != got {
				t.Errorf("the CSV form of the ledger renders differently")
			}
		})
	}
}

func TestLaTeXIsBooktabs(t *testing.T) {
	l, err := ReadFile(testdata("ledger.json"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Render(&b, Compute(l), FormatLaTeX); err != nil {
		t.Fatal(err)
	}
	tex := b.String()
	n := strings.Count(tex, `\begin{table}`)
	for _, rule := range []string{`\toprule`, `\midrule`, `\bottomrule`, `\end{table}`} {
		if c := strings.Count(tex, rule); c != n {
			t.Errorf("%d tables but %d %s", n, c, rule)
		}
	}
	for _, bad := range []string{"llm_judge", "—", " 0.", "{[}0.", "Δ"} {
		if strings.Contains(tex, bad) {
			t.Errorf("LaTeX output contains %q unescaped", bad)
		}
	}
	if !strings.Contains(tex, `.042 {[}$-$.050, .125{]}`) {
		t.Errorf("LaTeX output lacks the paper's number style")
	}
}

func TestFigureIsWellFormedXML(t *testing.T) {
	l, err := ReadFile(testdata("ledger.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(strings.NewReader(Figure(Compute(l))))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range formats {
		if got, err := ParseFormat(string(f)); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	if _, err := ParseFormat("html"); err == nil || !strings.Contains(err.Error(), "one of table, markdown, latex, csv, json, svg") {
		t.Errorf("ParseFormat(html): %v", err)
	}
}
