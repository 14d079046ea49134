package sessions_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/signing"
)

// djangoSigner reads and writes session data as Django's db backend does
// with the fixture's SECRET_KEY.
func djangoSigner(key string) signing.Signer {
	return signing.Signer{Key: key, Salt: "django.contrib.sessions.SessionStore"}
}

// stored returns the decoded data of session key.
func (f *fixture) stored(t *testing.T, key string) map[string]any {
	t.Helper()
	var raw string
	if err := f.db.Get(&raw, `SELECT "session_data" FROM "django_session" WHERE "session_key" = ?`, key); err != nil {
		t.Fatal(err)
	}
	var data map[string]any
	if err := djangoSigner(f.m.SecretKey).Loads(raw, &data); err != nil {
		t.Fatalf("session data %q is not Django's signed format: %v", raw, err)
	}
	return data
}

// plant stores a session as a Django site would, and returns its cookie.
func (f *fixture) plant(t *testing.T, key, secret string, data map[string]any) *http.Cookie {
	t.Helper()
	encoded, err := djangoSigner(secret).Dumps(data, true, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	f.db.MustExec(`INSERT INTO "django_session" VALUES (?, ?, ?)`, key, encoded, store.FormatTime(time.Now().Add(time.Hour)))
	return &http.Cookie{Name: "sessionid", Value: key}
}

func TestLoginWritesDjangosSession(t *testing.T) {
	f := newFixture(t)
	sid, _ := f.login(t)
	u, _ := f.users.Get(context.Background(), f.alice.ID)
	want := map[string]any{
		"_auth_user_id":      "1",
		"_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
		"_auth_user_hash":    sessions.AuthHash(u, "test-secret-key"),
	}
	got := f.stored(t, sid.Value)
	if b1, b2 := mustJSON(got), mustJSON(want); b1 != b2 {
		t.Errorf("session data %s\nwant %s", b1, b2)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestDjangosSessionsAuthenticate(t *testing.T) {
	f := newFixture(t, func(m *sessions.Manager) {
		m.SecretKeyFallbacks = []string{"old-secret-key"}
		m.Backends = []string{"django.contrib.auth.backends.ModelBackend", "myapp.backends.EmailBackend"}
	})
	u, _ := f.users.Get(context.Background(), f.alice.ID)
	login := func(backend, hashKey string) map[string]any {
		return map[string]any{"_auth_user_id": "1", "_auth_user_backend": backend, "_auth_user_hash": sessions.AuthHash(u, hashKey), "cart": []int{1, 2}}
	}
	for _, c := range []struct {
		name, key, signKey string
		data               map[string]any
		want               string
	}{
		{"Django's session", "django00000000000000000000000001", "test-secret-key", login("django.contrib.auth.backends.ModelBackend", "test-secret-key"), "alice"},
		{"second backend", "django00000000000000000000000002", "test-secret-key", login("myapp.backends.EmailBackend", "test-secret-key"), "alice"},
		{"backend not listed", "django00000000000000000000000003", "test-secret-key", login("django.contrib.auth.backends.RemoteUserBackend", "test-secret-key"), "anonymous"},
		{"signed with a fallback", "django00000000000000000000000004", "old-secret-key", login("django.contrib.auth.backends.ModelBackend", "test-secret-key"), "alice"},
		{"signed with another key", "django00000000000000000000000005", "another-key", login("django.contrib.auth.backends.ModelBackend", "test-secret-key"), "anonymous"},
		{"numeric user id", "django00000000000000000000000006", "test-secret-key", map[string]any{"_auth_user_id": 1, "_auth_user_backend": "django.contrib.auth.backends.ModelBackend", "_auth_user_hash": sessions.AuthHash(u, "test-secret-key")}, "alice"},
		{"user id as Python's int() reads it", "django00000000000000000000000011", "test-secret-key", map[string]any{"_auth_user_id": " +١ ", "_auth_user_backend": "django.contrib.auth.backends.ModelBackend", "_auth_user_hash": sessions.AuthHash(u, "test-secret-key")}, "alice"},
		{"user id not a number", "django00000000000000000000000012", "test-secret-key", map[string]any{"_auth_user_id": "one", "_auth_user_backend": "django.contrib.auth.backends.ModelBackend", "_auth_user_hash": sessions.AuthHash(u, "test-secret-key")}, "anonymous"},
		{"anonymous session", "django00000000000000000000000007", "test-secret-key", map[string]any{"cart": []int{1}}, "anonymous"},
		{"unknown user", "django00000000000000000000000008", "test-secret-key", map[string]any{"_auth_user_id": "99", "_auth_user_backend": "django.contrib.auth.backends.ModelBackend", "_auth_user_hash": "x"}, "anonymous"},
	} {
		if got := f.me(t, f.plant(t, c.key, c.signKey, c.data)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	// The auth hash of a fallback key is replaced by SecretKey's, the rest kept.
	sid := f.plant(t, "django00000000000000000000000009", "test-secret-key", login("django.contrib.auth.backends.ModelBackend", "old-secret-key"))
	if got := f.me(t, sid); got != "alice" {
		t.Fatalf("hash of a fallback key: %q", got)
	}
	if data := f.stored(t, sid.Value); data["_auth_user_hash"] != sessions.AuthHash(u, "test-secret-key") || data["cart"] == nil {
		t.Errorf("after a fallback hash: %v", data)
	}
	// A hash of another password: the session ends.
	sid = f.plant(t, "django00000000000000000000000010", "test-secret-key", login("django.contrib.auth.backends.ModelBackend", "another-key"))
	if got := f.me(t, sid); got != "anonymous" {
		t.Errorf("wrong auth hash: %q", got)
	}
	var n int
	if err := f.db.Get(&n, `SELECT count(*) FROM "django_session" WHERE "session_key" = ?`, sid.Value); err != nil || n != 0 {
		t.Errorf("the session of a wrong hash was kept (%d, %v)", n, err)
	}
}

// As Django's login(): an anonymous session's data and the data of the
// same user's session carry over to the new key; another user's do not.
func TestLoginCarriesOverSessionData(t *testing.T) {
	f := newFixture(t)
	u, _ := f.users.Get(context.Background(), f.alice.ID)
	for _, c := range []struct {
		name string
		data map[string]any
		kept bool
	}{
		{"anonymous", map[string]any{"cart": "1,2"}, true},
		{"same user", map[string]any{"cart": "1,2", "_auth_user_id": "1", "_auth_user_backend": "django.contrib.auth.backends.ModelBackend", "_auth_user_hash": sessions.AuthHash(u, "test-secret-key")}, true},
		{"other user", map[string]any{"cart": "1,2", "_auth_user_id": "2", "_auth_user_backend": "django.contrib.auth.backends.ModelBackend", "_auth_user_hash": "x"}, false},
	} {
		old := f.plant(t, "carry"+c.name[:4]+"0000000000000000000000000", "test-secret-key", c.data)
		tok, ck := f.loginPage(t, "/api-auth/login/")
		p := f.send(t, "POST", "/api-auth/login/", "username=alice&password=alice-pass&csrfmiddlewaretoken="+tok, ck, old)
		sid := p.cookies["sessionid"]
		if p.status != 302 || sid == nil || sid.Value == old.Value {
			t.Fatalf("%s: login %d, cookie %v", c.name, p.status, sid)
		}
		if data := f.stored(t, sid.Value); (data["cart"] == "1,2") != c.kept || data["_auth_user_id"] != "1" {
			t.Errorf("%s: new session %v; cart kept = %v", c.name, data, !c.kept)
		}
		if f.me(t, old) != "anonymous" {
			t.Errorf("%s: the old key still logs in", c.name)
		}
	}
}

func TestNoSecretKeyIsAnError(t *testing.T) {
	f := newFixture(t)
	sid, _ := f.login(t)
	m := &sessions.Manager{DB: f.db, Users: f.users}
	r := httptest.NewRequest("GET", "/", nil)
	r.AddCookie(sid)
	if _, err := m.SessionUser(r); !errors.Is(err, sessions.ErrNoSecretKey) {
		t.Errorf("SessionUser without a key: %v", err)
	}
	if err := m.Login(httptest.NewRecorder(), r, f.alice); !errors.Is(err, sessions.ErrNoSecretKey) {
		t.Errorf("Login without a key: %v", err)
	}
	// Without a session cookie there is nothing to check.
	if u, err := m.SessionUser(httptest.NewRequest("GET", "/", nil)); u != nil || err != nil {
		t.Errorf("no cookie: %v, %v", u, err)
	}
}
