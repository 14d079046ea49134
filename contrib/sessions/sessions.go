// Package sessions is Django's session framework for logins: server-side
// sessions in Django's django_session table, the sessionid cookie, login
// and logout (with the pages mounted at /api-auth/), and the CSRF
// protection that SessionAuthentication applies (package csrf). A *Manager
// is the authentication.SessionBackend of authentication.Session.
package sessions

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/sessions/csrf"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/random"
)

// Migrations creates django_session exactly as Django's "sessions
// 0001_initial" does on SQLite, and is recorded under that name, so a
// database Django created is recognised.
var Migrations = []store.Migration{
	{App: "sessions", Name: "0001_initial", Up: store.SQL(
		`CREATE TABLE IF NOT EXISTS "django_session" (`+
			`"session_key" varchar(40) NOT NULL PRIMARY KEY, `+
			`"session_data" text NOT NULL, `+
			`"expire_date" datetime NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS "django_session_expire_date_a5c62663" ON "django_session" ("expire_date")`,
	)},
}

// Defaults of Manager's fields, Django's settings.
const (
	DefaultCookieName = "sessionid"
	DefaultAge        = 14 * 24 * time.Hour
	DefaultRedirect   = "/whoami/"
)

// KeyLength is the length of a session key: lower-case letters and digits
// from crypto/rand, as Django's.
const KeyLength = 32

// Manager keeps the sessions of logged-in users. Fields left zero take
// Django's defaults. Do not change a Manager once it is in use.
type Manager struct {
	// DB holds django_session (see Migrations).
	DB *sqlx.DB
	// Users holds the users who log in.
	Users *auth.Users
	// CSRF is the CSRF protection of the session scheme and of the login
	// and logout pages; nil gives Django's defaults.
	CSRF *csrf.Protection

	// CookieName is SESSION_COOKIE_NAME; "" gives "sessionid".
	CookieName string
	// Age is how long a session lasts from its login (SESSION_COOKIE_AGE);
	// 0 gives two weeks.
	Age time.Duration
	// Secure marks the cookie Secure (SESSION_COOKIE_SECURE).
	Secure bool
	// CookieDomain is SESSION_COOKIE_DOMAIN; "" gives a host-only cookie.
	CookieDomain string
	// LoginRedirect is where a login without a safe "next" goes; "" gives "/whoami/".
	LoginRedirect string
	// LogoutRedirect is where a logout without a safe "next" goes; "" gives "/whoami/".
	LogoutRedirect string

	once       sync.Once
	protection *csrf.Protection
}

// sessionData is what a session stores, JSON in session_data. Django's own
// encoding is signed with its SECRET_KEY; this one is not meant for Django.
type sessionData struct {
	UserID string `json:"_auth_user_id"`
	Hash   string `json:"_auth_user_hash"`
}

// Protection returns the CSRF protection in use.
func (m *Manager) Protection() *csrf.Protection {
	m.once.Do(func() {
		m.protection = m.CSRF
		if m.protection == nil {
			m.protection = &csrf.Protection{}
		}
	})
	return m.protection
}

func (m *Manager) cookieName() string {
	if m.CookieName == "" {
		return DefaultCookieName
	}
	return m.CookieName
}

func (m *Manager) age() time.Duration {
	if m.Age == 0 {
		return DefaultAge
	}
	return m.Age
}

// cookieKey returns the session key the request's cookie names, "" when none.
func (m *Manager) cookieKey(r *http.Request) string {
	c, err := r.Cookie(m.cookieName())
	if err != nil || len(c.Value) > 40 {
		return ""
	}
	return c.Value
}

// SessionUser returns the user logged in by the request's session, or nil
// when the cookie is missing, the session is unknown or expired, the user
// is gone or inactive, or the user's password changed since the login (the
// session is then deleted).
func (m *Manager) SessionUser(r *http.Request) (request.User, error) {
	u, err := m.sessionUser(r)
	if u == nil || err != nil {
		return nil, err
	}
	return u, nil
}

func (m *Manager) sessionUser(r *http.Request) (*auth.User, error) {
	key := m.cookieKey(r)
	if key == "" {
		return nil, nil
	}
	ctx := r.Context()
	var row struct {
		Data   string    `db:"session_data"`
		Expire time.Time `db:"expire_date"`
	}
	err := m.DB.GetContext(ctx, &row, `SELECT "session_data", "expire_date" FROM "django_session" WHERE "session_key" = ?`, key)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !row.Expire.After(time.Now()) {
		return nil, nil
	}
	var data sessionData
	if json.Unmarshal([]byte(row.Data), &data) != nil {
		return nil, nil
	}
	id, err := strconv.ParseInt(data.UserID, 10, 64)
	if err != nil {
		return nil, nil
	}
	u, err := m.Users.Get(ctx, id)
	if errors.Is(err, auth.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !hmac.Equal([]byte(data.Hash), []byte(authHash(u))) {
		return nil, m.delete(ctx, key)
	}
	if !u.Active {
		return nil, nil
	}
	return u, nil
}

// authHash ties a session to the password it logged in with, so that
// changing the password ends the user's other sessions (Django's
// get_session_auth_hash).
func authHash(u *auth.User) string {
	mac := hmac.New(sha256.New, []byte("go-drf.sessions.auth-hash"))
	mac.Write([]byte(u.Password))
	return hex.EncodeToString(mac.Sum(nil))
}

// EnforceCSRF checks r with the CSRF protection; a failure is 403
// "CSRF Failed: <reason>". The csrfmiddlewaretoken field is read from form
// and multipart POST bodies, through the request's parsers.
func (m *Manager) EnforceCSRF(r *request.Request) error {
	var parseErr error
	err := m.Protection().Check(r.Request, func() string {
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if mt != "application/x-www-form-urlencoded" && mt != "multipart/form-data" {
			return ""
		}
		data, err := r.Data()
		if err != nil {
			parseErr = err
			return ""
		}
		fields, _ := data.(map[string]any)
		token, _ := fields[m.Protection().Field()].(string)
		return token
	})
	if parseErr != nil {
		return parseErr
	}
	var failure *csrf.Error
	if errors.As(err, &failure) {
		return exceptions.PermissionDenied("CSRF Failed: " + failure.Reason)
	}
	return err
}

// Login starts a session for u, as Django's login(): the request's old
// session is deleted, a new one is stored under a new key and its sessionid
// cookie is set on w, the CSRF secret is rotated, and u's last_login is
// updated. Call it before writing the response's header.
func (m *Manager) Login(w http.ResponseWriter, r *http.Request, u *auth.User) error {
	ctx := r.Context()
	if old := m.cookieKey(r); old != "" {
		if err := m.delete(ctx, old); err != nil {
			return err
		}
	}
	data, err := json.Marshal(sessionData{UserID: strconv.FormatInt(u.ID, 10), Hash: authHash(u)})
	if err != nil {
		return err
	}
	expires := time.Now().Add(m.age()).UTC()
	var key string
	for range 3 {
		key = random.String(KeyLength, "abcdefghijklmnopqrstuvwxyz0123456789")
		_, err = m.DB.ExecContext(ctx, `INSERT INTO "django_session" ("session_key", "session_data", "expire_date") VALUES (?, ?, ?)`,
			key, string(data), store.FormatTime(expires))
		if !store.IsUniqueViolation(err) {
			break
		}
	}
	if err != nil {
		return err
	}
	if err := m.Users.UpdateLastLogin(ctx, u); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{
		Name: m.cookieName(), Value: key, Path: "/", Domain: m.CookieDomain,
		MaxAge: int(m.age() / time.Second), Expires: expires,
		HttpOnly: true, Secure: m.Secure, SameSite: http.SameSiteLaxMode,
	})
	m.Protection().Rotate(w)
	return nil
}

// Logout ends the request's session, as Django's logout(): the session is
// deleted and, when the request had a session cookie, the cookie is
// cleared on w.
func (m *Manager) Logout(w http.ResponseWriter, r *http.Request) error {
	if _, err := r.Cookie(m.cookieName()); err != nil {
		return nil
	}
	if key := m.cookieKey(r); key != "" {
		if err := m.delete(r.Context(), key); err != nil {
			return err
		}
	}
	http.SetCookie(w, &http.Cookie{
		Name: m.cookieName(), Value: "", Path: "/", Domain: m.CookieDomain,
		MaxAge: -1, Expires: time.Unix(0, 0), SameSite: http.SameSiteLaxMode,
	})
	return nil
}

// ClearExpired deletes the expired sessions and returns how many there
// were (Django's clearsessions).
func (m *Manager) ClearExpired(ctx context.Context) (int64, error) {
	res, err := m.DB.ExecContext(ctx, `DELETE FROM "django_session" WHERE "expire_date" < ?`, store.FormatTime(time.Now()))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (m *Manager) delete(ctx context.Context, key string) error {
	_, err := m.DB.ExecContext(ctx, `DELETE FROM "django_session" WHERE "session_key" = ?`, key)
	return err
}
