package reliability_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// crashCycles is how many kill-and-restart cycles TestSIGKILLMidWriteLoad
// runs: $CRASHTEST_CYCLES (scripts/crashtest), else 1.
func crashCycles(t *testing.T) int {
	n := 1
	if s := os.Getenv("CRASHTEST_CYCLES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			t.Fatalf("CRASHTEST_CYCLES=%q", s)
		}
	}
	return n
}

// loadUntilKilled runs writers against base until the server dies: once
// ackTarget writes are acknowledged, kill is called while the writers are
// still sending. It returns the acknowledged titles, the requests sent,
// how many of them were in flight at the kill (sent before it and never
// answered), and the unexpected answers: failures before the kill, and
// answers other than 201.
func loadUntilKilled(base, token, prefix string, ackTarget int, kill func()) (acked []string, sent, inFlight int, unexpected []string) {
	var (
		ok       titles
		mu       sync.Mutex
		wg       sync.WaitGroup
		killOnce sync.Once
		// killed is closed just before kill is called: a request failing
		// from then on may have met the kill, however long kill takes.
		killed = make(chan struct{})
	)
	isKilled := func() bool {
		select {
		case <-killed:
			return true
		default:
			return false
		}
	}
	c := client()
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				title := fmt.Sprintf("%s w%d #%d", prefix, w, i)
				sentBeforeKill := !isKilled()
				good, r, err := postBook(c, base, title, "Authorization: Token "+token)
				afterKill := isKilled()
				mu.Lock()
				sent++
				switch {
				case good:
					ok.add(title)
				case err != nil && afterKill:
					if sentBeforeKill {
						inFlight++
					}
				case err != nil:
					unexpected = append(unexpected, fmt.Sprintf("%q before the kill: %v", title, err))
				default:
					unexpected = append(unexpected, fmt.Sprintf("%q: %d %s", title, r.status, r.body))
				}
				mu.Unlock()
				if err != nil {
					return
				}
				if ok.len() >= ackTarget {
					killOnce.Do(func() {
						close(killed)
						kill()
					})
				}
			}
		}()
	}
	wg.Wait()
	return ok.all(), sent, inFlight, unexpected
}

// TestLoadAccountingAroundTheKill runs loadUntilKilled against a server
// whose kill takes a while to return after connections start failing (as
// a SIGKILL does on a loaded machine): the writers' failures in that
// window are failures after the kill, not unexpected ones.
func TestLoadAccountingAroundTheKill(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b struct{ Title string }
		_ = json.NewDecoder(r.Body).Decode(&b)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(b)
	}))
	defer srv.Close()
	acked, sent, _, unexpected := loadUntilKilled(srv.URL, "token", "accounting", 50, func() {
		srv.Listener.Close()
		srv.CloseClientConnections()
		time.Sleep(300 * time.Millisecond)
	})
	if len(acked) < 50 || sent <= len(acked) {
		t.Errorf("%d acknowledged of %d sent", len(acked), sent)
	}
	for _, u := range unexpected {
		t.Errorf("POST %s", u)
	}
}

// heldRequest is a POST /books/ whose view is reading its body: it sent
// "Expect: 100-continue", got the interim 100 answer (so the view has
// started reading), and has sent half of its body.
type heldRequest struct {
	title string
	conn  net.Conn
	br    *bufio.Reader
	rest  string
}

// holdRequest starts a heldRequest creating a book titled title.
func holdRequest(t *testing.T, base, token, title string) *heldRequest {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf(`{"title": %q, "author": "Reliability", "rating": 4}`, title)
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	head := "POST /books/ HTTP/1.1\r\nHost: " + u.Host + "\r\nContent-Type: application/json\r\n" +
		"Authorization: Token " + token + "\r\nExpect: 100-continue\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
	if _, err := c.Write([]byte(head)); err != nil {
		t.Fatal(err)
	}
	h := &heldRequest{title: title, conn: c, br: bufio.NewReader(c), rest: body[len(body)/2:]}
	resp, err := http.ReadResponse(h.br, nil)
	if err != nil || resp.StatusCode != http.StatusContinue {
		t.Fatalf("%q: %v %v", title, resp, err)
	}
	if _, err := c.Write([]byte(body[:len(body)/2])); err != nil {
		t.Fatal(err)
	}
	return h
}

// finish sends the rest of the body and returns the answer's status.
func (h *heldRequest) finish() (int, error) {
	if _, err := h.conn.Write([]byte(h.rest)); err != nil {
		return 0, err
	}
	resp, err := http.ReadResponse(h.br, nil)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// TestSIGKILLMidWriteLoad starts "manage runserver" on a database file,
// sends a write load of 8 concurrent writers, kills the process with
// SIGKILL while requests are in flight, and restarts it on the same file:
// the server answers and writes again, PRAGMA integrity_check is ok, and
// every write acknowledged with 201 before the kill is in the table
// exactly once.
// $CRASHTEST_CYCLES repeats the kill and restart.
func TestSIGKILLMidWriteLoad(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "db.sqlite3")
	srv := testservers.StartRunserver(t, "DATABASE_URL="+dbPath)
	token := obtainToken(t, srv.URL, "alice", "alice-pass")
	var all, unacked []string
	totalSent, totalInFlight := 0, 0
	for cycle := range crashCycles(t) {
		var held []*heldRequest
		for i := range 2 {
			held = append(held, holdRequest(t, srv.URL, token, fmt.Sprintf("crash c%d held #%d", cycle, i)))
		}
		acked, sent, inFlight, unexpected := loadUntilKilled(srv.URL, token, fmt.Sprintf("crash c%d", cycle), 150, func() {
			_ = srv.Signal(syscall.SIGKILL)
		})
		for _, u := range unexpected {
			t.Errorf("cycle %d: POST %s", cycle, u)
		}
		err := srv.Wait(t)
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("cycle %d: runserver ended with %v, want killed by SIGKILL", cycle, err)
		}
		all = append(all, acked...)
		totalSent += sent + len(held)
		totalInFlight += inFlight + len(held)
		for _, h := range held {
			if status, err := h.finish(); err == nil {
				t.Fatalf("cycle %d: %q answered %d after the kill", cycle, h.title, status)
			}
			unacked = append(unacked, h.title)
		}

		srv = testservers.StartRunserver(t, "DATABASE_URL="+dbPath)
		if r := mustSend(t, client(), http.MethodGet, srv.URL+"/books/?page=2", "", ""); r.status != http.StatusOK {
			t.Fatalf("cycle %d: after restart GET /books/: %d %s", cycle, r.status, r.body)
		}
		if ok, r, err := postBook(client(), srv.URL, fmt.Sprintf("after restart %d", cycle), "Authorization: Token "+token); !ok {
			t.Fatalf("cycle %d: after restart POST /books/: %d %s %v", cycle, r.status, r.body, err)
		}
		checkDatabase(t, dbPath, all, unacked)
	}
	t.Logf("%d cycles: %d requests sent, %d in flight at the kills, %d acknowledged writes verified after each restart",
		crashCycles(t), totalSent, totalInFlight, len(all))
}

// checkDatabase opens the database file beside the running server and
// checks it is sound, holds each of acked exactly once and none of absent.
func checkDatabase(t *testing.T, dbPath string, acked, absent []string) {
	t.Helper()
	db, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	integrityCheck(t, db)
	checkWritesPresent(t, db, acked)
	for _, title := range absent {
		var n int
		if err := db.Get(&n, `SELECT count(*) FROM "books" WHERE "title" = ?`, title); err != nil || n != 0 {
			t.Errorf("%q, never completed, is in the database %d times (%v)", title, n, err)
		}
	}
}

// TestSIGTERMDrainsInFlightRequests starts "manage runserver", begins
// POSTs whose views are reading their bodies, and sends SIGTERM: the server
// stops accepting connections, the requests in flight complete with 201
// once their bodies arrive, their books are stored, and the process exits
// with status 0.
func TestSIGTERMDrainsInFlightRequests(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "db.sqlite3")
	srv := testservers.StartRunserver(t, "DATABASE_URL="+dbPath)
	token := obtainToken(t, srv.URL, "alice", "alice-pass")
	var held []*heldRequest
	var titlesSent []string
	for i := range 5 {
		title := fmt.Sprintf("drained #%d", i)
		held = append(held, holdRequest(t, srv.URL, token, title))
		titlesSent = append(titlesSent, title)
	}
	if err := srv.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", host, time.Second)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the server still accepts connections after SIGTERM")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case <-srv.Done():
		t.Fatalf("runserver exited with requests in flight: %v", srv.Wait(t))
	default:
	}
	for _, h := range held {
		if status, err := h.finish(); err != nil || status != http.StatusCreated {
			t.Errorf("%q: %d %v", h.title, status, err)
		}
	}
	if err := srv.Wait(t); err != nil {
		t.Fatalf("runserver exited with %v after SIGTERM, want status 0\n%s", err, srv.Output())
	}
	if !strings.Contains(srv.Output(), `msg="shutting down"`) {
		t.Errorf("no shutdown in the log:\n%s", srv.Output())
	}
	checkDatabase(t, dbPath, titlesSent, nil)
}
