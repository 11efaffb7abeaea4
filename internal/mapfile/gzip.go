package mapfile

import (
	"bufio"
	"bytes"
	"compress/flate"
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
// readRaw); a gzipped file is unpacked into memory (Unpack).
func Read(path string) ([]byte, func(), error) {
	src, release, err := readRaw(path)
	if err != nil || !bytes.HasPrefix(src, gzipMagic) {
		return src, release, err
	}
	defer release()
	out, err := Unpack(src)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, func() {}, nil
}

// Unpack gives a file's bytes unpacked when they are gzipped (known by
// the gzip magic), and as they are otherwise. Every member of the stream
// is read to its end and its checksum verified, as `gzip -t` does: a
// file whose bytes were changed is refused, never decoded.
func Unpack(src []byte) ([]byte, error) {
	if !bytes.HasPrefix(src, gzipMagic) {
		return src, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(src))
	if err != nil {
		return nil, GzipError(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, GzipError(err)
	}
	return out, nil
}

// Open opens a file to read as a stream, unpacked as it is read when it
// is gzipped, so that a large file is never held whole. A reader that
// reads the stream to its end (io.EOF) has had every member's checksum
// verified; a corrupt stream gives an error before that end instead. A
// file that cannot be read (a directory) is an error here, not an empty
// stream later.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 1<<16)
	head, err := br.Peek(2)
	if err != nil && err != io.EOF {
		f.Close()
		return nil, err
	}
	if !bytes.Equal(head, gzipMagic) {
		return readCloser{br, f}, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, GzipError(err))
	}
	return readCloser{&gzipErrs{r: zr}, f}, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// Damaged reads what is left of a stream Open gave of a gzipped file and
// gives the error of a corrupt one; nil when the rest is sound, when the
// reader has already been given the stream's error (its error says it),
// or when the file is not gzipped. A decoder that stopped at an error in
// a gzipped file's text calls it, since the text of a damaged file is
// garbage: its damage, not where the garbage stops parsing, is what to
// report.
func Damaged(r io.Reader) error {
	rc, ok := r.(readCloser)
	if !ok {
		return nil
	}
	z, ok := rc.Reader.(*gzipErrs)
	if !ok || z.err != nil {
		return nil
	}
	_, err := io.Copy(io.Discard, z)
	return err
}

// gzipErrs says what an error of a file's gzip stream means (GzipError);
// the reader that meets it names the file and where. err is the error
// once given.
type gzipErrs struct {
	r   io.Reader
	err error
}

func (g *gzipErrs) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = GzipError(err)
		g.err = err
	}
	return n, err
}

// GzipError says in words what is wrong with a gzip stream (an error of
// another kind is wrapped as gzip's).
func GzipError(err error) error {
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("truncated gzip: the compressed stream ends early")
	case errors.Is(err, gzip.ErrChecksum):
		return errors.New("corrupt gzip: the unpacked data does not match the checksum the file stores (gzip -t: crc error)")
	case errors.Is(err, gzip.ErrHeader):
		return errors.New("corrupt gzip: a member's header is not gzip's (gzip -t: not in gzip format, or trailing garbage)")
	case errors.As(err, &corrupt):
		return fmt.Errorf("corrupt gzip: invalid compressed data at byte %d of a member", int64(corrupt))
	}
	return fmt.Errorf("gzip: %w", err)
}
