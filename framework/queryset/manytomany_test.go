package queryset_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/querysettest"
)

// m2mTag is the related side of m2mPost.Tags.
type m2mTag struct {
	ID   int64  `db:"id" json:"id"`
	Name string `db:"name" json:"name" model:"max_length=20"`
}

func (m2mTag) Meta() models.Meta { return models.Meta{App: "blog", Name: "Tag"} }

// m2mPost has a many-to-many field of Django's automatic through table,
// blog_post_tags.
type m2mPost struct {
	ID    int64   `db:"id" json:"id"`
	Title string  `db:"title" json:"title" model:"max_length=50"`
	Tags  []int64 `json:"tags" model:"many_to_many=blog_tag,related_name=posts"`
}

func (m2mPost) Meta() models.Meta {
	return models.Meta{App: "blog", Name: "Post", Ordering: []string{"id"}}
}

// m2mTables are Django's tables of the two models (sqlmigrate's, with
// their deferred foreign keys).
func m2mTables(t *testing.T, db *sqlx.DB) {
	t.Helper()
	id := "integer NOT NULL PRIMARY KEY AUTOINCREMENT"
	if store.DialectOf(db) == store.PostgreSQL {
		id = "bigserial NOT NULL PRIMARY KEY"
	}
	db.MustExec(`CREATE TABLE "blog_tag" ("id" ` + id + `, "name" varchar(20) NOT NULL)`)
	db.MustExec(`CREATE TABLE "blog_post" ("id" ` + id + `, "title" varchar(50) NOT NULL)`)
	db.MustExec(`CREATE TABLE "blog_post_tags" ("id" ` + id + `, ` +
		`"post_id" bigint NOT NULL REFERENCES "blog_post" ("id") DEFERRABLE INITIALLY DEFERRED, ` +
		`"tag_id" bigint NOT NULL REFERENCES "blog_tag" ("id") DEFERRABLE INITIALLY DEFERRED, UNIQUE ("post_id", "tag_id"))`)
}

// A many-to-many field is read with one query per page (the related
// keys in order), set inside the
// write's transaction as Django's set() sets it, left alone by a write
// that does not hold it, refused for a key that names no row, and its
// through rows deleted with either side.
func TestManyToManySource(t *testing.T) {
	querysettest.CountingDialects(t, func(t *testing.T, db *sqlx.DB, queries func() int) {
		m2mTables(t, db)
		tags := queryset.MustSQL[m2mTag](db, queryset.SQLConfig{})
		posts := queryset.MustSQL[m2mPost](db, queryset.SQLConfig{})
		for _, name := range []string{"go", "sql", "web"} {
			if err := tags.Insert(ctx, &m2mTag{Name: name}); err != nil {
				t.Fatal(err)
			}
		}
		p := &m2mPost{Title: "one", Tags: []int64{3, 1, 3}}
		if err := posts.Insert(ctx, p); err != nil || !slices.Equal(p.Tags, []int64{1, 3}) {
			t.Fatalf("insert: %v %+v", err, p)
		}
		if err := posts.Insert(ctx, &m2mPost{Title: "two"}); err != nil {
			t.Fatal(err)
		}
		if err := posts.Insert(ctx, &m2mPost{Title: "three", Tags: []int64{2}}); err != nil {
			t.Fatal(err)
		}
		queries()
		page, err := posts.Slice(ctx, 0, 10)
		if n := queries(); err != nil || n != 2 {
			t.Errorf("a page read in %d queries (%v), want 2: the rows, the relation", n, err)
		}
		var got [][]int64
		for _, it := range page {
			got = append(got, it.Tags)
		}
		if !slices.EqualFunc(got, [][]int64{{1, 3}, {}, {2}}, slices.Equal) {
			t.Errorf("the relation read %v", got)
		}
		// NoPrefetch reads the rows alone, in one query, the relation
		// left nil.
		bare, err := posts.NoPrefetch().Match(queryset.Lookup("title", query.Exact, "one")).Slice(ctx, 0, 10)
		if n := queries(); err != nil || n != 1 || len(bare) != 1 || bare[0].Title != "one" || bare[0].Tags != nil {
			t.Errorf("NoPrefetch: %d queries (%v), want 1; %+v", n, err, bare)
		}

		// A lookup by the relation: each post related to any of the keys,
		// once (Django's filter(tags__in=...).distinct()).
		related := posts.Where("tags", query.In, "3", "1", "2", "x")
		items, err := related.Slice(ctx, 0, -1)
		n, cerr := related.Count(ctx)
		if err != nil || cerr != nil || len(items) != 2 || items[0].ID != 1 || items[1].ID != 3 || n != 2 {
			t.Errorf("posts of tags 3, 1 and 2: %v %v %d %+v", err, cerr, n, items)
		}
		if n, err := posts.Where("tags", query.Exact, "99").Count(ctx); err != nil || n != 0 {
			t.Errorf("posts of tag 99: %d %v", n, err)
		}

		// An update sets the relation: rows gone deleted, new ones added;
		// it reads back in the related keys' order, as DRF renders it.
		p.Tags = []int64{2, 1}
		if err := posts.Update(ctx, p); err != nil || !slices.Equal(p.Tags, []int64{1, 2}) {
			t.Errorf("update: %v %+v", err, p)
		}
		// A write whose slice is nil leaves the relation alone, and so does
		// a partial update that does not change it.
		if err := posts.Update(ctx, &m2mPost{ID: p.ID, Title: "one!"}); err != nil {
			t.Fatal(err)
		}
		before := *p
		changed := before
		changed.Title = "one?"
		if err := posts.UpdateChanged(ctx, &before, &changed); err != nil || !slices.Equal(changed.Tags, []int64{1, 2}) {
			t.Errorf("partial update of the title: %v %+v", err, changed)
		}
		// A partial update of the relation alone.
		before = changed
		changed.Tags = []int64{}
		if err := posts.UpdateChanged(ctx, &before, &changed); err != nil || len(changed.Tags) != 0 || changed.Title != "one?" {
			t.Errorf("partial update of the relation: %v %+v", err, changed)
		}

		// A key that names no row: nothing is written.
		var missing *queryset.MissingRelatedError
		bad := &m2mPost{Title: "bad", Tags: []int64{1, 99}}
		if err := posts.Insert(ctx, bad); !errors.As(err, &missing) || missing.Column != "tags" || missing.Value != "99" {
			t.Errorf("a missing tag: %v", err)
		}
		if n, _ := posts.Count(ctx); n != 3 {
			t.Errorf("%d posts after a refused insert, want 3", n)
		}

		// Deleting a tag, then a post, deletes their through rows.
		if err := tags.Delete(ctx, &m2mTag{ID: 2}); err != nil {
			t.Fatal(err)
		}
		three, err := posts.Filter("title", "three").Slice(ctx, 0, 1)
		if err != nil || len(three) != 1 || len(three[0].Tags) != 0 {
			t.Errorf("after the tag's delete: %v %+v", err, three)
		}
		p.Tags = []int64{1, 3}
		if err := posts.Update(ctx, p); err != nil {
			t.Fatal(err)
		}
		if err := posts.Delete(ctx, p); err != nil {
			t.Fatal(err)
		}
		var left int
		if err := db.Get(&left, `SELECT COUNT(*) FROM "blog_post_tags"`); err != nil || left != 0 {
			t.Errorf("%d through rows left (%v), want 0", left, err)
		}
	})
}

// AddRelated and RemoveRelated are Django's add() and remove() of one
// many-to-many field: the through rows of the keys listed inserted (those
// there kept) or deleted, the others left alone; a key that names no row
// adds nothing.
func TestAddAndRemoveRelated(t *testing.T) {
	querysettest.CountingDialects(t, func(t *testing.T, db *sqlx.DB, _ func() int) {
		m2mTables(t, db)
		tags := queryset.MustSQL[m2mTag](db, queryset.SQLConfig{})
		posts := queryset.MustSQL[m2mPost](db, queryset.SQLConfig{})
		for _, name := range []string{"go", "sql", "web"} {
			if err := tags.Insert(ctx, &m2mTag{Name: name}); err != nil {
				t.Fatal(err)
			}
		}
		p := &m2mPost{Title: "one", Tags: []int64{3}}
		other := &m2mPost{Title: "two", Tags: []int64{1}}
		for _, it := range []*m2mPost{p, other} {
			if err := posts.Insert(ctx, it); err != nil {
				t.Fatal(err)
			}
		}
		related := func(it *m2mPost) []int64 {
			t.Helper()
			got, err := posts.Filter("id", strconv.FormatInt(it.ID, 10)).Slice(ctx, 0, 1)
			if err != nil || len(got) != 1 {
				t.Fatalf("%v %v", err, got)
			}
			return got[0].Tags
		}
		if err := posts.AddRelated(ctx, p, "tags", "1", "3", "1"); err != nil || !slices.Equal(related(p), []int64{1, 3}) {
			t.Errorf("add 1, 3: %v %v", err, related(p))
		}
		var missing *queryset.MissingRelatedError
		if err := posts.AddRelated(ctx, p, "tags", "2", "99"); !errors.As(err, &missing) || missing.Column != "tags" || missing.Value != "99" ||
			!slices.Equal(related(p), []int64{1, 3}) {
			t.Errorf("add 2, 99: %v %v", err, related(p))
		}
		if err := posts.AddRelated(ctx, p, "tags", "x"); !errors.Is(err, query.ErrInvalidValue) {
			t.Errorf("add x: %v", err)
		}
		if err := posts.AddRelated(ctx, p, "title", "1"); err == nil {
			t.Error("add to a field that is no many-to-many one: no error")
		}
		if err := posts.RemoveRelated(ctx, p, "tags", "1", "2"); err != nil || !slices.Equal(related(p), []int64{3}) {
			t.Errorf("remove 1, 2: %v %v", err, related(p))
		}
		if !slices.Equal(related(other), []int64{1}) {
			t.Errorf("the other post's tags: %v", related(other))
		}
		// Inside an atomic block they commit or roll back with it.
		undo := errors.New("undo")
		err := posts.Atomic(ctx, func(ctx context.Context) error {
			if err := posts.AddRelated(ctx, p, "tags", "2"); err != nil {
				return err
			}
			if err := posts.RemoveRelated(ctx, p, "tags", "3"); err != nil {
				return err
			}
			return undo
		})
		if !errors.Is(err, undo) || !slices.Equal(related(p), []int64{3}) {
			t.Errorf("rolled back: %v %v", err, related(p))
		}
	})
}

// Two AddRelated of the same key at once both succeed, as Django's add()
// inserts with ignore_conflicts: the second insert, which waits on the
// first's uncommitted through row (PostgreSQL), finds it there once
// committed and adds nothing, instead of failing on the unique pair.
// SQLite runs one writer at a time, so the second never races the first.
func TestAddRelatedConcurrently(t *testing.T) {
	querysettest.CountingDialects(t, func(t *testing.T, db *sqlx.DB, _ func() int) {
		if store.DialectOf(db) != store.PostgreSQL {
			t.Skip("SQLite serialises the writes")
		}
		m2mTables(t, db)
		tags := queryset.MustSQL[m2mTag](db, queryset.SQLConfig{})
		posts := queryset.MustSQL[m2mPost](db, queryset.SQLConfig{})
		if err := tags.Insert(ctx, &m2mTag{Name: "go"}); err != nil {
			t.Fatal(err)
		}
		p := &m2mPost{Title: "one"}
		if err := posts.Insert(ctx, p); err != nil {
			t.Fatal(err)
		}
		second := make(chan error, 1)
		err := posts.Atomic(ctx, func(ctx context.Context) error {
			if err := posts.AddRelated(ctx, p, "tags", "1"); err != nil {
				return err
			}
			again := &m2mPost{ID: p.ID}
			go func() { second <- posts.AddRelated(context.Background(), again, "tags", "1") }()
			// Let the second reach its insert, which waits on this
			// transaction's row.
			time.Sleep(300 * time.Millisecond)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := <-second; err != nil {
			t.Errorf("the second add: %v, want none", err)
		}
		var n int
		if err := db.Get(&n, `SELECT count(*) FROM "blog_post_tags"`); err != nil || n != 1 {
			t.Errorf("%d through rows (%v), want 1", n, err)
		}
	})
}
