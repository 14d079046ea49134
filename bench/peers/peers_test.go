package peers_test

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"
)

// TestSameAnswers builds the sample's manage command and the peers, seeds
// a database with manage (plus books that share a created time, so that
// cursors carry offsets), serves it with manage runserver and each peer,
// and checks that every peer answers each request with the sample's status
// and body: the four targets of bench/run, the pages their links lead to,
// and DRF's refusals. bench/run checks the four targets again before it
// measures.
func TestSameAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the sample and the peers")
	}
	bin := t.TempDir()
	build(t, "../..", filepath.Join(bin, "manage"), "./cmd/manage")
	build(t, ".", filepath.Join(bin, "chisqlx"), "./chisqlx")
	build(t, ".", filepath.Join(bin, "humasqlx"), "./humasqlx")

	db := filepath.Join(bin, "books.sqlite3")
	run(t, filepath.Join(bin, "manage"), "--database", db, "migrate")
	run(t, filepath.Join(bin, "manage"), "--database", db, "seed", "--books", "60")
	sqlDB, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 7 {
		if _, err := sqlDB.Exec(`INSERT INTO books (title, author, rating, created, owner_id) VALUES (?, 'Twin', 3, '2024-01-01 20:00:00', 1)`,
			fmt.Sprintf("Twin %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	sqlDB.Close()

	sample := serve(t, bin, "sample", filepath.Join(bin, "manage"), "--database", db, "runserver")
	peers := map[string]string{
		"chi+sqlx":  serve(t, bin, "chi+sqlx", filepath.Join(bin, "chisqlx"), db),
		"huma+sqlx": serve(t, bin, "huma+sqlx", filepath.Join(bin, "humasqlx"), db),
	}

	tok := token(t, sample)
	auth := "Token " + tok
	// bench/run's deep cursor: the page after the book created at 10:00.
	deep := "/pages/cursor/?cursor=" + url.QueryEscape(base64.StdEncoding.EncodeToString([]byte("p=2024-01-01+10%3A00%3A00%2B00%3A00")))
	requests := []struct{ path, auth string }{
		{"/pages/page-number/?page=3", auth},
		{deep, ""},
		{"/pages/limit-offset/?offset=54", ""},
		{"/books/1/", ""},
		{"/pages/page-number/", ""},
		{"/pages/page-number/?page=last&page_size=7", auth},
		{"/pages/page-number/?page=2&page_size=50&x=a%26b+c", ""},
		{"/pages/page-number/?page=99", ""},
		{"/pages/page-number/?page=x", ""},
		{"/pages/limit-offset/?limit=3&offset=2", ""},
		{"/pages/limit-offset/?limit=0&offset=500", ""},
		{"/pages/limit-offset/?limit=50&offset=-3", ""},
		{"/pages/cursor/?page_size=4", ""},
		{"/pages/cursor/?cursor=zz", ""},
		{"/books/999/", ""},
		{"/books/1/", "Token"},
		{"/books/1/", "Token a b"},
		{"/books/1/", "Token 0000000000000000000000000000000000000000"},
		{"/books/1/", "Bearer x"},
	}
	for name, peer := range peers {
		t.Run(name, func(t *testing.T) {
			for _, r := range requests {
				same(t, sample, peer, r.path, r.auth)
			}
			// Every page of each list, forwards by the next links, then
			// backwards by the previous links.
			for _, start := range []string{"/pages/page-number/?page_size=7", "/pages/limit-offset/?limit=9", "/pages/cursor/", "/pages/cursor/?page_size=3"} {
				path, pages := start, 0
				for path != "" && pages < 100 {
					path = same(t, sample, peer, path, "")["next"]
					pages++
				}
				t.Logf("%s: %d pages forwards", start, pages)
				path = last(t, sample, start)
				for path != "" && pages > 0 {
					path = same(t, sample, peer, path, "")["previous"]
					pages--
				}
			}
		})
	}
}

// same checks that peer answers path as sample does, and returns the
// answer's links as paths ("" for none).
func same(t *testing.T, sample, peer, path, auth string) map[string]string {
	t.Helper()
	wantStatus, want := get(t, sample, path, auth)
	gotStatus, got := get(t, peer, path, auth)
	if gotStatus != wantStatus || got != want {
		t.Errorf("GET %s (Authorization %q):\n sample: %d %s\n peer:   %d %s", path, auth, wantStatus, want, gotStatus, got)
	}
	var links map[string]any
	_ = json.Unmarshal([]byte(want), &links)
	paths := map[string]string{}
	for _, k := range []string{"next", "previous"} {
		if s, ok := links[k].(string); ok {
			paths[k] = strings.TrimPrefix(s, "http://HOST")
		}
	}
	return paths
}

// last is the path of the last page of the list that starts at start.
func last(t *testing.T, server, start string) string {
	t.Helper()
	prev, path := "", start
	for path != "" {
		_, body := get(t, server, path, "")
		var links map[string]any
		if err := json.Unmarshal([]byte(body), &links); err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		prev = path
		path = ""
		if s, ok := links["next"].(string); ok {
			path = strings.TrimPrefix(s, "http://HOST")
		}
	}
	return prev
}

// get answers the status and body, with the server's address written HOST.
func get(t *testing.T, addr, path, auth string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, "http://"+addr+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, strings.ReplaceAll(string(b), addr, "HOST")
}

func token(t *testing.T, sample string) string {
	t.Helper()
	resp, err := http.PostForm("http://"+sample+"/api-token-auth/", url.Values{"username": {"alice"}, "password": {"alice-pass"}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Token string }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.Token == "" {
		t.Fatalf("alice's token: %v (status %d)", err, resp.StatusCode)
	}
	return body.Token
}

func build(t *testing.T, dir, out, pkg string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	if b, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, b)
	}
}

// serve starts a server on a free port (its last argument, or -addr) and
// waits until it answers.
func serve(t *testing.T, dir, name, command string, args ...string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	if filepath.Base(command) == "manage" {
		args = append(args, addr)
	} else {
		args = append([]string{"-addr", addr}, args...)
	}
	logFile, err := os.Create(filepath.Join(dir, strings.ReplaceAll(name, "+", "-")+".log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(command, args...)
	cmd.Env = append(os.Environ(), "LOG_LEVEL=warn")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		logFile.Close()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if resp, err := http.Get("http://" + addr + "/books/1/"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return addr
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	b, _ := os.ReadFile(logFile.Name())
	t.Fatalf("%s did not start:\n%s", name, b)
	return ""
}
