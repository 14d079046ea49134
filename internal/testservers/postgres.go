package testservers

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
	"github.com/jmoiron/sqlx"
)

// PostgresServer is a PostgreSQL cluster started by this package, in a
// temporary directory of its own (data, Unix socket and log) and on a
// free port of 127.0.0.1, with every database owned by the superuser
// "postgres", trusted without a password.
type PostgresServer struct {
	bin  string
	cred *syscall.Credential
	dir  string
	port int
	// durable: commits are written out before they are acknowledged, so
	// that a killed server loses none (synchronous_commit=on).
	durable bool

	mu sync.Mutex
	p  *process // the running postmaster; nil when stopped
	n  int      // databases created so far
}

// postgres is the package's shared PostgreSQL cluster, started on first use.
var postgres struct {
	once   sync.Once
	server *PostgresServer
	err    error
	skip   string
}

// Postgres returns the URL of a new, empty database of the package's
// PostgreSQL cluster (started by the first call, stopped by Main); see
// PostgresServer.Database.
func Postgres(t testing.TB) string {
	t.Helper()
	postgres.once.Do(func() {
		removeAbandonedClusters()
		postgres.server, postgres.skip, postgres.err = newPostgresServer(false)
		if postgres.server != nil {
			mu.Lock()
			cleanups = append(cleanups, postgres.server.remove)
			mu.Unlock()
		}
	})
	if postgres.skip != "" {
		require(t, "CI_REQUIRE_POSTGRES", postgres.skip)
	}
	if postgres.err != nil {
		t.Fatalf("testservers: start PostgreSQL: %v", postgres.err)
	}
	return postgres.server.Database(t)
}

// OpenPostgres opens a new, empty database of the package's PostgreSQL
// cluster (Postgres) with store.Open, applies the migrations, and closes
// it when t ends: the prologue of a test or benchmark on PostgreSQL.
func OpenPostgres(t testing.TB, migs ...migrations.Migration) *sqlx.DB {
	t.Helper()
	db, err := store.Open(Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if _, err := migrations.Migrate(context.Background(), db, migs...); err != nil {
		t.Fatal(err)
	}
	return db
}

// StartPostgres starts a PostgreSQL cluster of the test's own, which it
// may freeze, stop, kill and start again without disturbing other tests;
// it is removed when t ends. Unlike the package's shared cluster, its
// commits are written out before they are acknowledged, so that a kill
// loses no acknowledged write (the data is still not synced to disk: a
// kill is a crash of the server, not of the machine).
func StartPostgres(t testing.TB) *PostgresServer {
	t.Helper()
	s, skip, err := newPostgresServer(true)
	if skip != "" {
		require(t, "CI_REQUIRE_POSTGRES", skip)
	}
	if err != nil {
		t.Fatalf("testservers: start PostgreSQL: %v", err)
	}
	t.Cleanup(s.remove)
	return s
}

// newPostgresServer initialises and starts a cluster, trying three
// times (a free port may be taken before the server binds it); skip says
// why PostgreSQL cannot run here at all.
func newPostgresServer(durable bool) (s *PostgresServer, skip string, err error) {
	bin, err := postgresBin()
	if err != nil {
		return nil, err.Error(), nil
	}
	cred, err := asPostgres()
	if err != nil {
		return nil, err.Error(), nil
	}
	for range 3 {
		if s, err = initCluster(bin, cred, durable); err != nil {
			continue
		}
		if s.port, err = freePort(); err == nil {
			if err = s.start(); err == nil {
				return s, "", nil
			}
		}
		_ = os.RemoveAll(s.dir)
	}
	return nil, "", err
}

// Database returns the URL of a new, empty database of the cluster,
// owned by "postgres", with the C collation (bytewise, as SQLite's) and
// UTF-8.
func (s *PostgresServer) Database(t testing.TB) string {
	t.Helper()
	s.mu.Lock()
	s.n++
	name := fmt.Sprintf("test_%d", s.n)
	s.mu.Unlock()
	if err := s.psql("postgres", `CREATE DATABASE "`+name+`" TEMPLATE template0`); err != nil {
		t.Fatalf("testservers: create database: %v", err)
	}
	return postgresURL(s.port, name)
}

// Addr is the server's address, "127.0.0.1:PORT".
func (s *PostgresServer) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// Freeze stops every process of the server with SIGSTOP: connections
// stay open and new ones are accepted by the kernel, but nothing is
// answered, as with a server that hangs. Thaw lets it go on.
func (s *PostgresServer) Freeze(t testing.TB) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.p == nil {
		t.Fatal("testservers: Freeze: PostgreSQL is not running")
	}
	signalServer(s.p.cmd.Process.Pid, syscall.SIGSTOP)
}

// Thaw lets a frozen server go on (SIGCONT).
func (s *PostgresServer) Thaw(t testing.TB) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.p != nil {
		signalServer(s.p.cmd.Process.Pid, syscall.SIGCONT)
	}
}

// signalServer sends sig to the postmaster pid and to each of its
// children, which run in sessions of their own (a backend calls setsid),
// so that a signal to the postmaster's process group misses them. The
// children are found first (a killed postmaster's are given to init at
// once); the postmaster is stopped first and let go on last, so that it
// forks none in between. After SIGKILL it waits until every one of them
// has exited, so that a server started next on the same data finds no
// process still attached to the old shared memory.
func signalServer(pid int, sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		// Stopped, the postmaster forks no child between the listing
		// and the kill.
		_ = syscall.Kill(pid, syscall.SIGSTOP)
		waitUntil(2*time.Second, func() bool { return procState(pid) == "T" || procState(pid) == "" })
	}
	children := childrenOf(pid)
	if sig != syscall.SIGCONT {
		_ = syscall.Kill(pid, sig)
	}
	for _, child := range children {
		_ = syscall.Kill(child, sig)
	}
	if sig == syscall.SIGCONT {
		_ = syscall.Kill(pid, sig)
	}
	if sig == syscall.SIGKILL {
		waitUntil(10*time.Second, func() bool {
			for _, child := range children {
				if st := procState(child); st != "" && st != "Z" {
					return false
				}
			}
			return true
		})
	}
}

// childrenOf lists the processes whose parent is pid.
func childrenOf(pid int) []int {
	var children []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if fields := procStat(child); len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			children = append(children, child)
		}
	}
	return children
}

// procStat is the fields of /proc/pid/stat after the command's name:
// state, ppid, ...; nil when there is no such process.
func procStat(pid int) []string {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return nil
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses.
	return strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
}

// procState is the state letter of process pid ("R", "S", "T", "Z", ...),
// "" when it is gone.
func procState(pid int) string {
	if fields := procStat(pid); len(fields) > 0 {
		return fields[0]
	}
	return ""
}

// waitUntil polls done every 5 ms for at most d.
func waitUntil(d time.Duration, done func() bool) {
	for deadline := time.Now().Add(d); !done() && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
}

// Stop shuts the server down as `pg_ctl stop` does (fast: sessions are
// ended with "terminating connection due to administrator command",
// transactions in flight are rolled back) and waits until it has exited.
func (s *PostgresServer) Stop(t testing.TB) {
	t.Helper()
	s.end(syscall.SIGINT)
}

// Kill ends every process of the server at once with SIGKILL, as a crash
// does: the next Start recovers from the write-ahead log.
func (s *PostgresServer) Kill(t testing.TB) {
	t.Helper()
	s.end(syscall.SIGKILL)
}

// end sends sig to the running server, if any (to every process of it
// for SIGKILL, which the postmaster cannot pass on), and waits for it to
// exit.
func (s *PostgresServer) end(sig syscall.Signal) {
	s.mu.Lock()
	p := s.p
	s.p = nil
	s.mu.Unlock()
	if p == nil {
		return
	}
	if sig == syscall.SIGKILL {
		signalServer(p.cmd.Process.Pid, sig)
	}
	p.stop = sig
	unregister(p)
	p.kill()
}

// Start starts the stopped or killed server again, on the same port and
// data, and waits until it accepts connections.
func (s *PostgresServer) Start(t testing.TB) {
	t.Helper()
	if err := s.start(); err != nil {
		t.Fatalf("testservers: start PostgreSQL again: %v", err)
	}
}

// start runs the postmaster and waits until it answers; its Unix socket
// is in the cluster's directory.
func (s *PostgresServer) start() error {
	logPath := filepath.Join(s.dir, "postgres.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	synchronous := "off"
	if s.durable {
		synchronous = "on"
	}
	cmd := exec.Command(filepath.Join(s.bin, "postgres"), "-D", filepath.Join(s.dir, "data"), "-p", strconv.Itoa(s.port), "-k", s.dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit="+synchronous,
		"-c", "full_page_writes=off", "-c", "max_connections=200")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	// SIGQUIT is PostgreSQL's immediate shutdown: the data is thrown away.
	p, err := start(cmd, "", syscall.SIGQUIT)
	if err != nil {
		return err
	}
	if err := waitFor(p, 30*time.Second, func() error { return s.psql("postgres", "SELECT 1") }); err != nil {
		unregister(p)
		p.kill()
		return fmt.Errorf("%v\n%s", err, tail(logPath, 10))
	}
	s.mu.Lock()
	s.p = p
	s.mu.Unlock()
	return nil
}

// remove stops the server and removes its directory.
func (s *PostgresServer) remove() {
	s.end(syscall.SIGQUIT)
	_ = os.RemoveAll(s.dir)
}

// psql runs one statement on database db of the server.
func (s *PostgresServer) psql(db, statement string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return execPostgres(ctx, postgresURL(s.port, db), statement)
}

// postgresURL is the URL of database name of a cluster on port.
func postgresURL(port int, name string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", port, name)
}

// postgresBin finds the directory of initdb and postgres: the newest of
// Debian's /usr/lib/postgresql/N/bin, else $PATH.
func postgresBin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int {
		va, _ := strconv.Atoi(filepath.Base(filepath.Dir(a)))
		vb, _ := strconv.Atoi(filepath.Base(filepath.Dir(b)))
		return vb - va
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	p, err := exec.LookPath("initdb")
	if err != nil {
		return "", errors.New("PostgreSQL is not installed (no initdb)")
	}
	return filepath.Dir(p), nil
}

// asPostgres returns the credential to run PostgreSQL (and PgBouncer)
// with: the "postgres" user when running as root (both refuse root), nil
// otherwise.
func asPostgres() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root and there is no postgres user to run PostgreSQL as: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// serverDir makes a temporary directory for a server run as cred: as
// root, one the postgres user can reach ($TMPDIR may be root's own), with
// a short path for a Unix socket.
func serverDir(prefix string, cred *syscall.Credential) (string, error) {
	parent := ""
	if cred != nil {
		parent = "/tmp"
	}
	dir, err := os.MkdirTemp(parent, prefix)
	if err != nil {
		return "", err
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			_ = os.RemoveAll(dir)
			return "", err
		}
	}
	return dir, nil
}

// removeAbandonedClusters removes the directories of clusters whose test
// binary died without Main stopping them (killed by a timeout, say; its
// postgres then died with it): over an hour old, with no live postmaster.
func removeAbandonedClusters() {
	dirs, _ := filepath.Glob(filepath.Join("/tmp", "drf-postgres-*"))
	more, _ := filepath.Glob(filepath.Join(os.TempDir(), "drf-postgres-*"))
	for _, dir := range append(dirs, more...) {
		info, err := os.Stat(dir)
		if err != nil || time.Since(info.ModTime()) < time.Hour {
			continue
		}
		if pid, err := os.ReadFile(filepath.Join(dir, "data", "postmaster.pid")); err == nil {
			first, _, _ := strings.Cut(string(pid), "\n")
			if n, err := strconv.Atoi(strings.TrimSpace(first)); err == nil {
				if err := syscall.Kill(n, 0); err == nil || errors.Is(err, syscall.EPERM) {
					continue // a postmaster still runs there
				}
			}
		}
		_ = os.RemoveAll(dir)
	}
}

// initCluster initialises a cluster in a new temporary directory. It is
// tuned for tests: no fsync (the tests kill servers, not machines).
func initCluster(bin string, cred *syscall.Credential, durable bool) (*PostgresServer, error) {
	dir, err := serverDir("drf-postgres-", cred)
	if err != nil {
		return nil, err
	}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", filepath.Join(dir, "data"), "-U", "postgres", "-A", "trust",
		"-E", "UTF8", "--locale=C", "--no-sync")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	return &PostgresServer{bin: bin, cred: cred, dir: dir, durable: durable}, nil
}
