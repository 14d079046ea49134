package store

import (
	"context"
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

// migrateLock is the key of the PostgreSQL advisory lock that each of
// Migrate's transactions holds, so that instances starting together
// migrate one after the other.
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
// PostgreSQL it takes a transaction-scoped advisory lock
// (pg_advisory_xact_lock) before it looks at django_migrations, so each
// migration is applied by exactly one of them and the others find it
// recorded. The lock ends with its transaction whatever connection the
// transaction ran on, so it cannot outlive a run, even through a pooler
// (PgBouncer in transaction mode) that gives each transaction another
// server session.
func Migrate(ctx context.Context, db *sqlx.DB, migs ...Migration) (applied []string, err error) {
	for _, m := range migs {
		if m.App == "" || m.Name == "" || m.Up == nil {
			return nil, &MigrationError{Migration: m, Err: errors.New("needs an app, a name and an Up function")}
		}
	}
	create := createMigrationsTable[DialectOf(db)]
	if err := locked(ctx, db, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, create)
		return err
	}); err != nil {
		return nil, fmt.Errorf("store: create django_migrations: %w", err)
	}
	for _, m := range migs {
		ran, err := migrate(ctx, db, m)
		if err != nil {
			return applied, &MigrationError{Migration: m, Err: err}
		}
		if ran {
			applied = append(applied, m.String())
		}
	}
	return applied, nil
}

// Unapplied returns the names ("app.name") of the migrations of migs
// that db has not recorded as applied, in order; all of them when db has
// no django_migrations table yet.
func Unapplied(ctx context.Context, db *sqlx.DB, migs ...Migration) ([]string, error) {
	var exists int
	if err := db.GetContext(ctx, &exists, tableExists[DialectOf(db)]); err != nil {
		return nil, fmt.Errorf("store: read django_migrations: %w", err)
	}
	applied := map[string]bool{}
	if exists > 0 {
		rows, err := db.QueryContext(ctx, `SELECT "app", "name" FROM "django_migrations"`)
		if err != nil {
			return nil, fmt.Errorf("store: read django_migrations: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var m Migration
			if err := rows.Scan(&m.App, &m.Name); err != nil {
				return nil, fmt.Errorf("store: read django_migrations: %w", err)
			}
			applied[m.String()] = true
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("store: read django_migrations: %w", err)
		}
	}
	var missing []string
	for _, m := range migs {
		if !applied[m.String()] {
			missing = append(missing, m.String())
		}
	}
	return missing, nil
}

// tableExists counts the django_migrations tables of a database, by dialect.
var tableExists = [...]string{
	SQLite:     `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'django_migrations'`,
	PostgreSQL: `SELECT count(*) FROM pg_catalog.pg_tables WHERE tablename = 'django_migrations' AND schemaname = current_schema()`,
}

// locked runs fn in a transaction of db (InTx) that holds the migration
// lock on PostgreSQL; SQLite's transactions take the write lock as they
// begin.
func locked(ctx context.Context, db *sqlx.DB, fn func(tx *sqlx.Tx) error) error {
	return InTx(ctx, db, func(tx *sqlx.Tx) error {
		if DialectOf(tx) == PostgreSQL {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrateLock)); err != nil {
				return fmt.Errorf("take the migration lock: %w", err)
			}
		}
		return fn(tx)
	})
}

// migrate applies m unless it is recorded, and reports whether it did.
func migrate(ctx context.Context, db *sqlx.DB, m Migration) (ran bool, err error) {
	err = locked(ctx, db, func(tx *sqlx.Tx) error {
		ran = false
		// Under the lock this check cannot race with another process
		// migrating.
		var n int
		if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT count(*) FROM "django_migrations" WHERE "app" = ? AND "name" = ?`), m.App, m.Name); err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		if err := m.Up(ctx, tx); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO "django_migrations" ("app", "name", "applied") VALUES (?, ?, ?)`),
			m.App, m.Name, FormatTime(time.Now()))
		ran = err == nil
		return err
	})
	return ran && err == nil, err
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
	t, c := QuoteName(table), QuoteName(column)
	_, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(MAX(`+c+`), 1), MAX(`+c+`) IS NOT NULL) FROM `+t,
		t, column)
	return err
}

// QuoteName quotes an SQL identifier (a table or column name) as Django's
// quote_name does on SQLite and PostgreSQL: in double quotes, a double
// quote doubled.
func QuoteName(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }
