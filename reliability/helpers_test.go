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
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
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

// TestMain removes the manage binary the tests built.
func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }
