package authentication_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/request"
)

const basicRealm = `Basic realm="api"`

// The messages and challenges below were checked against the reference
// (/auth/basic-first/ and /auth/token-first/ of sample-api.md).
func TestBasicAuthentication(t *testing.T) {
	w := newWorld(t)
	srv := serve(t, framework.IsAuthenticated{}, authentication.Basic{Users: auth.ModelBackend{Users: w.users}})
	cases := []struct {
		name, header string
		status       int
		detail, user string
	}{
		{"no header", "", 401, "Authentication credentials were not provided.", ""},
		{"other scheme", "Bearer abc", 401, "Authentication credentials were not provided.", ""},
		{"no credentials", "Basic", 401, "Invalid basic header. No credentials provided.", ""},
		{"spaces", "Basic a b", 401, "Invalid basic header. Credentials string should not contain spaces.", ""},
		{"tab is a space", "Basic YWxpY2U6YWxpY2UtcGFzcw==\tx", 401, "Invalid basic header. Credentials string should not contain spaces.", ""},
		{"incomplete base64", "Basic YWxpY2U", 401, "Invalid basic header. Credentials not correctly base64 encoded.", ""},
		{"one character", "Basic Y", 401, "Invalid basic header. Credentials not correctly base64 encoded.", ""},
		{"data after short padding", "Basic YW=x", 401, "Invalid basic header. Credentials not correctly base64 encoded.", ""},
		{"no alphabet characters decode to nothing, no colon", "Basic !!!", 401, "Invalid basic header. Credentials not correctly base64 encoded.", ""},
		{"wrong password", basic("alice", "wrong"), 401, "Invalid username/password.", ""},
		{"unknown user", basic("nobody", "x"), 401, "Invalid username/password.", ""},
		{"inactive user, right password", basic("bob", "bob-pass"), 401, "Invalid username/password.", ""},
		{"no colon", "Basic YWxpY2U=", 401, "Invalid basic header. Credentials not correctly base64 encoded.", ""},
		{"success", basic("alice", "alice-pass"), 200, "", "alice"},
		{"keyword in any case", "bAsIc YWxpY2U6YWxpY2UtcGFzcw==", 200, "", "alice"},
		{"surrounding spaces", "Basic   YWxpY2U6YWxpY2UtcGFzcw==  ", 200, "", "alice"},
		{"padding stops decoding", "Basic YWxpY2U6YWxpY2UtcGFzcw==junk", 200, "", "alice"},
		{"characters outside the alphabet are skipped", "Basic YWxp*Y2U6YWx.pY2UtcGFzcw==", 200, "", "alice"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var h []string
			if c.header != "" {
				h = append(h, "Authorization: "+c.header)
			}
			a := do(t, srv, "GET", "/", "", h...)
			if a.status != c.status || a.detail() != c.detail {
				t.Fatalf("got %d %q, want %d %q", a.status, a.detail(), c.status, c.detail)
			}
			if c.status == 401 && a.challenge != basicRealm {
				t.Errorf("WWW-Authenticate %q, want %q", a.challenge, basicRealm)
			}
			if c.user != "" && a.body["username"] != c.user {
				t.Errorf("username %v, want %s", a.body["username"], c.user)
			}
		})
	}
}

// DRF 3.14 checks credentials without a colon as a username with an
// empty password; DRF 3.15 (#8790) refuses them as badly encoded. Both
// references answer so on /auth/basic-first/.
func TestBasicWithoutColonByCompatibility(t *testing.T) {
	w := newWorld(t)
	for level, want := range map[framework.Compatibility]string{framework.DRF318: "Invalid basic header. Credentials not correctly base64 encoded.", framework.DRF314: "Invalid username/password."} {
		h := apitest.View(framework.View{
			Authentication: framework.Authenticators(authentication.Basic{Users: auth.ModelBackend{Users: w.users}}),
			Permissions:    framework.Permissions(framework.IsAuthenticated{}),
			Get:            whoami,
		}, framework.Settings{Compatibility: level})
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		for _, header := range []string{"Basic YWxpY2U=", "Basic !!!"} {
			if a := do(t, srv, "GET", "/", "", "Authorization: "+header); a.status != 401 || a.detail() != want {
				t.Errorf("%s, %s: %d %q, want 401 %q", level, header, a.status, a.detail(), want)
			}
		}
	}
}

func TestBasicRealmAndLatin1Credentials(t *testing.T) {
	w := newWorld(t)
	if _, err := w.users.CreateUser(context.Background(), "josé", "", "pässword"); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, framework.IsAuthenticated{}, authentication.Basic{Users: auth.ModelBackend{Users: w.users}, Realm: "books"})
	if a := do(t, srv, "GET", "/", ""); a.challenge != `Basic realm="books"` {
		t.Errorf("WWW-Authenticate %q", a.challenge)
	}
	// "josé:pässword" in Latin-1, as some clients send it.
	latin1 := "Basic am9z6Tpw5HNzd29yZA=="
	if a := do(t, srv, "GET", "/", "", "Authorization: "+latin1); a.status != 200 || a.body["username"] != "josé" {
		t.Errorf("Latin-1 credentials: %d %v", a.status, a.body)
	}
	if a := do(t, srv, "GET", "/", "", "Authorization: "+basic("josé", "pässword")); a.status != 200 {
		t.Errorf("UTF-8 credentials: %d %v", a.status, a.body)
	}
}

// inactiveChecker matches any password and returns the user even when
// inactive, as Django's AllowAllUsersModelBackend does.
func inactiveChecker(w *world) authentication.PasswordChecker {
	return authentication.PasswordCheckerFunc(func(ctx context.Context, username, _ string) (request.User, error) {
		u, err := w.users.GetByUsername(ctx, username)
		if err != nil {
			return nil, nil
		}
		return u, nil
	})
}

func TestBasicRejectsInactiveUserOfPermissiveChecker(t *testing.T) {
	w := newWorld(t)
	srv := serve(t, framework.AllowAny{}, authentication.Basic{Users: inactiveChecker(w)})
	a := do(t, srv, "GET", "/", "", "Authorization: "+basic("bob", "anything"))
	if a.status != 401 || a.detail() != "User inactive or deleted." || a.challenge != basicRealm {
		t.Errorf("got %d %q %q", a.status, a.detail(), a.challenge)
	}
	if a := do(t, srv, "GET", "/", "", "Authorization: "+basic("alice", "anything")); a.status != 200 || a.body["username"] != "alice" {
		t.Errorf("active user: %d %v", a.status, a.body)
	}
}

func TestTokenAuthentication(t *testing.T) {
	w := newWorld(t)
	alice, bob := w.token(t, w.alice), w.token(t, w.bob)
	srv := serve(t, framework.IsAuthenticated{}, authentication.Token{Tokens: w.tokens})
	cases := []struct {
		name, header string
		status       int
		detail       string
	}{
		{"no header", "", 401, "Authentication credentials were not provided."},
		{"other scheme", "Bearer " + alice, 401, "Authentication credentials were not provided."},
		{"keyword as a prefix only", "Tokens " + alice, 401, "Authentication credentials were not provided."},
		{"no credentials", "Token", 401, "Invalid token header. No credentials provided."},
		{"spaces", "Token a b", 401, "Invalid token header. Token string should not contain spaces."},
		{"invalid characters", "Token ab\xffc", 401, "Invalid token header. Token string should not contain invalid characters."},
		{"unknown key", "Token 0123456789012345678901234567890123456789", 401, "Invalid token."},
		{"key in another case", "Token " + upper(alice), 401, "Invalid token."},
		{"key with a suffix", "Token " + alice + "0", 401, "Invalid token."},
		{"inactive owner", "Token " + bob, 401, "User inactive or deleted."},
		{"success", "Token " + alice, 200, ""},
		{"keyword in any case", "token " + alice, 200, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var h []string
			if c.header != "" {
				h = append(h, "Authorization: "+c.header)
			}
			a := do(t, srv, "GET", "/", "", h...)
			if a.status != c.status || a.detail() != c.detail {
				t.Fatalf("got %d %q, want %d %q", a.status, a.detail(), c.status, c.detail)
			}
			if c.status == 401 && a.challenge != "Token" {
				t.Errorf("WWW-Authenticate %q, want Token", a.challenge)
			}
			if c.status == 200 && (a.body["username"] != "alice" || a.body["auth"] != "token of alice") {
				t.Errorf("user and auth: %v", a.body)
			}
		})
	}
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'f' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

func TestTokenKeywordIsReplaceable(t *testing.T) {
	w := newWorld(t)
	key := w.token(t, w.alice)
	srv := serve(t, framework.IsAuthenticated{}, authentication.Token{Tokens: w.tokens, Keyword: "Bearer"})
	if a := do(t, srv, "GET", "/", ""); a.status != 401 || a.challenge != "Bearer" {
		t.Errorf("anonymous: %d %q", a.status, a.challenge)
	}
	if a := do(t, srv, "GET", "/", "", "Authorization: bearer "+key); a.status != 200 || a.body["auth"] != "token of alice" {
		t.Errorf("bearer: %d %v", a.status, a.body)
	}
	if a := do(t, srv, "GET", "/", "", "Authorization: Token "+key); a.status != 401 || a.detail() != "Authentication credentials were not provided." {
		t.Errorf("Token keyword is not attempted: %d %v", a.status, a.body)
	}
}

func TestRemoteUserAuthentication(t *testing.T) {
	w := newWorld(t)
	view := func(s authentication.RemoteUser) *httptest.Server {
		v := apitest.View(framework.View{
			Authentication: framework.Authenticators(s),
			Permissions:    framework.Permissions(framework.IsAuthenticated{}),
			Get:            whoami,
		})
		srv := httptest.NewServer(authentication.TrustedHeader("X-Remote-User")(v))
		t.Cleanup(srv.Close)
		return srv
	}
	creating := view(authentication.RemoteUser{Users: auth.RemoteUserBackend{Users: w.users}})
	existing := view(authentication.RemoteUser{Users: auth.RemoteUserBackend{Users: w.users}, NoCreate: true})

	if a := do(t, creating, "GET", "/", "", "X-Remote-User: alice"); a.status != 200 || a.body["username"] != "alice" {
		t.Errorf("known user: %d %v", a.status, a.body)
	}
	if a := do(t, creating, "GET", "/", ""); a.status != 403 || a.challenge != "" {
		t.Errorf("no remote user: %d %q, want 403 without a challenge", a.status, a.challenge)
	}
	if a := do(t, creating, "GET", "/", "", "X-Remote-User: bob"); a.status != 403 {
		t.Errorf("inactive user: %d %v", a.status, a.body)
	}
	if a := do(t, existing, "GET", "/", "", "X-Remote-User: carol"); a.status != 403 {
		t.Errorf("unknown user with NoCreate: %d %v", a.status, a.body)
	}
	if _, err := w.users.GetByUsername(context.Background(), "carol"); err == nil {
		t.Fatal("NoCreate created carol")
	}
	if a := do(t, creating, "GET", "/", "", "X-Remote-User: carol"); a.status != 200 || a.body["username"] != "carol" {
		t.Errorf("unknown user: %d %v", a.status, a.body)
	}
	carol, err := w.users.GetByUsername(context.Background(), "carol")
	if err != nil || !carol.Active || carol.Staff {
		t.Fatalf("carol was not created as an active plain user: %+v %v", carol, err)
	}
	if a := do(t, existing, "GET", "/", "", "X-Remote-User: carol"); a.status != 200 {
		t.Errorf("created user with NoCreate: %d %v", a.status, a.body)
	}
	// Two copies (a client's and a proxy's): which one the proxy set is
	// unknown, so neither authenticates, in any spelling of the name.
	for _, second := range []string{"X-Remote-User: alice", "x-remote-user: alice", "X-Remote-User: admin"} {
		if a := do(t, creating, "GET", "/", "", "X-Remote-User: admin", second); a.status != 403 || a.detail() != "Invalid remote user header. It was sent more than once." {
			t.Errorf("header twice (%s): %d %v", second, a.status, a.body)
		}
	}
}

func TestCGIRemoteUser(t *testing.T) {
	w := newWorld(t)
	v := apitest.View(framework.View{
		Authentication: framework.Authenticators(authentication.RemoteUser{Users: auth.RemoteUserBackend{Users: w.users}}),
		Permissions:    framework.Permissions(framework.IsAuthenticated{}),
		Get:            whoami,
	})
	srv := httptest.NewServer(authentication.CGIRemoteUser(v))
	defer srv.Close()
	if a := do(t, srv, "GET", "/", "", "X-Remote-User: alice"); a.status != 403 {
		t.Errorf("without REMOTE_USER: %d %v", a.status, a.body)
	}
	t.Setenv("REMOTE_USER", "alice")
	if a := do(t, srv, "GET", "/", ""); a.status != 200 || a.body["username"] != "alice" {
		t.Errorf("with REMOTE_USER: %d %v", a.status, a.body)
	}
}

// TestWithRemoteUser: a middleware of the deployer's own names the user
// through WithRemoteUser.
func TestWithRemoteUser(t *testing.T) {
	w := newWorld(t)
	v := apitest.View(framework.View{
		Authentication: framework.Authenticators(authentication.RemoteUser{Users: auth.RemoteUserBackend{Users: w.users}}),
		Permissions:    framework.Permissions(framework.IsAuthenticated{}),
		Get:            whoami,
	})
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if name := r.URL.Query().Get("as"); name != "" {
			r = r.WithContext(authentication.WithRemoteUser(r.Context(), name))
		}
		v.ServeHTTP(rw, r)
	}))
	defer srv.Close()
	if a := do(t, srv, "GET", "/?as=alice", ""); a.status != 200 || a.body["username"] != "alice" {
		t.Errorf("remote user alice: %d %v", a.status, a.body)
	}
	if a := do(t, srv, "GET", "/", ""); a.status != 403 {
		t.Errorf("no remote user: %d %v", a.status, a.body)
	}
}

// A concurrent creation of the same remote user is not an error.
func TestRemoteUserConcurrentCreation(t *testing.T) {
	w := newWorld(t)
	b := auth.RemoteUserBackend{Users: w.users}
	errs := make(chan error, 10)
	for range 10 {
		go func() {
			u, err := b.RemoteUser(context.Background(), "dave", true)
			if err == nil && u.GetUsername() != "dave" {
				err = http.ErrNotSupported
			}
			errs <- err
		}()
	}
	for range 10 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
