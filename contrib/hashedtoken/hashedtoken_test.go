package hashedtoken

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/management"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// scenarios run on SQLite and on PostgreSQL.
var scenarios = []struct {
	name string
	run  func(t *testing.T, dsn string)
}{
	{"StoredHashed", storedHashed},
	{"BearerKeyword", bearerKeyword},
	{"Expiry", expiring},
	{"SlidingRefresh", slidingRefresh},
	{"Devices", devices},
	{"KeysBeforeThePrefix", keysBeforeThePrefix},
}

func TestOnSQLite(t *testing.T) {
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) { s.run(t, ":memory:") })
	}
}

func TestOnPostgres(t *testing.T) {
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) { s.run(t, testservers.Postgres(t)) })
	}
}

// fixture is a migrated database with alice (active), bob (inactive) and
// carol, the tokens on a clock the test moves, and a server with the
// views under /auth/ and a whoami view at /whoami/.
type fixture struct {
	db      *sqlx.DB
	tokens  *Tokens
	clock   time.Time
	c       *apitest.Client
	alice   *auth.User
	bob     *auth.User
	carolID int64
}

func newFixture(t *testing.T, dsn string, cfg Tokens) *fixture {
	t.Helper()
	db, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	if _, err := migrations.Migrate(ctx, db, append(append([]migrations.Migration{}, auth.Migrations...), Migrations...)...); err != nil {
		t.Fatal(err)
	}
	users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}
	f := &fixture{db: db, clock: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
	f.tokens = &cfg
	f.tokens.DB = db
	f.tokens.now = func() time.Time { return f.clock }
	if f.alice, err = users.CreateUser(ctx, "alice", "", "alice-pass"); err != nil {
		t.Fatal(err)
	}
	f.bob = &auth.User{Username: "bob"}
	if err := users.Create(ctx, f.bob, "bob-pass"); err != nil {
		t.Fatal(err)
	}
	carol, err := users.CreateUser(ctx, "carol", "", "carol-pass")
	if err != nil {
		t.Fatal(err)
	}
	f.carolID = carol.ID
	api := framework.NewAPI(db, framework.Settings{Authentication: framework.Authenticators(
		authentication.Token{Tokens: f.tokens, Keyword: "Bearer"},
		authentication.Basic{Users: auth.ModelBackend{Users: users}},
	)})
	api.Route("/auth", "", Views{Tokens: f.tokens}.Register)
	api.Handle("/whoami/", framework.View{Permissions: framework.Permissions(framework.IsAuthenticated{}),
		Get: func(_ *framework.View, r *request.Request) (*framework.Response, error) {
			tok, _ := r.Auth().(*Token)
			return framework.OK(map[string]any{"username": r.User().GetUsername(), "token": tok.ID}), nil
		}})
	f.c = apitest.New(t, api)
	return f
}

// send sends body with auth as the Authorization header, "" for none.
func (f *fixture) send(t *testing.T, method, path, auth, body string) *apitest.Response {
	t.Helper()
	var header []string
	if auth != "" {
		header = append(header, "Authorization: "+auth)
	}
	return f.c.Do(method, path, body, header...)
}

func basic(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

// login logs in as alice with Basic and returns the new key.
func (f *fixture) login(t *testing.T, name string) (string, map[string]any) {
	t.Helper()
	a := f.send(t, "POST", "/auth/login/", basic("alice", "alice-pass"), `{"name":"`+name+`"}`)
	if a.Status != 200 {
		t.Fatalf("login: %d %s", a.Status, a.Body)
	}
	m := a.JSON()
	return m["token"].(string), m
}

// Only the prefix and the digest are stored; the key is shown once.
func storedHashed(t *testing.T, dsn string) {
	f := newFixture(t, dsn, Tokens{})
	key, m := f.login(t, "laptop")
	if !validKey(key) || !strings.HasPrefix(key, KeyPrefix) || len(key) != len(KeyPrefix)+KeyLength {
		t.Fatalf("key %q", key)
	}
	random := key[len(KeyPrefix):]
	if m["prefix"] != random[:prefixLength] || m["name"] != "laptop" || m["created"] != "2025-03-01T12:00:00Z" || m["expiry"] != "2025-03-01T22:00:00Z" {
		t.Errorf("login answer %v", m)
	}
	var rows []map[string]any
	r, err := f.db.Queryx(`SELECT * FROM "hashedtoken_token"`)
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		row := map[string]any{}
		if err := r.MapScan(row); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
	r.Close()
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	for col, v := range rows[0] {
		if s, ok := v.(string); ok && strings.Contains(s, random[prefixLength:prefixLength+8]) {
			t.Errorf("column %s holds the key: %q", col, s)
		}
	}
	if rows[0]["digest"] != digest(key) || rows[0]["token_key"] != random[:prefixLength] {
		t.Errorf("row %v", rows[0])
	}
	if strings.Contains(f.send(t, "GET", "/auth/tokens/", "Bearer "+key, "").Body, key) {
		t.Error("the listing shows the key")
	}
	// Without a clock of its own, a token's created is the time of its
	// insert (auto_now_add), and its expiry TTL after the store's now.
	before := time.Now().UTC().Add(-time.Second)
	_, tok, err := (&Tokens{DB: f.db}).Create(context.Background(), f.alice.ID, "phone")
	if err != nil {
		t.Fatal(err)
	}
	var created time.Time
	if err := f.db.Get(&created, f.db.Rebind(`SELECT "created" FROM "hashedtoken_token" WHERE "id" = ?`), tok.ID); err != nil {
		t.Fatal(err)
	}
	if created.Before(before) || !created.Equal(tok.Created) || tok.Expiry.Sub(created).Round(time.Second) != defaultTTL {
		t.Errorf("without a clock: created %s (returned %s), expiry %s", created, tok.Created, tok.Expiry)
	}
}

// A key made before KeyPrefix (the random part alone, its digest stored)
// still authenticates, and is not taken with the prefix put before it.
func keysBeforeThePrefix(t *testing.T, dsn string) {
	f := newFixture(t, dsn, Tokens{})
	old := strings.Repeat("0123456789abcdef", 4)
	f.db.MustExec(f.db.Rebind(`INSERT INTO "hashedtoken_token" ("digest", "token_key", "name", "created", "expiry", "user_id") VALUES (?, ?, ?, ?, NULL, ?)`),
		digest(old), old[:prefixLength], "old", store.FormatTime(f.clock), f.alice.ID)
	if a := f.send(t, "GET", "/whoami/", "Bearer "+old, ""); a.Status != 200 || a.JSON()["username"] != "alice" {
		t.Errorf("a key without the prefix: %d %s", a.Status, a.Body)
	}
	if a := f.send(t, "GET", "/whoami/", "Bearer "+KeyPrefix+old, ""); a.Status != 401 {
		t.Errorf("the old key with the prefix before it: %d %s", a.Status, a.Body)
	}
}

// The tokens authenticate with the Bearer keyword; a Token header is not
// theirs, and bad keys are DRF's "Invalid token.".
func bearerKeyword(t *testing.T, dsn string) {
	f := newFixture(t, dsn, Tokens{})
	key, _ := f.login(t, "")
	cases := []struct {
		auth      string
		status    int
		challenge string
		detail    string
	}{
		{"Bearer " + key, 200, "", ""},
		{"bearer " + key, 200, "", ""},
		{"", 401, "Bearer", "Authentication credentials were not provided."},
		{"Token " + key, 401, "Bearer", "Authentication credentials were not provided."},
		{"Bearer " + strings.Repeat("0", KeyLength), 401, "Bearer", "Invalid token."},
		{"Bearer " + KeyPrefix + strings.Repeat("0", KeyLength), 401, "Bearer", "Invalid token."},
		{"Bearer " + key[len(KeyPrefix):], 401, "Bearer", "Invalid token."},
		{"Bearer xx" + key[2:], 401, "Bearer", "Invalid token."},
		{"Bearer " + strings.ToUpper(key), 401, "Bearer", "Invalid token."},
		{"Bearer " + key[:KeyLength-1], 401, "Bearer", "Invalid token."},
		{"Bearer", 401, "Bearer", "Invalid token header. No credentials provided."},
	}
	for _, c := range cases {
		a := f.send(t, "GET", "/whoami/", c.auth, "")
		if a.Status != c.status || a.Header.Get("WWW-Authenticate") != c.challenge {
			t.Errorf("%q: %d %q %s", c.auth, a.Status, a.Header.Get("WWW-Authenticate"), a.Body)
			continue
		}
		if c.status == 200 {
			if m := a.JSON(); m["username"] != "alice" {
				t.Errorf("%q: %v", c.auth, m)
			}
		} else if d := a.JSON()["detail"]; d != c.detail {
			t.Errorf("%q: detail %q, want %q", c.auth, d, c.detail)
		}
	}
	// An inactive user's token is refused as DRF refuses it.
	bobKey, _, err := f.tokens.Create(context.Background(), f.bob.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if a := f.send(t, "GET", "/whoami/", "Bearer "+bobKey, ""); a.Status != 401 || a.JSON()["detail"] != "User inactive or deleted." {
		t.Errorf("inactive: %d %s", a.Status, a.Body)
	}
}

// Tokens expire TTL after creation, and an expired one is deleted when
// presented.
func expiring(t *testing.T, dsn string) {
	f := newFixture(t, dsn, Tokens{TTL: time.Hour})
	key, _ := f.login(t, "")
	f.clock = f.clock.Add(59 * time.Minute)
	if a := f.send(t, "GET", "/whoami/", "Bearer "+key, ""); a.Status != 200 {
		t.Fatalf("before expiry: %d %s", a.Status, a.Body)
	}
	f.clock = f.clock.Add(time.Minute)
	if a := f.send(t, "GET", "/whoami/", "Bearer "+key, ""); a.Status != 401 || a.JSON()["detail"] != "Invalid token." {
		t.Fatalf("at expiry: %d %s", a.Status, a.Body)
	}
	var n int
	if err := f.db.Get(&n, `SELECT COUNT(*) FROM "hashedtoken_token"`); err != nil || n != 0 {
		t.Errorf("%d rows left (%v)", n, err)
	}
	// A negative TTL makes tokens that never expire.
	f.tokens.TTL = -1
	key, m := f.login(t, "")
	if m["expiry"] != nil {
		t.Errorf("expiry %v", m["expiry"])
	}
	f.clock = f.clock.AddDate(10, 0, 0)
	if a := f.send(t, "GET", "/whoami/", "Bearer "+key, ""); a.Status != 200 {
		t.Errorf("ten years on: %d %s", a.Status, a.Body)
	}
}

// With Refresh every use moves the expiry to TTL from now, at most once a
// MinRefreshInterval and never past Created + MaxAge.
func slidingRefresh(t *testing.T, dsn string) {
	f := newFixture(t, dsn, Tokens{TTL: time.Hour, Refresh: true, MaxAge: 3 * time.Hour})
	key, _ := f.login(t, "")
	start := f.clock
	expiry := func() time.Time {
		var e time.Time
		if err := f.db.Get(&e, `SELECT "expiry" FROM "hashedtoken_token"`); err != nil {
			t.Fatal(err)
		}
		return e
	}
	use := func(after time.Duration, status int) {
		t.Helper()
		f.clock = f.clock.Add(after)
		if a := f.send(t, "GET", "/whoami/", "Bearer "+key, ""); a.Status != status {
			t.Fatalf("at %s: %d %s", f.clock.Sub(start), a.Status, a.Body)
		}
	}
	use(30*time.Second, 200)
	if e := expiry(); !e.Equal(start.Add(time.Hour)) {
		t.Errorf("refreshed within a minute: expiry %s", e)
	}
	use(50*time.Minute, 200)
	if e := expiry(); !e.Equal(f.clock.Add(time.Hour)) {
		t.Errorf("not refreshed: expiry %s, now %s", e, f.clock)
	}
	use(59*time.Minute, 200) // 1h49m: alive only thanks to the refresh
	use(59*time.Minute, 200) // 2h48m
	if e := expiry(); !e.Equal(start.Add(3 * time.Hour)) {
		t.Errorf("MaxAge not applied: expiry %s", e)
	}
	use(12*time.Minute, 401) // 3h00m: MaxAge reached
}

// Several tokens per user, listed, revoked one by one, by logout and by
// logout-all; other users' tokens are out of reach.
func devices(t *testing.T, dsn string) {
	f := newFixture(t, dsn, Tokens{Limit: 3})
	laptop, _ := f.login(t, "laptop")
	f.clock = f.clock.Add(time.Minute)
	phone, pm := f.login(t, "phone")
	carolKey, carolTok, err := f.tokens.Create(context.Background(), f.carolID, "carol's")
	if err != nil {
		t.Fatal(err)
	}
	a := f.send(t, "GET", "/auth/tokens/", "Bearer "+laptop, "")
	var list []map[string]any
	if err := json.Unmarshal([]byte(a.Body), &list); err != nil || a.Status != 200 || len(list) != 2 {
		t.Fatalf("list: %d %s", a.Status, a.Body)
	}
	if list[0]["name"] != "phone" || list[0]["current"] != false || list[1]["name"] != "laptop" || list[1]["current"] != true {
		t.Errorf("list %v", list)
	}
	if _, ok := list[0]["digest"]; ok {
		t.Error("the listing shows digests")
	}
	// A third device is allowed, a fourth is over the limit.
	third, _ := f.login(t, "tablet")
	if a := f.send(t, "POST", "/auth/login/", basic("alice", "alice-pass"), ""); a.Status != 403 || a.JSON()["detail"] != msgLimit {
		t.Errorf("over the limit: %d %s", a.Status, a.Body)
	}
	if a := f.send(t, "POST", "/auth/login/", basic("alice", "alice-pass"), `{"name":"`+strings.Repeat("x", 65)+`"}`); a.Status != 400 {
		t.Errorf("long name: %d %s", a.Status, a.Body)
	}
	// Revoking: not carol's token, not a number, then the phone.
	for _, path := range []string{"/auth/tokens/" + itoa(carolTok.ID) + "/", "/auth/tokens/x/", "/auth/tokens/999/"} {
		if a := f.send(t, "DELETE", path, "Bearer "+laptop, ""); a.Status != 404 || a.JSON()["detail"] != "Not found." {
			t.Errorf("DELETE %s: %d %s", path, a.Status, a.Body)
		}
	}
	if a := f.send(t, "DELETE", "/auth/tokens/"+itoa(int64(pm["id"].(float64)))+"/", "Bearer "+laptop, ""); a.Status != 204 {
		t.Errorf("revoke the phone: %d %s", a.Status, a.Body)
	}
	if a := f.send(t, "GET", "/whoami/", "Bearer "+phone, ""); a.Status != 401 {
		t.Errorf("revoked phone: %d", a.Status)
	}
	// Logout ends the laptop's token only; it needs a token.
	if a := f.send(t, "POST", "/auth/logout/", basic("alice", "alice-pass"), ""); a.Status != 403 || a.JSON()["detail"] != msgNotByToken {
		t.Errorf("logout with Basic: %d %s", a.Status, a.Body)
	}
	if a := f.send(t, "POST", "/auth/logout/", "Bearer "+laptop, ""); a.Status != 204 {
		t.Errorf("logout: %d %s", a.Status, a.Body)
	}
	if a := f.send(t, "GET", "/whoami/", "Bearer "+laptop, ""); a.Status != 401 {
		t.Errorf("logged-out laptop: %d", a.Status)
	}
	if a := f.send(t, "GET", "/whoami/", "Bearer "+third, ""); a.Status != 200 {
		t.Errorf("tablet after the laptop's logout: %d", a.Status)
	}
	// Logout-all ends every token of alice, and none of carol's.
	f.login(t, "desktop")
	if a := f.send(t, "POST", "/auth/logoutall/", "Bearer "+third, ""); a.Status != 204 {
		t.Errorf("logoutall: %d %s", a.Status, a.Body)
	}
	var n int
	if err := f.db.Get(&n, f.db.Rebind(`SELECT COUNT(*) FROM "hashedtoken_token" WHERE "user_id" = ?`), f.alice.ID); err != nil || n != 0 {
		t.Errorf("alice keeps %d tokens (%v)", n, err)
	}
	if a := f.send(t, "GET", "/whoami/", "Bearer "+carolKey, ""); a.Status != 200 {
		t.Errorf("carol after alice's logout-all: %d", a.Status)
	}
	// Anonymous requests are refused with the first scheme's challenge.
	for _, p := range []string{"/auth/tokens/", "/auth/logoutall/"} {
		if a := f.send(t, "GET", p, "", ""); a.Status != 401 || a.Header.Get("WWW-Authenticate") != "Bearer" {
			t.Errorf("anonymous %s: %d %q", p, a.Status, a.Header.Get("WWW-Authenticate"))
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestCommand(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "db.sqlite3")
	f := newFixture(t, dsn, Tokens{})
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		env := &management.Env{Stdout: &out, Stderr: &errOut, DatabaseURL: dsn}
		code := management.Execute(context.Background(), env, append([]string{"hashedtoken"}, args...), Command(Tokens{TTL: -1}))
		return code, out.String(), errOut.String()
	}
	created := regexp.MustCompile(`^Generated token (drfht_[0-9a-f]{64}) for user alice \(id (\d+), expires never\)\n$`)
	code, out, errOut := run("create", "alice", "--name", "ci")
	m := created.FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("create: %d %q %q", code, out, errOut)
	}
	if a := f.send(t, "GET", "/whoami/", "Bearer "+m[1], ""); a.Status != 200 {
		t.Errorf("the printed key: %d", a.Status)
	}
	if code, out, _ := run("list", "alice"); code != 0 || !strings.Contains(out, m[1][len(KeyPrefix):][:prefixLength]+"  ci") || strings.Contains(out, m[1][len(KeyPrefix):]) {
		t.Errorf("list: %d %q", code, out)
	}
	if code, out, _ := run("revoke", "alice", m[2]); code != 0 || out != "Revoked token "+m[2]+" of user alice.\n" {
		t.Errorf("revoke: %d %q", code, out)
	}
	if code, _, errOut := run("revoke", "alice", m[2]); code != 1 || errOut != "CommandError: user alice has no token "+m[2]+"\n" {
		t.Errorf("revoke again: %d %q", code, errOut)
	}
	run("create", "alice")
	run("create", "alice")
	if code, out, _ := run("revoke", "--all", "alice"); code != 0 || out != "Revoked 2 tokens of user alice.\n" {
		t.Errorf("revoke --all: %d %q", code, out)
	}
	if code, _, errOut := run("create", "nobody"); code != 1 || errOut != "CommandError: user nobody does not exist\n" {
		t.Errorf("unknown user: %d %q", code, errOut)
	}
	for _, args := range [][]string{{}, {"bogus", "alice"}, {"create"}, {"revoke", "alice"}, {"revoke", "alice", "x"}, {"list", "alice", "bob"}, {"create", "alice", "--name", strings.Repeat("x", 65)}} {
		if code, _, _ := run(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, out, _ := run("clearexpired"); code != 0 || out != "Deleted 0 expired tokens.\n" {
		t.Errorf("clearexpired: %d %q", code, out)
	}
}
