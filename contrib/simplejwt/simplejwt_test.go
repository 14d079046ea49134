package simplejwt_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/simplejwt"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
)

var hex32 = regexp.MustCompile(`^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$`)

// challenge is the WWW-Authenticate of every 401.
const challenge = `Bearer realm="api"`

// The tables as simplejwt 5.2's migrations leave them on SQLite (read from
// the reference's database, migrated by Django 3.2).
var djangoSQLite = map[string]string{
	"token_blacklist_outstandingtoken": `CREATE TABLE "token_blacklist_outstandingtoken" ("token" text NOT NULL, "created_at" datetime NULL, ` +
		`"expires_at" datetime NOT NULL, "user_id" integer NULL REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED, ` +
		`"jti" varchar(255) NOT NULL UNIQUE, "id" integer NOT NULL PRIMARY KEY AUTOINCREMENT)`,
	"token_blacklist_outstandingtoken_user_id_83bc629a": `CREATE INDEX "token_blacklist_outstandingtoken_user_id_83bc629a" ON "token_blacklist_outstandingtoken" ("user_id")`,
	"token_blacklist_blacklistedtoken": `CREATE TABLE "token_blacklist_blacklistedtoken" ("blacklisted_at" datetime NOT NULL, ` +
		`"token_id" bigint NOT NULL UNIQUE REFERENCES "token_blacklist_outstandingtoken" ("id") DEFERRABLE INITIALLY DEFERRED, ` +
		`"id" integer NOT NULL PRIMARY KEY AUTOINCREMENT)`,
}

// djangoMigrations are the token_blacklist rows of the reference's
// django_migrations (simplejwt 5.2's).
const djangoMigrations = "0001_initial 0002_outstandingtoken_jti_hex 0003_auto_20171017_2007 0004_auto_20171017_2013 " +
	"0005_remove_outstandingtoken_jti 0006_auto_20171017_2113 0007_auto_20171017_2214 0008_migrate_to_bigautofield " +
	"0010_fix_migrate_to_bigautofield 0011_linearizes_history 0012_alter_outstandingtoken_user"

// migration0013 is simplejwt 5.5's last migration, which changes only the
// models' verbose names: Migrations record it after djangoMigrations.
const migration0013 = "0013_alter_blacklistedtoken_options_and_more"

func TestMigrationsAreDjangos(t *testing.T) {
	f := newFixture(t, ":memory:", theReferences)
	for name, want := range djangoSQLite {
		var got string
		if err := f.db.Get(&got, `SELECT "sql" FROM "sqlite_master" WHERE "name" = ?`, name); err != nil || got != want {
			t.Errorf("%s:\n%s (%v)\nwant:\n%s", name, got, err, want)
		}
	}
	var names []string
	if err := f.db.Select(&names, `SELECT "name" FROM "django_migrations" WHERE "app" = 'token_blacklist' ORDER BY "id"`); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names, " "); got != djangoMigrations+" "+migration0013 {
		t.Errorf("recorded migrations: %s", got)
	}
}

// A database simplejwt 5.2's migrations migrated (those of Django, or
// this package's before its models), with a token Django blacklisted:
// only 5.5's 0013 is applied, which leaves the tables as they are, and
// the token is refused.
func TestDjangoDatabaseIsRecognised(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := migrations.Migrate(ctx, db, auth.Migrations...); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"token_blacklist_outstandingtoken", "token_blacklist_outstandingtoken_user_id_83bc629a", "token_blacklist_blacklistedtoken"} {
		db.MustExec(djangoSQLite[name])
	}
	for _, name := range strings.Fields(djangoMigrations) {
		db.MustExec(`INSERT INTO "django_migrations" ("app", "name", "applied") VALUES ('token_blacklist', ?, '2024-01-01 00:00:00.000000')`, name)
	}
	if applied, err := migrations.Migrate(ctx, db, simplejwt.Migrations...); err != nil || len(applied) != 1 || applied[0] != "token_blacklist."+migration0013 {
		t.Fatalf("applied %v (%v) on a Django database", applied, err)
	}
	for name, want := range djangoSQLite {
		var got string
		if err := db.Get(&got, `SELECT "sql" FROM "sqlite_master" WHERE "name" = ?`, name); err != nil || got != want {
			t.Errorf("%s after 0013:\n%s (%v)", name, got, err)
		}
	}
	users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}
	legacy := theReferences
	legacy.Compatibility = compat.DRF314
	j, err := simplejwt.New(db, users, secretKey, legacy)
	if err != nil {
		t.Fatal(err)
	}
	refresh := &simplejwt.Token{Now: time.Now()}
	refresh.Claims.SetString("token_type", "refresh")
	refresh.Claims.SetInt("exp", time.Now().Add(time.Hour).Unix())
	refresh.Claims.SetString("jti", "0123456789abcdef0123456789abcdef")
	raw, err := j.Encode(refresh)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Refresh(ctx, raw); err != nil {
		t.Fatalf("before Django blacklists it: %v", err)
	}
	// The refresh blacklisted it (rotation); Django's row would do the same.
	if _, err := j.Read(ctx, raw, simplejwt.TypeRefresh); err == nil || err.Error() != "Token is blacklisted" {
		t.Errorf("after: %v", err)
	}
}

// The whole life of a pair, as the reference answers each step (its
// settings: rotation, blacklist after rotation).
func TestPairLifeAsTheReference(t *testing.T) { testPairLife(t, ":memory:") }

func testPairLife(t *testing.T, dsn string) {
	f := newFixture(t, dsn, theReferences)
	refresh, access := f.pair(t)
	names, claims := payload(t, refresh)
	if got := strings.Join(names, " "); got != "token_type exp iat jti user_id" {
		t.Errorf("refresh claims in order: %s", got)
	}
	iat := claims["iat"].(float64)
	if claims["token_type"] != "refresh" || claims["exp"].(float64)-iat != 86400 || !hex32.MatchString(claims["jti"].(string)) ||
		claims["user_id"] != float64(f.alice.ID) {
		t.Errorf("refresh claims: %v", claims)
	}
	names, aclaims := payload(t, access)
	if got := strings.Join(names, " "); got != "token_type exp iat jti user_id" {
		t.Errorf("access claims in order: %s", got)
	}
	if aclaims["token_type"] != "access" || aclaims["exp"].(float64)-aclaims["iat"].(float64) != 300 || aclaims["jti"] == claims["jti"] ||
		aclaims["user_id"] != float64(f.alice.ID) {
		t.Errorf("access claims: %v", aclaims)
	}
	if r := f.c.Get("/whoami/", bearer(access)); r.Status != 200 || r.Body != `{"username":"alice"}` {
		t.Errorf("whoami with the access token: %d %s", r.Status, r.Body)
	}
	if r := f.c.Post("/token/verify/", `{"token":"`+refresh+`"}`); r.Status != 200 || r.Body != `{}` {
		t.Errorf("verify: %d %s", r.Status, r.Body)
	}

	// Refresh: a new access token whose iat is the refresh token's, and a
	// new refresh token; the one sent is blacklisted.
	r := f.c.Post("/token/refresh/", `{"refresh":"`+refresh+`"}`)
	var p struct{ Access, Refresh string }
	r.Decode(&p)
	if r.Status != 200 || !strings.HasPrefix(r.Body, `{"access":"`) || p.Refresh == "" {
		t.Fatalf("refresh: %d %s", r.Status, r.Body)
	}
	_, a2 := payload(t, p.Access)
	_, r2 := payload(t, p.Refresh)
	if a2["iat"] != iat || a2["token_type"] != "access" || a2["user_id"] != float64(f.alice.ID) {
		t.Errorf("refreshed access: %v (iat should be the refresh token's, %v)", a2, iat)
	}
	if r2["jti"] == claims["jti"] || r2["token_type"] != "refresh" || r2["exp"].(float64)-r2["iat"].(float64) != 86400 {
		t.Errorf("rotated refresh: %v", r2)
	}
	blacklisted := `{"detail":"Token is blacklisted","code":"token_not_valid"}`
	for _, path := range []string{"/token/refresh/", "/token/blacklist/"} {
		if r := f.c.Post(path, `{"refresh":"`+refresh+`"}`); r.Status != 401 || r.Body != blacklisted || r.Header.Get("WWW-Authenticate") != challenge {
			t.Errorf("%s with the rotated token: %d %s %q", path, r.Status, r.Body, r.Header.Get("WWW-Authenticate"))
		}
	}
	if r := f.c.Post("/token/verify/", `{"token":"`+refresh+`"}`); r.Status != 400 || r.Body != `{"non_field_errors":["Token is blacklisted"]}` {
		t.Errorf("verify of the rotated token: %d %s", r.Status, r.Body)
	}
	// Access tokens are not blacklisted: the first still works.
	if r := f.c.Get("/whoami/", bearer(access)); r.Status != 200 {
		t.Errorf("the first access token after the rotation: %d %s", r.Status, r.Body)
	}

	// Blacklist the new refresh token.
	if r := f.c.Post("/token/blacklist/", `{"refresh":"`+p.Refresh+`"}`); r.Status != 200 || r.Body != `{}` {
		t.Fatalf("blacklist: %d %s", r.Status, r.Body)
	}
	if r := f.c.Post("/token/refresh/", `{"refresh":"`+p.Refresh+`"}`); r.Status != 401 || r.Body != blacklisted {
		t.Errorf("refresh with the blacklisted token: %d %s", r.Status, r.Body)
	}

	// The rows, as simplejwt writes them: the obtained token with its user
	// and creation time, the rotated ones without.
	var rows []struct {
		JTI     string  `db:"jti"`
		UserID  *int64  `db:"user_id"`
		Created *string `db:"created"`
		Token   string  `db:"token"`
		Listed  int     `db:"listed"`
	}
	if err := f.db.Select(&rows, `SELECT o."jti", o."user_id", CAST(o."created_at" AS text) AS "created", o."token", `+
		`(SELECT count(*) FROM "token_blacklist_blacklistedtoken" b WHERE b."token_id" = o."id") AS "listed" `+
		`FROM "token_blacklist_outstandingtoken" o ORDER BY o."id"`); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].JTI != claims["jti"] || rows[0].UserID == nil || *rows[0].UserID != f.alice.ID || rows[0].Created == nil ||
		rows[0].Token != refresh || rows[0].Listed != 1 ||
		rows[1].JTI != r2["jti"] || rows[1].UserID != nil || rows[1].Created != nil || rows[1].Token != p.Refresh || rows[1].Listed != 1 {
		t.Errorf("outstanding tokens: %+v", rows)
	}
}

// Each failure answers the reference's status, challenge and body.
func TestFailuresAsTheReference(t *testing.T) {
	f := newFixture(t, ":memory:", theReferences)
	refresh, access := f.pair(t)
	noAccount := `{"detail":"No active account found with the given credentials"}`
	invalid := `{"detail":"Token is invalid or expired","code":"token_not_valid"}`
	notValid := func(msg string) string {
		return `{"detail":"Given token not valid for any token type","code":"token_not_valid","messages":[{"token_class":"AccessToken","token_type":"access","message":"` + msg + `"}]}`
	}
	twoValues := `{"detail":"Authorization header must contain two space-delimited values","code":"bad_authorization_header"}`
	notProvided := `{"detail":"Authentication credentials were not provided."}`
	for _, c := range []struct {
		method, path, body string
		header             []string
		status             int
		want               string
	}{
		{"POST", "/token/", "username=alice&password=bad", []string{"Content-Type: application/x-www-form-urlencoded"}, 401, noAccount},
		{"POST", "/token/", `{"username":"bob","password":"bob-pass"}`, nil, 401, noAccount},
		{"POST", "/token/", `{"username":"nobody","password":"x"}`, nil, 401, noAccount},
		{"POST", "/token/", "", []string{"Content-Type: application/x-www-form-urlencoded"}, 400, `{"username":["This field is required."],"password":["This field is required."]}`},
		{"POST", "/token/", `{"username":"alice","password":""}`, nil, 400, `{"password":["This field may not be blank."]}`},
		{"GET", "/token/", "", nil, 405, `{"detail":"Method \"GET\" not allowed."}`},
		{"POST", "/token/verify/", `{"token":"abc"}`, nil, 401, invalid},
		{"POST", "/token/verify/", `{}`, nil, 400, `{"token":["This field is required."]}`},
		{"POST", "/token/verify/", `{"token":""}`, nil, 400, `{"token":["This field may not be blank."]}`},
		{"POST", "/token/verify/", `{"token":"` + access + `"}`, nil, 200, `{}`},
		{"POST", "/token/refresh/", `{"refresh":"` + access + `"}`, nil, 401, `{"detail":"Token has wrong type","code":"token_not_valid"}`},
		{"POST", "/token/refresh/", `{"refresh":5}`, nil, 401, invalid},
		{"POST", "/token/refresh/", `[]`, nil, 400, `{"non_field_errors":["Invalid data. Expected a dictionary, but got list."]}`},
		{"POST", "/token/blacklist/", `{"refresh":"` + access + `"}`, nil, 401, `{"detail":"Token has wrong type","code":"token_not_valid"}`},
		{"POST", "/token/blacklist/", `{}`, nil, 400, `{"refresh":["This field is required."]}`},
		{"GET", "/whoami/", "", []string{bearer(refresh)}, 401, notValid("Token has wrong type")},
		{"GET", "/whoami/", "", []string{"Authorization: Bearer a b"}, 401, twoValues},
		{"GET", "/whoami/", "", []string{"Authorization: Bearer"}, 401, twoValues},
		{"GET", "/whoami/", "", []string{"Authorization: bearer " + access}, 401, notProvided},
		{"GET", "/whoami/", "", []string{"Authorization: Bearer x.y.z"}, 401, notValid("Token is invalid or expired")},
		{"GET", "/whoami/", "", []string{"Authorization: Token abc"}, 401, notProvided},
		{"GET", "/whoami/", "", nil, 401, notProvided},
	} {
		r := f.c.Do(c.method, c.path, c.body, c.header...)
		wantChallenge := ""
		if c.status == 401 {
			wantChallenge = challenge
		}
		if r.Status != c.status || r.Body != c.want || r.Header.Get("WWW-Authenticate") != wantChallenge {
			t.Errorf("%s %s %s %v: %d %s %q\nwant %d %s", c.method, c.path, c.body, c.header, r.Status, r.Body, r.Header.Get("WWW-Authenticate"), c.status, c.want)
		}
	}
}

// OPTIONS lists each view's serializer fields as the reference does.
func TestOptionsAsTheReference(t *testing.T) {
	f := newFixture(t, ":memory:", theReferences)
	for path, want := range map[string]string{
		"/token/":           `"actions":{"POST":{"username":{"type":"string","required":true,"read_only":false,"label":"Username"},"password":{"type":"string","required":true,"read_only":false,"label":"Password"}}}}`,
		"/token/refresh/":   `"actions":{"POST":{"refresh":{"type":"string","required":true,"read_only":false,"label":"Refresh"},"access":{"type":"string","required":false,"read_only":true,"label":"Access"}}}}`,
		"/token/verify/":    `"actions":{"POST":{"token":{"type":"string","required":true,"read_only":false,"label":"Token"}}}}`,
		"/token/blacklist/": `"actions":{"POST":{"refresh":{"type":"string","required":true,"read_only":false,"label":"Refresh"}}}}`,
	} {
		if r := f.c.Do("OPTIONS", path, ""); r.Status != 200 || !strings.HasSuffix(r.Body, want) || !strings.HasPrefix(r.Body, `{"name":"Token `) {
			t.Errorf("OPTIONS %s: %d %s\nwant ...%s", path, r.Status, r.Body, want)
		}
	}
}

// sign signs claims with the fixture's key, as a third party holding it
// (or a Django site) would.
func sign(t *testing.T, f *fixture, set func(c *simplejwt.Claims)) string {
	t.Helper()
	tok := &simplejwt.Token{Now: time.Now()}
	now := time.Now()
	tok.Claims.SetString("token_type", "access")
	tok.Claims.SetInt("exp", now.Add(time.Minute).Unix())
	tok.Claims.SetInt("iat", now.Unix())
	tok.Claims.SetString("jti", "0123456789abcdef0123456789abcdef")
	tok.Claims.SetInt("user_id", f.alice.ID)
	set(&tok.Claims)
	raw, err := f.jwt.Encode(tok)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// without removes the claim name.
func without(name string) func(c *simplejwt.Claims) {
	return func(c *simplejwt.Claims) {
		*c = slices.DeleteFunc(*c, func(cl simplejwt.Claim) bool { return cl.Name == name })
	}
}

// Tokens that are signed but unfit get simplejwt's messages.
func TestUnfitTokens(t *testing.T) {
	f := newFixture(t, ":memory:", simplejwt.Settings{})
	past := time.Now().Add(-10 * time.Second).Unix()
	for _, c := range []struct {
		name, token, detail, code, message string
	}{
		{"expired", sign(t, f, func(c *simplejwt.Claims) { c.SetInt("exp", past) }), "Given token not valid for any token type", "token_not_valid", "Token is invalid or expired"},
		{"no exp", sign(t, f, without("exp")), "Given token not valid for any token type", "token_not_valid", "Token has no 'exp' claim"},
		{"no jti", sign(t, f, without("jti")), "Given token not valid for any token type", "token_not_valid", "Token has no id"},
		{"no type", sign(t, f, without("token_type")), "Given token not valid for any token type", "token_not_valid", "Token has no type"},
		{"not before", sign(t, f, func(c *simplejwt.Claims) { c.SetInt("nbf", time.Now().Add(time.Hour).Unix()) }), "Given token not valid for any token type", "token_not_valid", "Token is invalid or expired"},
		{"exp a string", sign(t, f, func(c *simplejwt.Claims) { c.SetString("exp", "soon") }), "Given token not valid for any token type", "token_not_valid", "Token is invalid or expired"},
		{"no user", sign(t, f, without("user_id")), "Token contained no recognizable user identification", "token_not_valid", ""},
		{"unknown user", sign(t, f, func(c *simplejwt.Claims) { c.SetInt("user_id", 999) }), "User not found", "user_not_found", ""},
		{"user id not a number", sign(t, f, func(c *simplejwt.Claims) { c.SetString("user_id", "x") }), "User not found", "user_not_found", ""},
		{"inactive user", sign(t, f, func(c *simplejwt.Claims) { c.SetInt("user_id", f.bob.ID) }), "User is inactive", "user_inactive", ""},
		{"other key", jwtWith(t, jwt.SigningMethodHS256, []byte("another key")), "Given token not valid for any token type", "token_not_valid", "Token is invalid or expired"},
		{"other algorithm", jwtWith(t, jwt.SigningMethodHS512, []byte(secretKey)), "Given token not valid for any token type", "token_not_valid", "Token is invalid or expired"},
		{"alg none", jwtWith(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType), "Given token not valid for any token type", "token_not_valid", "Token is invalid or expired"},
	} {
		want := `{"detail":"` + c.detail + `","code":"` + c.code + `"`
		if c.message != "" {
			want += `,"messages":[{"token_class":"AccessToken","token_type":"access","message":"` + c.message + `"}]`
		}
		want += "}"
		if r := f.c.Get("/whoami/", bearer(c.token)); r.Status != 401 || r.Body != want || r.Header.Get("WWW-Authenticate") != challenge {
			t.Errorf("%s: %d %s\nwant %s", c.name, r.Status, r.Body, want)
		}
	}
	// A user_id that is a string of the id (simplejwt 5.5 writes it so).
	if r := f.c.Get("/whoami/", bearer(sign(t, f, func(c *simplejwt.Claims) { c.SetString("user_id", "1") }))); r.Status != 200 || r.Body != `{"username":"alice"}` {
		t.Errorf("user_id as a string: %d %s", r.Status, r.Body)
	}
}

// jwtWith signs alice's access claims with another method or key.
func jwtWith(t *testing.T, m jwt.SigningMethod, key any) string {
	t.Helper()
	raw, err := jwt.NewWithClaims(m, jwt.MapClaims{"token_type": "access", "exp": time.Now().Add(time.Minute).Unix(),
		"jti": "0123456789abcdef0123456789abcdef", "user_id": 1}).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// Leeway lets an expired token through for that long.
func TestLeeway(t *testing.T) {
	f := newFixture(t, ":memory:", simplejwt.Settings{Leeway: time.Hour})
	expired := sign(t, f, func(c *simplejwt.Claims) { c.SetInt("exp", time.Now().Add(-time.Minute).Unix()) })
	if r := f.c.Get("/whoami/", bearer(expired)); r.Status != 200 {
		t.Errorf("within the leeway: %d %s", r.Status, r.Body)
	}
}

// Without rotation the refresh view answers the access token alone, and
// without the blacklist nothing is recorded.
func TestNoRotationNoBlacklist(t *testing.T) {
	f := newFixture(t, ":memory:", simplejwt.Settings{})
	refresh, _ := f.pair(t)
	for range 2 {
		r := f.c.Post("/token/refresh/", `{"refresh":"`+refresh+`"}`)
		if r.Status != 200 || !strings.HasPrefix(r.Body, `{"access":"`) || strings.Contains(r.Body, `"refresh"`) {
			t.Errorf("refresh: %d %s", r.Status, r.Body)
		}
	}
	var n int
	if err := f.db.Get(&n, `SELECT count(*) FROM "token_blacklist_outstandingtoken"`); err != nil || n != 0 {
		t.Errorf("%d outstanding tokens (%v)", n, err)
	}
}

// Audience and Issuer are written into the tokens and required of them.
func TestAudienceAndIssuer(t *testing.T) {
	f := newFixture(t, ":memory:", simplejwt.Settings{Audience: "books", Issuer: "https://issuer.example"})
	refresh, access := f.pair(t)
	names, claims := payload(t, access)
	if got := strings.Join(names, " "); got != "token_type exp iat jti user_id aud iss" || claims["aud"] != "books" || claims["iss"] != "https://issuer.example" {
		t.Errorf("claims %s: %v", got, claims)
	}
	if r := f.c.Get("/whoami/", bearer(access)); r.Status != 200 {
		t.Errorf("whoami: %d %s", r.Status, r.Body)
	}
	if r := f.c.Post("/token/refresh/", `{"refresh":"`+refresh+`"}`); r.Status != 200 {
		t.Errorf("refresh: %d %s", r.Status, r.Body)
	}
	other := newFixture(t, ":memory:", simplejwt.Settings{})
	for name, tok := range map[string]string{
		"no aud or iss": sign(t, other, func(*simplejwt.Claims) {}),
		"other aud":     sign(t, other, func(c *simplejwt.Claims) { c.SetString("aud", "films"); c.SetString("iss", "https://issuer.example") }),
		"other iss":     sign(t, other, func(c *simplejwt.Claims) { c.SetString("aud", "books"); c.SetString("iss", "https://other.example") }),
	} {
		if r := f.c.Get("/whoami/", bearer(tok)); r.Status != 401 || !strings.Contains(r.Body, "Token is invalid or expired") {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
}

// pemOf encodes a key in PEM.
func pemOf(t *testing.T, typ string, der []byte, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
}

// RS256 and ES256 sign with the private key; a service given only the
// public key verifies those tokens and refuses the others.
func TestPublicKeyAlgorithms(t *testing.T) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rsaPub, err := x509.MarshalPKIXPublicKey(&rsaKey.PublicKey)
	ecPriv, err2 := x509.MarshalECPrivateKey(ecKey)
	ecPub, err3 := x509.MarshalPKIXPublicKey(&ecKey.PublicKey)
	for _, c := range []struct{ alg, private, public string }{
		{"RS256", pemOf(t, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey), nil), pemOf(t, "PUBLIC KEY", rsaPub, err)},
		{"ES256", pemOf(t, "EC PRIVATE KEY", ecPriv, err2), pemOf(t, "PUBLIC KEY", ecPub, err3)},
	} {
		t.Run(c.alg, func(t *testing.T) {
			f := newFixture(t, ":memory:", simplejwt.Settings{Algorithm: c.alg, SigningKey: c.private})
			_, access := f.pair(t)
			if r := f.c.Get("/whoami/", bearer(access)); r.Status != 200 {
				t.Errorf("whoami: %d %s", r.Status, r.Body)
			}
			verifier, err := simplejwt.New(f.db, f.users, "", simplejwt.Settings{Algorithm: c.alg, VerifyingKey: c.public, Compatibility: compat.DRF314})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := verifier.Read(context.Background(), access, simplejwt.TypeAccess); err != nil {
				t.Errorf("the public key's service: %v", err)
			}
			if _, err := verifier.Obtain(context.Background(), f.alice); err == nil {
				t.Error("a service without the private key minted a token")
			}
			hs := jwtWith(t, jwt.SigningMethodHS256, []byte(c.public))
			if _, err := verifier.Read(context.Background(), hs, simplejwt.TypeAccess); err == nil || err.Error() != "Token is invalid or expired" {
				t.Errorf("an HS256 token signed with the public key: %v", err)
			}
		})
	}
}

// New refuses settings simplejwt would fail on, or that would not work.
func TestNewRefusesMisconfiguration(t *testing.T) {
	for _, c := range []struct {
		s    simplejwt.Settings
		want string
	}{
		{simplejwt.Settings{Algorithm: "HS1"}, `unrecognized algorithm type "HS1"`},
		{simplejwt.Settings{Algorithm: "none"}, `unrecognized algorithm type "none"`},
		{simplejwt.Settings{BlacklistAfterRotation: true}, "BlacklistAfterRotation needs TokenBlacklist"},
		{simplejwt.Settings{Algorithm: "RS256"}, "RS256 needs a SigningKey or a VerifyingKey"},
		{simplejwt.Settings{Algorithm: "ES256", SigningKey: "not PEM"}, "SigningKey of ES256"},
		{simplejwt.Settings{AccessTokenLifetime: -time.Second}, "must not be negative"},
	} {
		if _, err := simplejwt.New(nil, nil, secretKey, c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.s, err, c.want)
		}
	}
	if _, err := simplejwt.New(nil, nil, "", simplejwt.Settings{}); err == nil {
		t.Error("HS256 without a key")
	}
	j, err := simplejwt.New(nil, nil, secretKey, simplejwt.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "BlacklistView needs Settings.TokenBlacklist") {
			t.Errorf("BlacklistView without the blacklist: %v", p)
		}
	}()
	j.BlacklistView()
}
