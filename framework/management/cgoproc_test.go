package management_test

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/management"
)

// runserver serving an SQLite database gives the scheduler one P more
// than it has (go-sqlite3's statements hold theirs while in C), unless
// GOMAXPROCS is set in the environment; it is run in a child process of
// the test, so that the process's first runserver is the one measured.
func TestRunserverAddsAProcForSQLite(t *testing.T) {
	if want := os.Getenv("DRF_TEST_CGOPROC_WANT"); want != "" {
		added, _ := strconv.Atoi(want)
		before := runtime.GOMAXPROCS(0)
		serveSQLite(t)
		if got := runtime.GOMAXPROCS(0); got != before+added {
			t.Fatalf("GOMAXPROCS %d after runserver, want %d", got, before+added)
		}
		return
	}
	for _, c := range []struct {
		env   string // GOMAXPROCS in the environment
		added int
	}{{"", 1}, {"2", 0}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRunserverAddsAProcForSQLite$", "-test.count=1")
		cmd.Env = slices.DeleteFunc(os.Environ(), func(v string) bool { return strings.HasPrefix(v, "GOMAXPROCS=") })
		cmd.Env = append(cmd.Env, "DRF_TEST_CGOPROC_WANT="+strconv.Itoa(c.added))
		if c.env != "" {
			cmd.Env = append(cmd.Env, "GOMAXPROCS="+c.env)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("GOMAXPROCS=%q: %v\n%s", c.env, err, out)
		}
	}
}

// serveSQLite starts runserver on a file SQLite database, which its
// handler opens, and stops it.
func serveSQLite(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started, done := make(chan struct{}), make(chan int, 1)
	cmd := management.Runserver(
		func(ctx context.Context, env *management.Env) (http.Handler, error) {
			if _, err := env.DB(); err != nil {
				return nil, err
			}
			return http.NotFoundHandler(), nil
		},
		func(*management.Env, string) { close(started) },
	)
	errOut := &syncBuffer{}
	env := &management.Env{Stdout: &syncBuffer{}, Stderr: errOut, Stdin: strings.NewReader("")}
	db := filepath.Join(t.TempDir(), "db.sqlite3")
	go func() {
		done <- management.Execute(ctx, env, []string{"--database", db, "runserver", "127.0.0.1:0"}, cmd)
	}()
	select {
	case <-started:
	case code := <-done:
		t.Fatalf("runserver exited %d: %s", code, errOut.String())
	case <-time.After(10 * time.Second):
		t.Fatal("runserver did not start")
	}
	cancel()
	<-done
}
