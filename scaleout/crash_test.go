package scaleout_test

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/store"
)

// TestSIGKILLOfOneInstanceLosesNoAcknowledgedWrite: writers post books to
// both instances of one PostgreSQL database; one instance is killed with
// SIGKILL in the middle of the load while the other goes on. Every book
// whose creation was answered 201, by either instance, is in the database
// exactly once.
func TestSIGKILLOfOneInstanceLosesNoAcknowledgedWrite(t *testing.T) {
	d := newDeployment(t)
	a, b := d.startTwo(t)
	auth := "Token " + a.token(t, "alice")

	const writers, killAfter, target = 8, 60, 200
	var (
		mu     sync.Mutex
		acked  []string
		n      atomic.Int64
		failed atomic.Int64
		killed = make(chan struct{})
		once   sync.Once
		wg     sync.WaitGroup
	)
	deadline := time.Now().Add(60 * time.Second)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; n.Load() < target && time.Now().Before(deadline); i++ {
				in := a
				if (w+i)%2 == 1 {
					in = b
				}
				select {
				case <-killed:
					in = b
				default:
				}
				title := fmt.Sprintf("w%d-%d", w, i)
				r, err := in.trySend("POST", "/books/", fmt.Sprintf(`{"title":%q,"author":"load","rating":3}`, title), "Authorization", auth)
				if err != nil || r.status != http.StatusCreated {
					failed.Add(1)
					continue
				}
				mu.Lock()
				acked = append(acked, title)
				mu.Unlock()
				if n.Add(1) == killAfter {
					once.Do(func() {
						a.Kill()
						close(killed)
					})
				}
			}
		}()
	}
	wg.Wait()
	select {
	case <-killed:
	default:
		t.Fatalf("the load ended before the kill (%d writes acknowledged)", n.Load())
	}
	db, err := store.Open(d.database)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	missing := 0
	for _, title := range acked {
		var count int
		if err := db.Get(&count, `SELECT count(*) FROM "books" WHERE "title" = $1`, title); err != nil {
			t.Fatal(err)
		}
		if count != 1 {
			missing++
			t.Errorf("acknowledged book %q is in the database %d times", title, count)
		}
	}
	t.Logf("%d writes acknowledged (instance A killed after %d), %d requests failed at or after the kill, %d lost",
		len(acked), killAfter, failed.Load(), missing)
	if len(acked) < target {
		t.Errorf("only %d writes acknowledged: the surviving instance did not carry the load", len(acked))
	}
}
