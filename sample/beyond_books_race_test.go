package sample_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/XSAM/otelsql"
	"github.com/jmoiron/sqlx"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
	"github.com/go-drf/drf/sample"
)

// tokenOf is the Authorization field of user's token (one password
// check, where Basic checks it on every request).
func tokenOf(t *testing.T, c *apitest.Client, user string) string {
	t.Helper()
	r := c.Post("/api-token-auth/", `{"username":"`+user+`","password":"`+user+`-pass"}`)
	token, _ := r.JSON()["token"].(string)
	if r.Status != 200 || token == "" {
		t.Fatalf("token of %s: %d %s", user, r.Status, r.Body)
	}
	return "Authorization: Token " + token
}

// TestBeyondBooksRacingSpellings: twelve PUTs of book 1 sent at once with
// one If-Match, each through its own spelling of the key (/beyond/books/1/,
// /beyond/books/01/, /beyond/books/+1/, ...) and one of two instances of
// the sample on the database, in several rounds: exactly one succeeds
// each round and the others are 412. On SQLite and PostgreSQL.
func TestBeyondBooksRacingSpellings(t *testing.T) {
	spellings := []string{"1", "01", "+1", "001", "+01", "0001", "00001", "+001", "000001", "0000001", "+0001", "00000001"}
	beyondDBs(t, func(t *testing.T, db *sqlx.DB) {
		a := serve(t, db)
		h, err := sample.New(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		b := apitest.New(t, h)
		alice := tokenOf(t, a, "alice")
		for round := range 5 {
			tag := a.Get("/beyond/books/1/").Header.Get("ETag")
			statuses := make([]int, len(spellings))
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i, spelling := range spellings {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c := a
					if i%2 == 1 {
						c = b
					}
					<-start
					body := fmt.Sprintf(`{"title":"Round %d writer %d","author":"A","rating":3}`, round, i)
					statuses[i] = c.Do("PUT", "/beyond/books/"+spelling+"/", body, alice, "If-Match: "+tag).Status
				}()
			}
			close(start)
			wg.Wait()
			won := 0
			for i, s := range statuses {
				switch s {
				case 200:
					won++
				case http.StatusPreconditionFailed:
				default:
					t.Errorf("round %d, /beyond/books/%s/: %d", round, spellings[i], s)
				}
			}
			if won != 1 {
				t.Fatalf("round %d: %d writes succeeded with one If-Match; statuses %v", round, won, statuses)
			}
		}
	})
}

// TestBeyondBooksLongKey: a PUT, GET or DELETE of /beyond/books/ with a
// 300-digit spelling of book 1's key, or a 300-digit number, is 404 "No
// Book matches the given query." without a statement on the books or the
// locks (the PUT was a 500 on PostgreSQL, its lease's name too long for
// the lease table); book 1 is unchanged. Every statement is seen through
// otelsql. On SQLite and PostgreSQL.
func TestBeyondBooksLongKey(t *testing.T) {
	for _, d := range []store.Dialect{store.SQLite, store.PostgreSQL} {
		t.Run(d.String(), func(t *testing.T) {
			spans := tracetest.NewSpanRecorder()
			dsn := t.TempDir() + "/db.sqlite3"
			if d == store.PostgreSQL {
				dsn = testservers.Postgres(t)
			}
			db, err := store.OpenWith(dsn, store.Options{OpenDB: func(c driver.Connector) *sql.DB {
				return otelsql.OpenDB(c, otelsql.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))))
			}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = db.Close() })
			if err := sample.Migrate(context.Background(), db); err != nil {
				t.Fatal(err)
			}
			c := serve(t, db)
			tag := c.Get("/beyond/books/1/").Header.Get("ETag")
			alice := tokenOf(t, c, "alice")
			seen := len(spans.Ended())
			body := `{"title":"Changed","author":"A","rating":3}`
			for _, key := range []string{strings.Repeat("0", 299) + "1", strings.Repeat("9", 300)} {
				for _, m := range []string{"PUT", "GET", "DELETE"} {
					r := c.Do(m, "/beyond/books/"+key+"/", body, alice, "If-Match: "+tag)
					if r.Status != 404 || r.JSON()["detail"] != "No Book matches the given query." {
						t.Errorf("%s of a %d-digit key: %d %s", m, len(key), r.Status, r.Body)
					}
				}
			}
			if len(lookups(spans.Ended()[:seen])) == 0 {
				t.Fatal("otelsql saw no statement of the GET")
			}
			for _, q := range lookups(spans.Ended()[seen:]) {
				t.Errorf("a statement was made: %s", q)
			}
			if r := c.Get("/beyond/books/1/", "If-None-Match: "+tag); r.Status != http.StatusNotModified {
				t.Errorf("book 1 changed: %d %s", r.Status, r.Body)
			}
		})
	}
}

// lookups are the statements of spans that read or write the books or
// the locks.
func lookups(spans []sdktrace.ReadOnlySpan) []string {
	var found []string
	for _, s := range spans {
		for _, kv := range s.Attributes() {
			if v := kv.Value.Emit(); strings.Contains(v, `"books"`) || strings.Contains(v, "drf_lease") || strings.Contains(v, "advisory") {
				found = append(found, v)
			}
		}
	}
	return found
}
