package sessions

import (
	"context"
	"net/http"

	"github.com/go-drf/drf/contrib/internal/djangohttp"
)

// minKeyLength is the length under which a session cookie names no
// session, Django's _validate_session_key.
const minKeyLength = 8

// Middleware is Django's SessionMiddleware, and the answering half of its
// CsrfViewMiddleware, around next (the whole site, as Django's MIDDLEWARE):
// a request's session cookie that names no session is deleted on the answer
// (Set-Cookie `sessionid=""` expired at the epoch, and Vary: Cookie), and
// an answer that sets the csrftoken cookie varies on Cookie. A cookie
// shorter than 8 characters names no session; a well-formed one is found
// to name none when something reads the session (SessionUser, the session
// scheme, Login, Logout) and the session is unknown or expired, or ends
// there (Logout, a changed password). A login sets a new cookie instead.
func (m *Manager) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := &answer{m: m}
		a.Reset(w, a)
		if c, err := r.Cookie(m.cookieName()); err == nil {
			a.empty = len(c.Value) < minKeyLength
			r = r.WithContext(context.WithValue(r.Context(), answerKey{}, a))
		}
		next.ServeHTTP(a, r)
		a.Finish()
	})
}

// answerKey is the context key of the request's *answer.
type answerKey struct{}

// answer writes a request's answer through Middleware, and is what the
// middleware knows of the request's session cookie; it is in the
// request's context when the request has one.
type answer struct {
	djangohttp.Answer
	m *Manager
	// empty is Django's SessionBase.is_empty for the request's cookie: it
	// names no session (as far as known yet).
	empty bool
}

// ProcessResponse adds the middleware's headers, as Django's
// process_response of the CSRF then the session middleware: Vary: Cookie
// when the CSRF cookie is set, the session cookie's deletion and Vary:
// Cookie when the session is empty.
func (a *answer) ProcessResponse(h http.Header) {
	if a.m.Protection().SetsCookie(h) {
		djangohttp.PatchVary(h, "Cookie")
	}
	if a.empty {
		a.m.deleteCookie(h)
		djangohttp.PatchVary(h, "Cookie")
	}
}

// setEmpty records whether the request's session cookie names no session
// now, and reports whether it could: only when Middleware answers r and r
// has a session cookie.
func setEmpty(r *http.Request, empty bool) bool {
	a, ok := r.Context().Value(answerKey{}).(*answer)
	if ok {
		a.empty = empty
	}
	return ok
}

// deleteCookie adds the session cookie's deletion to h.
func (m *Manager) deleteCookie(h http.Header) {
	djangohttp.DeleteCookie(h, m.cookieName(), "/", m.CookieDomain)
}
