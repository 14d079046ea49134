package authentication

import "github.com/go-drf/drf/framework/request"

// Session is DRF's SessionAuthentication: the user of the request's
// session cookie (see contrib/sessions). An authenticated request with an
// unsafe method (anything but GET, HEAD, OPTIONS, TRACE) must also pass
// CSRF validation, else it is refused with 403 "CSRF Failed: <reason>";
// anonymous requests are never CSRF-checked here.
//
// As in DRF, Session supplies no WWW-Authenticate value by default, so
// denied anonymous requests are 403. Setting Realm opts in to 401 (DRF
// #5968): the answer then carries `WWW-Authenticate: Session
// realm="<Realm>"`. HTTP requires a challenge on every 401; "Session"
// names what the client lacks (a logged-in session cookie, obtained from
// the login page) without being Basic or Digest, the schemes for which
// browsers open their own password prompt over the page.
type Session struct {
	// Sessions reads the session and checks CSRF (contrib/sessions' *Manager).
	Sessions SessionBackend
	// Realm, when set, makes denied anonymous requests 401 with a Session
	// challenge naming it; "" keeps DRF's 403.
	Realm string
}

// CheckAuthenticator refuses, at registration, a Session without
// Sessions (request.AuthenticatorChecker), and runs the store's own check.
func (s Session) CheckAuthenticator() error {
	return checkStore(s.Sessions, "Sessions", "the session store (contrib/sessions' *Manager)")
}

// Authenticate does not attempt when the request has no session of an
// active user.
func (s Session) Authenticate(r *request.Request) (request.User, any, error) {
	// The answer now depends on the session cookie, as Django's session
	// middleware says when a view reads the session.
	r.Vary("Cookie")
	u, err := s.Sessions.SessionUser(r.Request)
	if err != nil {
		return nil, nil, err
	}
	if u == nil || !u.IsActive() {
		return nil, nil, nil
	}
	if err := s.Sessions.EnforceCSRF(r); err != nil {
		return nil, nil, err
	}
	return u, nil, nil
}

// AuthenticateHeader returns `Session realm="<Realm>"`, or "" (so 403)
// when Realm is unset.
func (s Session) AuthenticateHeader(*request.Request) string {
	if s.Realm == "" {
		return ""
	}
	return challenge("Session", s.Realm)
}
