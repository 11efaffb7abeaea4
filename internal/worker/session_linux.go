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
// and that input gets the error: no input is ever given a score it did
// not get. The next input starts the program afresh, in the same sandbox
// and a fresh working directory, so that one bad input costs its own
// score alone and none of the program's state outlives the failure.
// Inputs are numbered for the whole session, across those starts. Score
// may be called from several goroutines; inputs are answered one at a
// time.
type Session struct {
	mu       sync.Mutex
	ctx      context.Context
	launcher string
	sp       spec      // every process's; WorkDir is each one's own
	mode     netnsMode // the namespace mode the kernel accepted first
	timeout  time.Duration
	p        *process // nil after a failure, until the next input
	n        int      // inputs sent
	closed   bool
}

// process is one start of a session's program.
type process struct {
	cmd     *exec.Cmd
	stdin   *os.File
	outR    *os.File
	out     *bufio.Reader
	stderr  *lockedTail
	dir     string
	exited  chan struct{} // closed when the process is reaped
	waitErr error
	stop    func() bool // stops the context's kill
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
// program, and no later input starts it again.
func Start(ctx context.Context, cfg Config) (*Session, error) {
	launcher, sp, timeout, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	s := &Session{ctx: ctx, launcher: launcher, sp: sp, timeout: timeout}
	var refused []error
	for _, mode := range netnsModes {
		s.mode = mode
		p, started, err := s.start()
		if started {
			if err != nil {
				return nil, err
			}
			s.p = p
			return s, nil
		}
		if !errors.Is(err, syscall.EPERM) && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EUSERS) {
			return nil, &LayerError{Layer: "launcher", Err: err}
		}
		refused = append(refused, fmt.Errorf("%s: %w", mode.name, err))
	}
	return nil, &LayerError{Layer: "netns", Err: fmt.Errorf("no fresh network namespace: %w", errors.Join(refused...))}
}

// start starts the program once, in s.mode and a fresh working
// directory. started is false when the process could not be created
// (the namespace was refused); then err says why.
func (s *Session) start() (*process, bool, error) {
	if err := s.ctx.Err(); err != nil {
		return nil, true, err
	}
	sp := s.sp
	var err error
	if sp.WorkDir, err = os.MkdirTemp("", "parthack-worker-"); err != nil {
		return nil, true, &LayerError{Layer: "workdir", Err: err}
	}
	js, err := json.Marshal(sp)
	if err != nil {
		removeAll(sp.WorkDir)
		return nil, true, err
	}
	p, started, err := startProcess(s.launcher, js, sp.WorkDir, s.mode, s.timeout)
	if err != nil {
		removeAll(sp.WorkDir)
		return nil, started, err
	}
	p.stop = context.AfterFunc(s.ctx, p.kill)
	return p, true, nil
}

// startProcess starts the launcher once with pipes for stdin and stdout.
// started is false when the process could not be created (the namespace
// was refused); then err says why.
func startProcess(launcher string, js []byte, dir string, mode netnsMode, timeout time.Duration) (p *process, started bool, err error) {
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
	p = &process{stdin: inW, outR: outR, out: bufio.NewReaderSize(outR, MaxStdout), stderr: &lockedTail{t: tailBuffer{max: StderrTail}},
		dir: dir, exited: make(chan struct{})}
	cmd := exec.Command(launcher, launchArg)
	cmd.Env = []string{specEnv + "=" + string(js)}
	cmd.Dir = dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, p.stderr
	cmd.ExtraFiles = []*os.File{statusW} // fd 3 in the launcher
	cmd.SysProcAttr = mode.attr()
	if err := cmd.Start(); err != nil {
		return nil, false, err
	}
	p.cmd = cmd
	// The child holds its ends now; the parent keeps stdin's write end
	// and stdout's read end.
	for _, f := range []*os.File{statusW, inR, outW} {
		f.Close()
	}
	closers = []*os.File{statusR}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	// EOF comes when the launcher execs (the pipe is close-on-exec there)
	// or exits; a message means it refused.
	msg, _ := io.ReadAll(io.LimitReader(statusR, 4<<10))
	if len(msg) > 0 {
		<-p.exited
		inW.Close()
		outR.Close()
		layer, why, _ := bytes.Cut(msg, []byte(": "))
		if string(layer) == stageExec {
			return nil, true, &ScorerError{Reason: "cannot be executed in the sandbox: " + string(why) + " (a script's interpreter and a dynamic program's libraries must be read-only paths)", Stderr: p.stderr.String()}
		}
		return nil, true, &LayerError{Layer: string(layer), Err: errors.New(string(why))}
	}
	return p, true, nil
}

// kill ends the program's whole process group, unless it is reaped
// already (its id could be another's by then).
func (p *process) kill() {
	select {
	case <-p.exited:
	default:
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// end ends the process: its stdin is closed, it has grace to exit, then
// its process group is killed; its working directory is removed.
func (p *process) end(grace time.Duration) error {
	p.stop()
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(grace):
	}
	p.kill()
	<-p.exited
	p.outR.Close()
	return removeAll(p.dir)
}

// Score sends one input, a JSON document on one line, and reads its
// answer; after the program failed an input, it is started afresh first.
func (s *Session) Score(input []byte) (Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Result{}, errors.New("worker: the session is closed")
	}
	if bytes.ContainsAny(input, "\r\n") {
		return Result{}, errors.New("worker: a session's input must be one line")
	}
	s.n++
	if s.p == nil {
		p, _, err := s.start()
		if err != nil {
			return Result{}, fmt.Errorf("start the scorer afresh for input %d: %w", s.n, err)
		}
		s.p = p
	}
	res, err := s.p.exchange(input, s.n, s.timeout)
	if err != nil {
		// Its process group is killed now, whatever it left behind, and
		// its working directory goes with it.
		s.p.end(0)
		s.p = nil
		return Result{}, err
	}
	return res, nil
}

// exchange writes input n and waits for its answer, the timeout or the
// program's end.
func (p *process) exchange(input []byte, n int, timeout time.Duration) (Result, error) {
	type answer struct {
		line []byte
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		if _, err := p.stdin.Write(append(input, '\n')); err != nil {
			got <- answer{err: fmt.Errorf("cannot take input %d: %w", n, err)}
			return
		}
		line, err := p.out.ReadSlice('\n')
		got <- answer{bytes.Clone(line), err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var a answer
	select {
	case a = <-got:
	case <-timer.C:
		p.kill()
		<-got
		return Result{}, &ScorerError{Reason: fmt.Sprintf("gave no answer to input %d within %v; its process group was killed", n, timeout), Stderr: p.stderr.String()}
	}
	switch {
	case errors.Is(a.err, bufio.ErrBufferFull):
		return Result{}, &ScorerError{Reason: fmt.Sprintf("answered input %d with a line longer than %d bytes", n, MaxStdout), Stderr: p.stderr.String()}
	case a.err != nil:
		// The program is gone (or closed its stdout): say how it ended.
		select {
		case <-p.exited:
		case <-time.After(time.Second):
			p.kill()
			<-p.exited
		}
		how := "closed its stdout"
		if p.waitErr != nil {
			how = "ended: " + p.waitErr.Error()
		} else if p.cmd.ProcessState != nil {
			how = "exited with status 0"
		}
		return Result{}, &ScorerError{Reason: fmt.Sprintf("gave no answer to input %d: it %s", n, how), Stderr: p.stderr.String(), Err: a.err}
	}
	res, err := parseAnswer(a.line)
	if err != nil {
		return Result{}, &ScorerError{Reason: fmt.Sprintf("answer to input %d: %v", n, err), Stderr: p.stderr.String()}
	}
	return res, nil
}

// Close ends the session: the program's stdin is closed, it has a second
// to exit, then its process group is killed; its working directory is
// removed.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.p == nil {
		return nil
	}
	err := s.p.end(time.Second)
	s.p = nil
	return err
}
