package simplejwt_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-drf/drf/contrib/simplejwt"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// The race probes: requests that use one refresh token at the same time,
// made to overlap by holding back every write to the blacklist (hold)
// until all of them have read the token as not blacklisted and wait to
// write. Whatever the order they then write in, the answers must be those
// of some order of the requests one after another.

// blacklistedBody is simplejwt's answer for a blacklisted refresh token.
const blacklistedBody = `{"detail":"Token is blacklisted","code":"token_not_valid"}`

// raceFixture is a fixture with the reference's settings on a database
// that takes concurrent connections: an SQLite file (dsn ""), or the
// PostgreSQL database dsn; its pool has room for every request of a probe.
func raceFixture(t *testing.T, dsn string) (f *fixture, dbDSN string) {
	t.Helper()
	if dsn == "" {
		dsn = filepath.Join(t.TempDir(), "db.sqlite3")
	} else {
		dsn += "&pool_max_conns=16"
	}
	f = newFixture(t, dsn, theReferences)
	f.db.SetMaxOpenConns(16)
	f.db.SetMaxIdleConns(16)
	return f, dsn
}

// hold makes every write to token_blacklist_blacklistedtoken wait, from
// another connection to dsn, while reads go on, until release is called
// (at the latest when t ends): on SQLite by holding the write lock (the
// store's transactions are BEGIN IMMEDIATE; WAL lets readers in), on
// PostgreSQL by a SHARE lock of the table.
func hold(t *testing.T, dsn string) (release func()) {
	t.Helper()
	other, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := other.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	if store.DialectOf(other) == store.PostgreSQL {
		if _, err := tx.Exec(`LOCK TABLE "token_blacklist_blacklistedtoken" IN SHARE MODE`); err != nil {
			t.Fatal(err)
		}
	}
	var once sync.Once
	release = func() { once.Do(func() { _ = tx.Rollback(); _ = other.Close() }) }
	t.Cleanup(release)
	return release
}

// race sends the requests at once while hold holds the writes back, waits
// until each of them holds a connection of f's pool and keeps it (it
// waits to write), releases the writes and returns the answers.
func race(t *testing.T, f *fixture, dsn string, paths, bodies []string) []*apitest.Response {
	t.Helper()
	release := hold(t, dsn)
	answers := make([]*apitest.Response, len(paths))
	var wg sync.WaitGroup
	for i := range paths {
		wg.Go(func() { answers[i] = f.c.Post(paths[i], bodies[i]) })
	}
	deadline := time.Now().Add(3 * time.Second)
	for steady := 0; steady < 5; time.Sleep(10 * time.Millisecond) {
		if f.db.Stats().InUse < len(paths) {
			steady = 0
		} else {
			steady++
		}
		if time.Now().After(deadline) {
			t.Errorf("the requests did not all wait to write (%d connections in use)", f.db.Stats().InUse)
			break
		}
	}
	release()
	wg.Wait()
	return answers
}

// refreshOf reads the refresh token of a refresh view's answer, "" when
// it has none.
func refreshOf(r *apitest.Response) string {
	var p struct{ Refresh string }
	if r.Status == 200 {
		r.Decode(&p)
	}
	return p.Refresh
}

// Eight refreshes of one token at once (rotation, blacklist after
// rotation): exactly one is answered a new pair, and the seven others 401
// "Token is blacklisted" with no token, as if they had come after it; the
// one new refresh token works.
func TestConcurrentRefreshesOneWins(t *testing.T) { testConcurrentRefreshes(t, "") }

// TestConcurrentRefreshesOneWinsOnPostgres: the same on PostgreSQL.
func TestConcurrentRefreshesOneWinsOnPostgres(t *testing.T) {
	testConcurrentRefreshes(t, testservers.Postgres(t))
}

func testConcurrentRefreshes(t *testing.T, dsn string) {
	f, dsn := raceFixture(t, dsn)
	refresh, _ := f.pair(t)
	const n = 8
	paths, bodies := make([]string, n), make([]string, n)
	for i := range n {
		paths[i], bodies[i] = "/token/refresh/", `{"refresh":"`+refresh+`"}`
	}
	var minted []string
	for i, r := range race(t, f, dsn, paths, bodies) {
		switch {
		case r.Status == 200 && refreshOf(r) != "":
			minted = append(minted, refreshOf(r))
		case r.Status != 401 || r.Body != blacklistedBody || r.Header.Get("WWW-Authenticate") != challenge:
			t.Errorf("refresh %d: %d %s", i, r.Status, r.Body)
		}
	}
	if len(minted) != 1 {
		t.Fatalf("%d of %d concurrent refreshes of one token were answered a new refresh token, want 1", len(minted), n)
	}
	if r := f.c.Post("/token/refresh/", `{"refresh":"`+minted[0]+`"}`); r.Status != 200 || refreshOf(r) == "" {
		t.Errorf("the new refresh token: %d %s", r.Status, r.Body)
	}
}

// A logout (the blacklist view) and a refresh of one token at once. The
// invariant: a logout answered 200 leaves no refresh token working that
// was minted from the one it logged out by a refresh that had not answered
// before the logout was sent. Here neither had answered when the other was
// sent, so the answers must be one of the two orders one after another:
//
//   - logout first: the logout 200 {}, the refresh 401 "Token is
//     blacklisted" and no token;
//   - refresh first: the refresh 200 with a new refresh token, which
//     works, and the logout 401 "Token is blacklisted", as simplejwt
//     answers a logout of a token already blacklisted: the caller is told
//     that its token had been used, not that it is logged out.
//
// Never both 200. Rounds are run until each order has been seen (or
// there have been 12), each on a new pair.
func TestLogoutRacingRefresh(t *testing.T) { testLogoutRacingRefresh(t, "") }

// TestLogoutRacingRefreshOnPostgres: the same on PostgreSQL.
func TestLogoutRacingRefreshOnPostgres(t *testing.T) {
	testLogoutRacingRefresh(t, testservers.Postgres(t))
}

func testLogoutRacingRefresh(t *testing.T, dsn string) {
	f, dsn := raceFixture(t, dsn)
	seen := map[string]bool{}
	for round := 0; round < 12 && len(seen) < 2; round++ {
		refresh, _ := f.pair(t)
		body := `{"refresh":"` + refresh + `"}`
		answers := race(t, f, dsn, []string{"/token/blacklist/", "/token/refresh/"}, []string{body, body})
		logout, refreshed := answers[0], answers[1]
		switch {
		case logout.Status == 200 && refreshed.Status == 200:
			t.Fatalf("round %d: the logout answered 200 %s and the refresh minted a new token", round, logout.Body)
		case logout.Status == 200:
			seen["logout first"] = true
			if logout.Body != `{}` || refreshed.Status != 401 || refreshed.Body != blacklistedBody {
				t.Errorf("round %d, logout first: logout %d %s, refresh %d %s", round, logout.Status, logout.Body, refreshed.Status, refreshed.Body)
			}
		default:
			seen["refresh first"] = true
			minted := refreshOf(refreshed)
			if minted == "" || logout.Status != 401 || logout.Body != blacklistedBody || logout.Header.Get("WWW-Authenticate") != challenge {
				t.Errorf("round %d, refresh first: refresh %d %s, logout %d %s", round, refreshed.Status, refreshed.Body, logout.Status, logout.Body)
				continue
			}
			if r := f.c.Post("/token/refresh/", `{"refresh":"`+minted+`"}`); r.Status != 200 {
				t.Errorf("round %d: the token the winning refresh minted: %d %s", round, r.Status, r.Body)
			}
		}
		// Either way the token sent is blacklisted.
		if r := f.c.Post("/token/refresh/", body); r.Status != 401 || r.Body != blacklistedBody {
			t.Errorf("round %d: the raced token afterwards: %d %s", round, r.Status, r.Body)
		}
	}
	t.Logf("orders seen: %v", seen)
}

// A rotation is one transaction: when the blacklisted row cannot be
// written (a trigger refuses it here), the outstanding row recorded for
// the token on the way is rolled back with it, and the token is not used
// up: once the database takes writes again it refreshes.
func TestRotationIsOneTransaction(t *testing.T) {
	testRotationIsOneTransaction(t, ":memory:", `DROP TRIGGER "refuse"`,
		`CREATE TRIGGER "refuse" BEFORE INSERT ON "token_blacklist_blacklistedtoken" BEGIN SELECT RAISE(ABORT, 'refused'); END`)
}

// TestRotationIsOneTransactionOnPostgres: the same on PostgreSQL.
func TestRotationIsOneTransactionOnPostgres(t *testing.T) {
	testRotationIsOneTransaction(t, testservers.Postgres(t), `DROP TRIGGER "refuse" ON "token_blacklist_blacklistedtoken"`,
		`CREATE FUNCTION "refuse"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`,
		`CREATE TRIGGER "refuse" BEFORE INSERT ON "token_blacklist_blacklistedtoken" FOR EACH ROW EXECUTE FUNCTION "refuse"()`)
}

func testRotationIsOneTransaction(t *testing.T, dsn, allow string, refuse ...string) {
	f := newFixture(t, dsn, theReferences)
	ctx := context.Background()
	// A refresh token with no outstanding row, as a rotated one is.
	tok := &simplejwt.Token{Now: time.Now()}
	tok.Claims.SetString("token_type", "refresh")
	tok.Claims.SetInt("exp", time.Now().Add(time.Hour).Unix())
	tok.Claims.SetInt("iat", time.Now().Unix())
	tok.Claims.SetString("jti", "0123456789abcdef0123456789abcdef")
	tok.Claims.SetInt("user_id", f.alice.ID)
	raw, err := f.jwt.Encode(tok)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range refuse {
		f.db.MustExec(stmt)
	}
	if _, err := f.jwt.Refresh(ctx, raw); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("refresh with the blacklist refusing writes: %v", err)
	}
	var n int
	if err := f.db.Get(&n, `SELECT count(*) FROM "token_blacklist_outstandingtoken"`); err != nil || n != 0 {
		t.Errorf("%d outstanding rows after the failed rotation (%v), want none", n, err)
	}
	f.db.MustExec(allow)
	if p, err := f.jwt.Refresh(ctx, raw); err != nil || p.Refresh == "" {
		t.Errorf("refresh once the database takes writes: %+v %v", p, err)
	}
}
