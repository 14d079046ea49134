package reliability_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
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

// twoInstances runs fn, on an SQLite file and on a PostgreSQL database
// seeded with 20 books, with the URLs of two instances of the sample
// serving it over HTTP, and alice's token.
func twoInstances(t *testing.T, fn func(t *testing.T, db *sqlx.DB, bases [2]string, token string)) {
	for _, d := range []store.Dialect{store.SQLite, store.PostgreSQL} {
		t.Run(d.String(), func(t *testing.T) {
			ctx := context.Background()
			dsn := filepath.Join(t.TempDir(), "db.sqlite3")
			if d == store.PostgreSQL {
				dsn = testservers.Postgres(t)
			}
			db, err := store.Open(dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = db.Close() })
			if err := sample.Migrate(ctx, db); err != nil {
				t.Fatal(err)
			}
			if err := sample.Seed(ctx, db, 20); err != nil {
				t.Fatal(err)
			}
			var bases [2]string
			for i := range bases {
				h, err := sample.New(ctx, db)
				if err != nil {
					t.Fatal(err)
				}
				srv := httptest.NewServer(h)
				t.Cleanup(srv.Close)
				bases[i] = srv.URL
			}
			fn(t, db, bases, "Authorization: Token "+obtainToken(t, bases[0], "alice", "alice-pass"))
		})
	}
}

// bookTag is the ETag of /beyond/books/{id}/.
func bookTag(t *testing.T, base string, id int) string {
	t.Helper()
	r := mustSend(t, client(), http.MethodGet, fmt.Sprintf("%s/beyond/books/%d/", base, id), "", "")
	if r.status != 200 || r.header.Get("ETag") == "" {
		t.Fatalf("GET book %d: %d %s", id, r.status, r.body)
	}
	return r.header.Get("ETag")
}

// TestConditionalSpellingsRaceAcrossInstances: in each of twenty rounds,
// two PUTs of book 7 with the book's current If-Match are sent at once,
// one as /beyond/books/7/ to one instance, the other as
// /beyond/books/007/ to the other: exactly one is 200 and the other 412,
// where locks named by the URL's spelling let both through.
func TestConditionalSpellingsRaceAcrossInstances(t *testing.T) {
	twoInstances(t, func(t *testing.T, db *sqlx.DB, bases [2]string, token string) {
		c := client()
		for round := range 20 {
			tag := bookTag(t, bases[0], 7)
			var statuses [2]int
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i, path := range []string{"/beyond/books/7/", "/beyond/books/007/"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					body := fmt.Sprintf(`{"title":"Round %d via %s","author":"A","rating":3}`, round, path)
					<-start
					r, err := send(c, http.MethodPut, bases[i]+path, "application/json", body, token, "If-Match: "+tag)
					if err != nil {
						t.Error(err)
					}
					statuses[i] = r.status
				}()
			}
			close(start)
			wg.Wait()
			if statuses != [2]int{200, 412} && statuses != [2]int{412, 200} {
				t.Fatalf("round %d: /beyond/books/7/ %d, /beyond/books/007/ %d with one If-Match", round, statuses[0], statuses[1])
			}
		}
	})
}

// TestConditionalTricklingBodyHoldsNoLock: a PUT of book 3 whose body
// trickles in over three seconds, a byte at a time, holds no lock: a PUT
// of the book with the same If-Match sent meanwhile to the other instance
// is 200 within a second, and the slow one, once its body is in, is 412.
func TestConditionalTricklingBodyHoldsNoLock(t *testing.T) {
	twoInstances(t, func(t *testing.T, db *sqlx.DB, bases [2]string, token string) {
		tag := bookTag(t, bases[0], 3)
		conn, err := net.Dial("tcp", strings.TrimPrefix(bases[0], "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		body := `{"title":"Slow","author":"A","rating":3}`
		if _, err := fmt.Fprintf(conn, "PUT /beyond/books/3/ HTTP/1.1\r\nHost: localhost\r\n%s\r\nIf-Match: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n",
			token, tag, len(body)); err != nil {
			t.Fatal(err)
		}
		trickled := make(chan error, 1)
		go func() {
			for i := range len(body) {
				if _, err := conn.Write([]byte{body[i]}); err != nil {
					trickled <- err
					return
				}
				time.Sleep(3 * time.Second / time.Duration(len(body)))
			}
			trickled <- nil
		}()
		time.Sleep(300 * time.Millisecond)
		start := time.Now()
		fast, err := send(client(), http.MethodPut, bases[1]+"/beyond/books/3/", "application/json", `{"title":"Fast","author":"A","rating":3}`, token, "If-Match: "+tag)
		if took := time.Since(start); err != nil || fast.status != 200 || took > time.Second {
			t.Errorf("the other PUT: %d %s %v after %v", fast.status, fast.body, err, took)
		}
		if err := <-trickled; err != nil {
			t.Fatal(err)
		}
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusPreconditionFailed {
			t.Errorf("the trickling PUT: %d", resp.StatusCode)
		}
		var title string
		if err := db.Get(&title, `SELECT "title" FROM "books" WHERE "id" = 3`); err != nil || title != "Fast" {
			t.Errorf("book 3 is %q (%v)", title, err)
		}
	})
}
