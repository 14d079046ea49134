package queryset_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/internal/structs"
	"github.com/go-drf/drf/internal/testservers"
)

// person is a model others point to; Notes is its reverse accessor.
type person struct {
	ID    int     `db:"id" json:"id"`
	Name  string  `db:"name" json:"name" model:"max_length=50,unique"`
	Notes []int64 `json:"notes" model:"reverse=shelf_note.author_id"`
}

func (person) Meta() models.Meta { return models.Meta{App: "shelf", Ordering: []string{"id"}} }

// note has two foreign keys to person, one nullable, each joined in for
// the person's name, and hooks.
type note struct {
	ID       int       `db:"id" json:"id"`
	Text     string    `db:"text" json:"text"`
	Slug     string    `db:"slug" json:"slug"`
	Version  int       `db:"version" json:"version" model:"default=1"`
	Touched  time.Time `db:"touched" json:"touched" model:"auto_now"`
	Created  time.Time `db:"created" json:"created" model:"auto_now_add"`
	AuthorID int       `db:"author_id" json:"author_id" model:"foreign_key=shelf_person"`
	EditorID *int      `db:"editor_id" json:"editor_id" model:"foreign_key=shelf_person,on_delete=set_null"`
	Author   string    `json:"author" drf:"source=author.name"`
	Editor   *string   `json:"editor" drf:"source=editor.name"`
	// Writer reads what Author reads: a second column of its own.
	Writer string `json:"writer" drf:"source=author.name"`
}

func (note) Meta() models.Meta { return models.Meta{App: "shelf", Ordering: []string{"-id"}} }

// BeforeSave derives the slug, so that it cannot go stale.
func (n *note) BeforeSave(ctx context.Context, created bool) error {
	if n.Text == "refuse-before" {
		return errors.New("refused before")
	}
	n.Slug = strings.ToLower(strings.ReplaceAll(n.Text, " ", "-"))
	return nil
}

// AfterSave refuses one text: the write is rolled back.
func (n *note) AfterSave(ctx context.Context, created bool) error {
	if n.Text == "refuse-after" {
		return errors.New("refused after")
	}
	return nil
}

// BeforeDelete keeps one text.
func (n *note) BeforeDelete(ctx context.Context) error {
	if n.Text == "keep" {
		return errors.New("kept")
	}
	return nil
}

// badge protects the person who holds it from being deleted.
type badge struct {
	ID       int `db:"id" json:"id"`
	PersonID int `db:"person_id" json:"person_id" model:"foreign_key=shelf_person,on_delete=protect"`
}

func (badge) Meta() models.Meta { return models.Meta{App: "shelf"} }

// shelfApp migrates the three models with the migration makemigrations makes
// of them, and returns their sources, with ann (1) and bob (2).
func shelfApp(t *testing.T, db *sqlx.DB) (*queryset.SQLSource[person], *queryset.SQLSource[note]) {
	t.Helper()
	app := migrations.NewApp("shelf", person{}, note{}, badge{})
	app.Dir = t.TempDir()
	m, err := app.MakeMigration("", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	app.Add(*m)
	migs := app.Migrations()
	if _, err := migrations.Migrate(ctx, db, migs...); err != nil {
		t.Fatal(err)
	}
	people := queryset.MustSQL[person](db, queryset.SQLConfig{})
	for _, name := range []string{"ann", "bob"} {
		if err := people.Insert(ctx, &person{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	return people, queryset.MustSQL[note](db, queryset.SQLConfig{})
}

// A source derived from the declaration joins the dotted sources in,
// prefetches reverse accessors, runs the hooks and auto_now on every
// write, and names a foreign key that names no row.
func TestModelSource(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		people, notes := shelfApp(t, db)
		d, err := models.Of[note]()
		if err != nil {
			t.Fatal(err)
		}
		n := &note{Text: "Hello World", AuthorID: 1}
		if err := d.ApplyDefaults(structs.AddrOf(n)); err != nil || n.Version != 1 {
			t.Fatalf("defaults: %v %+v", err, n)
		}
		before := time.Now().UTC().Add(-time.Second)
		if err := notes.Insert(ctx, n); err != nil {
			t.Fatal(err)
		}
		if n.ID != 1 || n.Slug != "hello-world" || n.Author != "ann" || n.Writer != "ann" || n.Editor != nil || n.Created.Before(before) || !n.Touched.Equal(n.Created) {
			t.Errorf("inserted: %+v", n)
		}
		bob := 2
		second := &note{Text: "Second", AuthorID: 2, EditorID: &bob, Version: 1}
		if err := notes.Insert(ctx, second); err != nil || second.Editor == nil || *second.Editor != "bob" || second.Author != "bob" {
			t.Errorf("second: %v %+v", err, second)
		}
		third := &note{Text: "Third", AuthorID: 1, Version: 1}
		if err := notes.Insert(ctx, third); err != nil {
			t.Fatal(err)
		}

		ids := func(s queryset.Source[note]) []int {
			t.Helper()
			items, err := s.Slice(ctx, 0, -1)
			if err != nil {
				t.Fatal(err)
			}
			var out []int
			for _, it := range items {
				out = append(out, it.ID)
			}
			return out
		}
		if got := ids(notes); !slices.Equal(got, []int{3, 2, 1}) {
			t.Errorf("Meta ordering -id: %v", got)
		}
		if got := ids(notes.Filter("author__name", "ann")); !slices.Equal(got, []int{3, 1}) {
			t.Errorf("filter by the joined name: %v", got)
		}
		if got := ids(notes.OrderBy(query.Order{Field: "author__name", Desc: true}, query.Order{Field: "id"})); !slices.Equal(got, []int{2, 1, 3}) {
			t.Errorf("order by the joined name: %v", got)
		}
		if n, err := notes.Count(ctx); n != 3 || err != nil {
			t.Errorf("count: %d %v", n, err)
		}

		// A hand-written Query names the joined fields' columns by their
		// lookup paths.
		hand := queryset.MustSQL[note](db, queryset.SQLConfig{Table: "shelf_note", Query: `SELECT n.*, a."name" AS "author__name", ` +
			`a."name" AS "author__name__2", e."name" AS "editor__name" FROM "shelf_note" n ` +
			`JOIN "shelf_person" a ON a."id" = n."author_id" LEFT JOIN "shelf_person" e ON e."id" = n."editor_id"`})
		if items, err := hand.Filter("id", "2").Slice(ctx, 0, 1); err != nil || len(items) != 1 || items[0].Author != "bob" || items[0].Writer != "bob" || *items[0].Editor != "bob" {
			t.Errorf("a hand-written Query: %v %+v", err, items)
		}

		// The reverse accessor: every person of a page with one query.
		all, err := people.Slice(ctx, 0, -1)
		if err != nil || len(all) != 2 || !slices.Equal(all[0].Notes, []int64{1, 3}) || all[1].Notes == nil || !slices.Equal(all[1].Notes, []int64{2}) {
			t.Errorf("reverse accessors: %v %+v", err, all)
		}

		// An update runs BeforeSave and auto_now, and writes what they set.
		created := n.Created
		old := *n
		n.Text = "Hello Again"
		time.Sleep(2 * time.Millisecond)
		if err := notes.UpdateChanged(ctx, &old, n); err != nil || n.Slug != "hello-again" || !n.Created.Equal(created) || !n.Touched.After(created) {
			t.Errorf("update: %v %+v", err, n)
		}
		if got, _ := notes.Filter("slug", "hello-again").Count(ctx); got != 1 {
			t.Errorf("the derived slug was not stored: %d", got)
		}

		// A foreign key that names no row, on each dialect.
		var missing *queryset.MissingRelatedError
		if err := notes.Insert(ctx, &note{Text: "x", AuthorID: 99}); !errors.As(err, &missing) || missing.Column != "author_id" || missing.Value != "99" {
			t.Errorf("author 99: %v", err)
		}
		nobody := 42
		if err := notes.Insert(ctx, &note{Text: "x", AuthorID: 1, EditorID: &nobody}); !errors.As(err, &missing) || missing.Column != "editor_id" || missing.Value != "42" {
			t.Errorf("editor 42: %v", err)
		}

		// Hooks that refuse: nothing is stored or deleted.
		for _, text := range []string{"refuse-before", "refuse-after"} {
			if err := notes.Insert(ctx, &note{Text: text, AuthorID: 1}); err == nil {
				t.Errorf("%s was stored", text)
			}
		}
		keep := &note{Text: "keep", AuthorID: 1}
		if err := notes.Insert(ctx, keep); err != nil {
			t.Fatal(err)
		}
		if err := notes.Delete(ctx, keep); err == nil {
			t.Error("BeforeDelete did not keep the row")
		}
		if n, err := notes.Count(ctx); n != 4 || err != nil {
			t.Errorf("after the refusals: %d %v", n, err)
		}
		if err := notes.Delete(ctx, third); err != nil {
			t.Error(err)
		}

		// Deleting a person applies each foreign key's on_delete: bob's
		// notes go (CASCADE), the note he edited stays without its editor
		// (SET_NULL); ann's badge keeps her (PROTECT), and nothing is
		// deleted then.
		edited := &note{Text: "Edited", AuthorID: 1, EditorID: &bob}
		if err := notes.Insert(ctx, edited); err != nil {
			t.Fatal(err)
		}
		if err := people.Delete(ctx, all[1]); err != nil {
			t.Fatal(err)
		}
		if got := ids(notes); !slices.Equal(got, []int{edited.ID, keep.ID, 1}) {
			t.Errorf("after deleting bob: %v", got)
		}
		if items, err := notes.Filter("id", strconv.Itoa(edited.ID)).Slice(ctx, 0, 1); err != nil || items[0].EditorID != nil || items[0].Editor != nil {
			t.Errorf("the edited note keeps its editor: %v %+v", err, items)
		}
		badges := queryset.MustSQL[badge](db, queryset.SQLConfig{})
		if err := badges.Insert(ctx, &badge{PersonID: 1}); err != nil {
			t.Fatal(err)
		}
		var protected *queryset.ProtectedError
		if err := people.Delete(ctx, all[0]); !errors.As(err, &protected) ||
			err.Error() != "Cannot delete some instances of model 'person' because they are referenced through protected foreign keys: 'badge.person'." {
			t.Errorf("deleting ann: %v", err)
		}
		if n, _ := notes.Count(ctx); n != 3 {
			t.Errorf("a refused delete deleted notes: %d left", n)
		}
	})
}
