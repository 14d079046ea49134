// Package sessions is Django's session framework for logins: server-side
// sessions in Django's django_session table, signed and encoded exactly as
// Django's database backend does with the shared SECRET_KEY (so a login on
// a Django site is a login here, and the other way round), the sessionid
// cookie, login and logout (with the pages mounted at /api-auth/), the
// CSRF protection that SessionAuthentication applies (package csrf), and
// Middleware, Django's SessionMiddleware around the whole site. A *Manager
// is the authentication.SessionBackend of authentication.Session.
package sessions

import (
	"context"
	"crypto/hmac"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/internal/djangohttp"
	"github.com/go-drf/drf/contrib/internal/tables"
	"github.com/go-drf/drf/contrib/sessions/csrf"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/pycompat"
	"github.com/go-drf/drf/internal/random"
	"github.com/go-drf/drf/internal/signing"
)

// Defaults of Manager's fields, Django's settings.
const (
	defaultCookieName = "sessionid"
	defaultAge        = 14 * 24 * time.Hour
	// defaultLoginRedirect is Django's LOGIN_REDIRECT_URL.
	defaultLoginRedirect = "/accounts/profile/"
	// defaultLogoutRedirect is where a logout goes without LOGOUT_REDIRECT_URL
	// (Django renders a "logged out" page there instead).
	defaultLogoutRedirect = "/"
	defaultBackend        = "django.contrib.auth.backends.ModelBackend"
)

// keyLength is the length of a session key: lower-case letters and digits
// from crypto/rand, as Django's.
const keyLength = 32

// The keys of a login in Django's session data (django.contrib.auth's
// SESSION_KEY, BACKEND_SESSION_KEY and HASH_SESSION_KEY).
const (
	UserIDKey  = "_auth_user_id"
	BackendKey = "_auth_user_backend"
	HashKey    = "_auth_user_hash"
)

// Django's salts: the session store's signatures (SessionBase.key_salt of
// the db and cached_db backends) and the session auth hash.
const (
	sessionSalt  = "django.contrib.sessions.SessionStore"
	authHashSalt = "django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash"
)

// ErrNoSecretKey is returned by a Manager whose SecretKey is empty, as
// Django refuses to start without a SECRET_KEY.
var ErrNoSecretKey = errors.New("sessions: Manager.SecretKey is empty; set it to the SECRET_KEY of the Django site sharing the database, or to a long random string")

// Manager keeps the sessions of logged-in users. Fields left zero take
// Django's defaults, except SecretKey, which must be set. Do not change a
// Manager once it is in use.
type Manager struct {
	// DB holds django_session (see Migrations).
	DB *sqlx.DB
	// Users holds the users who log in.
	Users *auth.Users
	// CSRF is the CSRF protection of the session scheme and of the login
	// and logout pages; nil gives Django's defaults, logging on Logger.
	CSRF *csrf.Protection
	// Logger receives what the pages log (a server error); nil gives
	// slog.Default(). Give it the API's (framework.Settings.Logger).
	Logger *slog.Logger

	// SecretKey is Django's SECRET_KEY: it signs the session data and the
	// session auth hash. A Django site sharing the sessions must have the
	// same.
	SecretKey string
	// SecretKeyFallbacks is Django's SECRET_KEY_FALLBACKS: older keys whose
	// sessions are still read, for rotating SecretKey without logging
	// everyone out.
	SecretKeyFallbacks []string
	// Backends is Django's AUTHENTICATION_BACKENDS as the sessions see it:
	// a session whose _auth_user_backend is not listed is anonymous, and
	// logins here record the first. nil gives Django's
	// "django.contrib.auth.backends.ModelBackend".
	Backends []string

	// CookieName is SESSION_COOKIE_NAME; "" gives "sessionid".
	CookieName string
	// Age is how long a session lasts from its login (SESSION_COOKIE_AGE);
	// 0 gives two weeks.
	Age time.Duration
	// Secure marks the cookie Secure (SESSION_COOKIE_SECURE).
	Secure bool
	// CookieDomain is SESSION_COOKIE_DOMAIN; "" gives a host-only cookie.
	CookieDomain string
	// LoginRedirect is where a login without a safe "next" goes
	// (LOGIN_REDIRECT_URL); "" gives "/accounts/profile/".
	LoginRedirect string
	// LogoutRedirect is where a logout without a safe "next" goes
	// (LOGOUT_REDIRECT_URL); "" gives "/".
	LogoutRedirect string

	// Compatibility is the Django release whose pages and CSRF reasons
	// the manager gives: Django 5.2's by default, Django 3.2's at
	// compat.DRF314 (the API's framework.Settings.Compatibility). It is
	// given to the default CSRF protection.
	Compatibility compat.Level

	once       sync.Once
	protection *csrf.Protection
}

// Protection returns the CSRF protection in use.
func (m *Manager) Protection() *csrf.Protection {
	m.once.Do(func() {
		m.protection = m.CSRF
		if m.protection == nil {
			m.protection = &csrf.Protection{Logger: m.Logger, Compatibility: m.Compatibility}
		}
	})
	return m.protection
}

// logger is Logger, slog.Default() when nil.
func (m *Manager) logger() *slog.Logger {
	if m.Logger == nil {
		return slog.Default()
	}
	return m.Logger
}

// SessionCookieName returns the session cookie's name (SESSION_COOKIE_NAME),
// which an OpenAPI schema documents.
func (m *Manager) SessionCookieName() string { return m.cookieName() }

// CSRFHeaderName returns the header that carries the CSRF token
// (CSRF_HEADER_NAME), which an OpenAPI schema documents.
func (m *Manager) CSRFHeaderName() string { return m.Protection().Header() }

func (m *Manager) cookieName() string {
	if m.CookieName == "" {
		return defaultCookieName
	}
	return m.CookieName
}

func (m *Manager) age() time.Duration {
	if m.Age == 0 {
		return defaultAge
	}
	return m.Age
}

func (m *Manager) backends() []string {
	if len(m.Backends) == 0 {
		return []string{defaultBackend}
	}
	return m.Backends
}

// signer signs session data as Django's SessionBase.encode does.
func (m *Manager) signer() signing.Signer {
	return signing.Signer{Key: m.SecretKey, Fallbacks: m.SecretKeyFallbacks, Salt: sessionSalt}
}

// AuthHash is Django's get_session_auth_hash: the HMAC of u's password
// hash under secret, which ties a session to the password it logged in
// with, so that changing the password ends the user's sessions.
func AuthHash(u *auth.User, secret string) string {
	return hex.EncodeToString(signing.SaltedHMAC(authHashSalt, u.Password, secret))
}

// cookieKey returns the session key the request's cookie names, "" when
// there is no cookie or it cannot name a session: shorter than
// 8 characters, or longer than django_session's 40 characters.
func (m *Manager) cookieKey(r *http.Request) string {
	c, err := r.Cookie(m.cookieName())
	if err != nil || len(c.Value) < minKeyLength || len(c.Value) > 40 {
		return ""
	}
	return c.Value
}

// sessionData is a session's data: Django's JSON object, any keys.
type sessionData map[string]json.RawMessage

// load returns the data of the unexpired session key, nil when there is
// none; data that does not decode (Django's "Session data corrupted") is
// an empty session under the key.
func (m *Manager) load(ctx context.Context, key string) (sessionData, error) {
	src, err := tables.Of[Session](m.DB)
	if err != nil {
		return nil, err
	}
	rows, err := src.Match(queryset.Lookup("session_key", query.Exact, key)).Slice(ctx, 0, 1)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	row := rows[0]
	if !row.ExpireDate.After(time.Now()) {
		return nil, nil
	}
	var data sessionData
	if m.signer().Loads(row.SessionData, &data) != nil || data == nil {
		return sessionData{}, nil
	}
	return data, nil
}

// str returns the string at key of data, "" when missing or not a string.
func (d sessionData) str(key string) string {
	var s string
	_ = json.Unmarshal(d[key], &s)
	return s
}

// userID returns the _auth_user_id of data as Django's AutoField reads
// it, Python's int() of a string (as Django writes it) or of a number,
// false when there is none.
func (d sessionData) userID() (int64, bool) {
	raw, ok := d[UserIDKey]
	if !ok {
		return 0, false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			return 0, false
		}
		s = string(n)
	}
	id, ok := pycompat.Atoi(s)
	return int64(id), ok
}

// set stores v at key.
func (d sessionData) set(key string, v string) {
	d[key], _ = json.Marshal(v)
}

// SessionUser returns the user logged in by the request's session, as
// Django's get_user: nil when the cookie is missing, the session is
// unknown, expired or not signed with SecretKey or a fallback, names a
// backend not in Backends, or its user is gone or inactive; nil too when
// the active user's password changed since the login, and the session is
// then deleted. A session whose auth hash was made with a fallback key gets
// one made with SecretKey. Under Middleware, a cookie that turns out to name
// no session (unknown, expired, or deleted here) is deleted on the answer.
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
		setEmpty(r, true)
		return nil, nil
	}
	if m.SecretKey == "" {
		return nil, ErrNoSecretKey
	}
	ctx := r.Context()
	data, err := m.load(ctx, key)
	if err != nil {
		return nil, err
	}
	if data == nil {
		setEmpty(r, true)
		return nil, nil
	}
	id, ok := data.userID()
	if !ok || !slices.Contains(m.backends(), data.str(BackendKey)) {
		return nil, nil
	}
	u, err := m.Users.Get(ctx, id)
	if errors.Is(err, auth.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !u.Active {
		// ModelBackend.get_user finds no inactive user: nothing to verify.
		return nil, nil
	}
	switch hash := []byte(data.str(HashKey)); {
	case hmac.Equal(hash, []byte(AuthHash(u, m.SecretKey))):
	case slices.ContainsFunc(m.SecretKeyFallbacks, func(k string) bool { return hmac.Equal(hash, []byte(AuthHash(u, k))) }):
		data.set(HashKey, AuthHash(u, m.SecretKey))
		if err := m.save(ctx, key, data, nil); err != nil {
			return nil, err
		}
	default:
		setEmpty(r, true)
		return nil, m.delete(ctx, key)
	}
	return u, nil
}

// save writes data under key: a new row expiring at *expires, or, when
// expires is nil, the existing row's data.
func (m *Manager) save(ctx context.Context, key string, data sessionData, expires *time.Time) error {
	encoded, err := m.signer().Dumps(data, true, time.Now())
	if err != nil {
		return err
	}
	src, err := tables.Of[Session](m.DB)
	if err != nil {
		return err
	}
	row := &Session{SessionKey: key, SessionData: encoded}
	if expires == nil {
		_, err := src.Match(queryset.Lookup("session_key", query.Exact, key)).UpdateAll(ctx, row, "session_data")
		return err
	}
	row.ExpireDate = *expires
	return src.Insert(ctx, row)
}

// EnforceCSRF checks r with the CSRF protection; a failure is 403
// "CSRF Failed: <reason>". For a POST with the CSRF cookie, the body is
// parsed, whatever its type, before the token is looked for, as DRF's
// Request.POST does for Django's check: a body that does not parse is its
// parser's error (400, 415), not a CSRF failure. The csrfmiddlewaretoken
// field is read from form and multipart bodies.
func (m *Manager) EnforceCSRF(r *request.Request) error {
	var parseErr error
	err := m.Protection().Check(r.Request, func() string {
		data, err := r.Data()
		if err != nil {
			parseErr = err
			return ""
		}
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if mt != "application/x-www-form-urlencoded" && mt != "multipart/form-data" {
			return ""
		}
		fields, _ := data.(map[string]any)
		token, _ := request.FormValue(fields[m.Protection().Field()]).(string)
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

// Login starts a session for u, as Django's login(): the data of the
// request's session is kept when it was anonymous or u's, and dropped when
// it was another user's; either way it moves to a new key, with u's id,
// Backends' first and u's auth hash, its sessionid cookie is set on w (and
// Middleware no longer deletes the request's), the old session is deleted,
// the CSRF secret is rotated, u's last_login is updated, and the answer
// varies on Cookie. Call it before writing the response's header.
func (m *Manager) Login(w http.ResponseWriter, r *http.Request, u *auth.User) error {
	if m.SecretKey == "" {
		return ErrNoSecretKey
	}
	ctx := r.Context()
	hash := AuthHash(u, m.SecretKey)
	data := sessionData{}
	if old := m.cookieKey(r); old != "" {
		kept, err := m.load(ctx, old)
		if err != nil {
			return err
		}
		// Django's login: an anonymous session's data is kept, as is the
		// data of a session of u with u's current password; another's is
		// flushed.
		_, logged := kept[UserIDKey]
		if id, _ := kept.userID(); kept != nil && (!logged || id == u.ID && hmac.Equal([]byte(kept.str(HashKey)), []byte(hash))) {
			data = kept
		}
		if err := m.delete(ctx, old); err != nil {
			return err
		}
	}
	data.set(UserIDKey, strconv.FormatInt(u.ID, 10))
	data.set(BackendKey, m.backends()[0])
	data.set(HashKey, hash)
	expires := time.Now().Add(m.age()).UTC()
	var key string
	var err error
	for range 3 {
		key = random.String(keyLength, "abcdefghijklmnopqrstuvwxyz0123456789")
		if err = m.save(ctx, key, data, &expires); !store.IsUniqueViolation(err) {
			break
		}
	}
	if err != nil {
		return err
	}
	if err := m.Users.UpdateLastLogin(ctx, u); err != nil {
		return err
	}
	djangohttp.SetCookie(w.Header(), &http.Cookie{
		Name: m.cookieName(), Value: key, Path: "/", Domain: m.CookieDomain,
		MaxAge: int(m.age() / time.Second), Expires: expires,
		HttpOnly: true, Secure: m.Secure, SameSite: http.SameSiteLaxMode,
	})
	m.Protection().Rotate(w)
	djangohttp.PatchVary(w.Header(), "Cookie")
	setEmpty(r, false)
	return nil
}

// Logout ends the request's session, as Django's logout(): the session is
// deleted, the answer varies on Cookie and, when the request had a session
// cookie, the cookie is deleted on w (by Middleware when it answers r).
func (m *Manager) Logout(w http.ResponseWriter, r *http.Request) error {
	if key := m.cookieKey(r); key != "" {
		if err := m.delete(r.Context(), key); err != nil {
			return err
		}
	}
	djangohttp.PatchVary(w.Header(), "Cookie")
	if _, err := r.Cookie(m.cookieName()); err == nil && !setEmpty(r, true) {
		m.deleteCookie(w.Header())
	}
	return nil
}

// ClearExpired deletes the expired sessions and returns how many there
// were (Django's clearsessions).
func (m *Manager) ClearExpired(ctx context.Context) (int64, error) {
	src, err := tables.Of[Session](m.DB)
	if err != nil {
		return 0, err
	}
	return src.Match(queryset.Lookup("expire_date", query.LT, store.FormatTime(time.Now()))).DeleteAll(ctx)
}

func (m *Manager) delete(ctx context.Context, key string) error {
	src, err := tables.Of[Session](m.DB)
	if err != nil {
		return err
	}
	_, err = src.Match(queryset.Lookup("session_key", query.Exact, key)).DeleteAll(ctx)
	return err
}
