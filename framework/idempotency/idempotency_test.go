package idempotency_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/idempotency"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// dialects runs fn on a migrated SQLite file and a migrated PostgreSQL
// database, each with an "order" table the views insert into.
func dialects(t *testing.T, fn func(t *testing.T, db *sqlx.DB)) {
	testservers.FileDialects(t, func(t *testing.T, db *sqlx.DB) {
		if _, err := db.Exec(`CREATE TABLE "orders" ("id" integer NOT NULL PRIMARY KEY, "item" varchar(50) NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		fn(t, db)
	}, idempotency.Migration)
}

// orders serves POST /orders/ through keys: {"item": ...} inserts an order
// and answers 201 with its id and a Location; no item is 400. Each
// request waits for gate, when set, before it writes.
func orders(t *testing.T, db *sqlx.DB, keys idempotency.Keys, gate chan struct{}) *apitest.Client {
	create := func(v *framework.View, r *request.Request) (*framework.Response, error) {
		data, err := r.Data()
		if err != nil {
			return nil, err
		}
		item, _ := data.(map[string]any)["item"].(string)
		if item == "" {
			return nil, exceptions.ParseError("No item.")
		}
		if gate != nil {
			<-gate
		}
		var id int
		if err := db.Get(&id, db.Rebind(`INSERT INTO "orders" ("id", "item") VALUES ((SELECT coalesce(max("id"), 0) + 1 FROM "orders"), ?) RETURNING "id"`), item); err != nil {
			return nil, err
		}
		return &framework.Response{Status: 201, Data: map[string]any{"id": id, "item": item},
			Header: http.Header{"Location": {"/orders/" + strconv.Itoa(id) + "/"}}}, nil
	}
	keys.DB = db
	api := framework.NewAPI(db, framework.Settings{})
	api.Handle("/orders/", framework.View{Post: keys.Post(create)})
	return apitest.New(t, api)
}

func count(t *testing.T, db *sqlx.DB) int {
	t.Helper()
	var n int
	if err := db.Get(&n, `SELECT count(*) FROM "orders"`); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestReplay: the first answer to a key is stored and replayed to the
// same request (its status, Location and body, marked as replayed), once
// written; the key with another body is 422; another client's key of the
// same name is its own; no key is DRF's POST; a malformed key is 400.
func TestReplay(t *testing.T) {
	dialects(t, func(t *testing.T, db *sqlx.DB) {
		c := orders(t, db, idempotency.Keys{Owner: func(r *request.Request) string { return r.Header.Get("X-Client") }}, nil)
		first := c.Post("/orders/", `{"item":"tea"}`, "Idempotency-Key: k-1", "X-Client: a")
		if first.Status != 201 || first.Body != `{"id":1,"item":"tea"}` || first.Header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("first: %d %s %v", first.Status, first.Body, first.Header)
		}
		again := c.Post("/orders/", `{"item":"tea"}`, `Idempotency-Key: "k-1"`, "X-Client: a")
		if again.Status != 201 || again.Body != first.Body || again.Header.Get("Location") != "/orders/1/" ||
			again.Header.Get("Idempotent-Replayed") != "true" || again.Header.Get("Content-Type") != first.Header.Get("Content-Type") {
			t.Errorf("replay: %d %s %v", again.Status, again.Body, again.Header)
		}
		if r := c.Post("/orders/", `{"item":"coffee"}`, "Idempotency-Key: k-1", "X-Client: a"); r.Status != http.StatusUnprocessableEntity ||
			r.JSON()["detail"] != idempotency.MsgKeyReused {
			t.Errorf("another body: %d %s", r.Status, r.Body)
		}
		if r := c.Post("/orders/?x=1", `{"item":"tea"}`, "Idempotency-Key: k-1", "X-Client: a"); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("another path: %d %s", r.Status, r.Body)
		}
		if r := c.Post("/orders/", `{"item":"tea"}`, "Idempotency-Key: k-1", "X-Client: b"); r.Status != 201 || r.Body != `{"id":2,"item":"tea"}` {
			t.Errorf("another client: %d %s", r.Status, r.Body)
		}
		if r := c.Post("/orders/", `{"item":"tea"}`, "X-Client: a"); r.Status != 201 || r.Body != `{"id":3,"item":"tea"}` {
			t.Errorf("no key: %d %s", r.Status, r.Body)
		}
		for _, bad := range []string{`""`, "a b", "é"} {
			if r := c.Post("/orders/", `{"item":"tea"}`, "Idempotency-Key: "+bad); r.Status != 400 || r.JSON()["detail"] != "Idempotency-Key must be 1 to 255 visible ASCII characters." {
				t.Errorf("key %q: %d %s", bad, r.Status, r.Body)
			}
		}
		if n := count(t, db); n != 3 {
			t.Errorf("%d orders, want 3", n)
		}
	})
}

// TestFailureFreesTheKey: an error answer is not stored: the same key
// with a corrected body creates.
func TestFailureFreesTheKey(t *testing.T) {
	dialects(t, func(t *testing.T, db *sqlx.DB) {
		c := orders(t, db, idempotency.Keys{}, nil)
		if r := c.Post("/orders/", `{}`, "Idempotency-Key: k"); r.Status != 400 {
			t.Fatalf("no item: %d %s", r.Status, r.Body)
		}
		if r := c.Post("/orders/", `{"item":"tea"}`, "Idempotency-Key: k"); r.Status != 201 || r.Header.Get("Idempotent-Replayed") != "" {
			t.Errorf("corrected: %d %s", r.Status, r.Body)
		}
		if r := c.Post("/orders/", `{"item":"tea"}`, "Idempotency-Key: k"); r.Header.Get("Idempotent-Replayed") != "true" || count(t, db) != 1 {
			t.Errorf("replay: %d %s, %d orders", r.Status, r.Body, count(t, db))
		}
	})
}

// TestInProgress: while the first request with a key runs, the same
// request is 409 and writes nothing; once it is done, it is replayed.
func TestInProgress(t *testing.T) {
	dialects(t, func(t *testing.T, db *sqlx.DB) {
		gate := make(chan struct{})
		c := orders(t, db, idempotency.Keys{}, gate)
		done := make(chan *apitest.Response)
		go func() { done <- c.Post("/orders/", `{"item":"tea"}`, "Idempotency-Key: slow") }()
		// The first request holds the key once its row is there.
		for {
			var n int
			if err := db.Get(&n, `SELECT count(*) FROM "drf_idempotency_key" WHERE "key" = 'slow' AND "status" = 0`); err != nil {
				t.Fatal(err)
			}
			if n == 1 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		if r := c.Post("/orders/", `{"item":"tea"}`, "Idempotency-Key: slow"); r.Status != http.StatusConflict || r.JSON()["detail"] != "A request with this Idempotency-Key is still being processed; retry later." {
			t.Errorf("while running: %d %s", r.Status, r.Body)
		}
		close(gate)
		if r := <-done; r.Status != 201 {
			t.Fatalf("first: %d %s", r.Status, r.Body)
		}
		if r := c.Post("/orders/", `{"item":"tea"}`, "Idempotency-Key: slow"); r.Status != 201 || r.Header.Get("Idempotent-Replayed") != "true" || count(t, db) != 1 {
			t.Errorf("after: %d %s %v, %d orders", r.Status, r.Body, r.Header, count(t, db))
		}
	})
}

// TestExpiry: past TTL a key is new again (the request runs), and Purge
// deletes the expired rows; a run abandoned for longer than Running no
// longer holds its key.
func TestExpiry(t *testing.T) {
	dialects(t, func(t *testing.T, db *sqlx.DB) {
		now := time.Now()
		keys := idempotency.Keys{TTL: time.Hour, Running: time.Minute, Now: func() time.Time { return now }}
		c := orders(t, db, keys, nil)
		c.Post("/orders/", `{"item":"tea"}`, "Idempotency-Key: k")
		now = now.Add(59 * time.Minute)
		if r := c.Post("/orders/", `{"item":"tea"}`, "Idempotency-Key: k"); r.Header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("within the TTL: %d %s", r.Status, r.Body)
		}
		now = now.Add(2 * time.Minute)
		if r := c.Post("/orders/", `{"item":"tea"}`, "Idempotency-Key: k"); r.Status != 201 || r.Header.Get("Idempotent-Replayed") != "" || count(t, db) != 2 {
			t.Errorf("past the TTL: %d %s, %d orders", r.Status, r.Body, count(t, db))
		}
		// An abandoned run (its process died): the key is held for Running.
		if _, err := db.Exec(db.Rebind(`INSERT INTO "drf_idempotency_key" ("owner", "key", "fingerprint", "status", "header", "body", "expires") VALUES ('ip:192.0.2.1', 'dead', 'x', 0, '', '', ?)`),
			now.Add(time.Minute).UnixNano()); err != nil {
			t.Fatal(err)
		}
		if r := c.Post("/orders/", `{"item":"tea"}`, "Idempotency-Key: dead"); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("abandoned run, other fingerprint: %d %s", r.Status, r.Body)
		}
		now = now.Add(2 * time.Minute)
		if r := c.Post("/orders/", `{"item":"tea"}`, "Idempotency-Key: dead"); r.Status != 201 {
			t.Errorf("after Running: %d %s", r.Status, r.Body)
		}
		keys.DB = db
		now = now.Add(2 * time.Hour)
		if n, err := keys.Purge(context.Background()); err != nil || n != 2 {
			t.Errorf("purged %d (%v), want 2", n, err)
		}
	})
}

// TestConcurrentRetries: the same request sent many times at once with
// one key, through two instances, creates once: the others are 409 while
// it runs, or its replay.
func TestConcurrentRetries(t *testing.T) {
	dialects(t, func(t *testing.T, db *sqlx.DB) {
		a, b := orders(t, db, idempotency.Keys{}, nil), orders(t, db, idempotency.Keys{}, nil)
		const requests = 16
		answers := make([]*apitest.Response, requests)
		var wg sync.WaitGroup
		for i := range requests {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := a
				if i%2 == 1 {
					c = b
				}
				answers[i] = c.Post("/orders/", `{"item":"tea"}`, "Idempotency-Key: burst")
			}()
		}
		wg.Wait()
		created := 0
		for i, r := range answers {
			switch {
			case r.Status == 201 && r.Header.Get("Idempotent-Replayed") == "":
				created++
			case r.Status == 201 && r.Body == `{"id":1,"item":"tea"}`, r.Status == http.StatusConflict:
			default:
				t.Errorf("request %d: %d %s", i, r.Status, r.Body)
			}
		}
		if created != 1 || count(t, db) != 1 {
			t.Errorf("%d created answers, %d orders; want 1 and 1", created, count(t, db))
		}
	})
}

// TestLongBody: a body past what the fingerprint keeps in memory (an
// upload, whose body MaxBodyBytes does not cap) reaches the view whole, from a temporary file that is gone once
// the view has answered; its end counts in the fingerprint, so a retry
// that differs only there is 422.
func TestLongBody(t *testing.T) {
	dialects(t, func(t *testing.T, db *sqlx.DB) {
		tmp := t.TempDir()
		t.Setenv("TMPDIR", tmp)
		files := func() int {
			entries, err := os.ReadDir(tmp)
			if err != nil {
				t.Fatal(err)
			}
			return len(entries)
		}
		upload := func(v *framework.View, r *request.Request) (*framework.Response, error) {
			body, err := io.ReadAll(r.Body)
			if err != nil {
				return nil, err
			}
			sum := sha256.Sum256(body)
			return &framework.Response{Status: 201, Data: map[string]any{"bytes": len(body), "sha256": hex.EncodeToString(sum[:]), "spilled": files()}}, nil
		}
		api := framework.NewAPI(db, framework.Settings{})
		api.Handle("/uploads/", framework.View{Post: idempotency.Keys{DB: db}.Post(upload)})
		c := apitest.New(t, api)
		body := bytes.Repeat([]byte("0123456789abcdef"), 5<<20/16)
		sum := sha256.Sum256(body)
		want := fmt.Sprintf(`{"bytes":%d,"sha256":"%x","spilled":1}`, len(body), sum)
		first := c.Post("/uploads/", string(body), "Idempotency-Key: big", "Content-Type: multipart/form-data; boundary=b")
		if first.Status != 201 || first.Body != want {
			t.Fatalf("first: %d %s, want %s", first.Status, first.Body, want)
		}
		if n := files(); n != 0 {
			t.Errorf("%d temporary files left after the answer", n)
		}
		again := c.Post("/uploads/", string(body), "Idempotency-Key: big", "Content-Type: multipart/form-data; boundary=b")
		if again.Status != 201 || again.Body != want || again.Header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("replay: %d %s %v", again.Status, again.Body, again.Header)
		}
		body[len(body)-1] = 'x'
		if r := c.Post("/uploads/", string(body), "Idempotency-Key: big", "Content-Type: multipart/form-data; boundary=b"); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("another end: %d %s", r.Status, r.Body)
		}
		if n := files(); n != 0 {
			t.Errorf("%d temporary files left", n)
		}
	})
}
