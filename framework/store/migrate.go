package store

import (
	"context"
	"errors"
	"fmt"
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

// createMigrationsTable is Django's own django_migrations table on SQLite.
const createMigrationsTable = `CREATE TABLE IF NOT EXISTS "django_migrations" (` +
	`"id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "app" varchar(255) NOT NULL, ` +
	`"name" varchar(255) NOT NULL, "applied" datetime NOT NULL)`

// Migrate applies, in the order given, the migrations that Django's
// django_migrations table (created if missing) does not record yet, and
// returns the ones it applied as "app.name". Each runs in its own
// transaction together with its record, so a migration that Django or an
// earlier run applied is skipped and a second run applies nothing. A failing
// migration is rolled back and stops the run with a *MigrationError; the
// migrations before it stay applied.
func Migrate(ctx context.Context, db *sqlx.DB, migs ...Migration) (applied []string, err error) {
	for _, m := range migs {
		if m.App == "" || m.Name == "" || m.Up == nil {
			return nil, &MigrationError{Migration: m, Err: errors.New("needs an app, a name and an Up function")}
		}
	}
	if _, err := db.ExecContext(ctx, createMigrationsTable); err != nil {
		return nil, fmt.Errorf("store: create django_migrations: %w", err)
	}
	for _, m := range migs {
		var ran bool
		err := InTx(ctx, db, func(tx *sqlx.Tx) error {
			// The transaction holds the write lock from its start, so this
			// check cannot race with another process migrating.
			var n int
			if err := tx.GetContext(ctx, &n, `SELECT count(*) FROM "django_migrations" WHERE "app" = ? AND "name" = ?`, m.App, m.Name); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if err := m.Up(ctx, tx); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO "django_migrations" ("app", "name", "applied") VALUES (?, ?, ?)`,
				m.App, m.Name, FormatTime(time.Now())); err != nil {
				return err
			}
			ran = true
			return nil
		})
		if err != nil {
			return applied, &MigrationError{Migration: m, Err: err}
		}
		if ran {
			applied = append(applied, m.String())
		}
	}
	return applied, nil
}
