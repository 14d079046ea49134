package reliability_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/management"
	"github.com/go-drf/drf/internal/testservers"
	"github.com/go-drf/drf/sample"
)

// testLimits are small server limits, so that the tests of slow clients
// take a fraction of a second.
var testLimits = management.ServerLimits{
	ReadHeaderTimeout: 300 * time.Millisecond,
	ReadTimeout:       time.Second,
	WriteTimeout:      5 * time.Second,
	IdleTimeout:       500 * time.Millisecond,
	MaxHeaderBytes:    8 << 10,
}

// limitedServer runs the sample with "runserver 127.0.0.1:0" in process,
// with limits, on a fresh seeded database, and returns its address.
func limitedServer(t *testing.T, limits management.ServerLimits) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan int, 1)
	cmd := management.RunserverWithLimits(limits, func(ctx context.Context, env *management.Env) (http.Handler, error) {
		db, err := env.DB()
		if err != nil {
			return nil, err
		}
		if err := sample.Migrate(ctx, db); err != nil {
			return nil, err
		}
		if err := sample.Seed(ctx, db, 20); err != nil {
			return nil, err
		}
		return sample.New(ctx, db)
	}, func(_ *management.Env, a string) { addr <- a })
	// stderr is read only once Execute has returned.
	stderr := &strings.Builder{}
	env := &management.Env{Stdout: io.Discard, Stderr: stderr, Stdin: strings.NewReader("")}
	args := []string{"--database", filepath.Join(t.TempDir(), "db.sqlite3"), "runserver", "127.0.0.1:0"}
	go func() { done <- management.Execute(ctx, env, args, cmd) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	select {
	case a := <-addr:
		return a
	case code := <-done:
		t.Fatalf("runserver exited %d: %s", code, stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("runserver did not start")
	}
	return ""
}

// closedByServer reports whether the server closed c, reading what it
// sends (at most until deadline); it returns what was read.
func closedByServer(c net.Conn, deadline time.Time) (bool, string) {
	_ = c.SetReadDeadline(deadline)
	b, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false, string(b)
	}
	return true, string(b)
}

// TestBodyOverLimitIs413 posts bodies over the 2.5 MB default limit, with
// and without a Content-Length, in JSON and as a form: each is refused with
// 413 "Request body is too large.", and nothing is written.
func TestBodyOverLimitIs413(t *testing.T) {
	base, db := newSample(t, 5)
	token := obtainToken(t, base, "alice", "alice-pass")
	big := `{"title": "` + strings.Repeat("x", framework.DefaultMaxBodyBytes) + `", "author": "a", "rating": 1}`
	form := "title=" + strings.Repeat("x", framework.DefaultMaxBodyBytes) + "&author=a&rating=1"
	c := client()
	for _, tc := range []struct {
		name, contentType, body string
		chunked                 bool
	}{
		{"json", "application/json", big, false},
		{"json chunked", "application/json", big, true},
		{"form", "application/x-www-form-urlencoded", form, false},
	} {
		req, _ := http.NewRequest(http.MethodPost, base+"/books/", strings.NewReader(tc.body))
		if tc.chunked {
			req.Body = io.NopCloser(strings.NewReader(tc.body)) // unknown length: sent chunked
			req.ContentLength = -1
		}
		req.Header.Set("Content-Type", tc.contentType)
		req.Header.Set("Authorization", "Token "+token)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		r := reply{resp.StatusCode, resp.Header, string(b)}
		if r.status != http.StatusRequestEntityTooLarge || r.detail() != "Request body is too large." {
			t.Errorf("%s: %d %.200s", tc.name, r.status, r.body)
		}
	}
	var n int
	if err := db.Get(&n, `SELECT count(*) FROM "books"`); err != nil || n != 5 {
		t.Errorf("%d books (%v), want 5", n, err)
	}
	if ok, r, err := postBook(c, base, "small enough", "Authorization: Token "+token); !ok {
		t.Errorf("a body under the limit: %d %s %v", r.status, r.body, err)
	}
}

// TestHostileClients runs the sample under runserver's HTTP server with
// small limits and checks that no client can hold it: headers over
// MaxHeaderBytes are refused with 431; a client trickling its headers
// (slowloris) is disconnected after ReadHeaderTimeout, one trickling its
// body after ReadTimeout, an idle kept-alive connection after IdleTimeout;
// and the server answers other clients all along.
func TestHostileClients(t *testing.T) {
	addr := limitedServer(t, testLimits)
	base := "http://" + addr
	c := client()
	healthy := func(when string) {
		t.Helper()
		if r := mustSend(t, c, http.MethodGet, base+"/books/", "", ""); r.status != http.StatusOK {
			t.Errorf("%s: GET /books/ answered %d", when, r.status)
		}
	}

	t.Run("oversize header", func(t *testing.T) {
		r := mustSend(t, c, http.MethodGet, base+"/books/", "", "", "X-Big: "+strings.Repeat("a", 2*testLimits.MaxHeaderBytes))
		if r.status != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("%d %q", r.status, r.body)
		}
		healthy("after an oversize header")
	})

	t.Run("slowloris headers", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := fmt.Fprintf(conn, "GET /books/ HTTP/1.1\r\nHost: %s\r\n", addr); err != nil {
			t.Fatal(err)
		}
		trickled := make(chan int, 1)
		go func() {
			n := 0
			for ; n < 200; n++ {
				if _, err := fmt.Fprintf(conn, "X-Slow-%d: y\r\n", n); err != nil {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			trickled <- n
		}()
		healthy("during a slowloris client")
		closed, got := closedByServer(conn, time.Now().Add(10*time.Second))
		if !closed || strings.HasPrefix(got, "HTTP/1.1 200") {
			t.Fatalf("a client trickling headers for 10 s was not cut off (read %q)", got)
		}
		if n := <-trickled; n >= 200 {
			t.Errorf("the server read all %d trickled header lines", n)
		}
	})

	t.Run("slow body", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := fmt.Fprintf(conn, "POST /api-token-auth/ HTTP/1.1\r\nHost: %s\r\n"+
			"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n", addr); err != nil {
			t.Fatal(err)
		}
		go func() {
			for range 200 {
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
				time.Sleep(50 * time.Millisecond)
			}
		}()
		closed, got := closedByServer(conn, time.Now().Add(10*time.Second))
		if !closed || strings.HasPrefix(got, "HTTP/1.1 200") {
			t.Fatalf("a client trickling its body for 10 s was not cut off (read %q)", got)
		}
		healthy("after a slow body")
	})

	t.Run("idle connection", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := fmt.Fprintf(conn, "GET /books/ HTTP/1.1\r\nHost: %s\r\n\r\n", addr); err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil || resp.StatusCode != http.StatusOK || resp.Close {
			t.Fatalf("kept-alive request: %v %v", resp, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
			t.Fatalf("an idle connection was kept for 10 s: %v", err)
		}
	})
}

// TestDefaultHeaderLimit checks the limit of the manage binary as shipped:
// headers of 64 KiB are served, headers over 1 MiB are refused with 431.
func TestDefaultHeaderLimit(t *testing.T) {
	srv := testservers.StartRunserver(t, "DATABASE_URL="+filepath.Join(t.TempDir(), "db.sqlite3"))
	c := client()
	if r := mustSend(t, c, http.MethodGet, srv.URL+"/books/", "", "", "X-Big: "+strings.Repeat("a", 64<<10)); r.status != http.StatusOK {
		t.Errorf("64 KiB of headers: %d", r.status)
	}
	huge := strings.Repeat("a", management.DefaultServerLimits.MaxHeaderBytes+8<<10)
	if r := mustSend(t, c, http.MethodGet, srv.URL+"/books/", "", "", "X-Big: "+huge); r.status != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("%d bytes of headers: %d", len(huge), r.status)
	}
}
