package authtoken_test

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/management"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite"
)

// DRF 3.18's tests/test_authtoken.py, ported: each test method is an item
// named by its class and method, run at both compatibility levels with
// DRF's assertions. Token.objects.create(key=..., user=...) is the row
// the ORM inserts; a token made without a key is Tokens.GetOrCreate's;
// AuthTokenSerializer is the obtain-token view's body; TokenAdmin is the
// Admin page; AuthTokenCommand().create_user_token(username, reset) and
// call_command are the drf_create_token command.

// drfTokenFixture is AuthTokenTests.setUp: the user test_user and the
// token "test token", in a database file the command can open too.
type drfTokenFixture struct {
	*fixture
	dsn   string
	user  *auth.User
	level framework.Compatibility
}

func newDRFTokenFixture(t *testing.T, level framework.Compatibility, withToken bool) *drfTokenFixture {
	t.Helper()
	dsn := filepath.Join(t.TempDir(), "db.sqlite3")
	f := &drfTokenFixture{fixture: newFixture(t, dsn), dsn: dsn, level: level}
	var err error
	if f.user, err = f.users.CreateUser(context.Background(), "test_user", "", ""); err != nil {
		t.Fatal(err)
	}
	if withToken {
		if err := f.create("test token", f.user.ID); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// create is Token.objects.create(key=key, user=user): the row inserted.
func (f *drfTokenFixture) create(key string, userID int64) error {
	_, err := f.db.Exec(f.db.Rebind(`INSERT INTO "authtoken_token" ("key", "created", "user_id") VALUES (?, ?, ?)`),
		key, store.FormatTime(time.Now().UTC()), userID)
	return err
}

// obtain posts body to the obtain-token view.
func (f *drfTokenFixture) obtain(t *testing.T, body string) *apitest.Response {
	api := framework.NewAPI(f.db, framework.Settings{Compatibility: f.level})
	return apitest.New(t, api.Handler(authtoken.ObtainToken{Users: f.users, Tokens: f.tokens}.View())).Post("/", body)
}

// command runs drf_create_token with args; its output and error.
func (f *drfTokenFixture) command(args ...string) (string, error) {
	var out, errOut bytes.Buffer
	env := &management.Env{Stdout: &out, Stderr: &errOut, DatabaseURL: f.dsn}
	cmd := authtoken.CreateTokenCommand()
	err := cmd.Run(context.Background(), env, args)
	return out.String(), err
}

// first is Token.objects.first().key of test_user.
func (f *drfTokenFixture) first(t *testing.T) string {
	tok, err := f.tokens.ForUser(context.Background(), f.user.ID)
	if err != nil {
		t.Fatal(err)
	}
	return tok.Key
}

// drfTokenItem is an item of a fresh fixture.
func drfTokenItem(name string, withToken bool, run func(t *testing.T, f *drfTokenFixture) []string) drfsuite.Item {
	return drfsuite.Item{Name: name, Run: func(t *testing.T, level framework.Compatibility) []string {
		return run(t, newDRFTokenFixture(t, level, withToken))
	}}
}

// drfCreateField matches the text fields of the admin's create form.
var drfCreateField = regexp.MustCompile(`<input type="text" name="[^"]+" id="id_([^"]+)"`)

// drfAuthtokenItems are the ported methods.
var drfAuthtokenItems = []drfsuite.Item{
	{Name: "AuthTokenTests.test_model_admin_displayed_fields", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		a, cookie := searchAdmin(t, ":memory:", level, nil)
		body := a.do(t, "GET", "/admin/tokens/", cookie, nil).body
		var fields []string
		for _, m := range drfCreateField.FindAllStringSubmatch(body, -1) {
			fields = append(fields, m[1])
		}
		c.Equal("token_admin.get_fields()", fields, []string{"user"})
		return c
	}},
	{Name: "AuthTokenTests.test_model_admin__username_field", Run: func(t *testing.T, level framework.Compatibility) []string {
		var c drfsuite.Checks
		for _, field := range []string{"username", "email"} {
			a, cookie := searchAdmin(t, ":memory:", level, func(h *authtoken.Admin) { h.UsernameField = field })
			p := a.do(t, "GET", "/admin/tokens/", cookie, nil)
			if level == framework.DRF314 {
				// DRF 3.14's TokenAdmin: ordering ('-created',), no search.
				c.Equal(field+": search box", strings.Contains(p.body, `id="searchbar"`), false)
				continue
			}
			got := listed(p.body)
			want := slices.Clone(got)
			slices.Sort(want)
			c.Equal(field+": get_ordering() is user__"+field, got, want)
			term := map[string]string{"username": "ALICI", "email": "ALICIA@EXAMPLE.ORG"}[field]
			found := listed(a.do(t, "GET", "/admin/tokens/?q="+url.QueryEscape(term), cookie, nil).body)
			c.Equal(field+": get_search_fields() is user__"+field, found, map[string][]string{
				"username": {"alicia"}, "email": {"alicia@example.org"}}[field])
		}
		return c
	}},
	drfTokenItem("AuthTokenTests.test_token_string_representation", true, func(t *testing.T, f *drfTokenFixture) []string {
		var c drfsuite.Checks
		tok, err := f.tokens.ForUser(context.Background(), f.user.ID)
		if err != nil {
			t.Fatal(err)
		}
		c.Equal("str(self.token)", tok.String(), "test token")
		return c
	}),
	drfTokenItem("AuthTokenTests.test_validate_raise_error_if_no_credentials_provided", true, func(t *testing.T, f *drfTokenFixture) []string {
		var c drfsuite.Checks
		c.Equal("ValidationError: status", f.obtain(t, `{}`).Status, 400)
		return c
	}),
	drfTokenItem("AuthTokenTests.test_whitespace_in_password", true, func(t *testing.T, f *drfTokenFixture) []string {
		var c drfsuite.Checks
		if err := f.users.SetPassword(context.Background(), f.user, "test pass "); err != nil {
			t.Fatal(err)
		}
		c.Equal("is_valid(): status", f.obtain(t, `{"username":"test_user","password":"test pass "}`).Status, 200)
		return c
	}),
	drfTokenItem("AuthTokenTests.test_token_creation_collision_raises_integrity_error", true, func(t *testing.T, f *drfTokenFixture) []string {
		var c drfsuite.Checks
		user2, err := f.users.CreateUser(context.Background(), "user2", "user2@example.com", "p")
		if err != nil {
			t.Fatal(err)
		}
		existing, _, err := f.tokens.GetOrCreate(context.Background(), user2.ID)
		if err != nil {
			t.Fatal(err)
		}
		err = f.create(existing.Key, f.user.ID)
		c.Equal("IntegrityError", store.IsUniqueViolation(err), true)
		return c
	}),
	drfTokenItem("AuthTokenTests.test_key_generated_on_save_when_cleared", true, func(t *testing.T, f *drfTokenFixture) []string {
		var c drfsuite.Checks
		user2, err := f.users.CreateUser(context.Background(), "test_user2", "test2@example.com", "password")
		if err != nil {
			t.Fatal(err)
		}
		tok, _, err := f.tokens.GetOrCreate(context.Background(), user2.ID)
		if err != nil {
			t.Fatal(err)
		}
		c.Equal("len(token.key)", len(tok.Key), 40)
		c.Equal("token.user", tok.UserID, user2.ID)
		return c
	}),
	drfTokenItem("AuthTokenTests.test_saving_existing_token_without_changes_does_not_alter_key", true, func(t *testing.T, f *drfTokenFixture) []string {
		var c drfsuite.Checks
		tok, created, err := f.tokens.GetOrCreate(context.Background(), f.user.ID)
		c.Equal("error", err, nil)
		if err == nil {
			c.Equal("token.key", [2]any{tok.Key, created}, [2]any{"test token", false})
		}
		return c
	}),
	drfTokenItem("AuthTokenCommandTests.test_command_create_user_token", false, func(t *testing.T, f *drfTokenFixture) []string {
		var c drfsuite.Checks
		out, err := f.command("test_user")
		c.Equal("error", err, nil)
		c.Equal("token.key == token_saved.key", out, "Generated token "+f.first(t)+" for user test_user\n")
		return c
	}),
	drfTokenItem("AuthTokenCommandTests.test_command_create_user_token_invalid_user", false, func(t *testing.T, f *drfTokenFixture) []string {
		var c drfsuite.Checks
		_, err := f.command("not_existing_user")
		_, isCommandError := errors.AsType[*management.CommandError](err)
		c.Equal("User.DoesNotExist", isCommandError, true)
		return c
	}),
	drfTokenItem("AuthTokenCommandTests.test_command_reset_user_token", false, func(t *testing.T, f *drfTokenFixture) []string {
		var c drfsuite.Checks
		f.command("test_user")
		first := f.first(t)
		f.command("-r", "test_user")
		c.Equal("first_token_key != second_token_key", first != f.first(t), true)
		return c
	}),
	drfTokenItem("AuthTokenCommandTests.test_command_do_not_reset_user_token", false, func(t *testing.T, f *drfTokenFixture) []string {
		var c drfsuite.Checks
		f.command("test_user")
		first := f.first(t)
		f.command("test_user")
		c.Equal("second_token_key", f.first(t), first)
		return c
	}),
	drfTokenItem("AuthTokenCommandTests.test_command_raising_error_for_invalid_user", false, func(t *testing.T, f *drfTokenFixture) []string {
		var c drfsuite.Checks
		_, err := f.command("not_existing_user")
		_, isCommandError := errors.AsType[*management.CommandError](err)
		c.Equal("CommandError", isCommandError, true)
		return c
	}),
	drfTokenItem("AuthTokenCommandTests.test_command_output", false, func(t *testing.T, f *drfTokenFixture) []string {
		var c drfsuite.Checks
		out, _ := f.command("test_user")
		c.Contains("out", out, "Generated token")
		c.Contains("out", out, "test_user")
		c.Contains("out", out, f.first(t))
		return c
	}),
}

// TestDRFAuthtoken runs DRF 3.18's tests/test_authtoken.py.
func TestDRFAuthtoken(t *testing.T) {
	np := map[string]string{
		"AuthTokenTests.test_authtoken_can_be_imported_when_not_included_in_installed_apps": "Python's API: importlib.reload of the models module with INSTALLED_APPS changed",
		"AuthTokenTests.test_clearing_key_on_existing_token_raises_integrity_error": "Django's ORM: Model.save() of a token whose key was changed; " +
			"Tokens writes only the keys it generates (GetOrCreate, Regenerate)",
	}
	var methods []string
	for _, it := range drfAuthtokenItems {
		methods = append(methods, it.Name)
	}
	for m := range np {
		methods = append(methods, m)
	}
	drfsuite.Suite{
		File:    "tests/test_authtoken.py",
		Methods: methods,
		Items:   drfAuthtokenItems,
		Differ: map[string]string{
			"AuthTokenTests.test_token_string_representation": "a Token's String() names its user, not its key, so that logging a token does not leak it (docs/drf-differences.md)",
		},
		NotPortable: np,
		Own314:      []string{"AuthTokenTests.test_model_admin__username_field"},
	}.Run(t)
}
