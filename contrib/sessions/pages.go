package sessions

import (
	"bytes"
	"cmp"
	"embed"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/sessions/csrf"
	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/internal/pycompat"
)

//go:embed templates/*.html
var templateFS embed.FS

// templates are the pages' templates, parsed when a page is first shown.
var templates = sync.OnceValue(func() *template.Template {
	return template.Must(template.ParseFS(templateFS, "templates/*.html"))
})

// Messages of the login form, in Django's wording.
const (
	msgRequired           = "This field is required."
	msgInvalidLogin       = "Please enter a correct username and password. Note that both fields may be case-sensitive."
	maxFormBytes    int64 = 1 << 20
)

// Pages returns the login and logout pages as one handler, for mounting
// under a prefix such as /api-auth/: a path ending in "/login/" is the
// login page, one ending in "/logout/" the logout action, anything else 404.
// Serve them under Middleware.
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

// loginMethods are the methods of Django's LoginView, its Allow header.
const loginMethods = "GET, POST, PUT, HEAD, OPTIONS"

// LoginPage returns Django's login view (LoginView as DRF mounts it). An
// unsafe method is CSRF-checked first (403 on failure), as Django's
// middleware does. GET shows the form (and sets the csrftoken cookie);
// POST logs the user in and redirects (302) to the "next" field or query
// parameter when it is a same-site URL, else to LoginRedirect; wrong
// credentials show the form again with 200. PUT is a POST whose body is not
// read (Django reads form bodies of POSTs only), so it shows the form with
// both fields required. OPTIONS answers 200 with Allow and no body; other
// methods 405 with the same Allow. Serve it under Middleware.
func (m *Manager) LoginPage() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !m.CheckForm(w, r) {
			return
		}
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			m.renderLogin(w, r, loginForm{Next: m.safeNext(r)})
		case http.MethodPost, http.MethodPut:
			m.postLogin(w, r)
		case http.MethodOptions:
			allowLogin(w, http.StatusOK)
		default:
			allowLogin(w, http.StatusMethodNotAllowed)
		}
	})
}

// allowLogin answers OPTIONS, or a method the login page does not have, as
// Django's View does: status, the methods in Allow, no body.
func allowLogin(w http.ResponseWriter, status int) {
	h := w.Header()
	h.Set("Allow", loginMethods)
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", "0")
	w.WriteHeader(status)
}

// maxLoginName is the length of auth_user.username, past which Django's
// login form (UsernameField) leaves a name as it is.
const maxLoginName = 150

// loginName is the name the login form authenticates: the typed one in
// NFKC form (auth.NormalizeUsername) unless it is longer than any stored
// name, as Django's AuthenticationForm cleans it, so that "ａｄｍｉｎ" logs
// in as admin.
func loginName(typed string) string {
	if utf8.RuneCountInString(typed) > maxLoginName {
		return typed
	}
	return auth.NormalizeUsername(typed)
}

func (m *Manager) postLogin(w http.ResponseWriter, r *http.Request) {
	username, _ := posted(r, "username")
	password, _ := posted(r, "password")
	form := loginForm{Next: m.safeNext(r), Username: strings.TrimSpace(username)}
	if form.Username == "" {
		form.UsernameErrors = []string{msgRequired}
	}
	if password == "" {
		form.PasswordErrors = []string{msgRequired}
	}
	if form.UsernameErrors != nil || form.PasswordErrors != nil {
		m.renderLogin(w, r, form)
		return
	}
	u, err := m.Users.Authenticate(r.Context(), loginName(form.Username), password)
	if errors.Is(err, auth.ErrInvalidCredentials) {
		form.Errors = []string{msgInvalidLogin}
		m.renderLogin(w, r, form)
		return
	}
	if err == nil {
		err = m.Login(w, r, u)
	}
	if err != nil {
		m.serverError(w, r, err)
		return
	}
	redirect(w, cmp.Or(form.Next, m.LoginRedirect, defaultLoginRedirect))
}

// safeNext is Django's LoginView.get_redirect_url: the "next" field or
// query parameter when it is safe to redirect to, else "".
func (m *Manager) safeNext(r *http.Request) string {
	next := nextOf(r)
	if !m.safe(r, next) {
		return ""
	}
	return strings.TrimSpace(next)
}

// logoutMethods are the methods of Django 5's LogoutView, its Allow header.
const logoutMethods = "POST, OPTIONS"

// LogoutPage returns Django's logout view (LogoutView as DRF mounts it).
// Django 5.2's logs out on POST only, once CSRF-checked (403 on failure),
// and redirects (302) to the "next" field or query parameter when it is a
// same-site URL, else to LogoutRedirect; OPTIONS answers its Allow header,
// other methods 405 (Django 5.0, after a CSRF check of unsafe ones).
// Django 3.2's, at compat.DRF314, logs out on any method, and redirects
// to the logout page itself when "next" is given but is not same-site (as
// its get_next_page). Serve it under Middleware.
func (m *Manager) LogoutPage() http.Handler {
	legacy := m.Compatibility == compat.DRF314
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !m.CheckForm(w, r) {
			return
		}
		if !legacy && r.Method != http.MethodPost {
			h := w.Header()
			h.Set("Allow", logoutMethods)
			h.Set("Content-Type", "text/html; charset=utf-8")
			h.Set("Content-Length", "0")
			if r.Method == http.MethodOptions {
				w.WriteHeader(http.StatusOK)
			} else {
				w.WriteHeader(http.StatusMethodNotAllowed)
			}
			return
		}
		if err := m.Logout(w, r); err != nil {
			m.serverError(w, r, err)
			return
		}
		target := cmp.Or(m.LogoutRedirect, defaultLogoutRedirect)
		if _, posted := posted(r, "next"); legacy && (posted || pycompat.RequestGET(r).Has("next")) {
			target = cmp.Or(m.safeNext(r), r.URL.EscapedPath())
		} else if next := m.safeNext(r); next != "" {
			target = next
		}
		redirect(w, target)
	})
}

// nextOf returns the "next" field of a POST body, else the "next" query
// parameter: Django's request.POST.get("next", request.GET.get("next", "")).
func nextOf(r *http.Request) string {
	if next, ok := posted(r, "next"); ok {
		return next
	}
	return pycompat.QueryGet(pycompat.RequestGET(r), "next")
}

// posted returns the field name of a POST's form body (read by CheckForm),
// as Django's request.POST.get: its last value; Django reads no other
// method's body as a form.
func posted(r *http.Request, name string) (string, bool) {
	if r.Method != http.MethodPost {
		return "", false
	}
	return last(r.PostForm[name])
}

// last returns the last of values, as Django's QueryDict.get, and whether
// there is one.
func last(values []string) (string, bool) {
	if len(values) == 0 {
		return "", false
	}
	return values[len(values)-1], true
}

// CheckForm applies the CSRF protection to a form request of an HTML page
// and reports whether it passed; when it did not, it has answered 403 with
// Django's CSRF failure page (the reason goes to the Protection's Logger,
// as Django shows it only with DEBUG=True). The body is read as a form, at most 1 MiB:
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
	err := m.Protection().Check(r, func() string {
		token, _ := posted(r, m.Protection().Field())
		return token
	})
	if err == nil {
		neverCache(w)
		return true
	}
	var failure *csrf.Error
	if !errors.As(err, &failure) {
		m.serverError(w, r, err)
		return false
	}
	m.csrfFailure(w, failure.Reason)
	return false
}

func (m *Manager) renderLogin(w http.ResponseWriter, r *http.Request, form loginForm) {
	form.Field = m.Protection().Field()
	form.Token = m.Protection().Token(w, r)
	var page bytes.Buffer
	if err := templates().ExecuteTemplate(&page, "login.html", form); err != nil {
		m.serverError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Frame-Options", "DENY")
	// HEAD is told the length GET's page has, as Django's.
	h.Set("Content-Length", strconv.Itoa(page.Len()))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(page.Bytes())
	}
}

// safe reports whether r may redirect to next (SafeRedirect for r's host
// and scheme).
func (m *Manager) safe(r *http.Request, next string) bool {
	return SafeRedirect(next, r.Host, m.Protection().RequestIsSecure(r))
}

// redirect answers 302 to target.
func redirect(w http.ResponseWriter, target string) {
	h := w.Header()
	h.Set("Location", target)
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", "0")
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

func (m *Manager) serverError(w http.ResponseWriter, r *http.Request, err error) {
	m.logger().ErrorContext(r.Context(), "internal server error", "method", r.Method, "path", r.URL.Path, "error", err.Error())
	http.Error(w, "A server error occurred.", http.StatusInternalServerError)
}
