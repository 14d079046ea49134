package framework

import "net/http"

// SecurityHeaders sets the headers Django 5.2's security and clickjacking
// middleware put on every answer: X-Frame-Options DENY,
// X-Content-Type-Options nosniff, Referrer-Policy same-origin and
// Cross-Origin-Opener-Policy same-origin.
func SecurityHeaders(next http.Handler) http.Handler { return SecurityHeadersAt(DRF318, next) }

// SecurityHeadersAt is SecurityHeaders as the release c names sends them:
// Django 3.2 sends no Cross-Origin-Opener-Policy (SecurityMiddleware's
// SECURE_CROSS_ORIGIN_OPENER_POLICY came in Django 4.0).
func SecurityHeadersAt(c Compatibility, next http.Handler) http.Handler {
	// One backing array for the values.
	v := []string{"DENY", "nosniff", "same-origin"}
	coop := c != DRF314
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["X-Frame-Options"] = v[0:1:1]
		h["X-Content-Type-Options"] = v[1:2:2]
		h["Referrer-Policy"] = v[2:3:3]
		if coop {
			h["Cross-Origin-Opener-Policy"] = v[2:3:3]
		}
		next.ServeHTTP(w, r)
	})
}
