package interop_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/sample"
)

// jwtWorld is Django with djangorestframework-simplejwt
// (testdata/jwt_side.py) and the sample service on one SQLite database and
// one SECRET_KEY.
type jwtWorld struct {
	django *django
	sample *apitest.Client
}

func newJWTWorld(t *testing.T) *jwtWorld {
	t.Helper()
	py := djangoPython(t)
	if out, err := exec.Command(py, "-c", "import rest_framework_simplejwt, jwt").CombinedOutput(); err != nil {
		msg := "no djangorestframework-simplejwt for " + py + " (Debian: python3-djangorestframework-simplejwt python3-jwt): " + lastLine(string(out))
		if os.Getenv("CI_REQUIRE_DJANGO") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dbPath := filepath.Join(t.TempDir(), "db.sqlite3")
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, filepath.Join(testdata, "jwt_side.py"))
	cmd.Env = append(os.Environ(), "DJANGO_DB="+dbPath, "DJANGO_SECRET_KEY="+secretKey)
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
	w := &jwtWorld{django: &django{in: in, out: bufio.NewScanner(out)}}
	w.django.out.Buffer(nil, 1<<20)
	// Django creates its schema, the blacklist's tables among them; the
	// Go side recognises them and adds its own.
	w.django.do(t, "migrate", nil)
	ctx := context.Background()
	db, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := sample.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	h, err := sample.New(ctx, db, sample.SecretKey(secretKey))
	if err != nil {
		t.Fatal(err)
	}
	w.sample = apitest.New(t, h)
	return w
}

// A pair that simplejwt minted in Django authenticates on the Go sample and
// refreshes there; the refresh blacklists it in the shared tables, so
// Django refuses it after. A pair the Go sample issued authenticates in
// Django's JWTAuthentication and refreshes there; the Go sample then
// refuses the refresh token Django blacklisted.
func TestSimpleJWTBothWays(t *testing.T) {
	w := newJWTWorld(t)
	w.django.do(t, "create_user", map[string]any{"username": "dj", "password": "dj-pass"})

	// Django's pair on Go.
	minted := w.django.do(t, "mint", map[string]any{"username": "dj"})
	access, refresh := minted["access"].(string), minted["refresh"].(string)
	if r := w.sample.Get("/eco/jwt/whoami/", "Authorization: Bearer "+access); r.Status != http.StatusOK || r.Body != `{"username":"dj"}` {
		t.Fatalf("Django's access token on Go: %d %s", r.Status, r.Body)
	}
	r := w.sample.Post("/eco/jwt/token/refresh/", `{"refresh":"`+refresh+`"}`)
	var pair struct{ Access, Refresh string }
	r.Decode(&pair)
	if r.Status != http.StatusOK || pair.Access == "" || pair.Refresh == "" {
		t.Fatalf("Django's refresh token refreshed on Go: %d %s", r.Status, r.Body)
	}
	if a := w.django.do(t, "refresh", map[string]any{"token": refresh}); a["failed"] != "Token is blacklisted" {
		t.Errorf("Django refreshing the token Go rotated: %v", a)
	}
	if a := w.django.do(t, "authenticate", map[string]any{"token": pair.Access}); a["username"] != "dj" {
		t.Errorf("Go's refreshed access token on Django: %v", a)
	}

	// Go's pair on Django.
	r = w.sample.Post("/eco/jwt/token/", "username=dj&password=dj-pass", "Content-Type: application/x-www-form-urlencoded")
	r.Decode(&pair)
	if r.Status != http.StatusOK {
		t.Fatalf("obtain on Go: %d %s", r.Status, r.Body)
	}
	if a := w.django.do(t, "authenticate", map[string]any{"token": pair.Access}); a["username"] != "dj" {
		t.Errorf("Go's access token on Django: %v", a)
	}
	if a := w.django.do(t, "authenticate", map[string]any{"token": pair.Refresh}); !strings.Contains(fmt.Sprint(a["failed"]), "Token has wrong type") {
		t.Errorf("Go's refresh token as an access token on Django: %v", a)
	}
	a := w.django.do(t, "refresh", map[string]any{"token": pair.Refresh})
	if a["access"] == nil || a["refresh"] == nil {
		t.Fatalf("Go's refresh token refreshed on Django: %v", a)
	}
	if r := w.sample.Post("/eco/jwt/token/refresh/", `{"refresh":"`+pair.Refresh+`"}`); r.Status != http.StatusUnauthorized ||
		r.Body != `{"detail":"Token is blacklisted","code":"token_not_valid"}` {
		t.Errorf("Go refreshing the token Django rotated: %d %s", r.Status, r.Body)
	}
	if r := w.sample.Get("/eco/jwt/whoami/", "Authorization: Bearer "+a["access"].(string)); r.Status != http.StatusOK || r.Body != `{"username":"dj"}` {
		t.Errorf("Django's refreshed access token on Go: %d %s", r.Status, r.Body)
	}
}
