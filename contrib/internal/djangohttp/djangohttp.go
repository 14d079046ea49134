// Package djangohttp writes the response headers that the contrib apps
// (the sessions, the CSRF protection, corsheaders) share as Django's
// HttpResponse writes them: Set-Cookie lines in Django's attribute order,
// and Vary patched as django.utils.cache.patch_vary_headers does.
package djangohttp

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// epoch is the expiry Django's delete_cookie gives.
var epoch = time.Unix(0, 0)

// SetCookie adds a Set-Cookie line for c as Django's set_cookie writes it:
// the value (`""` when empty), then Domain, expires, HttpOnly, Max-Age,
// Path, SameSite and Secure, each when set. c.MaxAge follows net/http:
// negative is Max-Age=0, zero is none.
func SetCookie(h http.Header, c *http.Cookie) {
	b := make([]byte, 0, 160)
	b = append(b, c.Name...)
	b = append(b, '=')
	if c.Value == "" {
		b = append(b, `""`...)
	}
	b = append(b, c.Value...)
	if c.Domain != "" {
		b = append(append(b, "; Domain="...), c.Domain...)
	}
	if !c.Expires.IsZero() {
		b = c.Expires.UTC().AppendFormat(append(b, "; expires="...), http.TimeFormat)
	}
	if c.HttpOnly {
		b = append(b, "; HttpOnly"...)
	}
	if c.MaxAge != 0 {
		b = strconv.AppendInt(append(b, "; Max-Age="...), int64(max(c.MaxAge, 0)), 10)
	}
	if c.Path != "" {
		b = append(append(b, "; Path="...), c.Path...)
	}
	switch c.SameSite {
	case http.SameSiteLaxMode:
		b = append(b, "; SameSite=Lax"...)
	case http.SameSiteStrictMode:
		b = append(b, "; SameSite=Strict"...)
	case http.SameSiteNoneMode:
		b = append(b, "; SameSite=None"...)
	}
	if c.Secure {
		b = append(b, "; Secure"...)
	}
	h["Set-Cookie"] = append(h["Set-Cookie"], string(b))
}

// DeleteCookie adds the Set-Cookie line of Django's delete_cookie for the
// cookie name, set with path, domain and SameSite=Lax: an empty value,
// expired at the epoch, Max-Age=0, Secure only for a "__Secure-" or
// "__Host-" name (browsers ignore those without it).
func DeleteCookie(h http.Header, name, path, domain string) {
	SetCookie(h, &http.Cookie{
		Name: name, Path: path, Domain: domain, Expires: epoch, MaxAge: -1, SameSite: http.SameSiteLaxMode,
		Secure: strings.HasPrefix(name, "__Secure-") || strings.HasPrefix(name, "__Host-"),
	})
}

// PatchVary adds name to the answer's Vary unless it is there already
// (case-insensitively), leaving the names on one line separated by ", ";
// a "*" among them leaves Vary "*".
func PatchVary(h http.Header, name string) {
	lines := h["Vary"]
	if len(lines) == 0 {
		h["Vary"] = []string{name}
		return
	}
	var names []string
	found := false
	for _, line := range lines {
		for n := range strings.SplitSeq(line, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
				found = found || strings.EqualFold(n, name)
			}
		}
	}
	if !found {
		names = append(names, name)
	}
	if slices.Contains(names, "*") {
		names = []string{"*"}
	}
	h["Vary"] = []string{strings.Join(names, ", ")}
}
