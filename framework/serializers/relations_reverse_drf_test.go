package serializers_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/testservers"
)

// ForeignKeyTarget with its nullable reverse foreign key
// (NullableForeignKeySource.target, related_name="nullable_sources"), and
// with its sources read-only (extra_kwargs={'sources': {'read_only': True}}).
type (
	relNullFKTarget struct {
		ID              int64   `db:"id" json:"id"`
		Name            string  `db:"name" json:"name" model:"max_length=100"`
		NullableSources []int64 `json:"nullable_sources" model:"reverse=drfrel_nullableforeignkeysource.target_id"`
	}
	relFKTargetReadOnly struct {
		ID      int64   `db:"id" json:"id"`
		Name    string  `db:"name" json:"name" model:"max_length=100"`
		Sources []int64 `json:"sources" model:"reverse=drfrel_foreignkeysource.target_id" drf:"read_only"`
	}
)

func (relNullFKTarget) Meta() models.Meta { return relFKTarget{}.Meta() }

// relNullFKTargetReadOnly is ForeignKeyTarget with its nullable reverse
// foreign key read-only.
type relNullFKTargetReadOnly struct {
	ID              int64   `db:"id" json:"id"`
	Name            string  `db:"name" json:"name" model:"max_length=100"`
	NullableSources []int64 `json:"nullable_sources" model:"reverse=drfrel_nullableforeignkeysource.target_id" drf:"read_only"`
}

func (relNullFKTargetReadOnly) Meta() models.Meta { return relFKTarget{}.Meta() }
func (relFKTargetReadOnly) Meta() models.Meta     { return relFKTarget{}.Meta() }

// TestReverseForeignKeyWritesAsDRF: a reverse foreign key named in a
// model serializer's fields is a writable PrimaryKeyRelatedField(many=True)
// (HyperlinkedRelatedField(many=True) when hyperlinked) whose save() calls
// RelatedManager.set(), as drf_relations_suite.py's "reverse:" items show
// real DRF doing at both levels, on SQLite and PostgreSQL: a key that
// names no row, a key of the wrong type, a text for the list, null and a
// missing list are the field's 400 and write nothing; a set of a foreign
// key that is not nullable only moves the listed rows here (an empty list
// changes nothing), one of a nullable foreign key also clears the rows
// left out; a create sets it after the insert; read_only leaves the rows
// alone.
func TestReverseForeignKeyWritesAsDRF(t *testing.T) {
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			drf := drfScriptAnswers(t, "drf_relations_suite.py", compatibility)
			n := 0
			testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
				n = 0
				for name, raw := range drf {
					if !strings.HasPrefix(name, "reverse:") {
						continue
					}
					n++
					var it struct {
						Fixture string    `json:"fixture"`
						Steps   []relStep `json:"steps"`
					}
					if err := json.Unmarshal(raw, &it); err != nil {
						t.Fatal(err)
					}
					relSetUp(t, db, it.Fixture)
					api, eps := relSuiteAPI(t, db, compatibility)
					c := apitest.New(t, api)
					for _, step := range it.Steps {
						if diff := relRun(t, c, eps, step); diff != "" {
							t.Errorf("%s:\n%s", name, diff)
							break
						}
					}
				}
			})
			if n != 13 {
				t.Errorf("%d reverse: items, want 13", n)
			}
		})
	}
}

// TestReverseLeftAloneByAnUpdate: a full update through a serializer that
// does not write a nullable reverse foreign key (read_only, or left out
// of its fields) leaves its rows alone, as DRF's save() sets only the
// relations it validated: a source that another request points at the
// target between the view's read and its write keeps it (a write of the
// keys read set it to NULL), and the answer lists it. On SQLite and
// PostgreSQL.
func TestReverseLeftAloneByAnUpdate(t *testing.T) {
	// The referencing model, described: its foreign key is nullable.
	if _, err := models.Of[relNullFKSource](); err != nil {
		t.Fatal(err)
	}
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		for name, ser := range map[string]*serializers.Serializer[relNullFKTarget]{
			"read_only": nil,
			"left out":  serializers.MustNew[relNullFKTarget](serializers.Fields("id", "name")),
		} {
			relSetUp(t, db, "nullfk")
			concurrent := func(r *request.Request) {
				db.MustExec(`UPDATE "drfrel_nullableforeignkeysource" SET "target_id" = 1 WHERE "id" = 3`)
			}
			api := framework.NewAPI(nil, framework.Settings{})
			if ser == nil {
				src := queryset.MustSQL[relNullFKTargetReadOnly](db, queryset.SQLConfig{})
				g := generics.GenericAPIView[relNullFKTargetReadOnly]{Source: src, Serializer: serializers.MustNew[relNullFKTargetReadOnly]()}
				g.PerformUpdate = func(r *request.Request, item *relNullFKTargetReadOnly) error {
					concurrent(r)
					return src.Update(r.Context(), item)
				}
				api.Handle("/targets/{pk}/", generics.RetrieveUpdateAPIView(g))
			} else {
				src := queryset.MustSQL[relNullFKTarget](db, queryset.SQLConfig{})
				g := generics.GenericAPIView[relNullFKTarget]{Source: src, Serializer: ser}
				g.PerformUpdate = func(r *request.Request, item *relNullFKTarget) error {
					concurrent(r)
					return src.Update(r.Context(), item)
				}
				api.Handle("/targets/{pk}/", generics.RetrieveUpdateAPIView(g))
			}
			c := apitest.New(t, api)
			r := c.Do("PUT", "/targets/1/", `{"name":"renamed"}`)
			var held []int64
			if err := db.Select(&held, `SELECT "id" FROM "drfrel_nullableforeignkeysource" WHERE "target_id" = 1 ORDER BY "id"`); err != nil {
				t.Fatal(err)
			}
			if r.Status != 200 || fmt.Sprint(held) != "[1 2 3]" {
				t.Errorf("%s: PUT %d %s; sources of target 1: %v, want [1 2 3]", name, r.Status, r.Body, held)
			}
			if ser == nil && r.Body != `{"id":1,"name":"renamed","nullable_sources":[1,2,3]}` {
				t.Errorf("%s: PUT answered %s", name, r.Body)
			}
		}
	})
}
