package auth_test

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/contrib/sessions"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite"
)

// DRF 3.18's tests/authentication/test_authentication.py, ported: each
// test method is an item named by its class and method, run at both
// compatibility levels with DRF's assertions. Its urlconf is
// drfAuthSite's: MockView (IsAuthenticated, 200 to GET, POST and PUT)
// under each scheme, the obtain-token view, and DRF's login pages. DRF's
// csrf_client (APIClient(enforce_csrf_checks=True)) is apitest's client;
// its non_csrf_client, which skips Django's CSRF check, is the client
// sending the csrftoken cookie's token as a browser's form does, as the
// methods' docstrings say ("with logged in user and CSRF token passes").
// The CustomToken model is the test's own token store of the table
// authentication_customtoken.

// drfAuthFixture is setUp's: the user john with his password, in a
// database of Django's and DRF's tables.
type drfAuthFixture struct {
	t        *testing.T
	level    framework.Compatibility
	db       *sqlx.DB
	queries  func() int
	users    *auth.Users
	tokens   *authtoken.Tokens
	sessions *sessions.Manager
	user     *auth.User
}

const (
	drfUsername = "john"
	drfEmail    = "lennon@thebeatles.com"
	drfPassword = "password"
)

func newDRFAuthFixture(t *testing.T, level framework.Compatibility) *drfAuthFixture {
	t.Helper()
	db, queries := drfsuite.Open(t)
	ctx := context.Background()
	if _, err := migrations.Migrate(ctx, db, append(append(append([]migrations.Migration{}, auth.Migrations...), authtoken.Migrations...), sessions.Migrations...)...); err != nil {
		t.Fatal(err)
	}
	db.MustExec(`CREATE TABLE "authentication_customtoken" ("key" varchar(40) NOT NULL PRIMARY KEY, ` +
		`"user_id" integer NOT NULL UNIQUE REFERENCES "auth_user" ("id"))`)
	f := &drfAuthFixture{t: t, level: level, db: db, queries: queries,
		users: &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}, tokens: &authtoken.Tokens{DB: db}}
	f.sessions = &sessions.Manager{DB: db, Users: f.users, SecretKey: "not very secret in tests", Compatibility: level,
		Logger: slog.New(slog.DiscardHandler)}
	f.user = f.createUser(drfUsername, drfEmail, drfPassword, true)
	return f
}

// createUser is User.objects.create_user, with is_active = active saved.
func (f *drfAuthFixture) createUser(username, email, password string, active bool) *auth.User {
	f.t.Helper()
	u := &auth.User{Username: username, Email: email, Active: active}
	if err := f.users.Create(context.Background(), u, password); err != nil {
		f.t.Fatal(err)
	}
	return u
}

// createToken is model.objects.create(key=key, user=user) of the token
// model named by its table.
func (f *drfAuthFixture) createToken(table, key string, u *auth.User) {
	f.t.Helper()
	if table == "authtoken_token" {
		f.db.MustExec(f.db.Rebind(`INSERT INTO "authtoken_token" ("key", "created", "user_id") VALUES (?, ?, ?)`),
			key, store.FormatTime(time.Now().UTC()), u.ID)
		return
	}
	f.db.MustExec(f.db.Rebind(`INSERT INTO "`+table+`" ("key", "user_id") VALUES (?, ?)`), key, u.ID)
}

// drfCustomToken is DRF's test model CustomToken: a key and its user.
type drfCustomToken struct {
	Key    string     `db:"key" json:"key" model:"primary_key,max_length=40"`
	UserID int64      `db:"user_id" json:"user" model:"one_to_one=auth_user,on_delete=cascade"`
	User   *auth.User `db:"-" json:"-" drf:"source=user"`
}

func (drfCustomToken) Meta() models.Meta {
	return models.Meta{App: "authentication", Name: "CustomToken"}
}

// drfCustomTokens is CustomToken's store, as a user writes one for a
// token model of their own: the key's owner, read with one query.
type drfCustomTokens struct {
	src *queryset.SQLSource[drfCustomToken]
}

func (s drfCustomTokens) LookupToken(ctx context.Context, key string) (request.User, any, error) {
	tok, err := s.src.SelectRelated("user").Get(ctx, "key", key)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return tok.User, key, nil
}

// drfMockView is MockView with authentication_classes=schemes.
func drfMockView(schemes ...request.Authenticator) framework.View {
	ok := func(*framework.View, *request.Request) (*framework.Response, error) {
		return framework.OK(map[string]int{"a": 1, "b": 2, "c": 3}), nil
	}
	return framework.View{
		Authentication: framework.Authenticators(schemes...),
		Permissions:    framework.Permissions(framework.IsAuthenticated{}),
		Get:            ok, Post: ok, Put: ok,
	}
}

// site is test_authentication.py's urlpatterns, under the session
// middleware, with "remote-user/" behind a server that sets REMOTE_USER
// from the header X-Remote-User.
func (f *drfAuthFixture) site() *apitest.Client {
	api := framework.NewAPI(f.db, framework.Settings{Compatibility: f.level})
	api.Handle("/session/", drfMockView(authentication.Session{Sessions: f.sessions}))
	api.Handle("/basic/", drfMockView(authentication.Basic{Users: auth.ModelBackend{Users: f.users}}))
	api.Handle("/remote-user/", drfMockView(authentication.RemoteUser{Users: auth.RemoteUserBackend{Users: f.users}}))
	api.Handle("/token/", drfMockView(authentication.Token{Tokens: f.tokens}))
	api.Handle("/customtoken/", drfMockView(authentication.Token{Tokens: drfCustomTokens{queryset.MustSQL[drfCustomToken](f.db, queryset.SQLConfig{})}}))
	api.Handle("/customkeywordtoken/", drfMockView(authentication.Token{Tokens: f.tokens, Keyword: "Bearer"}))
	api.Handle("/auth-token/", authtoken.ObtainToken{Users: f.users, Tokens: f.tokens}.View())
	api.HandleHTTP("/auth/*", f.sessions.Pages())
	h := f.sessions.Middleware(api)
	remote := authentication.TrustedHeader("X-Remote-User")(h)
	c := apitest.New(f.t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/remote-user/" {
			remote.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	}))
	c.LoginURL, c.LogoutURL = "/auth/login/", "/auth/logout/"
	return c
}

// The bodies DRF's test client sends: post(path, {'example': 'example'})
// is multipart, format='json' JSON.
const (
	drfForm     = "--BoUnDaRy\r\nContent-Disposition: form-data; name=\"example\"\r\n\r\nexample\r\n--BoUnDaRy--\r\n"
	drfFormType = "Content-Type: multipart/form-data; boundary=BoUnDaRy"
	drfJSON     = `{"example":"example"}`
	drfJSONType = "Content-Type: application/json"
)

// basicAuth is 'Basic %s' % base64(credentials).
func basicAuth(credentials string) string {
	return "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(credentials))
}

// drfStatus checks one answer's status.
func drfStatus(r *apitest.Response, want int) []string {
	var c drfsuite.Checks
	c.Equal("response.status_code", r.Status, want)
	return c
}

// drfAuthItem is an item of a fresh fixture.
func drfAuthItem(name string, run func(f *drfAuthFixture) []string) drfsuite.Item {
	return drfsuite.Item{Name: name, Run: func(t *testing.T, level framework.Compatibility) []string {
		return run(newDRFAuthFixture(t, level))
	}}
}

// drfTokenTests are BaseTokenAuthTests' methods for the class cls: its
// token table, path and header prefix.
func drfTokenTests(cls, table, path, prefix string) []drfsuite.Item {
	const key = "abcd1234"
	item := func(method string, run func(f *drfAuthFixture, c *apitest.Client) []string) drfsuite.Item {
		return drfAuthItem(cls+"."+method, func(f *drfAuthFixture) []string {
			f.createToken(table, key, f.user)
			return run(f, f.site())
		})
	}
	auth := "Authorization: " + prefix
	return []drfsuite.Item{
		item("test_post_form_passing_token_auth", func(f *drfAuthFixture, c *apitest.Client) []string {
			return drfStatus(c.Post(path, drfForm, drfFormType, auth+key), 200)
		}),
		item("test_fail_authentication_if_user_is_not_active", func(f *drfAuthFixture, c *apitest.Client) []string {
			f.createToken(table, "foobar_token", f.createUser("foo", "bar", "baz", false))
			return drfStatus(c.Post(path, drfForm, drfFormType, auth+"foobar_token"), 401)
		}),
		item("test_fail_post_form_passing_nonexistent_token_auth", func(f *drfAuthFixture, c *apitest.Client) []string {
			return drfStatus(c.Post(path, drfForm, drfFormType, auth+"wxyz6789"), 401)
		}),
		item("test_fail_post_if_token_is_missing", func(f *drfAuthFixture, c *apitest.Client) []string {
			return drfStatus(c.Post(path, drfForm, drfFormType, auth), 401)
		}),
		item("test_fail_post_if_token_contains_spaces", func(f *drfAuthFixture, c *apitest.Client) []string {
			return drfStatus(c.Post(path, drfForm, drfFormType, auth+"foo bar"), 401)
		}),
		item("test_fail_post_form_passing_invalid_token_auth", func(f *drfAuthFixture, c *apitest.Client) []string {
			// Django's test client sends "¸" as the header's Latin-1 byte.
			return drfStatus(c.Post(path, drfForm, drfFormType, auth+key+"\xb8"), 401)
		}),
		item("test_post_json_passing_token_auth", func(f *drfAuthFixture, c *apitest.Client) []string {
			return drfStatus(c.Post(path, drfJSON, drfJSONType, auth+key), 200)
		}),
		item("test_post_json_makes_one_db_query", func(f *drfAuthFixture, c *apitest.Client) []string {
			var checks drfsuite.Checks
			f.queries()
			c.Post(path, drfJSON, drfJSONType, auth+key)
			checks.Equal("queries", f.queries(), 1)
			return checks
		}),
		item("test_post_form_failing_token_auth", func(f *drfAuthFixture, c *apitest.Client) []string {
			return drfStatus(c.Post(path, drfForm, drfFormType), 401)
		}),
		item("test_post_json_failing_token_auth", func(f *drfAuthFixture, c *apitest.Client) []string {
			return drfStatus(c.Post(path, drfJSON, drfJSONType), 401)
		}),
	}
}

// drfCSRFToken is a new masked CSRF token, set as the client's
// csrftoken cookie (Django's _mask_cipher_secret(_get_new_csrf_string())).
func (f *drfAuthFixture) drfCSRFToken(c *apitest.Client) string {
	token := f.sessions.Protection().Token(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "http://testserver/", nil))
	c.Jar.SetCookies(&url.URL{Scheme: "http", Host: apitest.Host, Path: "/"}, []*http.Cookie{{Name: "csrftoken", Value: token}})
	return token
}

// drfLogin is client.login(username=..., password=...).
func (f *drfAuthFixture) drfLogin(c *apitest.Client) {
	f.t.Helper()
	if !c.Login(drfUsername, drfPassword) {
		f.t.Fatal("client.login failed")
	}
}

// drfAuthenticatorFunc adapts a function to request.Authenticator: a
// scheme a user writes (BaseAuthentication's subclass).
type drfAuthenticatorFunc func(r *request.Request) (request.User, any, error)

func (fn drfAuthenticatorFunc) Authenticate(r *request.Request) (request.User, any, error) {
	return fn(r)
}

// drfDummyPermission is DummyPermission: it denies, with its message.
type drfDummyPermission struct{}

func (drfDummyPermission) HasPermission(*request.Request, *framework.View) (bool, error) {
	return false, nil
}

func (drfDummyPermission) Message() string { return "Dummy permission message" }

// drfAuthAccessingRenderer is AuthAccessingRenderer: text/plain saying
// whether request.user is authenticated.
type drfAuthAccessingRenderer struct{}

func (drfAuthAccessingRenderer) MediaType() string { return "text/plain" }
func (drfAuthAccessingRenderer) Format() string    { return "txt" }
func (drfAuthAccessingRenderer) Render(_ any, c *framework.RenderContext) ([]byte, error) {
	if c.Request.User().IsAuthenticated() {
		return []byte("authenticated"), nil
	}
	return []byte("not authenticated"), nil
}

// drfFailingAuth raises AuthenticationFailed(detail).
func drfFailingAuth(detail string) request.Authenticator {
	return drfAuthenticatorFunc(func(*request.Request) (request.User, any, error) {
		return nil, nil, exceptions.AuthenticationFailed(detail)
	})
}

// drfFactoryGet is view(factory.get('/')), with header.
func drfFactoryGet(t *testing.T, level framework.Compatibility, v framework.View, header ...string) *apitest.Response {
	return apitest.New(t, apitest.View(v, framework.Settings{Compatibility: level})).Get("/", header...)
}

// drfTokenKey matches generate_key's format.
var drfTokenKey = regexp.MustCompile(`^[0-9a-f]{40}$`)

// drfAuthenticationItems are the ported methods.
var drfAuthenticationItems = append(append(append([]drfsuite.Item{
	drfAuthItem("BasicAuthTests.test_post_form_passing_basic_auth", func(f *drfAuthFixture) []string {
		return drfStatus(f.site().Post("/basic/", drfForm, drfFormType, basicAuth(drfUsername+":"+drfPassword)), 200)
	}),
	drfAuthItem("BasicAuthTests.test_post_json_passing_basic_auth", func(f *drfAuthFixture) []string {
		return drfStatus(f.site().Post("/basic/", drfJSON, drfJSONType, basicAuth(drfUsername+":"+drfPassword)), 200)
	}),
	drfAuthItem("BasicAuthTests.test_post_json_without_password_failing_basic_auth", func(f *drfAuthFixture) []string {
		// self.user.set_password("") is not saved.
		return drfStatus(f.site().Post("/basic/", drfJSON, drfJSONType, basicAuth(drfUsername)), 401)
	}),
	drfAuthItem("BasicAuthTests.test_regression_handle_bad_base64_basic_auth_header", func(f *drfAuthFixture) []string {
		return drfStatus(f.site().Post("/basic/", drfJSON, drfJSONType, "Authorization: Basic =a="), 401)
	}),
	drfAuthItem("BasicAuthTests.test_post_form_failing_basic_auth", func(f *drfAuthFixture) []string {
		return drfStatus(f.site().Post("/basic/", drfForm, drfFormType), 401)
	}),
	drfAuthItem("BasicAuthTests.test_post_json_failing_basic_auth", func(f *drfAuthFixture) []string {
		r := f.site().Post("/basic/", drfJSON, drfJSONType)
		c := drfsuite.Checks(drfStatus(r, 401))
		c.Equal("response['WWW-Authenticate']", r.Header.Get("WWW-Authenticate"), `Basic realm="api"`)
		return c
	}),
	drfAuthItem("BasicAuthTests.test_fail_post_if_credentials_are_missing", func(f *drfAuthFixture) []string {
		return drfStatus(f.site().Post("/basic/", drfForm, drfFormType, "Authorization: Basic "), 401)
	}),
	drfAuthItem("BasicAuthTests.test_fail_post_if_credentials_contain_spaces", func(f *drfAuthFixture) []string {
		return drfStatus(f.site().Post("/basic/", drfForm, drfFormType, "Authorization: Basic foo bar"), 401)
	}),
	drfAuthItem("BasicAuthTests.test_decoding_of_utf8_credentials", func(f *drfAuthFixture) []string {
		f.createUser("walterwhité", "walterwhite@example.com", "pässwörd", true)
		return drfStatus(f.site().Post("/basic/", drfForm, drfFormType, basicAuth("walterwhité:pässwörd")), 200)
	}),
	drfAuthItem("SessionAuthTests.test_login_view_renders_on_get", func(f *drfAuthFixture) []string {
		var c drfsuite.Checks
		c.Contains("content", f.site().Get("/auth/login/").Body, `<label for="id_username">Username:</label>`)
		return c
	}),
	drfAuthItem("SessionAuthTests.test_post_form_session_auth_failing_csrf", func(f *drfAuthFixture) []string {
		c := f.site()
		f.drfLogin(c)
		return drfStatus(c.Post("/session/", drfForm, drfFormType), 403)
	}),
	drfAuthItem("SessionAuthTests.test_post_form_session_auth_passing_csrf", func(f *drfAuthFixture) []string {
		c := f.site()
		f.drfLogin(c)
		token := f.drfCSRFToken(c)
		body := "--BoUnDaRy\r\nContent-Disposition: form-data; name=\"example\"\r\n\r\nexample\r\n" +
			"--BoUnDaRy\r\nContent-Disposition: form-data; name=\"csrfmiddlewaretoken\"\r\n\r\n" + token + "\r\n--BoUnDaRy--\r\n"
		return drfStatus(c.Post("/session/", body, drfFormType), 200)
	}),
	drfAuthItem("SessionAuthTests.test_post_form_session_auth_passing", func(f *drfAuthFixture) []string {
		c := f.site()
		f.drfLogin(c)
		return drfStatus(c.Post("/session/", drfForm, drfFormType, "X-CSRFToken: "+c.Cookie("csrftoken")), 200)
	}),
	drfAuthItem("SessionAuthTests.test_put_form_session_auth_passing", func(f *drfAuthFixture) []string {
		c := f.site()
		f.drfLogin(c)
		return drfStatus(c.Do("PUT", "/session/", drfForm, drfFormType, "X-CSRFToken: "+c.Cookie("csrftoken")), 200)
	}),
	drfAuthItem("SessionAuthTests.test_post_form_session_auth_failing", func(f *drfAuthFixture) []string {
		return drfStatus(f.site().Post("/session/", drfForm, drfFormType), 403)
	}),
}, drfTokenTests("TokenAuthTests", "authtoken_token", "/token/", "Token ")...),
	drfTokenTests("CustomTokenAuthTests", "authentication_customtoken", "/customtoken/", "Token ")...),
	append(drfTokenTests("CustomKeywordTokenAuthTests", "authtoken_token", "/customkeywordtoken/", "Bearer "),
		drfAuthItem("TokenAuthTests.test_token_has_auto_assigned_key_if_none_provided", func(f *drfAuthFixture) []string {
			var c drfsuite.Checks
			tok, _, err := f.tokens.GetOrCreate(context.Background(), f.user.ID)
			c.Equal("error", err, nil)
			if err == nil {
				c.Equal("bool(token.key)", tok.Key != "", true)
			}
			return c
		}),
		drfsuite.Item{Name: "TokenAuthTests.test_generate_key_returns_valid_format", Run: func(*testing.T, framework.Compatibility) []string {
			var c drfsuite.Checks
			c.Equal("valid key", drfTokenKey.MatchString(authtoken.GenerateKey()), true)
			return c
		}},
		drfsuite.Item{Name: "TokenAuthTests.test_generate_key_produces_unique_values", Run: func(*testing.T, framework.Compatibility) []string {
			return drfUniqueKeys(100)
		}},
		drfsuite.Item{Name: "TokenAuthTests.test_generate_key_collision_resistance", Run: func(*testing.T, framework.Compatibility) []string {
			return drfUniqueKeys(500)
		}},
		drfsuite.Item{Name: "TokenAuthTests.test_generate_key_randomness_quality", Run: func(*testing.T, framework.Compatibility) []string {
			var c drfsuite.Checks
			keys := make([]string, 10)
			for i := range keys {
				keys[i] = authtoken.GenerateKey()
			}
			for i := range len(keys) - 1 {
				if keys[i] == keys[i+1] {
					c = append(c, "Consecutive keys should be different")
				}
			}
			for _, k := range keys {
				if strings.Count(k, k[:1]) == len(k) {
					c = append(c, "Key has all same characters: "+k)
				}
			}
			return c
		}},
		drfAuthItem("TokenAuthTests.test_token_login_json", func(f *drfAuthFixture) []string {
			f.createToken("authtoken_token", "abcd1234", f.user)
			r := f.site().Post("/auth-token/", `{"username":"john","password":"password"}`, drfJSONType)
			c := drfsuite.Checks(drfStatus(r, 200))
			c.JSON("response.data", r.Body, `{"token":"abcd1234"}`)
			return c
		}),
		drfAuthItem("TokenAuthTests.test_token_login_json_bad_creds", func(f *drfAuthFixture) []string {
			return drfStatus(f.site().Post("/auth-token/", `{"username":"john","password":"badpass"}`, drfJSONType), 400)
		}),
		drfAuthItem("TokenAuthTests.test_token_login_json_missing_fields", func(f *drfAuthFixture) []string {
			return drfStatus(f.site().Post("/auth-token/", `{"username":"john"}`, drfJSONType), 400)
		}),
		drfAuthItem("TokenAuthTests.test_token_login_form", func(f *drfAuthFixture) []string {
			f.createToken("authtoken_token", "abcd1234", f.user)
			body := "--BoUnDaRy\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\njohn\r\n" +
				"--BoUnDaRy\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\npassword\r\n--BoUnDaRy--\r\n"
			r := f.site().Post("/auth-token/", body, drfFormType)
			c := drfsuite.Checks(drfStatus(r, 200))
			c.JSON("response.data", r.Body, `{"token":"abcd1234"}`)
			return c
		}),
		drfsuite.Item{Name: "IncorrectCredentialsTests.test_incorrect_credentials", Run: func(t *testing.T, level framework.Compatibility) []string {
			v := drfMockView(drfFailingAuth("Bad credentials"))
			v.Permissions = framework.Permissions()
			r := drfFactoryGet(t, level, v)
			c := drfsuite.Checks(drfStatus(r, 403))
			c.JSON("response.data", r.Body, `{"detail":"Bad credentials"}`)
			return c
		}},
		drfsuite.Item{Name: "FailingAuthAccessedInRenderer.test_failing_auth_accessed_in_renderer", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			r := drfFactoryGet(t, level, framework.View{
				Authentication: framework.Authenticators(drfFailingAuth("authentication failed")),
				Renderers:      framework.Renderers(drfAuthAccessingRenderer{}),
				Get: func(*framework.View, *request.Request) (*framework.Response, error) {
					return framework.OK(map[string]string{"foo": "bar"}), nil
				},
			})
			c.Equal("content", r.Body, "not authenticated")
			return c
		}},
		drfsuite.Item{Name: "NoAuthenticationClassesTests.test_permission_message_with_no_authentication_classes", Run: func(t *testing.T, level framework.Compatibility) []string {
			v := drfMockView()
			v.Permissions = framework.Permissions(drfDummyPermission{})
			r := drfFactoryGet(t, level, v)
			c := drfsuite.Checks(drfStatus(r, 403))
			c.JSON("response.data", r.Body, `{"detail":"Dummy permission message"}`)
			return c
		}},
		drfAuthItem("BasicAuthenticationUnitTests.test_basic_authentication_raises_error_if_user_not_found", func(f *drfAuthFixture) []string {
			r := f.site().Get("/basic/", basicAuth("invalid id:invalid password"))
			c := drfsuite.Checks(drfStatus(r, 401))
			c.JSON("AuthenticationFailed", r.Body, `{"detail":"Invalid username/password."}`)
			return c
		}),
		drfsuite.Item{Name: "BasicAuthenticationUnitTests.test_basic_authentication_raises_error_if_user_not_active", Run: func(t *testing.T, level framework.Compatibility) []string {
			var c drfsuite.Checks
			inactive := authentication.PasswordCheckerFunc(func(context.Context, string, string) (request.User, error) {
				return &auth.User{Username: "foo"}, nil
			})
			r := drfFactoryGet(t, level, drfMockView(authentication.Basic{Users: inactive}), basicAuth("foo:bar"))
			c.Contains("str(exc_info.value)", r.Body, "User inactive or deleted.")
			return c
		}},
		drfAuthItem("RemoteUserAuthenticationUnitTests.test_remote_user_works", func(f *drfAuthFixture) []string {
			return drfStatus(f.site().Post("/remote-user/", "", "X-Remote-User: "+drfUsername), 200)
		}),
	)...)

// drfUniqueKeys checks that n keys of generate_key differ.
func drfUniqueKeys(n int) []string {
	var c drfsuite.Checks
	keys := map[string]bool{}
	for range n {
		k := authtoken.GenerateKey()
		if keys[k] {
			c = append(c, "Duplicate key generated: "+k)
		}
		keys[k] = true
	}
	c.Equal("len(keys)", len(keys), n)
	return c
}

// TestDRFAuthentication runs DRF 3.18's
// tests/authentication/test_authentication.py.
func TestDRFAuthentication(t *testing.T) {
	var methods []string
	for _, it := range drfAuthenticationItems {
		methods = append(methods, it.Name)
	}
	np := map[string]string{
		"TokenAuthTests.test_generate_key_returns_string":            "Python's types: GenerateKey returns a string by its signature",
		"TokenAuthTests.test_generate_key_accessible_as_classmethod": "Python's API: a classmethod of the model; GenerateKey is a function of the package",
		"BasicAuthenticationUnitTests.test_base_authentication_abstract_method": "Python's API: BaseAuthentication's NotImplementedError; request.Authenticator is an interface, " +
			"which a scheme without Authenticate does not satisfy",
	}
	for m := range np {
		methods = append(methods, m)
	}
	drfsuite.Suite{
		File:        "tests/authentication/test_authentication.py",
		Methods:     methods,
		Items:       drfAuthenticationItems,
		Differ:      map[string]string{},
		NotPortable: np,
	}.Run(t)
}
