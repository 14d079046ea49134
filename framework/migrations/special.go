package migrations

import (
	"context"
	"errors"
	"strings"

	"github.com/jmoiron/sqlx"
)

// notSQL is the line Django 3.2's sqlmigrate prints before the
// description of an operation that is no SQL.
const notSQL = "MIGRATION NOW PERFORMS OPERATION THAT CANNOT BE WRITTEN AS SQL:\n-- "

// notSQL52 is the line Django 5.2's sqlmigrate prints after it.
const notSQL52 = "THIS OPERATION CANNOT BE WRITTEN AS SQL"

// RunSQL is Django's RunSQL of a list of statements: each executed as
// written, inside the migration's transaction, and printed so by
// sqlmigrate. It leaves the models' state alone. makemigrations never
// writes it: a migration written by hand declares it. Applied
// migrations are not reversed here, so it has no reverse_sql.
type RunSQL struct {
	// SQL are the statements, one each.
	SQL []string
	// PostgreSQL, when not nil, are the statements on PostgreSQL instead
	// of SQL (what a Django migration does by testing
	// schema_editor.connection.vendor).
	PostgreSQL []string
}

// Describe returns "Raw SQL operation".
func (RunSQL) Describe() string { return "Raw SQL operation" }

func (RunSQL) fragment() string { return "" }

func (RunSQL) apply(*State) error { return nil }

func (RunSQL) renders() bool { return false }

func (o RunSQL) database(e *editor, _, _ *State) error {
	statements := o.SQL
	if e.pg() && o.PostgreSQL != nil {
		statements = o.PostgreSQL
	}
	for _, s := range statements {
		// Django's execute adds the ";" a statement lacks.
		e.exec(strings.TrimSuffix(strings.TrimSpace(s), ";"))
	}
	return nil
}

// RunGo is Django's RunPython: a Go function, a data migration, called
// with the migration's transaction when the migration is applied
// (Migrate); its error rolls the migration back, unrecorded.
// sqlmigrate prints that it cannot be written as SQL. It leaves the
// models' state alone; a migration written by hand declares it.
type RunGo struct {
	// Func is the function. Its ctx carries the migrated database
	// (DBFrom) and tx as that database's transaction (store.WithTx):
	// the querysets, stores and store.Atomic blocks it runs on it with
	// ctx write in tx, and store.OnCommit defers work until the
	// migration has committed.
	Func func(ctx context.Context, tx *sqlx.Tx) error
}

// dbKey is the context key of the database a RunGo's Func migrates.
type dbKey struct{}

// DBFrom returns the database that Migrate is migrating, from the
// context it calls a RunGo's Func with (Django's
// schema_editor.connection, which a RunPython function writes with);
// nil from another context.
func DBFrom(ctx context.Context) *sqlx.DB {
	db, _ := ctx.Value(dbKey{}).(*sqlx.DB)
	return db
}

// Describe returns "Raw Python operation", as Django's sqlmigrate names
// it.
func (RunGo) Describe() string { return "Raw Python operation" }

func (RunGo) fragment() string { return "" }

func (RunGo) apply(*State) error { return nil }

func (RunGo) renders() bool { return false }

func (o RunGo) database(e *editor, _, _ *State) error {
	if o.Func == nil {
		return errors.New("migrations: RunGo has no Func")
	}
	e.lines = append(e.lines, Line{Run: o.Func})
	return nil
}
