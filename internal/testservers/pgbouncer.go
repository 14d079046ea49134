package testservers

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// PgBouncerPoolSize is how many server connections the PgBouncer of
// PgBouncer opens per database and user: fewer than a store's pool, so
// that its clients take turns on them, transaction by transaction.
const PgBouncerPoolSize = 4

// PgBouncer starts PgBouncer (Debian's pgbouncer) in transaction pooling
// mode in front of the PostgreSQL server of databaseURL, on a free port,
// as the postgres user when the tests run as root (PgBouncer refuses
// root), and returns databaseURL with PgBouncer's address in place of
// PostgreSQL's. It is stopped when t ends. It trusts every user, as the
// test clusters do, and leaves the startup parameters as PgBouncer's
// defaults have them: a client that sends one PgBouncer does not know
// (statement_timeout, say) is refused.
func PgBouncer(t testing.TB, databaseURL string) string {
	t.Helper()
	bin, err := exec.LookPath("pgbouncer")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/pgbouncer"); serr != nil {
			require(t, "CI_REQUIRE_POSTGRES", "PgBouncer is not installed (no pgbouncer)")
		}
		bin = "/usr/sbin/pgbouncer"
	}
	u, err := url.Parse(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	cred, err := asPostgres()
	if err != nil {
		require(t, "CI_REQUIRE_POSTGRES", err.Error())
	}
	var lastErr error
	for range 3 {
		addr, p, err := startPgBouncer(bin, cred, u)
		if err == nil {
			t.Cleanup(func() {
				if unregister(p) {
					p.kill()
				}
			})
			u.Host = addr
			return u.String()
		}
		lastErr = err
	}
	t.Fatalf("testservers: start PgBouncer: %v", lastErr)
	return ""
}

// startPgBouncer writes a configuration for the server of u and starts
// PgBouncer on it, in a directory of its own that is removed when it
// stops.
func startPgBouncer(bin string, cred *syscall.Credential, u *url.URL) (addr string, p *process, err error) {
	dir, err := serverDir("drf-pgbouncer-", cred)
	if err != nil {
		return "", nil, err
	}
	port, err := freePort()
	if err != nil {
		_ = os.RemoveAll(dir)
		return "", nil, err
	}
	user := u.User.Username()
	logPath := filepath.Join(dir, "pgbouncer.log")
	config := fmt.Sprintf(`[databases]
* = host=%s port=%s

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = %d
unix_socket_dir =
auth_type = trust
auth_file = %s
pool_mode = transaction
default_pool_size = %d
max_client_conn = 1000
logfile = %s
`, u.Hostname(), u.Port(), port, filepath.Join(dir, "users.txt"), PgBouncerPoolSize, logPath)
	files := map[string]string{"pgbouncer.ini": config, "users.txt": strconv.Quote(user) + ` ""` + "\n"}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			_ = os.RemoveAll(dir)
			return "", nil, err
		}
	}
	if cred != nil {
		// PgBouncer writes its log there.
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			_ = os.RemoveAll(dir)
			return "", nil, err
		}
	}
	cmd := exec.Command(bin, "-q", filepath.Join(dir, "pgbouncer.ini"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	// SIGTERM is PgBouncer's immediate shutdown.
	p, err = start(cmd, dir, syscall.SIGTERM)
	if err != nil {
		_ = os.RemoveAll(dir)
		return "", nil, err
	}
	addr = "127.0.0.1:" + strconv.Itoa(port)
	through := *u
	through.Host = addr
	err = waitFor(p, 10*time.Second, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return execPostgres(ctx, through.String(), "SELECT 1")
	})
	if err != nil {
		msg := tail(logPath, 10)
		unregister(p)
		p.kill()
		return "", nil, fmt.Errorf("%v\n%s", err, msg)
	}
	return addr, p, nil
}
