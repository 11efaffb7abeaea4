package mapfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
)

// gzipMagic starts every gzip stream: a gzipped file is known by its
// bytes, whatever its name.
var gzipMagic = []byte{0x1f, 0x8b}

// Read gives a file's bytes to read, and a release to call once nothing
// decoded from them is read any more. A regular file is mapped (see
// readRaw); a gzipped file is unpacked into memory.
func Read(path string) ([]byte, func(), error) {
	src, release, err := readRaw(path)
	if err != nil || !bytes.HasPrefix(src, gzipMagic) {
		return src, release, err
	}
	defer release()
	zr, err := gzip.NewReader(bytes.NewReader(src))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: gzip: %w", path, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: gzip: %w", path, err)
	}
	return out, func() {}, nil
}

// Open opens a file to read as a stream, unpacked as it is read when it
// is gzipped, so that a large file is never held whole.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 1<<16)
	if head, _ := br.Peek(2); !bytes.Equal(head, gzipMagic) {
		return readCloser{br, f}, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: gzip: %w", path, err)
	}
	return readCloser{gzipErrs{zr}, f}, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// gzipErrs says that an error of a file's gzip stream is one, and a
// truncated stream what it is; the reader that meets it names the file
// and where.
type gzipErrs struct{ r io.Reader }

func (g gzipErrs) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		err = errors.New("truncated gzip: the compressed stream ends early")
	case err != nil && err != io.EOF:
		err = fmt.Errorf("gzip: %w", err)
	}
	return n, err
}
