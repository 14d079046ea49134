package authtoken_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/authentication"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
)

// Note is the model of the example: `db` tags name its columns, `json`
// tags its fields, `drf` tags its validation.
type Note struct {
	ID      int64     `db:"id" json:"id"`
	Text    string    `db:"text" json:"text" drf:"required,max_length=200"`
	Created time.Time `db:"created" json:"created" drf:"read_only"`
}

// A list view with token and Basic authentication, a permission that
// overrides the global AllowAny, and page-number pagination set globally:
// the README's example.
func Example_authenticationAndPagination() {
	ctx := context.Background()
	db, _ := store.Open(":memory:")
	defer db.Close()
	notes := migrations.Migration{App: "notes", Name: "0001_initial", Operations: []migrations.Operation{migrations.RunSQL{SQL: []string{
		`CREATE TABLE "notes" ("id" integer PRIMARY KEY AUTOINCREMENT, "text" varchar(200) NOT NULL, "created" datetime NOT NULL)`,
		`INSERT INTO "notes" ("text", "created") VALUES ('one', '2024-01-01 00:00:00'), ('two', '2024-01-02 00:00:00'), ('three', '2024-01-03 00:00:00')`,
	}}}}
	if _, err := migrations.Migrate(ctx, db, append(append(auth.Migrations, authtoken.Migrations...), notes)...); err != nil {
		panic(err)
	}
	users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}
	tokens := &authtoken.Tokens{DB: db}
	alice, _ := users.CreateUser(ctx, "alice", "", "alice-pass")
	token, _, _ := tokens.GetOrCreate(ctx, alice.ID)

	api := framework.NewAPI(db, framework.Settings{
		Authentication: framework.Authenticators(
			authentication.Token{Tokens: tokens},
			authentication.Basic{Users: auth.ModelBackend{Users: users}},
		),
		Pagination: &pagination.PageNumberPagination{},
		PageSize:   2,
	})
	api.Handle("/notes/", generics.ListAPIView(generics.GenericAPIView[Note]{
		View:       framework.View{Permissions: framework.Permissions(framework.IsAuthenticated{})},
		Source:     queryset.MustSQL[Note](db, queryset.SQLConfig{Table: "notes", Ordering: []query.Order{{Field: "id"}}}),
		Serializer: serializers.MustNew[Note](),
	}))
	srv := httptest.NewServer(api)
	defer srv.Close()

	for _, auth := range []string{"", "Token " + token.Key} {
		req, _ := http.NewRequest("GET", srv.URL+"/notes/", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, _ := http.DefaultClient.Do(req)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("WWW-Authenticate"), strings.ReplaceAll(string(body), srv.URL, "http://testserver"))
	}
	// Output:
	// 401 Token {"detail":"Authentication credentials were not provided."}
	// 200  {"count":3,"next":"http://testserver/notes/?page=2","previous":null,"results":[{"id":1,"text":"one","created":"2024-01-01T00:00:00Z"},{"id":2,"text":"two","created":"2024-01-02T00:00:00Z"}]}
}
