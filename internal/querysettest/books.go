// Package querysettest holds the sample's bookshelf for tests of data
// sources, serializers, views and routers: Django's books table (created
// by a migration beside contrib/auth's), the Book model with its
// tags, and the demo data of the sample contract.
package querysettest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/query"
	"github.com/go-drf/drf/framework/queryset"
	"github.com/go-drf/drf/framework/request"
	"github.com/go-drf/drf/framework/store"
)

// Book is one row of books joined with its owner's username.
type Book struct {
	// ID is the primary key.
	ID int64 `db:"id" json:"id" drf:"read_only"`
	// Title is required, at most 200 characters.
	Title string `db:"title" json:"title" drf:"required,max_length=200"`
	// Author is required, at most 200 characters.
	Author string `db:"author" json:"author" drf:"required,max_length=200"`
	// Rating is required, from 1 to 5.
	Rating int `db:"rating" json:"rating" drf:"required,min_value=1,max_value=5"`
	// Created is when the book was added.
	Created time.Time `db:"created" json:"created" drf:"read_only"`
	// OwnerID is the owner's user id; it is not shown.
	OwnerID int64 `db:"owner_id" json:"-"`
	// Owner is the owner's username, from the join.
	Owner string `db:"owner" json:"owner" drf:"read_only,type=field"`
}

// Migrations creates books as Django's migration of the reference does on
// each dialect.
var Migrations = []migrations.Migration{{App: "bookshelf", Name: "0001_initial", Operations: []migrations.Operation{migrations.RunSQL{
	SQL: []string{
		`CREATE TABLE "books" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "title" varchar(200) NOT NULL, ` +
			`"author" varchar(200) NOT NULL, "rating" integer NOT NULL, "created" datetime NOT NULL, ` +
			`"owner_id" integer NOT NULL REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED)`,
		`CREATE INDEX "books_created_12281279" ON "books" ("created")`,
		`CREATE INDEX "books_owner_id_552d09c7" ON "books" ("owner_id")`,
	},
	PostgreSQL: []string{
		`CREATE TABLE "books" ("id" serial NOT NULL PRIMARY KEY, "title" varchar(200) NOT NULL, ` +
			`"author" varchar(200) NOT NULL, "rating" integer NOT NULL, "created" timestamp with time zone NOT NULL, ` +
			`"owner_id" integer NOT NULL)`,
		`ALTER TABLE "books" ADD CONSTRAINT "books_owner_id_552d09c7_fk_auth_user_id" FOREIGN KEY ("owner_id") ` +
			`REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED`,
		`CREATE INDEX "books_created_12281279" ON "books" ("created")`,
		`CREATE INDEX "books_owner_id_552d09c7" ON "books" ("owner_id")`,
	},
}}}}

// BooksQuery is the SELECT of books with the owner's username.
const BooksQuery = `SELECT b."id" AS "id", b."title" AS "title", b."author" AS "author", b."rating" AS "rating", ` +
	`b."created" AS "created", b."owner_id" AS "owner_id", u."username" AS "owner" ` +
	`FROM "books" b INNER JOIN "auth_user" u ON u."id" = b."owner_id"`

// Fixture is a migrated in-memory database with the demo data.
type Fixture struct {
	// DB is the migrated database.
	DB *sqlx.DB
	// Users holds the demo users.
	Users *auth.Users
	// Books reads the join and writes the books table, ordered by id.
	Books *queryset.SQLSource[Book]
}

// Open migrates a fresh in-memory database and loads the demo users
// (admin, alice, bob) and n books: title "Book %03d", author "Author i%7",
// rating (i*7)%5+1, created 2024-01-01 plus i hours, owner alice when i is
// even and admin when odd.
func Open(t testing.TB, n int) *Fixture {
	t.Helper()
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return OpenDB(t, db, n)
}

// OpenDB is Open on db, an empty database of either dialect.
func OpenDB(t testing.TB, db *sqlx.DB, n int) *Fixture {
	t.Helper()
	ctx := context.Background()
	if _, err := migrations.Migrate(ctx, db, slices.Concat(auth.Migrations, Migrations)...); err != nil {
		t.Fatal(err)
	}
	users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1}}}
	ids := map[string]int64{}
	for _, u := range []struct {
		name   string
		staff  bool
		active bool
	}{{"admin", true, true}, {"alice", false, true}, {"bob", false, false}} {
		created, err := users.CreateUser(ctx, u.name, "", u.name+"-pass")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(db.Rebind(`UPDATE "auth_user" SET "is_staff" = ?, "is_superuser" = ?, "is_active" = ? WHERE "id" = ?`),
			u.staff, u.staff, u.active, created.ID); err != nil {
			t.Fatal(err)
		}
		ids[u.name] = created.ID
	}
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	err := store.InTx(ctx, db, func(tx *sqlx.Tx) error {
		for i := 1; i <= n; i++ {
			owner := ids["admin"]
			if i%2 == 0 {
				owner = ids["alice"]
			}
			if _, err := tx.Exec(tx.Rebind(`INSERT INTO "books" ("title", "author", "rating", "created", "owner_id") VALUES (?, ?, ?, ?, ?)`),
				fmt.Sprintf("Book %03d", i), fmt.Sprintf("Author %d", i%7), (i*7)%5+1,
				store.FormatTime(start.Add(time.Duration(i)*time.Hour)), owner); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	books, err := queryset.NewSQL[Book](db, queryset.SQLConfig{
		Table:    "books",
		Query:    BooksQuery,
		Columns:  []string{"title", "author", "rating", "created", "owner_id"},
		Ordering: []query.Order{{Field: "id"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &Fixture{DB: db, Users: users, Books: books}
}

// All returns every book through the source, in id order.
func (f *Fixture) All(t testing.TB) []Book {
	t.Helper()
	items, err := f.Books.Slice(context.Background(), 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Book, len(items))
	for i, it := range items {
		out[i] = *it
	}
	return out
}

// UserHeader is an authentication scheme for tests: the X-User header
// names one of the fixture's users; without it the request is anonymous.
func (f *Fixture) UserHeader() request.Authenticator { return userHeader{f.Users} }

type userHeader struct{ users *auth.Users }

func (h userHeader) Authenticate(r *request.Request) (request.User, any, error) {
	name := r.Header.Get("X-User")
	if name == "" {
		return nil, nil, nil
	}
	u, err := h.users.GetByUsername(r.Context(), name)
	return u, nil, err
}

// UserID is the id of the fixture user r is authenticated as, for a
// view's PerformCreate to set a book's owner.
func UserID(r *request.Request) int64 { return r.User().(*auth.User).ID }
