package project_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/project"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
)

// Note is the README's model: Django's field options in model tags.
type Note struct {
	ID      int64     `db:"id" json:"id"`
	Text    string    `db:"text" json:"text" model:"max_length=200"`
	Created time.Time `db:"created" json:"created" model:"auto_now_add"`
}

// Meta is the model's Meta: its app and its rows' order.
func (Note) Meta() models.Meta { return models.Meta{App: "notes", Ordering: []string{"id"}} }

// notes is the notes app; `go run . makemigrations` writes its migrations
// beside it.
var notes = migrations.NewApp("notes", Note{})

// site is the README's service: settings.py (DRF's defaults, with pages
// of two) and urls.py (a list of notes anyone may read and users add to).
var site = project.Project{
	SecretKey: "django-insecure-notes",
	Apps:      []*migrations.App{notes},
	Settings:  framework.Settings{Pagination: &pagination.PageNumberPagination{}, PageSize: 2},
	URLs: func(api *framework.API, db *sqlx.DB) error {
		api.Handle("/notes/", generics.ListCreateAPIView(generics.GenericAPIView[Note]{
			View:       framework.View{Permissions: framework.Permissions(framework.IsAuthenticatedOrReadOnly{})},
			Source:     queryset.MustSQL[Note](db, queryset.SQLConfig{}),
			Serializer: serializers.MustNew[Note](),
		}))
		return nil
	},
}

// The README's first example, served as `go run . runserver` serves it
// (main is os.Exit(site.Main(os.Args[1:]))): anonymous clients read,
// and a user's POST, here with Basic authentication, adds a note.
func Example() {
	ctx := context.Background()
	// What `go run . makemigrations` writes, then `go run . migrate`.
	m, err := notes.MakeMigration("0001_initial", time.Now())
	if err != nil {
		panic(err)
	}
	notes.Add(*m)
	db, _ := store.Open(":memory:")
	defer db.Close()
	migs, err := site.Migrations()
	if err != nil {
		panic(err)
	}
	if _, err := migrations.Migrate(ctx, db, migs...); err != nil {
		panic(err)
	}
	users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}
	if _, err := users.CreateUser(ctx, "alice", "", "alice-pass"); err != nil {
		panic(err)
	}
	h, err := site.Handler(db, "")
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	send := func(method, body string, user bool) {
		req, _ := http.NewRequest(method, srv.URL+"/notes/", strings.NewReader(body))
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Content-Type", "application/json")
		if user {
			req.SetBasicAuth("alice", "alice-pass")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		out := created.ReplaceAllString(strings.ReplaceAll(string(b), srv.URL, "http://testserver"), `"created":"…"`)
		fmt.Println(resp.StatusCode, out)
	}
	send("POST", `{"text": "one"}`, false)
	send("POST", `{"text": "one"}`, true)
	send("POST", `{"text": ""}`, true)
	send("POST", `{"text": "two"}`, true)
	send("POST", `{"text": "three"}`, true)
	send("GET", "", false)
	// Output:
	// 403 {"detail":"Authentication credentials were not provided."}
	// 201 {"id":1,"text":"one","created":"…"}
	// 400 {"text":["This field may not be blank."]}
	// 201 {"id":2,"text":"two","created":"…"}
	// 201 {"id":3,"text":"three","created":"…"}
	// 200 {"count":3,"next":"http://testserver/notes/?page=2","previous":null,"results":[{"id":1,"text":"one","created":"…"},{"id":2,"text":"two","created":"…"}]}
}

// created matches a note's creation time, which differs on every run.
var created = regexp.MustCompile(`"created":"[^"]*"`)
