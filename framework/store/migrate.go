package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// Migration is one schema change of an app, named like Django's migrations
// ("auth", "0001_initial").
type Migration struct {
	// App is the app label, e.g. "auth".
	App string
	// Name is the migration's name within the app, e.g. "0001_initial".
	Name string
	// Up applies the change inside the migration's transaction.
	Up func(ctx context.Context, tx *sqlx.Tx) error
}

// String returns "app.name", as Django prints a migration.
func (m Migration) String() string { return m.App + "." + m.Name }

// SQL returns an Up function that executes the statements in order.
func SQL(statements ...string) func(ctx context.Context, tx *sqlx.Tx) error {
	return func(ctx context.Context, tx *sqlx.Tx) error {
		for _, s := range statements {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return err
			}
		}
		return nil
	}
}

// MigrationError reports the migration that failed; it was rolled back and
// no later migration was tried.
type MigrationError struct {
	// Migration is the migration that failed.
	Migration Migration
	// Err is why.
	Err error
}

// Error returns "store: migration app.name: cause".
func (e *MigrationError) Error() string {
	return fmt.Sprintf("store: migration %s: %v", e.Migration, e.Err)
}

// Unwrap returns the cause.
func (e *MigrationError) Unwrap() error { return e.Err }

// ByDialect returns an Up function that runs sqlite on an SQLite database
// and postgres on a PostgreSQL one, for a migration whose DDL differs.
func ByDialect(sqlite, postgres func(ctx context.Context, tx *sqlx.Tx) error) func(ctx context.Context, tx *sqlx.Tx) error {
	return func(ctx context.Context, tx *sqlx.Tx) error {
		if DialectOf(tx) == PostgreSQL {
			return postgres(ctx, tx)
		}
		return sqlite(ctx, tx)
	}
}

// createMigrationsTable is Django's own django_migrations table, as Django
// creates it on each dialect.
var createMigrationsTable = map[Dialect]string{
	SQLite: `CREATE TABLE IF NOT EXISTS "django_migrations" (` +
		`"id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "app" varchar(255) NOT NULL, ` +
		`"name" varchar(255) NOT NULL, "applied" datetime NOT NULL)`,
	PostgreSQL: `CREATE TABLE IF NOT EXISTS "django_migrations" (` +
		`"id" serial NOT NULL PRIMARY KEY, "app" varchar(255) NOT NULL, ` +
		`"name" varchar(255) NOT NULL, "applied" timestamp with time zone NOT NULL)`,
}

// migrateLock is the key of the PostgreSQL advisory lock that Migrate
// holds, so that instances starting together migrate one after the other.
const migrateLock = 0x676f2d6472662d6d // "go-drf-m"

// Migrate applies, in the order given, the migrations that Django's
// django_migrations table (created if missing) does not record yet, and
// returns the ones it applied as "app.name". Each runs in its own
// transaction together with its record, so a migration that Django or an
// earlier run applied is skipped and a second run applies nothing. A failing
// migration is rolled back and stops the run with a *MigrationError; the
// migrations before it stay applied.
//
// Several processes may migrate one database at once: on SQLite each
// migration's transaction takes the write lock from its start, on
// PostgreSQL the whole run holds an advisory lock, so each migration is
// applied by exactly one of them and the others find it recorded.
func Migrate(ctx context.Context, db *sqlx.DB, migs ...Migration) (applied []string, err error) {
	for _, m := range migs {
		if m.App == "" || m.Name == "" || m.Up == nil {
			return nil, &MigrationError{Migration: m, Err: errors.New("needs an app, a name and an Up function")}
		}
	}
	conn, err := db.Connx(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: migrate: %w", err)
	}
	defer conn.Close()
	dialect := DialectOf(db)
	if dialect == PostgreSQL {
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, int64(migrateLock)); err != nil {
			return nil, fmt.Errorf("store: migrate: take the migration lock: %w", err)
		}
		defer func() {
			if _, err := conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(migrateLock)); err != nil {
				// Never hand a connection that may hold the lock back to
				// the pool: closing it ends its session and the lock.
				_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			}
		}()
	}
	if _, err := conn.ExecContext(ctx, createMigrationsTable[dialect]); err != nil {
		return nil, fmt.Errorf("store: create django_migrations: %w", err)
	}
	for _, m := range migs {
		ran, err := migrate(ctx, conn, m)
		if err != nil {
			return applied, &MigrationError{Migration: m, Err: err}
		}
		if ran {
			applied = append(applied, m.String())
		}
	}
	return applied, nil
}

// migrate applies m on conn unless it is recorded, and reports whether it did.
func migrate(ctx context.Context, conn *sqlx.Conn, m Migration) (ran bool, err error) {
	tx, err := conn.BeginTxx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer func() {
		if err != nil || !ran {
			_ = tx.Rollback()
		}
	}()
	// On SQLite the transaction holds the write lock from its start, and on
	// PostgreSQL the caller holds the migration lock, so this check cannot
	// race with another process migrating.
	var n int
	if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT count(*) FROM "django_migrations" WHERE "app" = ? AND "name" = ?`), m.App, m.Name); err != nil {
		return false, err
	}
	if n > 0 {
		return false, nil
	}
	if err := m.Up(ctx, tx); err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO "django_migrations" ("app", "name", "applied") VALUES (?, ?, ?)`),
		m.App, m.Name, FormatTime(time.Now())); err != nil {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, err
	}
	return true, nil
}

// ResetSequence sets the sequence of table's serial column past the
// largest value in the column, as Django's sqlsequencereset does, after
// rows were inserted with explicit keys; PostgreSQL would otherwise hand
// out keys that exist. On SQLite, whose AUTOINCREMENT follows explicit
// keys by itself, it does nothing.
func ResetSequence(ctx context.Context, tx *sqlx.Tx, table, column string) error {
	if DialectOf(tx) != PostgreSQL {
		return nil
	}
	t, c := quoteIdent(table), quoteIdent(column)
	_, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(MAX(`+c+`), 1), MAX(`+c+`) IS NOT NULL) FROM `+t,
		t, column)
	return err
}

// quoteIdent quotes an SQL identifier.
func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }
