package cli

import (
	"os"
	"strings"
	"testing"
)

// TestStrictBytesCLI: a bad byte in a trajectory, in a comment or in an
// id, or a byte order mark, is a located input error (exit 2) at the
// offending byte, never a step that replays with U+FFFD in it.
func TestStrictBytesCLI(t *testing.T) {
	honest, err := os.ReadFile(example("honest.json"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(honest)
	cases := []struct {
		name, body, want string
	}{
		{"bad byte in a comment", strings.Replace(src, "duplicate", "dupl\xe9cate", 1),
			":6:110: $.steps[0].comment: invalid UTF-8: byte 0xE9 is not part of a UTF-8 character (save the file as UTF-8) in a string\n"},
		{"bad byte in an id", strings.Replace(src, `"T1"`, "\"T\xff(\"", 1),
			":7:48: $.steps[1].id: invalid UTF-8: byte 0xFF is not part of a UTF-8 character (save the file as UTF-8) in a string\n"},
		{"byte order mark", "\xef\xbb\xbf" + src,
			":1:1: $: the file starts with a UTF-8 byte order mark (BOM, bytes EF BB BF); JSON files must not have one: save the file as UTF-8 without BOM\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeTemp(t, c.body)
			code, _, errOut := run(t, "replay", "--task", example("task.json"), "--trajectory", path)
			if code != ExitUsage || !strings.HasSuffix(errOut, path+c.want) {
				t.Errorf("exit %d (want %d)\nstderr: %q\nwant suffix %q", code, ExitUsage, errOut, path+c.want)
			}
		})
	}
}
