// Package testservers starts the real servers that tests of a scaled-out
// deployment need: PostgreSQL clusters (Debian's postgresql package,
// initdb and postgres into a temporary directory, as the "postgres" user
// when the tests run as root), PgBouncer in front of one (Debian's
// pgbouncer, in transaction pooling mode), redis-server instances and S3
// servers (versitygw over a temporary directory), each on a free port of
// 127.0.0.1. No test talks to a mock of any of them.
//
// A test package that uses it runs its tests through Main, which stops
// every server when they end:
//
//	func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }
//
// When a server's program is not installed the test is skipped with a
// message, unless CI_REQUIRE_POSTGRES=1 (CI_REQUIRE_REDIS=1) is set, as
// CI sets it, and CI_REQUIRE_S3=1 for versitygw: then the test fails.
// scripts/install-test-deps installs them.
package testservers

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
)

// Main runs the package's tests and stops the servers they started; its
// result is the exit code for os.Exit.
func Main(m *testing.M) int {
	code := m.Run()
	stopAll()
	mu.Lock()
	fs := cleanups
	cleanups = nil
	mu.Unlock()
	for _, f := range fs {
		f()
	}
	return code
}

var (
	mu       sync.Mutex
	running  []*process
	cleanups []func() // files to remove when the tests end
)

// process is a server started by this package, with its directory.
type process struct {
	cmd  *exec.Cmd
	dir  string
	done chan struct{}
	stop syscall.Signal // the signal of a clean, fast shutdown
}

func stopAll() {
	mu.Lock()
	ps := running
	running = nil
	mu.Unlock()
	for _, p := range ps {
		p.kill()
	}
}

// kill stops the server (its whole process group, let go on first if it
// was stopped with SIGSTOP) and removes its directory, if it has one.
func (p *process) kill() {
	_ = syscall.Kill(-p.cmd.Process.Pid, p.stop)
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGCONT)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
	_ = os.RemoveAll(p.dir)
}

// start runs cmd in its own process group, killed with the test binary
// should that die first, and registers it for Main to stop.
func start(cmd *exec.Cmd, dir string, stop syscall.Signal) (*process, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, dir: dir, done: make(chan struct{}), stop: stop}
	go func() { _ = cmd.Wait(); close(p.done) }()
	mu.Lock()
	running = append(running, p)
	mu.Unlock()
	return p, nil
}

// unregister removes p from the servers Main stops, and reports whether
// it was there.
func unregister(p *process) bool {
	mu.Lock()
	defer mu.Unlock()
	i := slices.Index(running, p)
	if i >= 0 {
		running = slices.Delete(running, i, i+1)
	}
	return i >= 0
}

// require skips t, or fails it when env is "1", because a server is missing.
func require(t testing.TB, env, msg string) {
	t.Helper()
	if os.Getenv(env) == "1" {
		t.Fatalf("%s (required: %s=1)", msg, env)
	}
	t.Skipf("%s; run scripts/install-test-deps (set %s=1 to make this a failure)", msg, env)
}

// freePort returns a TCP port of 127.0.0.1 that nothing listens on now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitFor polls ready every 20 ms until it succeeds, the process exits or
// the timeout passes.
func waitFor(p *process, timeout time.Duration, ready func() error) error {
	deadline := time.Now().Add(timeout)
	for {
		err := ready()
		if err == nil {
			return nil
		}
		select {
		case <-p.done:
			return errors.New("the server exited")
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not ready after %v: %v", timeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// tail returns the last lines of a log file, for an error message.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// Redis is a redis-server started for one test.
type Redis struct {
	// URL is its address, "redis://127.0.0.1:PORT/0".
	URL string
	// Addr is "127.0.0.1:PORT".
	Addr string
	p    *process
}

// StartRedis starts a redis-server of its own for t (without persistence),
// stopped when t ends.
func StartRedis(t testing.TB) *Redis {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		require(t, "CI_REQUIRE_REDIS", "redis-server is not installed")
	}
	return onFreePort(t, "redis-server", func(port int) (*Redis, error) { return startRedis(bin, port) })
}

// onFreePort starts a server with start on a free port of 127.0.0.1,
// stopped when t ends, trying three ports before failing t: another
// process may take a port between its choice and the server's bind.
func onFreePort[S interface{ Stop() }](t testing.TB, what string, start func(port int) (S, error)) S {
	t.Helper()
	var lastErr error
	for range 3 {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		s, err := start(port)
		if err == nil {
			t.Cleanup(s.Stop)
			return s
		}
		lastErr = err
	}
	t.Fatalf("testservers: start %s: %v", what, lastErr)
	var none S
	return none
}

func startRedis(bin string, port int) (*Redis, error) {
	dir, err := os.MkdirTemp("", "drf-redis-")
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(dir, "redis.log")
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "",
		"--appendonly", "no", "--dir", dir, "--logfile", logPath, "--daemonize", "no")
	p, err := start(cmd, dir, syscall.SIGTERM)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	err = waitFor(p, 10*time.Second, func() error { return pingRedis(addr) })
	if err != nil {
		msg := tail(logPath, 5)
		p.kill()
		return nil, fmt.Errorf("%v\n%s", err, msg)
	}
	return &Redis{URL: "redis://" + addr + "/0", Addr: addr, p: p}, nil
}

func pingRedis(addr string) error {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if line != "+PONG\r\n" {
		return fmt.Errorf("PING answered %q", line)
	}
	return nil
}

// Stop stops the server; later commands to it fail as with a Redis that
// went down. Stopping twice is harmless.
func (r *Redis) Stop() {
	if unregister(r.p) {
		r.p.kill()
	}
}

// Restart stops the server, if it is running, and starts a new one on the
// same address, empty, as a Redis without persistence comes back from a
// restart: clients of its URL reach it again.
func (r *Redis) Restart(t testing.TB) {
	t.Helper()
	r.Stop()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(r.Addr)
	n, _ := strconv.Atoi(port)
	again, err := startRedis(bin, n)
	if err != nil {
		t.Fatalf("testservers: restart redis-server on %s: %v", r.Addr, err)
	}
	r.p = again.p
}

// Dialects runs fn as two subtests, "sqlite" on a fresh in-memory SQLite
// database and "postgresql" on a fresh database of the package's
// PostgreSQL cluster (skipped as Postgres skips), both opened by
// store.Open and closed when the subtest ends.
// FileDialects runs fn on a migrated SQLite file (several connections, as
// a server has, where Dialects' in-memory database has one) and a migrated
// PostgreSQL database, each in a subtest named by its dialect.
func FileDialects(t *testing.T, fn func(t *testing.T, db *sqlx.DB), migs ...migrations.Migration) {
	t.Helper()
	for _, d := range []store.Dialect{store.SQLite, store.PostgreSQL} {
		t.Run(d.String(), func(t *testing.T) {
			if d == store.PostgreSQL {
				fn(t, OpenPostgres(t, migs...))
				return
			}
			db, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite3"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = db.Close() })
			if _, err := migrations.Migrate(context.Background(), db, migs...); err != nil {
				t.Fatal(err)
			}
			fn(t, db)
		})
	}
}

func Dialects(t *testing.T, fn func(t *testing.T, db *sqlx.DB)) {
	t.Helper()
	for _, d := range []store.Dialect{store.SQLite, store.PostgreSQL} {
		t.Run(d.String(), func(t *testing.T) {
			dsn := ":memory:"
			if d == store.PostgreSQL {
				dsn = Postgres(t)
			}
			db, err := store.Open(dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = db.Close() })
			fn(t, db)
		})
	}
}
