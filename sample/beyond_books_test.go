package sample_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/idempotency"
)

// basic is the Authorization field of user's Basic login (password
// user-pass, as seeded).
func basic(user string) string {
	return "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+user+"-pass"))
}

// beyondDBs runs fn on a migrated SQLite database and a migrated
// PostgreSQL one.
func beyondDBs(t *testing.T, fn func(t *testing.T, db *sqlx.DB)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, newDB(t)) })
	t.Run("postgresql", func(t *testing.T) { fn(t, newPostgres(t)) })
}

// TestBeyondConditionalBooks: /beyond/books/{id}/ tags its answers, answers
// If-None-Match with 304, and demands If-Match of writes (428 without,
// 412 when stale); the contract's /books/{id}/ answers as DRF, untagged.
func TestBeyondConditionalBooks(t *testing.T) {
	beyondDBs(t, func(t *testing.T, db *sqlx.DB) {
		c := serve(t, db)
		got := c.Get("/beyond/books/1/")
		tag := got.Header.Get("ETag")
		if got.Status != 200 || tag == "" || !strings.Contains(got.Body, `"title":"Book 001"`) {
			t.Fatalf("GET: %d %q %s", got.Status, tag, got.Body)
		}
		if r := c.Get("/beyond/books/1/", "If-None-Match: "+tag); r.Status != http.StatusNotModified || r.Body != "" {
			t.Errorf("If-None-Match: %d %s", r.Status, r.Body)
		}
		if r := c.Get("/books/1/", "If-None-Match: "+tag); r.Status != 200 || r.Header.Get("ETag") != "" {
			t.Errorf("the contract's route: %d %v", r.Status, r.Header)
		}
		body := `{"title":"Changed","author":"Author 1","rating":4}`
		if r := c.Do("PUT", "/beyond/books/1/", body, basic("alice")); r.Status != http.StatusPreconditionRequired || r.JSON()["detail"] != generics.MsgPreconditionRequired {
			t.Errorf("PUT without If-Match: %d %s", r.Status, r.Body)
		}
		if r := c.Do("PUT", "/beyond/books/1/", body, basic("alice"), `If-Match: "stale"`); r.Status != http.StatusPreconditionFailed || r.JSON()["detail"] != generics.MsgPreconditionFailed {
			t.Errorf("PUT stale: %d %s", r.Status, r.Body)
		}
		put := c.Do("PUT", "/beyond/books/1/", body, basic("alice"), "If-Match: "+tag)
		if put.Status != 200 || !strings.Contains(put.Body, `"title":"Changed"`) || put.Header.Get("ETag") == tag {
			t.Fatalf("PUT: %d %s %v", put.Status, put.Body, put.Header)
		}
		if r := c.Do("DELETE", "/beyond/books/1/", "", basic("alice"), "If-Match: "+tag); r.Status != http.StatusPreconditionFailed {
			t.Errorf("DELETE with the old tag: %d %s", r.Status, r.Body)
		}
		if r := c.Do("DELETE", "/beyond/books/1/", "", basic("alice"), "If-Match: "+put.Header.Get("ETag")); r.Status != http.StatusNoContent {
			t.Errorf("DELETE: %d %s", r.Status, r.Body)
		}
		if r := c.Get("/beyond/books/1/"); r.Status != 404 {
			t.Errorf("after DELETE: %d", r.Status)
		}
	})
}

// TestBeyondIdempotentCreate: a POST to /beyond/books/ with an
// Idempotency-Key creates once; the same request is replayed, another
// body with the key is 422; another user's key of the same name is its
// own.
func TestBeyondIdempotentCreate(t *testing.T) {
	beyondDBs(t, func(t *testing.T, db *sqlx.DB) {
		c := serve(t, db)
		books := func() int {
			var n int
			if err := db.Get(&n, `SELECT count(*) FROM "books"`); err != nil {
				t.Fatal(err)
			}
			return n
		}
		before := books()
		body := `{"title":"Once","author":"A","rating":3}`
		first := c.Post("/beyond/books/", body, basic("alice"), "Idempotency-Key: order-1")
		if first.Status != 201 || !strings.Contains(first.Body, `"owner":"alice"`) {
			t.Fatalf("first: %d %s", first.Status, first.Body)
		}
		again := c.Post("/beyond/books/", body, basic("alice"), "Idempotency-Key: order-1")
		if again.Status != 201 || again.Body != first.Body || again.Header.Get("Idempotent-Replayed") != "true" || books() != before+1 {
			t.Errorf("replay: %d %s %v; %d books, want %d", again.Status, again.Body, again.Header, books(), before+1)
		}
		if r := c.Post("/beyond/books/", `{"title":"Twice","author":"A","rating":3}`, basic("alice"), "Idempotency-Key: order-1"); r.Status != http.StatusUnprocessableEntity ||
			r.JSON()["detail"] != idempotency.MsgKeyReused {
			t.Errorf("another body: %d %s", r.Status, r.Body)
		}
		if r := c.Post("/beyond/books/", body, basic("admin"), "Idempotency-Key: order-1"); r.Status != 201 || !strings.Contains(r.Body, `"owner":"admin"`) || books() != before+2 {
			t.Errorf("another user: %d %s", r.Status, r.Body)
		}
		if r := c.Post("/beyond/books/", body, "Idempotency-Key: order-2"); r.Status != http.StatusForbidden {
			t.Errorf("anonymous: %d %s", r.Status, r.Body)
		}
	})
}
