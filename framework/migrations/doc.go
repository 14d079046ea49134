// Package migrations is Django's django.db.migrations for go-drf models:
// migrations as plain Go values (operations that carry their fields as
// data, models.Field values as Django's carry model fields, so that a
// migration written today still means the same once the model's struct
// has changed), the schema editors that turn them into
// exactly the SQL Django's sqlmigrate prints on SQLite and on PostgreSQL,
// the autodetector that finds the operations bringing an app's
// migrations to its current models (makemigrations), and the writer of a
// generated migration as a Go file of the app's package. Each is Django
// 5.2's at compat.Current and Django 3.2's at compat.DRF314: the
// operations' order and folding, identity columns or serial on
// PostgreSQL, SQLite's ADD COLUMN or table remake.
//
// An app lists its models once, in a package-level variable named App
// (Django's AppConfig):
//
//	var App = migrations.NewApp("snippets", Snippet{})
//
// NewApp records the directory of the file that calls it: makemigrations
// writes each new migration there, as migration_0001_initial.go, a file
// of the app's own package whose init function adds the migration to App
// (App.Add). A migration written by hand, in a file of the same kind,
// declares what makemigrations does not write: renamed fields and models
// (RenameField, RenameModel), statements (RunSQL) and data migrations in
// Go (RunGo). A program applies its apps' migrations with Migrate or the
// migrate command, the apps in the order of INSTALLED_APPS:
//
//	management.Migrate(slices.Concat(auth.Migrations, snippets.App.Migrations())...)
//
// Migrate is Django's migrate: each migration after the ones of its app
// before it and its Dependencies on other apps' migrations, its SQL
// written from the state the migrations before it leave, applied in a
// transaction and recorded in Django's django_migrations table, under a
// PostgreSQL advisory lock so that instances starting together apply it
// once. It lives here, above framework/store, because it runs the model
// layer's migrations: store knows databases, not models.
//
// The generated SQL is Django's: column types, NOT NULL, PRIMARY KEY
// AUTOINCREMENT, identity or serial, foreign keys inline on SQLite and as named,
// deferred constraints on PostgreSQL, index names with Django's hashes,
// PostgreSQL's _like indexes, the CHECK constraints of positive integers
// and SQLite's JSON columns, and SQLite's table remake for a changed or
// removed column. Django finds the names of the constraints it drops by
// introspecting the database; here they are derived from the migration
// state, which gives the same names for a schema Django or this package
// created.
package migrations
