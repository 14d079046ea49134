package authtoken_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
)

// A program on the core alone (no project) that authenticates with
// tokens has installed authtoken: deleting a user deletes its token, as
// Django's Collector does, though no token has been read yet. Before the
// scheme's registration check, the delete failed on the foreign key (a
// 500) until the first token request made the tokens' source.
func TestTokenSchemeInstallsTokens(t *testing.T) {
	f := newFixture(t, ":memory:")
	if _, err := f.db.Exec(`INSERT INTO "authtoken_token" ("key", "user_id", "created") VALUES ('k1', ?, '2024-01-01 00:00:00')`, f.alice.ID); err != nil {
		t.Fatal(err)
	}
	api := framework.NewAPI(f.db, framework.Settings{
		Authentication: framework.Authenticators(authentication.Token{Tokens: &authtoken.Tokens{DB: f.db}}),
	})
	api.Handle("/users/{pk}/", generics.DestroyAPIView(generics.GenericAPIView[auth.User]{
		Source:     queryset.MustSQL[auth.User](f.db, queryset.SQLConfig{}),
		Serializer: serializers.MustNew[auth.User](),
	}))
	resp := apitest.New(t, api).Do(http.MethodDelete, "/users/"+strconv.FormatInt(f.alice.ID, 10)+"/", "")
	if resp.Status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s, want 204", resp.Status, resp.Body)
	}
	if n := f.count(t, ""); n != 0 {
		t.Errorf("%d tokens left, want the user's deleted with it", n)
	}
}

// A token scheme that cannot find tokens is refused at registration,
// naming the view, where it was a nil dereference on the first request.
func TestTokenSchemeWithoutStore(t *testing.T) {
	f := newFixture(t, ":memory:")
	api := framework.NewAPI(f.db, framework.Settings{})
	for _, c := range []struct {
		scheme authentication.Token
		want   string
	}{
		{authentication.Token{}, `framework: the view at "/notes/": authentication scheme authentication.Token: Tokens is nil`},
		{authentication.Token{Tokens: &authtoken.Tokens{}}, `framework: the view at "/notes/": authentication scheme authentication.Token: queryset: the source of authtoken.Token has no database`},
	} {
		func() {
			defer func() {
				if got, _ := recover().(string); !strings.HasPrefix(got, c.want) {
					t.Errorf("registration panicked with %q, want %q...", got, c.want)
				}
			}()
			api.Handle("/notes/", framework.View{Authentication: framework.Authenticators(c.scheme)})
		}()
	}
}
