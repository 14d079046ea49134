// Package bookshelf is what the Go peers of the load benchmark share: the
// sample's books and tokens read with sqlx, as sqlx's documentation
// teaches (queries with ? placeholders rebound for the database, sqlx.Get
// and sqlx.Select into tagged structs, no statement prepared by hand), and
// the rules of DRF's pagination that any replacement of the sample's API
// must follow to answer the same links. The peers differ only in their
// HTTP layer.
package bookshelf

import (
	"context"
	"runtime"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	"github.com/jmoiron/sqlx"
	_ "github.com/mattn/go-sqlite3" // the "sqlite3" database/sql driver
)

// Book is one book as the sample's serializer answers it.
type Book struct {
	ID      int64     `db:"id" json:"id"`
	Title   string    `db:"title" json:"title"`
	Author  string    `db:"author" json:"author"`
	Rating  int       `db:"rating" json:"rating"`
	Created time.Time `db:"created" json:"created"`
	Owner   string    `db:"owner" json:"owner"`
}

// User is a row of Django's auth_user.
type User struct {
	ID          int64      `db:"id"`
	Password    string     `db:"password"`
	LastLogin   *time.Time `db:"last_login"`
	IsSuperuser bool       `db:"is_superuser"`
	Username    string     `db:"username"`
	FirstName   string     `db:"first_name"`
	LastName    string     `db:"last_name"`
	Email       string     `db:"email"`
	IsStaff     bool       `db:"is_staff"`
	IsActive    bool       `db:"is_active"`
	DateJoined  time.Time  `db:"date_joined"`
}

// Token is a row of DRF's authtoken_token with its user, read together
// (Token.objects.select_related("user") in DRF's TokenAuthentication).
type Token struct {
	Key     string    `db:"key"`
	Created time.Time `db:"created"`
	UserID  int64     `db:"user_id"`
	User
}

const (
	books = `SELECT b.id, b.title, b.author, b.rating, b.created, u.username AS owner
FROM books b JOIN auth_user u ON u.id = b.owner_id`
	tokenQuery = `SELECT t.key, t.created, t.user_id, u.id, u.password, u.last_login, u.is_superuser,
u.username, u.first_name, u.last_name, u.email, u.is_staff, u.is_active, u.date_joined
FROM authtoken_token t JOIN auth_user u ON u.id = t.user_id WHERE t.key = ?`
)

// Store reads the sample's database.
type Store struct {
	db       *sqlx.DB
	postgres bool
}

// Open opens DATABASE: a SQLite file, or a postgres:// URL (pgx's
// database/sql driver). The pool is sized as the sample's (2×CPUs+2
// connections, as many kept idle), as the database/sql documentation's
// "Managing connections" teaches: without it database/sql keeps two idle
// connections and opens and closes the others under load.
func Open(database string) (*Store, error) {
	driver, dsn := "sqlite3", "file:"+database+"?_busy_timeout=5000&_journal_mode=WAL"
	if strings.HasPrefix(database, "postgres://") || strings.HasPrefix(database, "postgresql://") {
		driver, dsn = "pgx", database
	}
	db, err := sqlx.Connect(driver, dsn)
	if err != nil {
		return nil, err
	}
	n := 2*runtime.NumCPU() + 2
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	return &Store{db: db, postgres: driver == "pgx"}, nil
}

// Close closes the pool.
func (s *Store) Close() error { return s.db.Close() }

// TokenWithUser reads a token and its user; sql.ErrNoRows when there is no
// such token.
func (s *Store) TokenWithUser(ctx context.Context, key string) (Token, error) {
	var t Token
	err := s.db.GetContext(ctx, &t, s.db.Rebind(tokenQuery), key)
	return t, err
}

// CountBooks counts the books, as Django counts the sample's queryset.
func (s *Store) CountBooks(ctx context.Context) (int, error) {
	var n int
	err := s.db.GetContext(ctx, &n, `SELECT COUNT(*) FROM books`)
	return n, err
}

// BooksByID reads a slice of the books in id order.
func (s *Store) BooksByID(ctx context.Context, limit, offset int) ([]Book, error) {
	return s.selectBooks(ctx, books+` ORDER BY b.id LIMIT ? OFFSET ?`, limit, offset)
}

// Book reads one book; sql.ErrNoRows when there is none.
func (s *Store) Book(ctx context.Context, id int64) (Book, error) {
	var b Book
	err := s.db.GetContext(ctx, &b, s.db.Rebind(books+` WHERE b.id = ?`), id)
	b.Created = b.Created.UTC()
	return b, err
}

// BooksByCreated reads limit books of the -created ordering from a cursor's
// place: after (or, reversed, before) its position, past its offset.
func (s *Store) BooksByCreated(ctx context.Context, c Cursor, limit int) ([]Book, error) {
	q, args := books, []any{}
	if c.Position != "" {
		t, err := c.At()
		if err != nil {
			return nil, err
		}
		at := any(t)
		if !s.postgres {
			// SQLite compares the stored text: the position as Django stores it.
			at = dbTime(t)
		}
		if c.Reverse {
			q += ` WHERE b.created > ?`
		} else {
			q += ` WHERE b.created < ?`
		}
		args = append(args, at)
	}
	if c.Reverse {
		q += ` ORDER BY b.created ASC LIMIT ? OFFSET ?`
	} else {
		q += ` ORDER BY b.created DESC LIMIT ? OFFSET ?`
	}
	return s.selectBooks(ctx, q, append(args, limit, c.Offset)...)
}

func (s *Store) selectBooks(ctx context.Context, query string, args ...any) ([]Book, error) {
	page := []Book{}
	if err := s.db.SelectContext(ctx, &page, s.db.Rebind(query), args...); err != nil {
		return nil, err
	}
	for i := range page {
		page[i].Created = page[i].Created.UTC()
	}
	return page, nil
}

// dbTime is t as Django stores a datetime in SQLite.
func dbTime(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond() != 0 {
		return t.Format("2006-01-02 15:04:05.000000")
	}
	return t.Format(time.DateTime)
}
