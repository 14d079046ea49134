package serializers_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/internal/querysettest"
	"github.com/go-drf/drf/internal/testservers"
)

// The models of Issue7550TestCase: a foo's other_foos are the foos of
// the bar it references (_FooSerializer(source='bar.foos', many=True)),
// read with one query per page keyed by the page's bars.
type (
	// ms7550Row is _FooSerializer's Issue7550FooModel: id and text.
	ms7550Row struct {
		ID   int64  `db:"id" json:"id"`
		Text string `db:"text" json:"text" model:"max_length=100"`
	}
	// ms7550Foo is FooSerializer: id and other_foos.
	ms7550Foo struct {
		ID        int64       `db:"id" json:"id"`
		BarID     *int64      `db:"bar_id" json:"-" model:"foreign_key=tests_issue7550barmodel,on_delete=set_null,related_name=foos,blank"`
		OtherFoos []ms7550Row `json:"other_foos" model:"reverse=tests_issue7550foomodel.bar_id" drf:"source=bar.foos"`
	}
	// ms7550FooDefault is FooSerializer of
	// test_dotted_source_with_default: other_foos' default=[].
	ms7550FooDefault struct {
		ID        int64       `db:"id" json:"id"`
		BarID     *int64      `db:"bar_id" json:"-" model:"foreign_key=tests_issue7550barmodel,on_delete=set_null,related_name=foos,blank"`
		OtherFoos []ms7550Row `json:"other_foos" model:"reverse=tests_issue7550foomodel.bar_id" drf:"source=bar.foos,default=[]"`
	}
)

func (ms7550Row) Meta() models.Meta { return models.Meta{App: "tests", Name: "Issue7550FooModel"} }

func (ms7550Foo) Meta() models.Meta { return ms7550Row{}.Meta() }

func (ms7550FooDefault) Meta() models.Meta { return ms7550Row{}.Meta() }

// msOnDialects is answer's observation on a SQLite database and on a
// PostgreSQL one, each holding msTables; they must agree.
func msOnDialects(t *testing.T, answer func(t *testing.T, db *sqlx.DB) any) any {
	t.Helper()
	var got []json.RawMessage
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		msCreate(t, db)
		got = append(got, rawJSON(t, answer(t, db)))
	})
	if len(got) == 0 {
		t.Fatal("no dialect ran")
	}
	for _, g := range got[1:] {
		if canonicalJSON(t, g) != canonicalJSON(t, got[0]) {
			t.Errorf("the dialects differ:\n%s\n%s", got[0], g)
		}
	}
	return got[0]
}

// ms7550Every is the representation of each foo, read as one page, by
// T's serializer: "AttributeError" for one DRF's get_attribute() fails
// on (its bar null, without a default).
func ms7550Every[T any](t *testing.T, db *sqlx.DB) []any {
	t.Helper()
	page, err := queryset.MustSQL[T](db, queryset.SQLConfig{Ordering: msByID}).Slice(context.Background(), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	s := serializers.MustNew[T]()
	every := []any{}
	for _, item := range page {
		data, err := s.Data(item, nil)
		switch {
		case err != nil && strings.Contains(err.Error(), "passes the null foreign key bar"):
			every = append(every, "AttributeError")
		case err != nil:
			t.Fatal(err)
		default:
			every = append(every, data)
		}
	}
	return every
}

// msByID orders a page by its key, as DRF's order_by('pk').
var msByID = []query.Order{{Field: "id"}}

// msExec runs each statement on db.
func msExec(db *sqlx.DB, stmts ...string) {
	for _, stmt := range stmts {
		db.MustExec(stmt)
	}
}

const (
	ms7550Bar    = `INSERT INTO "tests_issue7550barmodel" DEFAULT VALUES`
	ms7550Insert = `INSERT INTO "tests_issue7550foomodel" ("text", "bar_id") VALUES `
)

func init() {
	msItems = append(msItems,
		msItem{"Issue7550TestCase.test_dotted_source", func(t *testing.T, level framework.Compatibility) any {
			return msOnDialects(t, func(t *testing.T, db *sqlx.DB) any {
				msExec(db, ms7550Bar, ms7550Insert+`('abc', 1), ('123', 1)`)
				src := queryset.MustSQL[ms7550Foo](db, queryset.SQLConfig{})
				data := renderedWith(t, serializers.MustNew[ms7550Foo](), *msStored(t, src, "1"))
				msExec(db, ms7550Bar, ms7550Insert+`('other', 2), ('another', 2)`, ms7550Insert+`('none', NULL)`)
				return map[string]any{"data": data, "every": ms7550Every[ms7550Foo](t, db)}
			})
		}},
		msItem{"Issue7550TestCase.test_dotted_source_with_default", func(t *testing.T, level framework.Compatibility) any {
			return msOnDialects(t, func(t *testing.T, db *sqlx.DB) any {
				msExec(db, ms7550Insert+`('abc', NULL)`)
				src := queryset.MustSQL[ms7550FooDefault](db, queryset.SQLConfig{})
				data := renderedWith(t, serializers.MustNew[ms7550FooDefault](), *msStored(t, src, "1"))
				msExec(db, ms7550Bar, ms7550Insert+`('other', 1), ('another', 1)`, ms7550Insert+`('none', NULL)`)
				return map[string]any{"data": data, "every": ms7550Every[ms7550FooDefault](t, db)}
			})
		}},
	)
}

// TestDottedSourceToReverseAccessor: a nested list whose source is a
// reverse accessor of the row a foreign key references (source=
// 'bar.foos') reads the rows of every item of a page with one query
// keyed by the page's values of that foreign key, on SQLite and
// PostgreSQL; a null one is [] with default=[], and without a default an
// error naming the field, as DRF's get_attribute() fails on None; a
// source that names no foreign key, one through two, or a reverse
// accessor of keys is refused at setup.
func TestDottedSourceToReverseAccessor(t *testing.T) {
	querysettest.CountingDialects(t, func(t *testing.T, db *sqlx.DB, queries func() int) {
		msCreate(t, db, ms7550Bar, ms7550Bar, ms7550Insert+`('a', 1), ('b', 2), ('c', 1), ('d', NULL)`)
		src := queryset.MustSQL[ms7550Foo](db, queryset.SQLConfig{Ordering: msByID})
		queries()
		page, err := src.Slice(context.Background(), 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		if n := queries(); n != 2 {
			t.Errorf("%d queries for a page and its other_foos, want 2", n)
		}
		s := serializers.MustNew[ms7550Foo]()
		got, err := s.Many(page[:3], nil)
		if want := `[{"id":1,"other_foos":[{"id":1,"text":"a"},{"id":3,"text":"c"}]},{"id":2,"other_foos":[{"id":2,"text":"b"}]},` +
			`{"id":3,"other_foos":[{"id":1,"text":"a"},{"id":3,"text":"c"}]}]`; err != nil || string(got) != want {
			t.Errorf("a page: %s, %v\nwant %s", got, err, want)
		}
		_, err = s.Data(page[3], nil)
		if want := "serializers: field other_foos: its source bar.foos passes the null foreign key bar " +
			"(DRF's get_attribute() fails on None): give it default=[]"; err == nil || err.Error() != want {
			t.Errorf("a null bar without a default: %v, want %s", err, want)
		}
		if page[3].OtherFoos != nil {
			t.Errorf("a null bar reads %v, want nil", page[3].OtherFoos)
		}
	})
	db := msDB(t)
	for _, c := range []struct {
		name      string
		err, want string
	}{
		{"no foreign key", sqlErr[ms7550NoFK](db), `source "baz.foos": "baz" is no foreign key of Issue7550FooModel`},
		{"two foreign keys", sqlErr[ms7550TwoFKs](db), `source "bar.baz.foos": a reverse accessor is read through one foreign key of the model, not more`},
		{"keys", sqlErr[ms7550Keys](db), `source "bar.foos": a reverse accessor read through a foreign key is read-only nested rows, a slice of structs, not []int64`},
		{"another accessor", sqlErr[ms7550OtherName](db), `source "bar.bars": the reverse accessor of tests_issue7550foomodel.bar_id is "foos"`},
	} {
		if !strings.Contains(c.err, c.want) {
			t.Errorf("%s: %q, want it to hold %q", c.name, c.err, c.want)
		}
	}
	if _, err := serializers.New[ms7550NoFK](); err == nil || !strings.Contains(err.Error(), `"baz" is no foreign key of Issue7550FooModel`) {
		t.Errorf("the serializer of a source through no foreign key: %v", err)
	}
}

// Issue7550FooModel's misdeclared dotted sources to a reverse accessor:
// through no foreign key, through two, as keys, and by another name
// than the foreign key's related_name.
type (
	ms7550NoFK struct {
		ID        int64       `db:"id" json:"id"`
		OtherFoos []ms7550Row `json:"other_foos" model:"reverse=tests_issue7550foomodel.bar_id" drf:"source=baz.foos"`
	}
	ms7550TwoFKs struct {
		ID        int64       `db:"id" json:"id"`
		BarID     *int64      `db:"bar_id" json:"-" model:"foreign_key=tests_issue7550barmodel,on_delete=set_null,related_name=foos"`
		OtherFoos []ms7550Row `json:"other_foos" model:"reverse=tests_issue7550foomodel.bar_id" drf:"source=bar.baz.foos"`
	}
	ms7550Keys struct {
		ID        int64   `db:"id" json:"id"`
		BarID     *int64  `db:"bar_id" json:"-" model:"foreign_key=tests_issue7550barmodel,on_delete=set_null,related_name=foos"`
		OtherFoos []int64 `json:"other_foos" model:"reverse=tests_issue7550foomodel.bar_id" drf:"source=bar.foos"`
	}
	ms7550OtherName struct {
		ID        int64       `db:"id" json:"id"`
		BarID     *int64      `db:"bar_id" json:"-" model:"foreign_key=tests_issue7550barmodel,on_delete=set_null,related_name=foos"`
		OtherFoos []ms7550Row `json:"other_foos" model:"reverse=tests_issue7550foomodel.bar_id" drf:"source=bar.bars"`
	}
)

func (ms7550NoFK) Meta() models.Meta      { return ms7550Row{}.Meta() }
func (ms7550TwoFKs) Meta() models.Meta    { return ms7550Row{}.Meta() }
func (ms7550Keys) Meta() models.Meta      { return ms7550Row{}.Meta() }
func (ms7550OtherName) Meta() models.Meta { return ms7550Row{}.Meta() }

// sqlErr is the error of T's source on db, "" when none.
func sqlErr[T any](db *sqlx.DB) string {
	if _, err := queryset.NewSQL[T](db, queryset.SQLConfig{}); err != nil {
		return err.Error()
	}
	return ""
}

// TestDeclaredThroughReadsItsForeignKeys: a many-to-many field through a
// declared model (RelationalModel.through, through Supplementary) reads
// the through model's own foreign keys (backwards and forwards), not the
// columns of an automatic through table, on both sides (the reverse
// side, ThroughTargetModel.reverse_through, as test_pk_reverse_through
// reads it), as keys and as nested rows, in lookups by the field and
// across it, on SQLite and PostgreSQL; a through model not described, or
// with two foreign keys to a side, is refused at setup.
func TestDeclaredThroughReadsItsForeignKeys(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		msCreate(t, db, append(msReverseSetUp("tests_throughtargetmodel"),
			`INSERT INTO "tests_throughtargetmodel" ("name") VALUES ('second')`,
			`INSERT INTO "tests_supplementary" ("extra", "forwards_id", "backwards_id") VALUES (2, 3, 1)`)...)
		ctx := context.Background()
		relational := queryset.MustSQL[msRelational](db, queryset.SQLConfig{})
		if got := msStored(t, relational, "1").Through; !slices.Equal(got, []int64{1, 3}) {
			t.Errorf("RelationalModel.through: %v, want [1 3]", got)
		}
		nested := msStored(t, queryset.MustSQL[msNestedRelational](db, queryset.SQLConfig{}), "1").Through
		if want := []msThroughTarget{{ID: 1, Name: "through"}, {ID: 3, Name: "second"}}; !slices.Equal(nested, want) {
			t.Errorf("RelationalModel.through nested: %v, want %v", nested, want)
		}
		targets := queryset.MustSQL[msReverseThrough](db, queryset.SQLConfig{Ordering: msByID})
		var reverse [][]int64
		page, err := targets.Slice(ctx, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range page {
			reverse = append(reverse, target.ReverseThrough)
		}
		if want := [][]int64{{1}, {}, {1}}; !slices.EqualFunc(reverse, want, slices.Equal) {
			t.Errorf("ThroughTargetModel.reverse_through: %v, want %v", reverse, want)
		}
		for _, c := range []struct {
			src  queryset.Source[msRelational]
			what string
		}{
			{relational.Where("through", query.Exact, "3"), "through=3"},
			{relational.Where("through__name", query.Exact, "second"), "through__name=second"},
		} {
			if items, err := c.src.Slice(ctx, 0, 10); err != nil || len(items) != 1 || items[0].ID != 1 {
				t.Errorf("%s: %d items, %v; want the relational row", c.what, len(items), err)
			}
		}
		if items, err := targets.Where("reverse_through", query.Exact, "1").Slice(ctx, 0, 10); err != nil || len(items) != 2 {
			t.Errorf("reverse_through=1: %d items, %v; want 2", len(items), err)
		}
	})
	if _, err := models.Of[msTwice](); err != nil {
		t.Fatal(err)
	}
	db := msDB(t)
	if err, want := sqlErr[msNoThrough](db), `many-to-many field links: no model of its through table "tests_undescribed" is described`; !strings.Contains(err, want) {
		t.Errorf("an undescribed through model: %q, want it to hold %q", err, want)
	}
	if err, want := sqlErr[msAmbiguous](db), `many-to-many field links: the through model Twice has more than one foreign key to "tests_throughtargetmodel", which is ambiguous`; !strings.Contains(err, want) {
		t.Errorf("an ambiguous through model: %q, want it to hold %q", err, want)
	}
}

// A many-to-many field through a model not described (msNoThrough), and
// one through a model with two foreign keys to its related model
// (msAmbiguous, through msTwice).
type (
	msNoThrough struct {
		ID    int64   `db:"id" json:"id"`
		Links []int64 `json:"links" model:"many_to_many=tests_throughtargetmodel,through=tests_undescribed"`
	}
	msTwice struct {
		ID          int64 `db:"id" json:"id"`
		ForwardsID  int64 `db:"forwards_id" json:"forwards" model:"foreign_key=tests_throughtargetmodel,on_delete=cascade"`
		OtherID     int64 `db:"other_id" json:"other" model:"foreign_key=tests_throughtargetmodel,on_delete=cascade"`
		BackwardsID int64 `db:"backwards_id" json:"backwards" model:"foreign_key=tests_ambiguous,on_delete=cascade"`
	}
	msAmbiguous struct {
		ID    int64   `db:"id" json:"id"`
		Links []int64 `json:"links" model:"many_to_many=tests_throughtargetmodel,through=tests_twice"`
	}
)

func (msNoThrough) Meta() models.Meta { return models.Meta{App: "tests", Name: "NoThrough"} }
func (msTwice) Meta() models.Meta     { return models.Meta{App: "tests", Name: "Twice"} }
func (msAmbiguous) Meta() models.Meta { return models.Meta{App: "tests", Name: "Ambiguous"} }
