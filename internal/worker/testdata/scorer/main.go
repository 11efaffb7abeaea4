// Command scorer is the worker tests' scorer program.
//
//	scorer stdin [ARG]...         answer with the sha256 of stdin, the number of environment variables, of entries in the working directory and of descriptors beyond stdio, and the arguments
//	scorer print OUT [ERR [CODE]] write OUT to stdout, ERR to stderr, exit with CODE
//	scorer sleep                 write to stderr, then sleep for good
//	scorer flood                 write more than the worker keeps to stdout
//	scorer session [ACT]...      a session: the k-th line of stdin gets ACT k — echo (the default past the
//	                             last: its pid and the line's sha256), crash (exit 3), quit (exit 0), sleep,
//	                             or any other text, written as the answer line
package main

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	switch os.Args[1] {
	case "stdin":
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		entries, err := os.ReadDir(".")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fds := 0
		for fd := 3; fd < 256; fd++ {
			if _, _, errno := syscall.RawSyscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0); errno == 0 {
				fds++
			}
		}
		fmt.Printf(`{"score":0.25,"rationale":"sha256=%x env=%d cwd=%d fds=%d args=%s"}`+"\n", sha256.Sum256(b), len(os.Environ()), len(entries), fds, strings.Join(os.Args[2:], ","))
	case "print":
		fmt.Print(os.Args[2])
		code := 0
		if len(os.Args) > 3 {
			fmt.Fprint(os.Stderr, os.Args[3])
		}
		if len(os.Args) > 4 {
			code, _ = strconv.Atoi(os.Args[4])
		}
		os.Exit(code)
	case "sleep":
		fmt.Fprintln(os.Stderr, "sleeping")
		time.Sleep(time.Hour)
	case "session":
		in := bufio.NewReader(os.Stdin)
		for k := 0; ; k++ {
			line, err := in.ReadBytes('\n')
			if err != nil {
				return
			}
			act := "echo"
			if k+2 < len(os.Args) {
				act = os.Args[k+2]
			}
			switch act {
			case "echo":
				fmt.Printf(`{"score":0.25,"rationale":"pid=%d sha256=%x"}`+"\n", os.Getpid(), sha256.Sum256(line[:len(line)-1]))
			case "crash":
				fmt.Fprintln(os.Stderr, "crashing")
				os.Exit(3)
			case "quit":
				os.Exit(0)
			case "sleep":
				time.Sleep(time.Hour)
			default:
				fmt.Println(act)
			}
		}
	case "flood":
		chunk := strings.Repeat("x", 1<<12)
		for range 1 << 10 {
			fmt.Print(chunk)
		}
	}
}
