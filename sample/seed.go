package sample

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/store"
)

// DefaultBooks is how many books Seed loads unless told otherwise.
const DefaultBooks = 100

// demoUser is one row of the contract's user table.
type demoUser struct {
	name          string
	password      string // the hash, as Django's make_password wrote it
	active, staff bool   // staff users are superusers too
}

// demoUsers are admin, alice and bob. Their hashes were written by Django
// for admin-pass, alice-pass and bob-pass, so seeding is deterministic and
// costs no hashing; logging in checks them like any Django hash.
var demoUsers = []demoUser{
	{"admin", "pbkdf2_sha256$260000$amxjT74hLANIkNTgX8C9P5$6TQbBX7kwr0WNXy3ThkFdBPCkiAutshIwBIVL86vJoQ=", true, true},
	{"alice", "pbkdf2_sha256$260000$e4zsPGgaT6NMnrRaMfCInq$+IEn+4dAipBwAePtpIz6XlKz7cIzp3oAMyt99ck/wYE=", true, false},
	{"bob", "pbkdf2_sha256$260000$kcDuqVP1XJmicAPGGNmMpE$qlv/DqaEMct5IoRgK+hT7O8f8WWVIFUB7vsQEeNsAI8=", false, false},
}

// epoch is the creation time of book 0; book i is i hours later.
var epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// Seed loads the demo data of the contract: the users admin, alice and bob
// (created, or reset to their passwords and flags), and books 1..n in place
// of any books: "Book %03d" by "Author i mod 7", rated (7i mod 5)+1, created
// on 2024-01-01 plus i hours, owned by alice when i is even and admin when
// odd. Tokens are left alone.
func Seed(ctx context.Context, db *sqlx.DB, books int) error {
	if books < 0 {
		return fmt.Errorf("sample: seed: %d books", books)
	}
	return store.InTx(ctx, db, func(tx *sqlx.Tx) error {
		ids := map[string]int64{}
		for _, u := range demoUsers {
			id, err := seedUser(ctx, tx, u)
			if err != nil {
				return err
			}
			ids[u.name] = id
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM "books"`); err != nil {
			return err
		}
		insert, err := tx.PreparexContext(ctx, tx.Rebind(`INSERT INTO "books" ("id", "title", "author", "rating", "created", "owner_id") VALUES (?, ?, ?, ?, ?, ?)`))
		if err != nil {
			return err
		}
		defer insert.Close()
		for i := 1; i <= books; i++ {
			owner := ids["admin"]
			if i%2 == 0 {
				owner = ids["alice"]
			}
			created := store.FormatTime(epoch.Add(time.Duration(i) * time.Hour))
			if _, err := insert.ExecContext(ctx, i, fmt.Sprintf("Book %03d", i), fmt.Sprintf("Author %d", i%7), i*7%5+1, created, owner); err != nil {
				return err
			}
		}
		return store.ResetSequence(ctx, tx, "books", "id")
	})
}

// seedUser creates u, or resets the password and flags of the user of that
// name, and returns its id.
func seedUser(ctx context.Context, tx *sqlx.Tx, u demoUser) (int64, error) {
	var id int64
	err := tx.GetContext(ctx, &id, tx.Rebind(`SELECT "id" FROM "auth_user" WHERE "username" = ?`), u.name)
	if !errors.Is(err, sql.ErrNoRows) {
		if err != nil {
			return 0, err
		}
		_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE "auth_user" SET "password" = ?, "is_active" = ?, "is_staff" = ?, "is_superuser" = ? WHERE "id" = ?`),
			u.password, u.active, u.staff, u.staff, id)
		return id, err
	}
	err = tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO "auth_user" ("password", "is_superuser", "username", "first_name", "last_name", "email", "is_staff", "is_active", "date_joined") VALUES (?, ?, ?, '', '', '', ?, ?, ?) RETURNING "id"`),
		u.password, u.staff, u.name, u.staff, u.active, store.FormatTime(time.Now()))
	return id, err
}
