package filters_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/exceptions"
	"github.com/go-drf/drf/framework/filters"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/internal/drfsuite"
	"github.com/go-drf/drf/internal/testservers"
)

// taggedTag and taggedPost are testdata/filterset_manytomany.py's Tag and
// Post, whose tags are a many-to-many field.
type taggedTag struct {
	ID   int64  `db:"id"`
	Name string `db:"name" model:"max_length=20"`
}

func (taggedTag) Meta() models.Meta { return models.Meta{App: "tagged", Name: "Tag"} }

type taggedPost struct {
	ID    int64   `db:"id"`
	Title string  `db:"title" model:"max_length=50"`
	Tags  []int64 `json:"tags" model:"many_to_many=tagged_tag,related_name=posts"`
}

func (taggedPost) Meta() models.Meta {
	return models.Meta{App: "tagged", Name: "Post", Ordering: []string{"id"}}
}

// A FilterSet's filter of a many-to-many field is django-filter's
// ModelMultipleChoiceFilter (testdata/filterset_manytomany.py, on
// SQLite and PostgreSQL): ?tags=1&tags=2 keeps the posts related to any
// of the tags, each once; every value is checked, in Django's words.
func TestManyToManyFilterAsDjangoFilter(t *testing.T) {
	fs, err := filters.NewFilterSet[taggedPost]("PostFilter", filters.FilterSet{Filters: []filters.Filter{{Field: "tags"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []query.Lookup{query.IContains, query.GT} {
		if _, err := filters.NewFilterSet[taggedPost]("PostFilter", filters.FilterSet{Filters: []filters.Filter{{Field: "tags", Lookup: bad}}}); err == nil {
			t.Errorf("tags__%s was accepted", bad)
		}
	}
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		app := migrations.NewApp("tagged", taggedTag{}, taggedPost{})
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
		tags := queryset.MustSQL[taggedTag](db, queryset.SQLConfig{})
		for _, name := range []string{"go", "sql", "web"} {
			if err := tags.Insert(t.Context(), &taggedTag{Name: name}); err != nil {
				t.Fatal(err)
			}
		}
		posts := queryset.MustSQL[taggedPost](db, queryset.SQLConfig{})
		for _, p := range []taggedPost{{Title: "a", Tags: []int64{1, 3}}, {Title: "b", Tags: []int64{2}}, {Title: "c"}} {
			if err := posts.Insert(t.Context(), &p); err != nil {
				t.Fatal(err)
			}
		}
		for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
			var want struct {
				Filter  map[string]any             `json:"filter"`
				Answers map[string]json.RawMessage `json:"answers"`
			}
			drfsuite.RunDRF(t, compatibility, "testdata/filterset_manytomany.py", nil, &want)
			if len(want.Answers) == 0 || want.Filter["class"] != "ModelMultipleChoiceFilter" || want.Filter["label"] != "Tags" {
				t.Fatalf("%s: %v", level, want.Filter)
			}
			for rawQuery, answer := range want.Answers {
				var rows queryset.Rows[taggedPost]
				got := map[string]any{}
				q, err := fs.Filter(req(rawQuery), queryset.Into[taggedPost](posts, &rows))
				if err == nil {
					_, err = q.Fetch(t.Context(), 0, -1)
				}
				if api, ok := errors.AsType[*exceptions.APIException](err); ok {
					got["errors"] = api.Detail
				} else if err != nil {
					t.Fatalf("?%s: %v", rawQuery, err)
				} else {
					ids := []int64{}
					for _, p := range rows.Items {
						ids = append(ids, p.ID)
					}
					got["ids"] = ids
				}
				// Both as encoding/json writes them, keys sorted.
				var a any
				_ = json.Unmarshal(answer, &a)
				wantText, _ := json.Marshal(a)
				gotText, _ := json.Marshal(got)
				if !bytes.Equal(gotText, wantText) {
					t.Errorf("%s ?%s: %s\ndjango-filter: %s", level, rawQuery, gotText, wantText)
				}
			}
		}
	})
}
