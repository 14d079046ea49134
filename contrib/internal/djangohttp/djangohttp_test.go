package djangohttp

import (
	"net/http"
	"slices"
	"testing"
	"time"
)

// The lines Django 3.2's HttpResponse writes for the same calls
// (set_cookie, delete_cookie; Morsel.OutputString).
func TestCookiesAsDjangos(t *testing.T) {
	h := http.Header{}
	DeleteCookie(h, "__Secure-sid", "/", ".example.com")
	SetCookie(h, &http.Cookie{
		Name: "sid", Value: "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk", MaxAge: 60, Expires: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Domain: ".example.com", Path: "/", Secure: true, HttpOnly: true, SameSite: http.SameSiteStrictMode,
	})
	DeleteCookie(h, "sessionid", "/", "")
	want := []string{
		`__Secure-sid=""; Domain=.example.com; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/; SameSite=Lax; Secure`,
		`sid=kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk; Domain=.example.com; expires=Thu, 01 Jan 2026 00:00:00 GMT; HttpOnly; Max-Age=60; Path=/; SameSite=Strict; Secure`,
		`sessionid=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/; SameSite=Lax`,
	}
	if got := h["Set-Cookie"]; !slices.Equal(got, want) {
		t.Errorf("Set-Cookie\n got %q\nwant %q", got, want)
	}
	for _, c := range (&http.Response{Header: h}).Cookies() {
		if c.Name == "sessionid" && (c.Value != "" || c.MaxAge >= 0) {
			t.Errorf("net/http reads the deletion as %+v", c)
		}
	}
}

// Django's patch_vary_headers(response, ("Cookie",)) on each Vary.
func TestPatchVaryAsDjangos(t *testing.T) {
	for _, c := range []struct {
		vary []string
		want string
	}{
		{nil, "Cookie"},
		{[]string{"Accept"}, "Accept, Cookie"},
		{[]string{"Accept ,cookie"}, "Accept, cookie"},
		{[]string{"Accept, Cookie"}, "Accept, Cookie"},
		{[]string{"Accept", "Origin"}, "Accept, Origin, Cookie"},
		{[]string{"Accept, *"}, "*"},
	} {
		h := http.Header{}
		if c.vary != nil {
			h["Vary"] = c.vary
		}
		PatchVary(h, "Cookie")
		if got := h["Vary"]; len(got) != 1 || got[0] != c.want {
			t.Errorf("Vary %q: got %q, want %q", c.vary, got, c.want)
		}
	}
}
