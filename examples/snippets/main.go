// Command snippets is Django REST framework's tutorial (parts 1 to 6), the
// pastebin of code snippets, on go-drf: a manage program of its own.
//
//	cd examples/snippets
//	go run . migrate
//	DJANGO_SUPERUSER_PASSWORD=pw go run . createsuperuser --noinput --username admin --email a@example.com
//	go run . runserver 127.0.0.1:8000
//
// README.md sets it side by side with the tutorial's Python.
package main

import (
	"cmp"
	"context"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/contrib/project"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/pagination"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/routers"
	"github.com/go-drf/drf/framework/serializers"
)

// Snippet is a snippet of code, highlighted as HTML whenever it is saved.
type Snippet struct {
	ID          int64     `db:"id" json:"id"`
	Created     time.Time `db:"created" json:"created" model:"auto_now_add"`
	Title       string    `db:"title" json:"title" model:"max_length=100,blank,default="`
	Code        string    `db:"code" json:"code"`
	Linenos     bool      `db:"linenos" json:"linenos" model:"default=false"`
	Language    string    `db:"language" json:"language" model:"max_length=100,default=python"`
	Style       string    `db:"style" json:"style" model:"max_length=100,default=friendly"`
	OwnerID     int64     `db:"owner_id" json:"-" model:"foreign_key=auth_user,related_name=snippets"`
	Highlighted string    `db:"highlighted" json:"-"`
	Owner       string    `json:"owner" drf:"source=owner.username"`
}

// Meta orders snippets by creation and lists the languages and styles.
func (Snippet) Meta() models.Meta {
	var languages, styleChoices []models.Choice
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		if c := l.Config(); len(c.Aliases) > 0 {
			languages = append(languages, models.Choice{Value: c.Aliases[0], Label: c.Name})
		}
	}
	slices.SortFunc(languages, func(a, b models.Choice) int { return cmp.Compare(a.Label, b.Label) })
	for _, s := range styles.Names() {
		styleChoices = append(styleChoices, models.Choice{Value: s, Label: s})
	}
	return models.Meta{App: "snippets", Ordering: []string{"created"},
		Choices: map[string][]models.Choice{"language": languages, "style": styleChoices}}
}

// BeforeSave highlights the code (Pygments' HtmlFormatter in the tutorial).
func (s *Snippet) BeforeSave(ctx context.Context, created bool) error {
	it, err := cmp.Or(lexers.Get(s.Language), lexers.Fallback).Tokenise(nil, s.Code)
	if err != nil {
		return err
	}
	var b strings.Builder
	err = html.New(html.Standalone(true), html.WithLineNumbers(s.Linenos)).Format(&b, styles.Get(s.Style), it)
	s.Highlighted = b.String()
	return err
}

// User is a user with the links of their snippets.
type User struct {
	ID       int64   `db:"id" json:"id"`
	Username string  `db:"username" json:"username"`
	Snippets []int64 `json:"snippets" model:"reverse=snippets_snippet.owner_id" drf:"view_name=snippet-detail,read_only"`
}

// Meta says auth_user belongs to contrib/auth.
func (User) Meta() models.Meta { return models.Meta{App: "auth", Table: "auth_user", Unmanaged: true} }

// App is the snippets app: its models and migrations.
var App = migrations.NewApp("snippets", Snippet{})

var (
	snippetSerializer = serializers.MustNew[Snippet](
		serializers.HyperlinkedIdentity{Name: "url", Route: "snippet-detail"},
		serializers.HyperlinkedIdentity{Name: "highlight", Route: "snippet-highlight", Format: "html"},
		serializers.Fields("url", "id", "highlight", "owner", "title", "code", "linenos", "language", "style"))
	userSerializer = serializers.MustNew[User](
		serializers.HyperlinkedIdentity{Name: "url", Route: "user-detail"}, serializers.Fields("url", "id", "username", "snippets"))
	isOwnerOrReadOnly = framework.ObjectCheck[Snippet](func(r *request.Request, _ *framework.View, s *Snippet) (bool, error) {
		return framework.IsSafeMethod(r.Method) || s.OwnerID == auth.UserOf(r).ID, nil
	})
)

// Project is the tutorial's project: its app, DRF's defaults with pages
// of 10 (settings.py), and its viewsets under a DefaultRouter (urls.py).
// startproject's SECRET_KEY is public; runserver takes $SECRET_KEY.
var Project = project.Project{SecretKey: "django-insecure-snippets-tutorial", Apps: []*migrations.App{App},
	Settings: framework.Settings{Pagination: &pagination.PageNumberPagination{}, PageSize: 10}, URLs: urls}

func urls(api *framework.API, db *sqlx.DB) error {
	snippets := &generics.ModelViewSet[Snippet]{}
	snippets.Source, snippets.Serializer = queryset.MustSQL[Snippet](db, queryset.SQLConfig{}), snippetSerializer
	snippets.Permissions = framework.Permissions(framework.IsAuthenticatedOrReadOnly{}, isOwnerOrReadOnly)
	snippets.PerformCreate = func(r *request.Request, s *Snippet) error {
		s.OwnerID = auth.UserOf(r).ID
		return snippets.InsertObject(r, s)
	}
	highlight := func(v *framework.View, r *request.Request) (*framework.Response, error) {
		s, err := snippets.GetObject(v, r)
		if err != nil {
			return nil, err
		}
		return framework.OK(s.Highlighted), nil
	}
	usersView := &generics.ReadOnlyModelViewSet[User]{}
	usersView.Source, usersView.Serializer = queryset.MustSQL[User](db, queryset.SQLConfig{}), userSerializer
	var router routers.DefaultRouter
	router.Register("snippets", snippets, "snippet", routers.Action{Name: "Highlight", Handler: highlight, Detail: true,
		Renderers: framework.Renderers(framework.StaticHTMLRenderer{})})
	router.Register("users", usersView, "user")
	router.Mount(api)
	return nil
}

func main() { os.Exit(Project.Main(os.Args[1:])) }
