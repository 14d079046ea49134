package testservers

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// manage is cmd/manage, built once per test binary and removed by Main.
var manage struct {
	once     sync.Once
	dir, bin string
	err      error
}

// manageBinary builds cmd/manage once and returns its path.
func manageBinary(t testing.TB) string {
	t.Helper()
	manage.once.Do(func() {
		if manage.dir, manage.err = os.MkdirTemp("", "drf-manage-"); manage.err != nil {
			return
		}
		mu.Lock()
		cleanups = append(cleanups, func() { _ = os.RemoveAll(manage.dir) })
		mu.Unlock()
		manage.bin = filepath.Join(manage.dir, "manage")
		cmd := exec.Command("go", "build", "-o", manage.bin, "github.com/go-drf/drf/cmd/manage")
		if out, err := cmd.CombinedOutput(); err != nil {
			manage.err = fmt.Errorf("go build ./cmd/manage: %v\n%s", err, out)
		}
	})
	if manage.err != nil {
		t.Fatal(manage.err)
	}
	return manage.bin
}

// Manage runs `manage args...` (cmd/manage, built once) with env
// ("NAME=value") added to the test's environment, and returns what it
// wrote, stdout and stderr together, and how it ended (an
// *exec.ExitError unless it exited with status 0). A command still
// running after a minute is killed.
func Manage(t testing.TB, env []string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, manageBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Runserver is a `manage runserver` process of the sample.
type Runserver struct {
	// URL is where it listens: "http://127.0.0.1:PORT".
	URL    string
	cmd    *exec.Cmd
	output *lockedBuffer
	done   chan struct{}
	err    error // cmd.Wait's, once done is closed
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var listening = regexp.MustCompile(`(?m)^Starting development server at (http://\S+)/$`)

// StartRunserver runs `manage runserver 127.0.0.1:0` (cmd/manage, built
// once) with env ("NAME=value") added to the test's environment, waits
// until it listens, and kills it with SIGKILL when t ends.
func StartRunserver(t testing.TB, env ...string) *Runserver {
	t.Helper()
	cmd := exec.Command(manageBinary(t), "runserver", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), env...)
	s := &Runserver{cmd: cmd, output: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = s.output, s.output
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		s.err = cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(s.Kill)
	deadline := time.Now().Add(60 * time.Second)
	for {
		if m := listening.FindStringSubmatch(s.output.String()); m != nil {
			s.URL = m[1]
			return s
		}
		select {
		case <-s.done:
			t.Fatalf("runserver exited before listening:\n%s", s.output.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("runserver did not start:\n%s", s.output.String())
		}
	}
}

// Signal sends sig to the process.
func (s *Runserver) Signal(sig os.Signal) error { return s.cmd.Process.Signal(sig) }

// Wait waits up to 30 seconds for the process to exit and returns how it
// ended (an *exec.ExitError unless it exited with status 0); it fails t
// if the process is still running then.
func (s *Runserver) Wait(t testing.TB) error {
	t.Helper()
	select {
	case <-s.done:
		return s.err
	case <-time.After(30 * time.Second):
		t.Fatalf("runserver did not exit:\n%s", s.Output())
		return nil
	}
}

// Done is closed when the process has exited.
func (s *Runserver) Done() <-chan struct{} { return s.done }

// Output is what the process has written so far, stdout and stderr
// together.
func (s *Runserver) Output() string { return s.output.String() }

// Kill ends the process with SIGKILL and waits for it; killing twice is
// harmless.
func (s *Runserver) Kill() {
	_ = s.cmd.Process.Kill()
	<-s.done
}
