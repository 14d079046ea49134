package interop_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/sample"
)

// secretKey is the SECRET_KEY both sides sign sessions with.
const secretKey = "interop-test-secret-key-shared-by-django-and-go"

// goHashers are testdata/djangosite/settings.py's PASSWORD_HASHERS, in Go.
var goHashers = auth.Hashers{
	auth.PBKDF2Hasher{Iterations: 1000},
	auth.PBKDF2SHA1Hasher{Iterations: 1000},
	auth.Argon2Hasher{TimeCost: 1, MemoryCost: 1024, Parallelism: 2},
	auth.BCryptSHA256Hasher{Rounds: 4},
	auth.BCryptHasher{Rounds: 4},
}

// hashers are the algorithms both sides speak (Django 3.2 has no scrypt).
var hashers = []string{"pbkdf2_sha256", "pbkdf2_sha1", "argon2", "bcrypt_sha256", "bcrypt"}

var (
	pythonOnce sync.Once
	python     string
	pythonWhy  string
	// pythonDjango is the version of python's Django.
	pythonDjango string
)

// djangoPython returns a Python with Django 3.2 or later, argon2-cffi,
// bcrypt and DRF, or skips (fails when CI_REQUIRE_DJANGO is set).
func djangoPython(t *testing.T) string {
	t.Helper()
	pythonOnce.Do(func() {
		pythonWhy = "no python3 with Django ≥ 3.2, argon2-cffi, bcrypt and DRF (Debian: python3-django python3-argon2 python3-bcrypt python3-djangorestframework; scripts/install-test-deps)"
		for _, p := range []string{os.Getenv("DJANGO_PYTHON"), "python3", "/usr/bin/python3"} {
			if p == "" {
				continue
			}
			out, err := exec.Command(p, "-c", "import django, argon2, bcrypt, rest_framework; assert django.VERSION >= (3, 2); print(django.get_version())").CombinedOutput()
			if err == nil {
				python, pythonDjango = p, strings.TrimSpace(string(out))
				return
			}
			pythonWhy += "; " + p + ": " + strings.TrimSpace(lastLine(string(out)))
		}
	})
	if python == "" {
		if os.Getenv("CI_REQUIRE_DJANGO") != "" {
			t.Fatal("CI_REQUIRE_DJANGO is set but there is " + pythonWhy)
		}
		t.Skip(pythonWhy)
	}
	if os.Getenv(secondDjango) != "" && !strings.HasPrefix(pythonDjango, "5.") {
		t.Fatalf("the run against Django 5.2 found Django %s (%s)", pythonDjango, python)
	}
	t.Logf("Django %s (%s)", pythonDjango, python)
	return python
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// django is the running Django side (testdata/django_side.py).
type django struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Scanner
}

// do runs one command on the Django side and returns its answer.
func (d *django) do(t *testing.T, cmd string, args map[string]any) map[string]any {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	req := map[string]any{"cmd": cmd}
	for k, v := range args {
		req[k] = v
	}
	b, _ := json.Marshal(req)
	if _, err := d.in.Write(append(b, '\n')); err != nil {
		t.Fatalf("django %s: %v", cmd, err)
	}
	if !d.out.Scan() {
		t.Fatalf("django %s: no answer (%v)", cmd, d.out.Err())
	}
	var answer map[string]any
	if err := json.Unmarshal(d.out.Bytes(), &answer); err != nil {
		t.Fatalf("django %s: %v: %s", cmd, err, d.out.Bytes())
	}
	if e, ok := answer["error"]; ok {
		t.Fatalf("django %s %v:\n%s", cmd, args, e)
	}
	return answer
}

// world is a Django site and the sample service on one SQLite database.
type world struct {
	django *django
	db     *sqlx.DB
	users  *auth.Users
	url    string
	client *http.Client
}

func newWorld(t *testing.T) *world {
	t.Helper()
	py := djangoPython(t)
	dbPath := filepath.Join(t.TempDir(), "db.sqlite3")
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, filepath.Join(testdata, "django_side.py"))
	// $PYTHONPATH stays after testdata: conformance/reference/drf318 there
	// gives Debian's python3 Django 5.2.
	cmd.Env = append(os.Environ(), "PYTHONPATH="+strings.TrimSuffix(testdata+string(os.PathListSeparator)+os.Getenv("PYTHONPATH"), string(os.PathListSeparator)),
		"DJANGO_SETTINGS_MODULE=djangosite.settings",
		"DJANGO_DB="+dbPath, "DJANGO_SECRET_KEY="+secretKey)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		_ = cmd.Wait()
	})
	w := &world{django: &django{in: in, out: bufio.NewScanner(out)}}
	w.django.out.Buffer(nil, 1<<20)
	// Django creates the schema; the Go side adds its books.
	w.django.do(t, "migrate", nil)
	ctx := context.Background()
	if w.db, err = store.Open(dbPath); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.db.Close() })
	if err := sample.Migrate(ctx, w.db); err != nil {
		t.Fatal(err)
	}
	h, err := sample.New(ctx, w.db, sample.SecretKey(secretKey), sample.PasswordHashers(goHashers))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	w.url = srv.URL
	w.users = &auth.Users{DB: w.db, Hashers: goHashers}
	w.client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return w
}

// whoami asks the Go service who the request's credentials make the caller:
// the username ("" when anonymous) and the scheme.
func (w *world) whoami(t *testing.T, edit func(*http.Request)) (username, scheme string, status int) {
	t.Helper()
	req, _ := http.NewRequest("GET", w.url+"/whoami/", nil)
	req.Header.Set("Accept", "application/json")
	edit(req)
	resp, err := w.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Username *string `json:"username"`
		Auth     *string `json:"auth"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if body.Username != nil {
		username = *body.Username
	}
	if body.Auth != nil {
		scheme = *body.Auth
	}
	return username, scheme, resp.StatusCode
}

func basic(user, password string) func(*http.Request) {
	return func(r *http.Request) { r.SetBasicAuth(user, password) }
}

func cookie(sessionid string) func(*http.Request) {
	return func(r *http.Request) { r.AddCookie(&http.Cookie{Name: "sessionid", Value: sessionid}) }
}

// obtainToken posts the credentials to the Go service's token view.
func (w *world) obtainToken(t *testing.T, user, password string) (string, int) {
	t.Helper()
	resp, err := w.client.PostForm(w.url+"/api-token-auth/", url.Values{"username": {user}, "password": {password}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Token string }
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return body.Token, resp.StatusCode
}

var formToken = regexp.MustCompile(`name="csrfmiddlewaretoken" value="([a-zA-Z0-9]+)"`)

// goLogin logs in through the Go service's login page and returns the
// sessionid it sets ("" when the login failed).
func (w *world) goLogin(t *testing.T, user, password string) string {
	t.Helper()
	resp, err := w.client.Get(w.url + "/api-auth/login/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := formToken.FindSubmatch(page)
	var csrf *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "csrftoken" {
			csrf = c
		}
	}
	if m == nil || csrf == nil {
		t.Fatalf("login page: %d, no CSRF token or cookie", resp.StatusCode)
	}
	form := url.Values{"username": {user}, "password": {password}, "csrfmiddlewaretoken": {string(m[1])}}
	req, _ := http.NewRequest("POST", w.url+"/api-auth/login/", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(csrf)
	resp, err = w.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, c := range resp.Cookies() {
		if c.Name == "sessionid" && resp.StatusCode == http.StatusFound {
			return c.Value
		}
	}
	return ""
}

// goLogout posts to the Go service's logout page with the session.
func (w *world) goLogout(t *testing.T, sessionid string) {
	t.Helper()
	form := url.Values{"csrfmiddlewaretoken": {"a" + strings.Repeat("b", 31)}}
	req, _ := http.NewRequest("POST", w.url+"/api-auth/logout/", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: "sessionid", Value: sessionid})
	req.AddCookie(&http.Cookie{Name: "csrftoken", Value: "a" + strings.Repeat("b", 31)})
	resp, err := w.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("logout: %d", resp.StatusCode)
	}
}

// djangoUser is Django's answer about a sessionid.
func (w *world) djangoSessionUser(t *testing.T, sessionid string) (user any, exists bool) {
	t.Helper()
	a := w.django.do(t, "session_user", map[string]any{"sessionid": sessionid})
	return a["user"], a["exists"] == true
}

// Users that Django hashed with each of its hashers log in on the Go
// service by each scheme; the login rehashes them with the first hasher,
// and Django still logs them in with that hash.
func TestDjangoHashersOnGo(t *testing.T) {
	w := newWorld(t)
	schemes := map[string]func(t *testing.T, user, password string) (string, string){
		"basic": func(t *testing.T, user, password string) (string, string) {
			name, scheme, _ := w.whoami(t, basic(user, password))
			return name, scheme
		},
		"token": func(t *testing.T, user, password string) (string, string) {
			key, status := w.obtainToken(t, user, password)
			if status != http.StatusOK {
				return "", ""
			}
			name, scheme, _ := w.whoami(t, func(r *http.Request) { r.Header.Set("Authorization", "Token "+key) })
			return name, scheme
		},
		"session": func(t *testing.T, user, password string) (string, string) {
			sid := w.goLogin(t, user, password)
			if sid == "" {
				return "", ""
			}
			name, scheme, _ := w.whoami(t, cookie(sid))
			return name, scheme
		},
	}
	for _, hasher := range hashers {
		t.Run(hasher, func(t *testing.T) {
			for scheme, authenticate := range schemes {
				user, password := hasher+"-"+scheme, "pässword-"+scheme
				created := w.django.do(t, "create_user", map[string]any{"username": user, "password": password, "hasher": hasher})
				if encoded := created["password"].(string); !strings.HasPrefix(encoded, hasher+"$") {
					t.Fatalf("Django wrote %q", encoded)
				}
				if name, _ := authenticate(t, user, password+"x"); name != "" {
					t.Errorf("%s: a wrong password logged in as %q", scheme, name)
				}
				if name, how := authenticate(t, user, password); name != user || how != scheme {
					t.Errorf("%s: Django's %s hash: logged in as %q by %q", scheme, hasher, name, how)
				}
				stored := w.django.do(t, "password", map[string]any{"username": user})["password"].(string)
				if hasher != "pbkdf2_sha256" && !strings.HasPrefix(stored, "pbkdf2_sha256$1000$") {
					t.Errorf("%s: after the login the hash is %q, not rehashed with the first hasher", scheme, stored)
				}
				if hasher == "pbkdf2_sha256" && stored != created["password"] {
					t.Errorf("%s: a current hash was rehashed: %q", scheme, stored)
				}
				if a := w.django.do(t, "check", map[string]any{"username": user, "password": password}); a["user"] != user || a["password"] != stored {
					t.Errorf("%s: Django's check of the Go-stored hash: %v", scheme, a)
				}
			}
		})
	}
	// Django's hash with fewer iterations than the first hasher's.
	t.Run("pbkdf2_sha256 with fewer iterations", func(t *testing.T) {
		w.django.do(t, "create_user", map[string]any{"username": "old", "password": "old-pass", "hasher": "pbkdf2_sha256", "iterations": 500})
		if name, _, _ := w.whoami(t, basic("old", "old-pass")); name != "old" {
			t.Fatalf("logged in as %q", name)
		}
		if stored := w.django.do(t, "password", map[string]any{"username": "old"})["password"].(string); !strings.HasPrefix(stored, "pbkdf2_sha256$1000$") {
			t.Errorf("stored %q, want a rehash with 1000 iterations", stored)
		}
	})
}

// Users that the Go side hashed with each hasher log in on Django, which
// rehashes those of another algorithm than its first and keeps the rest.
func TestGoHashersOnDjango(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	for i, hasher := range hashers {
		t.Run(hasher, func(t *testing.T) {
			users := &auth.Users{DB: w.db, Hashers: auth.Hashers{goHashers[i]}}
			user := "go-" + hasher
			u, err := users.CreateUser(ctx, user, "", "pässword")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(u.Password, hasher+"$") {
				t.Fatalf("Go wrote %q", u.Password)
			}
			if a := w.django.do(t, "check", map[string]any{"username": user, "password": "pässwort"}); a["user"] != nil {
				t.Errorf("Django took a wrong password: %v", a)
			}
			a := w.django.do(t, "check", map[string]any{"username": user, "password": "pässword"})
			if a["user"] != user {
				t.Fatalf("Django's check of Go's %s hash %q: %v", hasher, u.Password, a)
			}
			if hasher == "pbkdf2_sha256" && a["password"] != u.Password {
				t.Errorf("Django rehashed Go's current hash: %q", a["password"])
			}
			if hasher != "pbkdf2_sha256" && !strings.HasPrefix(a["password"].(string), "pbkdf2_sha256$1000$") {
				t.Errorf("Django left %q", a["password"])
			}
		})
	}
}

// Django logs a user in; its sessionid authenticates on the Go service,
// and logging out there ends it on Django.
func TestDjangoSessionOnGo(t *testing.T) {
	w := newWorld(t)
	w.django.do(t, "create_user", map[string]any{"username": "dj", "password": "dj-pass", "hasher": "pbkdf2_sha256"})
	sid, _ := w.django.do(t, "login", map[string]any{"username": "dj", "password": "dj-pass"})["sessionid"].(string)
	if sid == "" {
		t.Fatal("Django's login failed")
	}
	if name, scheme, _ := w.whoami(t, cookie(sid)); name != "dj" || scheme != "session" {
		t.Fatalf("Django's session on Go: %q by %q", name, scheme)
	}
	w.goLogout(t, sid)
	if user, exists := w.djangoSessionUser(t, sid); user != nil || exists {
		t.Errorf("after logout on Go, Django sees %v (session exists: %v)", user, exists)
	}
}

// The Go service logs a user in; Django's SessionStore decodes the session
// and its get_user finds that user.
func TestGoSessionOnDjango(t *testing.T) {
	w := newWorld(t)
	if _, err := w.users.CreateUser(context.Background(), "gopher", "", "go-pass"); err != nil {
		t.Fatal(err)
	}
	sid := w.goLogin(t, "gopher", "go-pass")
	if sid == "" {
		t.Fatal("Go's login failed")
	}
	a := w.django.do(t, "session_user", map[string]any{"sessionid": sid})
	data, _ := a["data"].(map[string]any)
	if a["user"] != "gopher" || data["_auth_user_backend"] != "django.contrib.auth.backends.ModelBackend" || data["_auth_user_id"] == nil {
		t.Errorf("Django reads Go's session as %v", a)
	}
}

// A password changed on Django ends the Go-made sessions, and the other
// way round, on both sides.
func TestPasswordChangeOnDjangoEndsGoSessions(t *testing.T) {
	w := newWorld(t)
	if _, err := w.users.CreateUser(context.Background(), "carol", "", "old-pass"); err != nil {
		t.Fatal(err)
	}
	sid := w.goLogin(t, "carol", "old-pass")
	if name, _, _ := w.whoami(t, cookie(sid)); name != "carol" {
		t.Fatalf("before: %q", name)
	}
	w.django.do(t, "set_password", map[string]any{"username": "carol", "password": "new-pass"})
	if name, _, _ := w.whoami(t, cookie(sid)); name != "" {
		t.Errorf("after Django's password change, Go still logs in %q", name)
	}
	if user, exists := w.djangoSessionUser(t, sid); user != nil || exists {
		t.Errorf("after the change, Django sees %v (exists: %v)", user, exists)
	}
	if name, _, _ := w.whoami(t, basic("carol", "new-pass")); name != "carol" {
		t.Errorf("the new password on Go: %q", name)
	}
}

func TestPasswordChangeOnGoEndsDjangoSessions(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.django.do(t, "create_user", map[string]any{"username": "dave", "password": "old-pass", "hasher": "argon2"})
	sid, _ := w.django.do(t, "login", map[string]any{"username": "dave", "password": "old-pass"})["sessionid"].(string)
	if user, _ := w.djangoSessionUser(t, sid); user != "dave" {
		t.Fatalf("before: Django's session is %v's", user)
	}
	u, err := w.users.GetByUsername(ctx, "dave")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.users.SetPassword(ctx, u, "new-pass"); err != nil {
		t.Fatal(err)
	}
	if name, _, _ := w.whoami(t, cookie(sid)); name != "" {
		t.Errorf("after Go's password change, Go still logs in %q", name)
	}
	sid2, _ := w.django.do(t, "login", map[string]any{"username": "dave", "password": "new-pass"})["sessionid"].(string)
	w.users.SetPassword(ctx, u, "newer-pass")
	if user, exists := w.djangoSessionUser(t, sid2); user != nil || exists {
		t.Errorf("after Go's password change, Django sees %v (exists: %v)", user, exists)
	}
	if a := w.django.do(t, "check", map[string]any{"username": "dave", "password": "newer-pass"}); a["user"] != "dave" {
		t.Errorf("the new password on Django: %v", a)
	}
}
