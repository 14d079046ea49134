package filters_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite"
	"github.com/go-drf/drf/internal/testservers"
)

// The models of testdata/filterset_relations.py's blog.
type (
	relAuthor struct {
		ID       int64  `db:"id"`
		Username string `db:"username" model:"max_length=150"`
	}
	relTag struct {
		ID   int64  `db:"id"`
		Name string `db:"name" model:"max_length=20"`
	}
	relPost struct {
		ID       int64   `db:"id"`
		Title    string  `db:"title" model:"max_length=50"`
		AuthorID int64   `db:"author_id" model:"foreign_key=blog_author,related_name=posts"`
		Tags     []int64 `json:"tags" model:"many_to_many=blog_tag,related_name=posts"`
	}
	relComment struct {
		ID     int64  `db:"id"`
		PostID int64  `db:"post_id" model:"foreign_key=blog_post,related_name=comments"`
		Body   string `db:"body" model:"max_length=100"`
	}
)

func (relAuthor) Meta() models.Meta { return models.Meta{App: "blog", Name: "Author"} }
func (relTag) Meta() models.Meta    { return models.Meta{App: "blog", Name: "Tag"} }
func (relPost) Meta() models.Meta {
	return models.Meta{App: "blog", Name: "Post", Ordering: []string{"id"}}
}
func (relComment) Meta() models.Meta {
	return models.Meta{App: "blog", Name: "Comment", Ordering: []string{"id"}}
}

// FilterSets whose fields are paths across relations (author__username,
// tags__name, post__author__username, post__author) answer as
// django-filter's (testdata/filterset_relations.py), on SQLite and
// PostgreSQL: the items kept, each once, in order; a foreign key at the
// end of a path is a ModelChoiceFilter's, refusing a key no row holds;
// and django-filter's labels.
func TestRelationLookupsAsDjangoFilter(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		app := migrations.NewApp("blog", relAuthor{}, relTag{}, relPost{}, relComment{})
		app.Dir = t.TempDir()
		m, err := app.MakeMigration("", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		app.Add(*m)
		migs := app.Migrations()
		if _, err := migrations.Migrate(t.Context(), db, migs...); err != nil {
			t.Fatal(err)
		}
		ctx := t.Context()
		for _, u := range []string{"ann", "bob"} {
			if err := queryset.MustSQL[relAuthor](db, queryset.SQLConfig{}).Insert(ctx, &relAuthor{Username: u}); err != nil {
				t.Fatal(err)
			}
		}
		for _, n := range []string{"web", "go", "gopher", "sql"} {
			if err := queryset.MustSQL[relTag](db, queryset.SQLConfig{}).Insert(ctx, &relTag{Name: n}); err != nil {
				t.Fatal(err)
			}
		}
		posts := queryset.MustSQL[relPost](db, queryset.SQLConfig{})
		for _, p := range []relPost{{Title: "one", AuthorID: 1, Tags: []int64{1, 2, 3}}, {Title: "two", AuthorID: 2, Tags: []int64{2}},
			{Title: "three", AuthorID: 1, Tags: []int64{4}}} {
			if err := posts.Insert(ctx, &p); err != nil {
				t.Fatal(err)
			}
		}
		comments := queryset.MustSQL[relComment](db, queryset.SQLConfig{})
		for _, c := range []relComment{{PostID: 1, Body: "a"}, {PostID: 3, Body: "b"}, {PostID: 1, Body: "c"}} {
			if err := comments.Insert(ctx, &c); err != nil {
				t.Fatal(err)
			}
		}
		postFilter := filters.MustFilterSet[relPost]("PostFilter", filters.FilterSet{Filters: []filters.Filter{
			{Field: "author__username"}, {Field: "tags__name"}, {Param: "tags_like", Field: "tags__name", Lookup: query.IContains},
		}})
		commentFilter := filters.MustFilterSet[relComment]("CommentFilter", filters.FilterSet{Filters: []filters.Filter{
			{Field: "post__author__username"}, {Field: "post__author"},
		}})
		for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
			var want map[string]struct {
				Filters map[string]struct{ Label string } `json:"filters"`
				Answers map[string]json.RawMessage        `json:"answers"`
			}
			drfsuite.RunDRF(t, compatibility, "testdata/filterset_relations.py", nil, &want)
			if len(want["posts"].Answers) == 0 || len(want["comments"].Answers) == 0 {
				t.Fatalf("%s: no answers", level)
			}
			for name, fs := range map[string]filters.FilterSet{"posts": postFilter, "comments": commentFilter} {
				for _, p := range fs.SchemaParameters(nil) {
					if w := want[name].Filters[p.Name].Label; p.Description != w {
						t.Errorf("%s %s: label %q, django-filter %q", level, p.Name, p.Description, w)
					}
				}
				for rawQuery, answer := range want[name].Answers {
					var ids []int64
					var err error
					var q query.Query
					if name == "posts" {
						var rows queryset.Rows[relPost]
						if q, err = fs.Filter(req(rawQuery), queryset.Into[relPost](posts, &rows)); err == nil {
							_, err = q.Fetch(ctx, 0, -1)
						}
						for _, p := range rows.Items {
							ids = append(ids, p.ID)
						}
					} else {
						var rows queryset.Rows[relComment]
						if q, err = fs.Filter(req(rawQuery), queryset.Into[relComment](comments, &rows)); err == nil {
							_, err = q.Fetch(ctx, 0, -1)
						}
						for _, c := range rows.Items {
							ids = append(ids, c.ID)
						}
					}
					got := map[string]any{}
					if api, ok := errors.AsType[*exceptions.APIException](err); ok {
						got["errors"] = api.Detail
					} else if err != nil {
						t.Fatalf("%s ?%s: %v", name, rawQuery, err)
					} else {
						got["ids"] = append([]int64{}, ids...)
					}
					var a any
					_ = json.Unmarshal(answer, &a)
					wantText, _ := json.Marshal(a)
					gotText, _ := json.Marshal(got)
					if !bytes.Equal(gotText, wantText) {
						t.Errorf("%s %s ?%s: %s\ndjango-filter: %s", level, name, rawQuery, gotText, wantText)
					}
				}
			}
		}
	})
}

// A path across relations that names no field is refused at setup, in
// django-filter's words, naming the filterset.
func TestRelationLookupSetupErrors(t *testing.T) {
	if _, err := models.Of[relAuthor](); err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"author__bogus", "bogus__username", "title__username"} {
		_, err := filters.NewFilterSet[relPost]("PostFilter", filters.FilterSet{Filters: []filters.Filter{{Field: field}}})
		if err == nil || !strings.Contains(err.Error(), "PostFilter: 'Meta.fields' must not contain non-model field names: "+field) {
			t.Errorf("%s: %v", field, err)
		}
	}
}

// A view whose filters follow relations its source cannot (a Go slice),
// or whose OrderingFilter names a path the model lacks, is refused when
// it is registered, naming the view, rather than answering 500.
func TestRelationFiltersRefusedAtRegistration(t *testing.T) {
	if _, err := models.Of[relAuthor](); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	table := queryset.MustSQL[relPost](db, queryset.SQLConfig{})
	slice := queryset.MustSlice([]relPost{})
	byAuthor := filters.MustFilterSet[relPost]("PostFilter", filters.FilterSet{Filters: []filters.Filter{{Field: "author__username"}}})
	untagged := filters.MustFilterSet[relPost]("PostFilter", filters.FilterSet{Filters: []filters.Filter{{Field: "tags", Lookup: query.IsNull}}})
	for _, c := range []struct {
		name    string
		src     queryset.Source[relPost]
		backend framework.FilterBackend
		want    string
	}{
		{"by-author", table, byAuthor, ""},
		{"ordered", table, filters.OrderingFilter{Fields: []string{"author__username"}, Default: []string{"-author__username"}}, ""},
		{"slice-by-author", slice, byAuthor, `the view at "/slice-by-author/": filters: PostFilter: author__username: queryset: lookup "author__username" across relations needs an SQL source`},
		{"slice-untagged", slice, untagged, `PostFilter: tags__isnull: queryset: lookup "tags" across relations needs an SQL source`},
		{"slice-ordered", slice, filters.OrderingFilter{Fields: []string{"author__username"}}, `filters: OrderingFilter: queryset: ordering "author__username" across relations needs an SQL source`},
		{"bogus-path", table, filters.OrderingFilter{Default: []string{"-author__bogus"}}, `the view at "/bogus-path/": filters: OrderingFilter: queryset: unknown field "author__bogus"`},
		{"many-path", table, filters.OrderingFilter{Fields: []string{"tags__name"}}, `ordering "tags__name" follows "tags", a relation to many rows`},
	} {
		got := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			api := framework.NewAPI(nil, framework.Settings{})
			api.Handle("/"+c.name+"/", generics.ListAPIView(generics.GenericAPIView[relPost]{Source: c.src, Serializer: serializers.MustNew[relPost](),
				FilterBackends: framework.FilterBackends(c.backend)}))
			return ""
		}()
		if c.want == "" && got != "<nil>" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: %s, want %q", c.name, got, c.want)
		}
	}
}
