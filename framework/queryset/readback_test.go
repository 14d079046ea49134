package queryset_test

import (
	"database/sql"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/apitest"
	"github.com/go-drf/drf/framework/generics"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/serializers"
	"github.com/go-drf/drf/framework/store"
	qt "github.com/go-drf/drf/internal/querysettest"
	"github.com/go-drf/drf/internal/testservers"
)

// TestStoredWritesAreAcknowledged: a write and the read-back of its row
// (through the join of the owner's name) succeed or fail together. When
// PostgreSQL goes away (it ends every session and refuses new ones) just
// after a create or an update is committed, the client is still told
// 201 or 200 with the row, and the row is stored once; when it goes away
// after the write ran but before it was committed, the client is told 503
// (the database unavailable) and nothing was stored, so that a retry
// cannot duplicate the row. A
// source that reads its table as it is gets its row back from the write
// statement itself, so it is answered even when the database goes away
// at once after that statement.
func TestStoredWritesAreAcknowledged(t *testing.T) {
	fault := testservers.FaultyPostgres(t)
	f := qt.OpenDB(t, fault.DB, 3)
	api := framework.NewAPI(nil, framework.Settings{Authentication: framework.Authenticators(f.UserHeader())})
	v := generics.GenericAPIView[qt.Book]{Source: f.Books, Serializer: serializers.MustNew[qt.Book]()}
	create := v
	create.PerformCreate = func(r *request.Request, b *qt.Book) error {
		b.OwnerID = qt.UserID(r)
		return create.InsertObject(r, b)
	}
	api.Handle("/books/", generics.CreateAPIView(create))
	api.Handle("/books/{pk}/", generics.RetrieveUpdateAPIView(v))
	// The table read as it is: its row comes back from the write itself.
	table := generics.GenericAPIView[tableBook]{Source: tableBooks(t, fault.DB), Serializer: serializers.MustNew[tableBook]()}
	api.Handle("/table/", generics.CreateAPIView(table))
	api.Handle("/table/{pk}/", generics.RetrieveUpdateAPIView(table))
	c := apitest.New(t, api)
	rows := func(title string) int {
		t.Helper()
		var n int
		if err := f.DB.Get(&n, `SELECT COUNT(*) FROM "books" WHERE "title" = $1`, title); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, tc := range []struct {
		name      string
		arm       func()
		method    string
		path      string
		title     string
		status    int
		wantRows  int
		wantOwner string
	}{
		{"create, gone after commit", fault.AfterCommit, "POST", "/books/", "Committed", http.StatusCreated, 1, "alice"},
		{"create, gone before commit", fault.AfterWrite, "POST", "/books/", "Lost", http.StatusServiceUnavailable, 0, ""},
		{"update, gone after commit", fault.AfterCommit, "PUT", "/books/1/", "Updated", http.StatusOK, 1, "admin"},
		{"update, gone before commit", fault.AfterWrite, "PUT", "/books/2/", "Not updated", http.StatusServiceUnavailable, 0, ""},
		{"create in the table, gone after the write", fault.AfterWrite, "POST", "/table/", "In the table", http.StatusCreated, 1, ""},
		{"update in the table, gone after the write", fault.AfterWrite, "PUT", "/table/3/", "Updated in the table", http.StatusOK, 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.arm()
			r := c.Do(tc.method, tc.path, `{"title": "`+tc.title+`", "author": "Me", "rating": 3, "owner_id": 2}`,
				"X-User: alice", "Content-Type: application/json")
			if !fault.Tripped(t) {
				t.Fatalf("the database was not taken away: %d %s", r.Status, r.Body)
			}
			fault.Restore(t)
			if r.Status != tc.status {
				t.Errorf("%s %s = %d %s, want %d", tc.method, tc.path, r.Status, r.Body, tc.status)
			}
			if tc.status < 300 {
				var b qt.Book
				r.Decode(&b)
				if b.ID == 0 || b.Title != tc.title || b.Owner != tc.wantOwner {
					t.Errorf("answered %s, want the stored row with owner %q", r.Body, tc.wantOwner)
				}
			}
			if n := rows(tc.title); n != tc.wantRows {
				t.Errorf("%d rows titled %q, want %d", n, tc.title, tc.wantRows)
			}
		})
	}
}

// shelf is a row of shelves, keyed by a slug the client chooses, with a
// column the source's query computes.
type shelf struct {
	Slug  string `db:"slug"`
	Title string `db:"title"`
	Shout string `db:"shout"`
}

// TestWritesReadTheirRowBack: inserts and updates fill in what the
// database chose or computed, through a table read as it is and through
// a query keyed by a written text column; a write of no row is
// sql.ErrNoRows.
func TestWritesReadTheirRowBack(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		f := qt.OpenDB(t, db, 2)
		books := tableBooks(t, f.DB)
		created := time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)
		b := &tableBook{Title: "New", Author: "Me", Rating: 4, Created: created, OwnerID: 2}
		if err := books.Insert(ctx, b); err != nil {
			t.Fatal(err)
		}
		if b.ID != 3 || b.Title != "New" || !b.Created.Equal(created) {
			t.Errorf("inserted = %+v", b)
		}
		b.Title = "Renamed"
		if err := books.Update(ctx, b); err != nil || b.ID != 3 || b.Title != "Renamed" {
			t.Errorf("updated = %+v, %v", b, err)
		}
		if err := books.Update(ctx, &tableBook{ID: 99, Title: "None", Created: created, OwnerID: 2}); !errors.Is(err, sql.ErrNoRows) {
			t.Errorf("update of no row = %v", err)
		}
		// The owner's foreign key is checked when the write commits, after
		// the row came back: the write is still an error, and not stored.
		if err := books.Insert(ctx, &tableBook{Title: "Orphan", Created: created, OwnerID: 99}); err == nil {
			t.Error("insert of a book of no owner succeeded")
		}
		b.OwnerID = 99
		if err := books.Update(ctx, b); err == nil {
			t.Error("update to no owner succeeded")
		}
		if err := f.Books.Insert(ctx, &qt.Book{Title: "Orphan", Created: created, OwnerID: 99}); err == nil {
			t.Error("insert of a book of no owner through the join succeeded")
		}
		var owners []int64
		if err := f.DB.Select(&owners, `SELECT "owner_id" FROM "books" ORDER BY "id"`); err != nil || !slices.Equal(owners, []int64{1, 2, 2}) {
			t.Errorf("owners after the refused writes: %v, %v", owners, err)
		}

		if _, err := f.DB.Exec(`CREATE TABLE "shelves" ("slug" varchar(20) NOT NULL PRIMARY KEY, "title" text NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		shelves, err := queryset.NewSQL[shelf](f.DB, queryset.SQLConfig{Table: "shelves", Key: "slug",
			Query: `SELECT s."slug", s."title", UPPER(s."title") AS "shout" FROM "shelves" s`, Columns: []string{"slug", "title"}})
		if err != nil {
			t.Fatal(err)
		}
		s := &shelf{Slug: "top", Title: "Top"}
		if err := shelves.Insert(ctx, s); err != nil || *s != (shelf{"top", "Top", "TOP"}) {
			t.Errorf("inserted = %+v, %v", s, err)
		}
		s.Title = "High"
		if err := shelves.Update(ctx, s); err != nil || *s != (shelf{"top", "High", "HIGH"}) {
			t.Errorf("updated = %+v, %v", s, err)
		}
		if err := shelves.Update(ctx, &shelf{Slug: "none", Title: "None"}); !errors.Is(err, sql.ErrNoRows) {
			t.Errorf("update of no row = %v", err)
		}
		if err := shelves.Insert(ctx, &shelf{Slug: "top", Title: "Again"}); !store.IsUniqueViolation(err) {
			t.Errorf("insert of a taken key = %v", err)
		}
	})
}
