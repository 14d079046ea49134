package serializers_test

import (
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

// relSlugNullFKTarget is ForeignKeyTarget with a
// SlugRelatedField(slug_field='name', many=True) over its nullable reverse
// foreign key.
type relSlugNullFKTarget struct {
	ID              int64    `db:"id" json:"id"`
	Name            string   `db:"name" json:"name" model:"max_length=100"`
	NullableSources []string `json:"nullable_sources" model:"reverse=drfrel_nullableforeignkeysource.target_id,slug_field=name"`
}

func (relSlugNullFKTarget) Meta() models.Meta { return relFKTarget{}.Meta() }

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
				n = relItems(t, db, compatibility, drf, "reverse:")
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

// TestReverseRelationsWriteAsDRF: the reverse side of a many-to-many of
// an automatic through table (through=TABLE,auto_created), a reverse
// one-to-one (a pointer) and a reverse foreign key of slugs
// (slug_field=name) are the writable fields DRF's ModelSerializer builds
// for them, as drf_relations_suite.py's "m2m_reverse:", "o2o_reverse:"
// and "slug_reverse:" items show real DRF doing at both levels, on
// SQLite and PostgreSQL: required, a key (a link, a slug) that names no
// row, one of the wrong type, null and a value of the wrong shape are the
// field's 400 and write nothing (the other side's rows are as they were);
// a valid write sets the through rows (a create after its insert, an
// empty list empties them), points the one referencing row at the item,
// or finds the referencing rows by their slugs.
func TestReverseRelationsWriteAsDRF(t *testing.T) {
	prefixes := []string{"m2m_reverse:", "o2o_reverse:", "slug_reverse:"}
	for level, compatibility := range map[string]framework.Compatibility{"drf314": framework.DRF314, "drf318": framework.DRF318} {
		t.Run(level, func(t *testing.T) {
			drf := drfScriptAnswers(t, "drf_relations_suite.py", compatibility)
			testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
				n := map[string]int{}
				for _, prefix := range prefixes {
					n[strings.TrimSuffix(prefix, ":")] = relItems(t, db, compatibility, drf, prefix)
				}
				if fmt.Sprint(n) != "map[m2m_reverse:8 o2o_reverse:8 slug_reverse:6]" {
					t.Errorf("items: %v", n)
				}
			})
		})
	}
}

// TestReverseOneToOneWrite: a reverse one-to-one's write points the
// listed row at the item and, its foreign key being nullable, the row
// that pointed at it at none; its read is the one key, or null. DRF's
// save() assigns it on the instance and stores nothing (Django's
// setattr of a reverse one-to-one), so the rows are pinned here, not by
// DRF. On SQLite and PostgreSQL.
func TestReverseOneToOneWrite(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		relSetUp(t, db, "o2o_second")
		api, _ := relSuiteAPI(t, db, framework.DRF318)
		c := apitest.New(t, api)
		r := c.Do("PUT", "/pk_o2o_target/1/", `{"name":"target-1","nullable_source":1}`, "Content-Type: application/json")
		if r.Status != 200 || r.Body != `{"id":1,"name":"target-1","nullable_source":1}` {
			t.Fatalf("PUT: %d %s", r.Status, r.Body)
		}
		var target []*int64
		if err := db.Select(&target, `SELECT "target_id" FROM "drfrel_nullableonetoonesource" ORDER BY "id"`); err != nil {
			t.Fatal(err)
		}
		if len(target) != 1 || target[0] == nil || *target[0] != 1 {
			t.Errorf("source-1's target: %v, want 1", target)
		}
		want := `[{"id":1,"name":"target-1","nullable_source":1},{"id":2,"name":"target-2","nullable_source":null}]`
		if r := c.Get("/pk_o2o_target/"); r.Status != 200 || r.Body != want {
			t.Errorf("GET: %d %s, want %s", r.Status, r.Body, want)
		}

		// A foreign key that cannot be null (OneToOnePKSource.target):
		// the row that references target 1 keeps it, and the write of
		// another leaves the rows as they are.
		db.MustExec(`INSERT INTO "drfrel_onetoonepksource" ("name", "target_id") VALUES ('pk-1', 1), ('pk-2', 2)`)
		required := framework.NewAPI(nil, framework.Settings{})
		src := queryset.MustSQL[relO2OTargetRequired](db, queryset.SQLConfig{})
		g := generics.GenericAPIView[relO2OTargetRequired]{Source: src, Serializer: serializers.MustNew[relO2OTargetRequired]()}
		required.Handle("/targets/{pk}/", generics.RetrieveUpdateAPIView(g))
		c = apitest.New(t, required)
		r = c.Do("PUT", "/targets/1/", `{"name":"target-1","required_source":2}`, "Content-Type: application/json")
		if r.Status != 200 || r.Body != `{"id":1,"name":"target-1","required_source":1}` {
			t.Errorf("PUT of a required one-to-one: %d %s", r.Status, r.Body)
		}
		var held []int64
		if err := db.Select(&held, `SELECT "target_id" FROM "drfrel_onetoonepksource" ORDER BY "name"`); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(held) != "[1 2]" {
			t.Errorf("the sources' targets: %v, want [1 2]", held)
		}
	})
}

// relO2OTargetRequired is OneToOneTarget with its reverse one-to-one from
// OneToOnePKSource, whose foreign key cannot be null.
type relO2OTargetRequired struct {
	ID             int64  `db:"id" json:"id"`
	Name           string `db:"name" json:"name" model:"max_length=100"`
	RequiredSource *int64 `json:"required_source" model:"reverse=drfrel_onetoonepksource.target_id"`
}

func (relO2OTargetRequired) Meta() models.Meta { return relO2OTarget{}.Meta() }
