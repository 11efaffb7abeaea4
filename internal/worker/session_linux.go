package worker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Session is one scorer program serving many inputs, for a whole search:
// each input is one JSON document on a line of its stdin, each answer one
// line of its stdout, as strict as Score's ({"score": s}, s in [0, 1],
// optionally "rationale"). The program is started once, in the sandbox
// Score applies (the same layers, fail-closed), so that one whose start
// is slow (an interpreter importing a benchmark's evaluator) pays it once.
//
// Each input has Config.Timeout to be answered. A program that crashes,
// exits, answers with anything but the strict answer, writes a line
// longer than MaxStdout or runs out of time has its process group killed,
// and the session answers every later input with that error: no input is
// ever given a score it did not get. Score may be called from several
// goroutines; inputs are answered one at a time.
type Session struct {
	mu      sync.Mutex
	cmd     *exec.Cmd
	stdin   *os.File
	outR    *os.File
	out     *bufio.Reader
	stderr  *lockedTail
	timeout time.Duration
	dir     string
	exited  chan struct{} // closed when the process is reaped
	waitErr error
	n       int   // inputs sent
	failed  error // set by the first failure
	stop    func() bool
}

// lockedTail is a tailBuffer the process writes while a caller reads it.
type lockedTail struct {
	mu sync.Mutex
	t  tailBuffer
}

func (l *lockedTail) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.t.Write(p)
}

func (l *lockedTail) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.t.String()
}

// Start starts cfg's program in the sandbox for a session. A *LayerError
// means the sandbox could not be set up and nothing runs; a *ScorerError
// that the program could not be executed in it. Cancelling ctx kills the
// program.
func Start(ctx context.Context, cfg Config) (*Session, error) {
	launcher, sp, timeout, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	if sp.WorkDir, err = os.MkdirTemp("", "parthack-worker-"); err != nil {
		return nil, &LayerError{Layer: "workdir", Err: err}
	}
	js, err := json.Marshal(sp)
	if err != nil {
		removeAll(sp.WorkDir)
		return nil, err
	}
	var refused []error
	for _, mode := range netnsModes {
		s, started, err := startSession(launcher, js, sp.WorkDir, mode, timeout)
		if started {
			if err != nil {
				removeAll(sp.WorkDir)
				return nil, err
			}
			s.stop = context.AfterFunc(ctx, func() { s.kill() })
			return s, nil
		}
		if !errors.Is(err, syscall.EPERM) && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EUSERS) {
			removeAll(sp.WorkDir)
			return nil, &LayerError{Layer: "launcher", Err: err}
		}
		refused = append(refused, fmt.Errorf("%s: %w", mode.name, err))
	}
	removeAll(sp.WorkDir)
	return nil, &LayerError{Layer: "netns", Err: fmt.Errorf("no fresh network namespace: %w", errors.Join(refused...))}
}

// startSession starts the launcher once with pipes for stdin and stdout.
// started is false when the process could not be created (the namespace
// was refused); then err says why.
func startSession(launcher string, js []byte, dir string, mode netnsMode, timeout time.Duration) (s *Session, started bool, err error) {
	var closers []*os.File
	defer func() {
		for _, f := range closers {
			f.Close()
		}
	}()
	pipe := func() (r, w *os.File, err error) {
		if r, w, err = os.Pipe(); err == nil {
			closers = append(closers, r, w)
		}
		return r, w, err
	}
	statusR, statusW, err := pipe()
	if err != nil {
		return nil, true, &LayerError{Layer: "launcher", Err: err}
	}
	inR, inW, err := pipe()
	if err != nil {
		return nil, true, &LayerError{Layer: "launcher", Err: err}
	}
	outR, outW, err := pipe()
	if err != nil {
		return nil, true, &LayerError{Layer: "launcher", Err: err}
	}
	s = &Session{stdin: inW, outR: outR, out: bufio.NewReaderSize(outR, MaxStdout), stderr: &lockedTail{t: tailBuffer{max: StderrTail}},
		timeout: timeout, dir: dir, exited: make(chan struct{})}
	cmd := exec.Command(launcher, launchArg)
	cmd.Env = []string{specEnv + "=" + string(js)}
	cmd.Dir = dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, s.stderr
	cmd.ExtraFiles = []*os.File{statusW} // fd 3 in the launcher
	cmd.SysProcAttr = mode.attr()
	if err := cmd.Start(); err != nil {
		return nil, false, err
	}
	s.cmd = cmd
	// The child holds its ends now; the parent keeps stdin's write end
	// and stdout's read end.
	for _, f := range []*os.File{statusW, inR, outW} {
		f.Close()
	}
	closers = []*os.File{statusR}
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()
	// EOF comes when the launcher execs (the pipe is close-on-exec there)
	// or exits; a message means it refused.
	msg, _ := io.ReadAll(io.LimitReader(statusR, 4<<10))
	if len(msg) > 0 {
		<-s.exited
		inW.Close()
		outR.Close()
		layer, why, _ := bytes.Cut(msg, []byte(": "))
		if string(layer) == stageExec {
			return nil, true, &ScorerError{Reason: "cannot be executed in the sandbox: " + string(why) + " (a script's interpreter and a dynamic program's libraries must be read-only paths)", Stderr: s.stderr.String()}
		}
		return nil, true, &LayerError{Layer: string(layer), Err: errors.New(string(why))}
	}
	return s, true, nil
}

// kill ends the program's whole process group, unless it is reaped
// already (its id could be another's by then).
func (s *Session) kill() {
	select {
	case <-s.exited:
	default:
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// Score sends one input, a JSON document on one line, and reads its
// answer.
func (s *Session) Score(input []byte) (Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed != nil {
		return Result{}, s.failed
	}
	if bytes.ContainsAny(input, "\r\n") {
		return Result{}, errors.New("worker: a session's input must be one line")
	}
	s.n++
	res, err := s.exchange(input)
	if err != nil {
		s.kill()
		s.failed = fmt.Errorf("scorer stopped at input %d: %w", s.n, err)
		return Result{}, err
	}
	return res, nil
}

// exchange writes one input and waits for its answer, the timeout or
// the program's end.
func (s *Session) exchange(input []byte) (Result, error) {
	type answer struct {
		line []byte
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		if _, err := s.stdin.Write(append(input, '\n')); err != nil {
			got <- answer{err: fmt.Errorf("cannot take input %d: %w", s.n, err)}
			return
		}
		line, err := s.out.ReadSlice('\n')
		got <- answer{bytes.Clone(line), err}
	}()
	timer := time.NewTimer(s.timeout)
	defer timer.Stop()
	var a answer
	select {
	case a = <-got:
	case <-timer.C:
		s.kill()
		<-got
		return Result{}, &ScorerError{Reason: fmt.Sprintf("gave no answer to input %d within %v; its process group was killed", s.n, s.timeout), Stderr: s.stderr.String()}
	}
	switch {
	case errors.Is(a.err, bufio.ErrBufferFull):
		return Result{}, &ScorerError{Reason: fmt.Sprintf("answered input %d with a line longer than %d bytes", s.n, MaxStdout), Stderr: s.stderr.String()}
	case a.err != nil:
		// The program is gone (or closed its stdout): say how it ended.
		select {
		case <-s.exited:
		case <-time.After(time.Second):
			s.kill()
			<-s.exited
		}
		how := "closed its stdout"
		if s.waitErr != nil {
			how = "ended: " + s.waitErr.Error()
		} else if s.cmd.ProcessState != nil {
			how = "exited with status 0"
		}
		return Result{}, &ScorerError{Reason: fmt.Sprintf("gave no answer to input %d: it %s", s.n, how), Stderr: s.stderr.String(), Err: a.err}
	}
	res, err := parseAnswer(a.line)
	if err != nil {
		return Result{}, &ScorerError{Reason: fmt.Sprintf("answer to input %d: %v", s.n, err), Stderr: s.stderr.String()}
	}
	return res, nil
}

// Close ends the session: the program's stdin is closed, it has a second
// to exit, then its process group is killed; its working directory is
// removed.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stop()
	s.stdin.Close()
	select {
	case <-s.exited:
	case <-time.After(time.Second):
	}
	s.kill()
	<-s.exited
	s.outR.Close()
	if s.failed == nil {
		s.failed = errors.New("worker: the session is closed")
	}
	return removeAll(s.dir)
}
