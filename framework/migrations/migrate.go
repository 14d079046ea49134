package migrations

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/framework/compat"
	"github.com/go-drf/drf/framework/store"
)

// MigrationError reports the migration that failed; it was rolled back and
// no later migration was tried.
type MigrationError struct {
	// Migration is the migration that failed.
	Migration Migration
	// Err is why.
	Err error
}

// Error returns "migrations: migration app.name: cause".
func (e *MigrationError) Error() string {
	return fmt.Sprintf("migrations: migration %s: %v", e.Migration, e.Err)
}

// Unwrap returns the cause.
func (e *MigrationError) Unwrap() error { return e.Err }

// Lease is the migration drf.0001_lease, which creates the table of
// store.Leases (store.LeaseTable).
var Lease = Migration{App: "drf", Name: "0001_lease", Operations: []Operation{RunSQL{SQL: []string{store.LeaseTable}}}}

// createMigrationsTable is Django's own django_migrations table, as Django
// creates it on each dialect.
var createMigrationsTable = [...]string{
	store.SQLite: `CREATE TABLE IF NOT EXISTS "django_migrations" (` +
		`"id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "app" varchar(255) NOT NULL, ` +
		`"name" varchar(255) NOT NULL, "applied" datetime NOT NULL)`,
	store.PostgreSQL: `CREATE TABLE IF NOT EXISTS "django_migrations" (` +
		`"id" serial NOT NULL PRIMARY KEY, "app" varchar(255) NOT NULL, ` +
		`"name" varchar(255) NOT NULL, "applied" timestamp with time zone NOT NULL)`,
}

// tableExists counts the django_migrations tables of a database, by dialect.
var tableExists = [...]string{
	store.SQLite:     `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'django_migrations'`,
	store.PostgreSQL: `SELECT count(*) FROM pg_catalog.pg_tables WHERE tablename = 'django_migrations' AND schemaname = current_schema()`,
}

// migrateLock is the key of the PostgreSQL advisory lock that each of
// Migrate's transactions holds, so that instances starting together
// migrate one after the other.
const migrateLock = 0x676f2d6472662d6d // "go-drf-m"

// Migrate applies migs as Django's migrate does: in the order given,
// each after the migrations it depends on (those of its app before it,
// and its Dependencies), skipping those Django's django_migrations table
// (created if missing) records; it returns the ones it applied as
// "app.name". Each migration's SQL is the one the migrate of the
// context's level runs (WithCompatibility; Django 3.2's when the context
// has none) from the state the migrations before it leave, and all of
// it is written before anything is applied: a migration that does not
// render, or a dependency missing from migs (Django's "dependencies
// reference nonexistent parent node"), fails the run with nothing done.
//
// Each migration runs in its own transaction together with its record,
// so a migration that Django or an earlier run applied is skipped and a
// second run applies nothing. A failing migration is rolled back and
// stops the run with a *MigrationError; the migrations before it stay
// applied.
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
	ordered, err := plan(migs)
	if err != nil {
		return nil, err
	}
	steps, err := compile(compatibilityOf(ctx), store.DialectOf(db), ordered)
	if err != nil {
		return nil, err
	}
	create := createMigrationsTable[store.DialectOf(db)]
	if err := locked(ctx, db, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, create)
		return err
	}); err != nil {
		return nil, fmt.Errorf("migrations: create django_migrations: %w", err)
	}
	for i, m := range ordered {
		ran, err := apply(ctx, db, m, steps[i])
		if err != nil {
			return applied, &MigrationError{Migration: m, Err: err}
		}
		if ran {
			applied = append(applied, m.String())
		}
	}
	return applied, nil
}

// Check reports what fails Migrate before it touches a database, at
// either level and on either dialect: a migration that does not render,
// a dependency missing from migs; nil when they all can be applied. A
// program checks its migrations as it starts.
func Check(migs ...Migration) error {
	ordered, err := plan(migs)
	if err != nil {
		return err
	}
	for _, level := range []compat.Level{compat.Current, compat.DRF314} {
		for _, dialect := range []store.Dialect{store.SQLite, store.PostgreSQL} {
			if _, err := compile(level, dialect, ordered); err != nil {
				return err
			}
		}
	}
	return nil
}

// Unapplied returns the names ("app.name") of the migrations of migs
// that db has not recorded as applied, in the order Migrate applies
// them; all of them when db has no django_migrations table yet.
func Unapplied(ctx context.Context, db *sqlx.DB, migs ...Migration) ([]string, error) {
	ordered, err := plan(migs)
	if err != nil {
		return nil, err
	}
	var exists int
	if err := db.GetContext(ctx, &exists, tableExists[store.DialectOf(db)]); err != nil {
		return nil, fmt.Errorf("migrations: read django_migrations: %w", err)
	}
	recorded := map[[2]string]bool{}
	if exists > 0 {
		var rows []struct {
			App  string `db:"app"`
			Name string `db:"name"`
		}
		if err := db.SelectContext(ctx, &rows, `SELECT "app", "name" FROM "django_migrations"`); err != nil {
			return nil, fmt.Errorf("migrations: read django_migrations: %w", err)
		}
		for _, r := range rows {
			recorded[[2]string{r.App, r.Name}] = true
		}
	}
	var missing []string
	for _, m := range ordered {
		if !recorded[m.key()] {
			missing = append(missing, m.String())
		}
	}
	return missing, nil
}

// graph indexes migrations as Django's migration graph: each one by its
// key, and the one before it in its app (previous, -1 for none); a
// migration given twice counts once, its second place marked dup.
type graph struct {
	byKey    map[[2]string]int
	previous []int
	dup      []bool
}

// newGraph indexes migs.
func newGraph(migs []Migration) graph {
	g := graph{byKey: map[[2]string]int{}, previous: make([]int, len(migs)), dup: make([]bool, len(migs))}
	last := map[string]int{}
	for i, m := range migs {
		g.previous[i] = -1
		if _, dup := g.byKey[m.key()]; dup {
			g.dup[i] = true
			continue
		}
		g.byKey[m.key()] = i
		if p, ok := last[m.App]; ok {
			g.previous[i] = p
		}
		last[m.App] = i
	}
	return g
}

// plan orders migs as Django's migration graph does: each migration after
// the one before it in its app and after its Dependencies, otherwise in
// the order given; a migration given twice counts once.
func plan(migs []Migration) ([]Migration, error) {
	for _, m := range migs {
		if m.App == "" || m.Name == "" {
			return nil, &MigrationError{Migration: m, Err: errors.New("needs an app and a name")}
		}
	}
	g := newGraph(migs)
	byKey, previous := g.byKey, g.previous
	const (
		unseen = iota
		visiting
		done
	)
	mark := make([]int, len(migs))
	var out []Migration
	var visit func(i int) error
	visit = func(i int) error {
		switch mark[i] {
		case done:
			return nil
		case visiting:
			return &MigrationError{Migration: migs[i], Err: errors.New("circular dependency")}
		}
		mark[i] = visiting
		m := migs[i]
		if previous[i] >= 0 {
			if err := visit(previous[i]); err != nil {
				return err
			}
		}
		for _, d := range m.Dependencies {
			j, ok := byKey[d]
			if !ok {
				return &MigrationError{Migration: m, Err: fmt.Errorf("dependencies reference nonexistent parent node ('%s', '%s')", d[0], d[1])}
			}
			if err := visit(j); err != nil {
				return err
			}
		}
		mark[i] = done
		out = append(out, m)
		return nil
	}
	for i := range migs {
		if g.dup[i] {
			continue
		}
		if err := visit(i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// compile writes the SQL of each of the ordered migrations on dialect as
// the migrate of level runs it, from the project's state the migrations
// before it leave, every app's (a primary key altered to another type
// takes along the foreign keys of the other apps to it): SQLite's
// remade tables have their columns in the order migrate gives them,
// which sqlmigrate does not print.
func compile(level compat.Level, dialect store.Dialect, ordered []Migration) ([][]Line, error) {
	project := map[string]*State{}
	steps := make([][]Line, len(ordered))
	for i, m := range ordered {
		s := project[m.App]
		if s == nil {
			s = &State{App: m.App}
		}
		lines, after, err := m.sql(&editor{level: level, dialect: dialect}, s.withOthers(project))
		if err != nil {
			return nil, &MigrationError{Migration: m, Err: err}
		}
		after.split(project)
		steps[i] = lines
	}
	return steps, nil
}

// locked runs fn in a transaction of db (store.InTx) that holds the
// migration lock on PostgreSQL; SQLite's transactions take the write lock
// as they begin.
func locked(ctx context.Context, db *sqlx.DB, fn func(tx *sqlx.Tx) error) error {
	return store.InTx(ctx, db, func(tx *sqlx.Tx) error {
		if store.DialectOf(tx) == store.PostgreSQL {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrateLock)); err != nil {
				return fmt.Errorf("take the migration lock: %w", err)
			}
		}
		return fn(tx)
	})
}

// apply runs m's lines unless m is recorded, records it, and reports
// whether it ran. The lines run with a context that carries db (DBFrom)
// and the migration's transaction (store.WithTx), whose OnCommit
// callbacks run once it has committed.
func apply(ctx context.Context, db *sqlx.DB, m Migration, lines []Line) (ran bool, err error) {
	end := func(bool) {} // of the last attempt's transaction
	err = locked(ctx, db, func(tx *sqlx.Tx) error {
		end(false) // InTx runs again a transaction it rolled back
		var txCtx context.Context
		txCtx, end = store.WithTx(context.WithValue(ctx, dbKey{}, db), db, tx)
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
		if err := run(txCtx, tx, lines); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO "django_migrations" ("app", "name", "applied") VALUES (?, ?, ?)`),
			m.App, m.Name, store.FormatTime(time.Now()))
		ran = err == nil
		return err
	})
	end(err == nil)
	return ran && err == nil, err
}

// run runs a migration's lines in tx, each statement executed, each
// RunGo's function called with ctx, in order.
func run(ctx context.Context, tx *sqlx.Tx, lines []Line) error {
	for _, l := range lines {
		if l.Run != nil {
			if err := l.Run(ctx, tx); err != nil {
				return err
			}
			continue
		}
		for _, s := range l.Parts {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return err
			}
		}
	}
	return nil
}
