// Package mapfile gives a file's bytes to read without copying them into
// the heap where the system allows: a trajectory file of millions of
// steps is decoded straight from the page cache. A gzipped file is known
// by its first bytes and read unpacked, by Read and by Open alike, every
// member's checksum verified.
package mapfile
