// Package idempotency makes POST views idempotent under the
// Idempotency-Key header (draft-ietf-httpapi-idempotency-key-header,
// Stripe's convention), which DRF lacks: the first successful answer to a
// key is stored in the database and replayed to every retry of the same
// request with that key, so that a client whose connection broke can send
// its create again without creating twice.
package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/throttling"
	"github.com/go-drf/drf/internal/rawjson"
)

// Migration creates the table of Keys, "drf_idempotency_key": a row per
// client and key, with the request's fingerprint, the stored answer
// (status 0 while the first request runs) and when the row expires (Unix
// nanoseconds).
var Migration = migrations.Migration{App: "drf", Name: "0002_idempotency_key", Operations: []migrations.Operation{migrations.RunSQL{SQL: []string{
	`CREATE TABLE "drf_idempotency_key" ("owner" varchar(255) NOT NULL, "key" varchar(255) NOT NULL, ` +
		`"fingerprint" varchar(64) NOT NULL, "status" integer NOT NULL, "header" text NOT NULL, "body" text NOT NULL, ` +
		`"expires" bigint NOT NULL, PRIMARY KEY ("owner", "key"))`,
}}}}

// Defaults of Keys.
const (
	// defaultTTL is how long an answer is kept for replays.
	defaultTTL = 24 * time.Hour
	// defaultRunning is how long a first request may run before its key
	// is taken as abandoned (its process died) and may be used again.
	defaultRunning = time.Minute
)

// Header is the request field that carries the key.
const Header = "Idempotency-Key"

// Detail messages of the answers of Keys.
const (
	msgInvalidKey = "Idempotency-Key must be 1 to 255 visible ASCII characters."
	MsgKeyReused  = "This Idempotency-Key was already used with another request."
	msgInProgress = "A request with this Idempotency-Key is still being processed; retry later."
)

// Keys stores the answers of idempotent requests in DB (Migration's
// table). A request without Idempotency-Key is served as DRF serves it.
// With one, keys are scoped per client (Owner):
//
//   - the first request with a key runs; a success (2xx) is stored with
//     its status, Location and body for TTL, and an error or a panic frees
//     the key so that the request can be sent again;
//   - the same request again (method, path, Content-Type and body) gets
//     the stored answer, with "Idempotent-Replayed: true";
//   - another request with the key is 422;
//   - any request with the key while the first still runs is 409.
type Keys struct {
	DB *sqlx.DB
	// TTL is how long an answer is replayed; 0 gives 24 hours.
	TTL time.Duration
	// Running is how long a first request may run before its key counts
	// as abandoned; 0 gives a minute.
	Running time.Duration
	// Owner names the client whose keys are its own; nil gives the user
	// ("user:" and the username) or, for anonymous requests, the address
	// the request came from ("ip:" and the address, as throttles read it:
	// throttling.ClientIP, trusting NUM_PROXIES).
	Owner func(r *request.Request) string
	// Now is the clock; nil gives time.Now.
	Now func() time.Time
}

// stored is an answer kept for replays.
type stored struct {
	Status int
	Header http.Header
	Body   json.RawMessage
}

// Post returns h made idempotent under Keys: the handler of a create view
// (view.Post = keys.Post(view.Post)).
func (k Keys) Post(h framework.HandlerFunc) framework.HandlerFunc {
	return func(v *framework.View, r *request.Request) (*framework.Response, error) {
		lines := r.Header.Values(Header)
		if len(lines) == 0 {
			return h(v, r)
		}
		key, ok := parseKey(lines)
		if !ok {
			return nil, exceptions.ParseError(msgInvalidKey)
		}
		fingerprint, done, ok := k.fingerprint(r)
		defer done()
		if !ok {
			return h(v, r) // the body could not be read: the view answers why
		}
		owner := k.owner(v, r)
		ctx := r.Context()
		for {
			took, err := k.take(ctx, owner, key, fingerprint)
			if err != nil {
				return nil, err
			}
			if took {
				return k.run(v, r, h, owner, key, fingerprint)
			}
			var row struct {
				Fingerprint string `db:"fingerprint"`
				Status      int    `db:"status"`
				Header      string `db:"header"`
				Body        string `db:"body"`
			}
			err = k.DB.GetContext(ctx, &row, k.DB.Rebind(`SELECT "fingerprint", "status", "header", "body" FROM "drf_idempotency_key" WHERE "owner" = ? AND "key" = ?`), owner, key)
			if errors.Is(err, sql.ErrNoRows) {
				continue // freed since: take it again
			}
			if err != nil {
				return nil, err
			}
			switch {
			case row.Fingerprint != fingerprint:
				return nil, &exceptions.APIException{Status: http.StatusUnprocessableEntity, Detail: MsgKeyReused, Code: "idempotency_key_reused"}
			case row.Status == 0:
				return nil, &exceptions.APIException{Status: http.StatusConflict, Detail: msgInProgress, Code: "idempotency_key_in_progress"}
			}
			resp := &framework.Response{Status: row.Status, Header: http.Header{}}
			if row.Body != "" {
				resp.Data = json.RawMessage(row.Body)
			}
			if err := json.Unmarshal([]byte(row.Header), &resp.Header); err != nil {
				return nil, err
			}
			resp.Header.Set("Idempotent-Replayed", "true")
			return resp, nil
		}
	}
}

// parseKey reads the key: one field line, a Structured Field string (the
// IETF draft's "…") or a bare token (Stripe's), of visible ASCII.
func parseKey(lines []string) (string, bool) {
	if len(lines) != 1 {
		return "", false
	}
	key := strings.TrimSpace(lines[0])
	if len(key) >= 2 && key[0] == '"' && key[len(key)-1] == '"' {
		key = key[1 : len(key)-1]
	}
	if key == "" || len(key) > 255 {
		return "", false
	}
	for i := 0; i < len(key); i++ {
		if key[i] <= ' ' || key[i] > '~' || key[i] == '"' || key[i] == '\\' {
			return "", false
		}
	}
	return key, true
}

// memoryBody is how much of a body the fingerprint keeps in memory for
// the view, as Django's FILE_UPLOAD_MAX_MEMORY_SIZE (2.5 MB); the rest
// of a longer body (an upload) waits in a temporary file.
const memoryBody = 2621440

// fingerprint is a digest of what makes two requests the same: method,
// path and query, Content-Type and body. It reads the body as it hashes
// it and puts it back for the view: up to memoryBody in memory, the rest
// in a temporary file that done removes once the view has answered. ok
// is false when the body could not be read whole (the view's parser then
// meets the same error).
func (k Keys) fingerprint(r *request.Request) (sum string, done func(), ok bool) {
	h := sha256.New()
	for _, part := range []string{r.Method, r.URL.RequestURI(), r.Header.Get("Content-Type")} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	done = func() {}
	if r.Body != nil && r.Body != http.NoBody {
		var head bytes.Buffer
		n, err := io.Copy(io.MultiWriter(h, &head), io.LimitReader(r.Body, memoryBody))
		var rest io.Reader = http.NoBody
		if err == nil && n == memoryBody {
			rest, done, err = spill(h, r.Body)
		}
		if err != nil {
			done()
			r.Body = io.NopCloser(io.MultiReader(&head, errReader{err}))
			return "", func() {}, false
		}
		r.Body = io.NopCloser(io.MultiReader(&head, rest))
	}
	return hex.EncodeToString(h.Sum(nil)), done, true
}

// spill copies the rest of body into a temporary file as h hashes it, and
// returns the file rewound, with the function that closes and removes it.
func spill(h io.Writer, body io.Reader) (io.Reader, func(), error) {
	f, err := os.CreateTemp("", "drf-idempotency-*")
	if err != nil {
		return nil, func() {}, err
	}
	done := func() {
		_ = f.Close()
		_ = os.Remove(f.Name())
	}
	if _, err := io.Copy(io.MultiWriter(h, f), body); err != nil {
		return nil, done, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, done, err
	}
	return f, done, nil
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// owner is the client whose keys r's are.
func (k Keys) owner(v *framework.View, r *request.Request) string {
	if k.Owner != nil {
		return k.Owner(r)
	}
	if u := r.User(); u.IsAuthenticated() {
		return "user:" + u.GetUsername()
	}
	return "ip:" + throttling.ClientIP(r, v.Global().NumProxies)
}

func (k Keys) now() time.Time {
	if k.Now != nil {
		return k.Now()
	}
	return time.Now()
}

// take records the key as running for this request, when it is new or
// its row expired (an old answer, an abandoned run); false when another
// request holds it.
func (k Keys) take(ctx context.Context, owner, key, fingerprint string) (bool, error) {
	running := k.Running
	if running <= 0 {
		running = defaultRunning
	}
	now := k.now()
	res, err := k.DB.ExecContext(ctx, k.DB.Rebind(`INSERT INTO "drf_idempotency_key" ("owner", "key", "fingerprint", "status", "header", "body", "expires") `+
		`VALUES (?, ?, ?, 0, '', '', ?) ON CONFLICT ("owner", "key") DO UPDATE SET "fingerprint" = excluded."fingerprint", "status" = 0, `+
		`"header" = '', "body" = '', "expires" = excluded."expires" WHERE "drf_idempotency_key"."expires" < ?`),
		owner, key, fingerprint, now.Add(running).UnixNano(), now.UnixNano())
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// run serves the first request with the key and stores its answer when it
// succeeds; otherwise, panics included, it frees the key.
func (k Keys) run(v *framework.View, r *request.Request, h framework.HandlerFunc, owner, key, fingerprint string) (resp *framework.Response, err error) {
	ctx := context.WithoutCancel(r.Context()) // the answer is kept even if the client left
	done := false
	defer func() {
		if !done {
			_, _ = k.DB.ExecContext(ctx, k.DB.Rebind(`DELETE FROM "drf_idempotency_key" WHERE "owner" = ? AND "key" = ? AND "fingerprint" = ? AND "status" = 0`), owner, key, fingerprint)
		}
	}()
	resp, err = h(v, r)
	if err != nil || resp == nil || resp.Status < 200 || resp.Status > 299 {
		return resp, err
	}
	s := stored{Status: resp.Status, Header: http.Header{}}
	if loc := resp.Header.Get("Location"); loc != "" {
		s.Header.Set("Location", loc)
	}
	if raw, ok := resp.Data.(json.RawMessage); ok {
		s.Body = raw
	} else if resp.Data != nil {
		if s.Body, err = rawjson.Marshal(resp.Data); err != nil {
			return nil, err
		}
	}
	header, err := json.Marshal(s.Header)
	if err != nil {
		return nil, err
	}
	ttl := k.TTL
	if ttl <= 0 {
		ttl = defaultTTL
	}
	if _, err := k.DB.ExecContext(ctx, k.DB.Rebind(`UPDATE "drf_idempotency_key" SET "status" = ?, "header" = ?, "body" = ?, "expires" = ? `+
		`WHERE "owner" = ? AND "key" = ? AND "fingerprint" = ? AND "status" = 0`),
		s.Status, string(header), string(s.Body), k.now().Add(ttl).UnixNano(), owner, key, fingerprint); err != nil {
		// The view's work is done: its answer goes out, and the key is
		// freed (a retry runs again).
		r.Logger().WarnContext(ctx, "idempotency: answer not stored", "key", key, "error", err)
		return resp, nil
	}
	done = true
	return resp, nil
}

// Purge deletes the rows that expired: answers no longer replayed and
// runs abandoned. Nothing needs it to be run (an expired row is replaced
// when its key comes again); a periodic job keeps the table small.
func (k Keys) Purge(ctx context.Context) (int64, error) {
	res, err := k.DB.ExecContext(ctx, k.DB.Rebind(`DELETE FROM "drf_idempotency_key" WHERE "expires" < ?`), k.now().UnixNano())
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
