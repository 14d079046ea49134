package reliability_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/sample"
)

// newSample serves the sample over HTTP on a fresh database file with the
// demo users and n books, and returns its URL and the database.
func newSample(t *testing.T, n int) (string, *sqlx.DB) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "db.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if err := sample.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := sample.Seed(ctx, db, n); err != nil {
		t.Fatal(err)
	}
	h, err := sample.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL, db
}

// client is an HTTP client that keeps enough connections for the load
// tests and never follows redirects.
func client() *http.Client {
	return &http.Client{
		Transport: &http.Transport{MaxIdleConnsPerHost: 32},
		Timeout:   30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// reply is what a test reads of an answer.
type reply struct {
	status int
	header http.Header
	body   string
}

// detail returns the answer's {"detail"}, "" when it has none.
func (r reply) detail() string {
	var b struct{ Detail string }
	_ = json.Unmarshal([]byte(r.body), &b)
	return b.Detail
}

// send sends one request; header is "Name: value" lines. A transport error
// is returned, not fatal, as the fault tests expect some.
func send(c *http.Client, method, u, contentType, body string, header ...string) (reply, error) {
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for _, h := range header {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Add(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return reply{}, err
	}
	return reply{resp.StatusCode, resp.Header, string(b)}, nil
}

// mustSend is send that fails the test on a transport error.
func mustSend(t *testing.T, c *http.Client, method, u, contentType, body string, header ...string) reply {
	t.Helper()
	r, err := send(c, method, u, contentType, body, header...)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	return r
}

// obtainToken returns the user's token key from the token-obtain view.
func obtainToken(t *testing.T, base, username, password string) string {
	t.Helper()
	form := url.Values{"username": {username}, "password": {password}}.Encode()
	r := mustSend(t, client(), http.MethodPost, base+"/api-token-auth/", "application/x-www-form-urlencoded", form)
	var b struct{ Token string }
	if err := json.Unmarshal([]byte(r.body), &b); r.status != http.StatusOK || err != nil || b.Token == "" {
		t.Fatalf("obtain token of %s: %d %s", username, r.status, r.body)
	}
	return b.Token
}

// postBook creates a book titled title; it reports whether the service
// acknowledged the write (201 with the book), and returns the answer.
func postBook(c *http.Client, base, title string, header ...string) (bool, reply, error) {
	body, _ := json.Marshal(map[string]any{"title": title, "author": "Reliability", "rating": 3})
	r, err := send(c, http.MethodPost, base+"/books/", "application/json", string(body), header...)
	if err != nil || r.status != http.StatusCreated {
		return false, r, err
	}
	var b struct{ Title string }
	if json.Unmarshal([]byte(r.body), &b) != nil || b.Title != title {
		return false, r, fmt.Errorf("201 with body %q", r.body)
	}
	return true, r, nil
}

// checkWritesPresent fails unless each title is in the books table
// exactly once, and returns how many were checked.
func checkWritesPresent(t *testing.T, db *sqlx.DB, titles []string) int {
	t.Helper()
	counts := map[string]int{}
	rows, err := db.Query(`SELECT "title" FROM "books"`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		counts[s]++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, title := range titles {
		if counts[title] != 1 {
			t.Errorf("acknowledged write %q is in the database %d times", title, counts[title])
		}
	}
	return len(titles)
}

// integrityCheck fails unless SQLite finds the database file sound.
func integrityCheck(t *testing.T, db *sqlx.DB) {
	t.Helper()
	var results []string
	if err := db.Select(&results, `PRAGMA integrity_check`); err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || results[0] != "ok" {
		t.Fatalf("PRAGMA integrity_check: %q", results)
	}
}

// titles collects acknowledged titles from several goroutines.
type titles struct {
	mu   sync.Mutex
	list []string
}

func (s *titles) add(title string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = append(s.list, title)
}

func (s *titles) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string{}, s.list...)
}

func (s *titles) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.list)
}

var (
	manageOnce sync.Once
	manageDir  string
	manageBin  string
	manageErr  error
)

// TestMain removes the manage binary the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if manageDir != "" {
		_ = os.RemoveAll(manageDir)
	}
	os.Exit(code)
}

// manageBinary builds cmd/manage once per run and returns its path.
func manageBinary(t *testing.T) string {
	t.Helper()
	manageOnce.Do(func() {
		if manageDir, manageErr = os.MkdirTemp("", "reliability-manage-"); manageErr != nil {
			return
		}
		manageBin = filepath.Join(manageDir, "manage")
		cmd := exec.Command("go", "build", "-o", manageBin, "github.com/go-drf/drf/cmd/manage")
		if out, err := cmd.CombinedOutput(); err != nil {
			manageErr = fmt.Errorf("go build ./cmd/manage: %v\n%s", err, out)
		}
	})
	if manageErr != nil {
		t.Fatal(manageErr)
	}
	return manageBin
}

// server is a running "manage runserver" process.
type server struct {
	cmd            *exec.Cmd
	base           string
	stdout, stderr *lockedBuffer
	done           chan struct{}
	err            error
}

// lockedBuffer is an io.Writer safe for concurrent use.
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

var started = regexp.MustCompile(`(?m)^Starting development server at (http://\S+)/$`)

// startServer runs "manage --database dbPath runserver 127.0.0.1:0" and
// waits until it listens.
func startServer(t *testing.T, dbPath string) *server {
	t.Helper()
	cmd := exec.Command(manageBinary(t), "--database", dbPath, "runserver", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "DATABASE_URL=")
	s := &server{cmd: cmd, stdout: &lockedBuffer{}, stderr: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = s.stdout, s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		s.err = cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-s.done
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m := started.FindStringSubmatch(s.stdout.String()); m != nil {
			s.base = m[1]
			return s
		}
		select {
		case <-s.done:
			t.Fatalf("runserver exited (%v) before listening: %s", s.err, s.stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("runserver did not start: %s", s.stderr.String())
		}
	}
}

// wait waits for the process to exit and returns its exit error.
func (s *server) wait(t *testing.T) error {
	t.Helper()
	select {
	case <-s.done:
		return s.err
	case <-time.After(30 * time.Second):
		t.Fatalf("runserver did not exit: %s", s.stderr.String())
		return nil
	}
}
