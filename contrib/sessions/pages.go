package sessions

import (
	"cmp"
	"embed"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/sessions/csrf"
)

//go:embed templates/*.html
var templateFS embed.FS

var templates = template.Must(template.ParseFS(templateFS, "templates/*.html"))

// Messages of the login form, in Django's wording.
const (
	MsgRequired           = "This field is required."
	MsgInvalidLogin       = "Please enter a correct username and password. Note that both fields may be case-sensitive."
	maxFormBytes    int64 = 1 << 20
)

// Pages returns the login and logout pages as one handler, for mounting
// under a prefix such as /api-auth/: a path ending in "/login/" is the
// login page, one ending in "/logout/" the logout action, anything else 404.
func (m *Manager) Pages() http.Handler {
	login, logout := m.LoginPage(), m.LogoutPage()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/login/"):
			login.ServeHTTP(w, r)
		case strings.HasSuffix(r.URL.Path, "/logout/"):
			logout.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	})
}

type loginForm struct {
	Field, Token, Next, Username   string
	UsernameErrors, PasswordErrors []string
	Errors                         []string
}

// LoginPage returns Django's login view: GET shows the form (and sets the
// csrftoken cookie); POST, always CSRF-checked, logs the user in and
// redirects (302) to the "next" field or query parameter when it is a
// same-site URL, else to LoginRedirect. Wrong credentials show the form
// again with 200.
func (m *Manager) LoginPage() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			neverCache(w)
			m.renderLogin(w, r, http.StatusOK, loginForm{Next: r.URL.Query().Get("next")})
		case http.MethodPost:
			m.postLogin(w, r)
		default:
			w.Header().Set("Allow", "GET, HEAD, POST")
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		}
	})
}

func (m *Manager) postLogin(w http.ResponseWriter, r *http.Request) {
	if !m.CheckForm(w, r) {
		return
	}
	form := loginForm{
		Next:     r.PostFormValue("next"),
		Username: strings.TrimSpace(r.PostFormValue("username")),
	}
	if form.Next == "" {
		form.Next = r.URL.Query().Get("next")
	}
	password := r.PostFormValue("password")
	if form.Username == "" {
		form.UsernameErrors = []string{MsgRequired}
	}
	if password == "" {
		form.PasswordErrors = []string{MsgRequired}
	}
	if form.UsernameErrors != nil || form.PasswordErrors != nil {
		m.renderLogin(w, r, http.StatusOK, form)
		return
	}
	u, err := m.Users.Authenticate(r.Context(), form.Username, password)
	if errors.Is(err, auth.ErrInvalidCredentials) {
		form.Errors = []string{MsgInvalidLogin}
		m.renderLogin(w, r, http.StatusOK, form)
		return
	}
	if err == nil {
		err = m.Login(w, r, u)
	}
	if err != nil {
		serverError(w, r, err)
		return
	}
	m.redirect(w, r, form.Next, cmp.Or(m.LoginRedirect, DefaultLoginRedirect))
}

// LogoutPage returns the logout action: POST only, CSRF-checked; it ends
// the session and redirects (302) to a same-site "next", else to
// LogoutRedirect.
func (m *Manager) LogoutPage() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
			return
		}
		if !m.CheckForm(w, r) {
			return
		}
		if err := m.Logout(w, r); err != nil {
			serverError(w, r, err)
			return
		}
		next := r.PostFormValue("next")
		if next == "" {
			next = r.URL.Query().Get("next")
		}
		m.redirect(w, r, next, cmp.Or(m.LogoutRedirect, DefaultLogoutRedirect))
	})
}

// CheckForm applies the CSRF protection to a form request of an HTML page
// and reports whether it passed; when it did not, it has answered 403 with
// a page giving the reason. The body is read as a form, at most 1 MiB:
// a larger one is answered 413.
func (m *Manager) CheckForm(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	// ParseForm reads a urlencoded body, ParseMultipartForm a multipart
	// one; each says when the body is over the cap.
	var tooLarge *http.MaxBytesError
	if err := cmp.Or(r.ParseForm(), r.ParseMultipartForm(maxFormBytes)); errors.As(err, &tooLarge) {
		http.Error(w, "Request body is too large.", http.StatusRequestEntityTooLarge)
		return false
	}
	err := m.Protection().Check(r, func() string { return r.PostFormValue(m.Protection().Field()) })
	if err == nil {
		neverCache(w)
		return true
	}
	var failure *csrf.Error
	if !errors.As(err, &failure) {
		serverError(w, r, err)
		return false
	}
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(http.StatusForbidden)
	_ = templates.ExecuteTemplate(w, "forbidden.html", failure.Reason)
	return false
}

func (m *Manager) renderLogin(w http.ResponseWriter, r *http.Request, status int, form loginForm) {
	form.Field = m.Protection().Field()
	form.Token = m.Protection().Token(w, r)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Frame-Options", "DENY")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_ = templates.ExecuteTemplate(w, "login.html", form)
	}
}

// redirect answers 302 to next when it is safe, else to def.
func (m *Manager) redirect(w http.ResponseWriter, r *http.Request, next, def string) {
	target := def
	if SafeRedirect(next, r.Host, m.Protection().RequestIsSecure(r)) {
		target = strings.TrimSpace(next)
	}
	w.Header().Set("Location", target)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusFound)
}

// neverCache marks a page as Django's never_cache does.
func neverCache(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Expires", time.Now().UTC().Format(http.TimeFormat))
	h.Set("Cache-Control", "max-age=0, no-cache, no-store, must-revalidate, private")
}

// SafeRedirect reports whether target may be redirected to after a login
// or logout, by Django's url_has_allowed_host_and_scheme: a relative URL,
// or an http(s) URL of host itself (https only when secure). Scheme-relative
// ("//host"), backslash tricks, other schemes and control characters are
// refused.
func SafeRedirect(target, host string, secure bool) bool {
	target = strings.TrimSpace(target)
	if target == "" {
		return false
	}
	return allowedURL(target, host, secure) && allowedURL(strings.ReplaceAll(target, `\`, "/"), host, secure)
}

func allowedURL(target, host string, secure bool) bool {
	if strings.HasPrefix(target, "///") {
		return false
	}
	if first, _ := utf8.DecodeRuneInString(target); unicode.Is(unicode.C, first) {
		return false
	}
	u, err := url.Parse(target)
	if err != nil || u.User != nil {
		return false
	}
	switch {
	case u.Scheme == "" && u.Host == "":
		return !strings.HasPrefix(target, "//")
	case u.Host == "":
		return false
	case u.Scheme == "https", u.Scheme == "http" && !secure, u.Scheme == "":
		return u.Host == host
	}
	return false
}

func serverError(w http.ResponseWriter, r *http.Request, err error) {
	slog.Error("internal server error", "method", r.Method, "path", r.URL.Path, "error", err.Error())
	http.Error(w, "A server error occurred.", http.StatusInternalServerError)
}
