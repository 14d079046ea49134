package reliability_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Figures of the concurrent load: 8 writers of 50 books each, beside 4
// readers listing pages until the writers finish. Writes authenticate with
// a token, except every basicEvery-th write of the first writer, which
// uses Basic (a PBKDF2 hash of 260000 rounds, slow under -race).
const (
	writers         = 8
	writesPerWriter = 50
	readers         = 4
	basicEvery      = 10
)

// TestConcurrentWritesAndReads runs writers and readers at once against
// the books viewset on a SQLite file in WAL mode: no answer is a 500 (so
// no "database is locked" reaches a client), every write is acknowledged
// with 201, every read is 200, and afterwards each acknowledged book is in
// the table exactly once.
func TestConcurrentWritesAndReads(t *testing.T) {
	base, db := newSample(t, 30)
	token := obtainToken(t, base, "alice", "alice-pass")
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:alice-pass"))
	c := client()

	var acked titles
	var sent, failures atomic.Int64
	fail := func(format string, args ...any) {
		failures.Add(1)
		t.Errorf(format, args...)
	}
	var writing, reading sync.WaitGroup
	done := make(chan struct{})
	for w := range writers {
		writing.Add(1)
		go func() {
			defer writing.Done()
			for i := range writesPerWriter {
				auth := "Authorization: Token " + token
				if w == 0 && i%basicEvery == 0 {
					auth = "Authorization: " + basic
				}
				title := fmt.Sprintf("concurrent w%d #%d", w, i)
				sent.Add(1)
				ok, r, err := postBook(c, base, title, auth)
				switch {
				case err != nil:
					fail("POST %q: %v", title, err)
				case !ok:
					fail("POST %q: %d %s", title, r.status, r.body)
				default:
					acked.add(title)
				}
			}
		}()
	}
	paths := []string{"/books/", "/books/?page=2", "/books/?page=3", "/pages/cursor/", "/pages/limit-offset/?offset=20", "/books/1/"}
	for rd := range readers {
		reading.Add(1)
		go func() {
			defer reading.Done()
			for i := rd; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				p := paths[i%len(paths)]
				sent.Add(1)
				r, err := send(c, http.MethodGet, base+p, "", "")
				if err != nil || r.status != http.StatusOK {
					fail("GET %s: %d %s %v", p, r.status, r.body, err)
				}
				if strings.Contains(r.body, "locked") {
					fail("GET %s: %s", p, r.body)
				}
			}
		}()
	}
	writing.Wait()
	close(done)
	reading.Wait()
	if failures.Load() > 0 {
		t.FailNow()
	}
	if n := acked.len(); n != writers*writesPerWriter {
		t.Fatalf("%d writes acknowledged, want %d", n, writers*writesPerWriter)
	}
	verified := checkWritesPresent(t, db, acked.all())
	var count int
	if err := db.Get(&count, `SELECT count(*) FROM "books"`); err != nil || count != 30+verified {
		t.Errorf("%d books (%v), want %d", count, err, 30+verified)
	}
	integrityCheck(t, db)
	t.Logf("%d requests sent, %d writes acknowledged and verified", sent.Load(), verified)
}
