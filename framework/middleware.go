package framework

import "net/http"

// SecurityHeaders sets the headers Django's security and clickjacking
// middleware put on every answer: X-Frame-Options DENY,
// X-Content-Type-Options nosniff and Referrer-Policy same-origin.
func SecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		// One backing array for the three values.
		v := []string{"DENY", "nosniff", "same-origin"}
		h["X-Frame-Options"] = v[0:1:1]
		h["X-Content-Type-Options"] = v[1:2:2]
		h["Referrer-Policy"] = v[2:3:3]
		next.ServeHTTP(w, r)
	})
}
