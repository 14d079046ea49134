package framework

import "net/http"

// SecurityHeaders sets the headers Django's security and clickjacking
// middleware put on every answer: X-Frame-Options DENY,
// X-Content-Type-Options nosniff and Referrer-Policy same-origin.
func SecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Frame-Options", "DENY")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}
