package tau2

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/binary"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// data is tau2's data as shipped with parthack: the run files as they
// were published (gzipped), each domain's tasks and initial database,
// tau2's licence and the provenance note (data/PROVENANCE.md).
//
//go:embed data
var data embed.FS

// Data reads a shipped file by its path under data/ ("retail/db.json.gz"),
// gunzipped when it is gzipped.
func Data(name string) ([]byte, error) {
	b, err := data.ReadFile(path.Join("data", name))
	if err != nil {
		return nil, fmt.Errorf("tau2 data: %w", err)
	}
	if !strings.HasSuffix(name, ".gz") {
		return b, nil
	}
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("tau2 data %s: %w", name, err)
	}
	// The gzip trailer's last four bytes are the text's size (mod 2^32):
	// the buffer is made once, not grown.
	size := 0
	if len(b) >= 4 {
		size = int(binary.LittleEndian.Uint32(b[len(b)-4:]))
	}
	out := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := out.ReadFrom(z); err != nil {
		return nil, fmt.Errorf("tau2 data %s: %w", name, err)
	}
	return out.Bytes(), nil
}

// RunFiles lists the shipped run files of a domain ("retail", "airline",
// "telecom"; "" for all), sorted, as paths Data and RunFile take.
func RunFiles(domain string) []string {
	var out []string
	entries, _ := fs.ReadDir(data, "data/runs")
	for _, e := range entries {
		if domain == "" || strings.HasPrefix(e.Name(), domain+"-") {
			out = append(out, "runs/"+e.Name())
		}
	}
	slices.Sort(out)
	return out
}

// RunFile is a shipped run file's bytes as published (gzipped).
func RunFile(name string) ([]byte, error) {
	b, err := data.ReadFile(path.Join("data", name))
	if err != nil {
		return nil, fmt.Errorf("tau2 data: %w", err)
	}
	return b, nil
}
