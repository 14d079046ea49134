package authentication

import "github.com/go-drf/drf/framework/request"

// Session is DRF's SessionAuthentication: the user of the request's
// session cookie (see contrib/sessions). An authenticated request with an
// unsafe method (anything but GET, HEAD, OPTIONS, TRACE) must also pass
// CSRF validation, else it is refused with 403 "CSRF Failed: <reason>";
// anonymous requests are never CSRF-checked here. Session supplies no
// WWW-Authenticate value, so denied anonymous requests are 403.
type Session struct {
	// Sessions reads the session and checks CSRF (contrib/sessions' *Manager).
	Sessions SessionBackend
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
