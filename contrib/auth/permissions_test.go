package auth_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/drfsuite/pyrun"
	"github.com/go-drf/drf/internal/testservers"
)

// permissionTables are the tables of Django's contenttypes app and of
// its auth app's permissions.
const permissionTables = `'django_content_type', 'auth_permission', 'auth_group', 'auth_group_permissions', 'auth_user_groups', 'auth_user_user_permissions'`

// sqliteSchema lists what sqlite_master holds of the permission tables.
const sqliteSchema = `SELECT type || ' ' || name || ': ' || coalesce(sql, '-') FROM sqlite_master WHERE tbl_name IN (` + permissionTables + `) ORDER BY type, name`

// postgresSchema describes the columns, constraints and indexes of the
// permission tables, one line each, from PostgreSQL's catalogs.
const postgresSchema = `SELECT line FROM (
  SELECT 1 AS k, table_name::text AS t, ordinal_position::int AS o,
    format('column %s.%s %s%s %s default %s', table_name, column_name, data_type,
      coalesce('(' || character_maximum_length || ')', ''),
      CASE WHEN is_nullable = 'YES' THEN 'NULL' ELSE 'NOT NULL' END, coalesce(column_default, '-')) AS line
  FROM information_schema.columns
  WHERE table_schema = 'public' AND table_name IN (` + permissionTables + `)
  UNION ALL
  SELECT 2, conrelid::regclass::text, 0, format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
  FROM pg_constraint
  WHERE conrelid::regclass::text IN (` + permissionTables + `)
  UNION ALL
  SELECT 3, tablename::text, 0, 'index ' || indexdef
  FROM pg_indexes
  WHERE schemaname = 'public' AND tablename IN (` + permissionTables + `)
) s ORDER BY k, t, o, line`

// djangoMigrate runs Django 3.2's migrate, with only its auth and
// contenttypes apps installed (testdata/djangoperms), on the SQLite file
// or PostgreSQL URL dsn. It skips when there is no python3 with Django
// 3.2 and psycopg2, and fails then when CI_REQUIRE_DJANGO is set.
func djangoMigrate(t *testing.T, dsn string) {
	t.Helper()
	pyrun.Need(t, pyrun.DRF314, "psycopg2")
	t.Setenv("DJANGO_DB", dsn)
	pyrun.Exec(t, pyrun.DRF314, nil, filepath.Join("testdata", "migrate.py"))
}

// twoDatabases returns a database Django migrated and one the Go
// migrations (and auth.Models' default permissions) migrated, of the
// dialect ("sqlite" or "postgresql").
func twoDatabases(t *testing.T, dialect string) (django, goSide *sqlx.DB) {
	t.Helper()
	open := func() (*sqlx.DB, string) {
		dsn := filepath.Join(t.TempDir(), "db.sqlite3")
		if dialect == "postgresql" {
			dsn = testservers.Postgres(t)
		}
		db, err := store.Open(dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		return db, dsn
	}
	django, dsn := open()
	djangoMigrate(t, dsn)
	goSide, _ = open()
	migs := append(auth.Migrations[:len(auth.Migrations):len(auth.Migrations)], auth.PermissionsMigration("auth", "go_default_permissions", auth.Models...))
	if _, err := migrations.Migrate(context.Background(), goSide, migs...); err != nil {
		t.Fatal(err)
	}
	return django, goSide
}

// compareLines reports the lines of got that differ from want's.
func compareLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("%s: Django's side is empty", what)
	}
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("%s, line %d:\n got  %s\n want %s", what, i+1, g, w)
		}
	}
}

// TestPermissionTablesAreDjangos: the Go migrations leave the tables of
// Django's content types and permissions exactly as Django 3.2's migrate
// does (the same SQL in sqlite_master; the same columns, types,
// constraints and indexes on PostgreSQL), and PermissionsMigration
// creates the content types and default permissions of auth's models as
// Django's post_migrate does, ids and names included.
func TestPermissionTablesAreDjangos(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgresql"} {
		t.Run(dialect, func(t *testing.T) {
			django, goSide := twoDatabases(t, dialect)
			query := sqliteSchema
			if dialect == "postgresql" {
				query = postgresSchema
			}
			var want, got []string
			if err := django.Select(&want, query); err != nil {
				t.Fatal(err)
			}
			if err := goSide.Select(&got, query); err != nil {
				t.Fatal(err)
			}
			compareLines(t, "schema", got, want)
			const rows = `SELECT CAST(p."id" AS text) || ' ' || CAST(ct."id" AS text) || ' ' || ct."app_label" || '.' || ct."model" || ' ' || p."codename" || ' ' || p."name" ` +
				`FROM "auth_permission" p JOIN "django_content_type" ct ON ct."id" = p."content_type_id" ORDER BY p."id"`
			want, got = nil, nil
			if err := django.Select(&want, rows); err != nil {
				t.Fatal(err)
			}
			if err := goSide.Select(&got, rows); err != nil {
				t.Fatal(err)
			}
			compareLines(t, "permissions", got, want)
		})
	}
}

// TestPermissionsMigrationAddsOnlyWhatIsMissing: on a database that has
// some of the rows, the default permissions are completed, not doubled,
// and running CreatePermissions again adds nothing; in a transaction
// the context carries, its rows are undone with the transaction.
func TestPermissionsMigrationAddsOnlyWhatIsMissing(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		ctx := context.Background()
		if _, err := migrations.Migrate(ctx, db, auth.Migrations...); err != nil {
			t.Fatal(err)
		}
		db.MustExec(db.Rebind(`INSERT INTO "django_content_type" ("app_label", "model") VALUES (?, ?)`), "bookshelf", "book")
		db.MustExec(db.Rebind(`INSERT INTO "auth_permission" ("name", "content_type_id", "codename") VALUES (?, 1, ?)`), "Custom name", "change_book")
		book := auth.Model{AppLabel: "bookshelf", Name: "book"}
		for range 2 {
			if err := auth.CreatePermissions(ctx, db, book); err != nil {
				t.Fatal(err)
			}
		}
		undone := errors.New("undone")
		if err := store.Atomic(ctx, db, func(ctx context.Context) error {
			if err := auth.CreatePermissions(ctx, db, auth.Model{AppLabel: "bookshelf", Name: "shelf"}); err != nil {
				return err
			}
			return undone
		}); !errors.Is(err, undone) {
			t.Fatalf("Atomic: %v", err)
		}
		var got []string
		if err := db.Select(&got, `SELECT "codename" || ':' || "name" FROM "auth_permission" ORDER BY "id"`); err != nil {
			t.Fatal(err)
		}
		if want := "change_book:Custom name add_book:Can add book delete_book:Can delete book view_book:Can view book"; strings.Join(got, " ") != want {
			t.Errorf("permissions: %v, want %s", got, want)
		}
		var types []string
		if err := db.Select(&types, `SELECT "app_label" || '.' || "model" FROM "django_content_type" WHERE "app_label" = 'bookshelf' ORDER BY "id"`); err != nil {
			t.Fatal(err)
		}
		if strings.Join(types, " ") != "bookshelf.book" {
			t.Errorf("content types %v, want [bookshelf.book]", types)
		}
		if err := auth.CreatePermissions(ctx, db, auth.Model{AppLabel: "x", Name: "Book"}); err == nil {
			t.Error("a model name with capitals was taken")
		}
	})
}

// TestHasPermAsModelBackend: HasPerm answers as Django's ModelBackend:
// the user's own permissions and their groups', everything for an active
// superuser, nothing for an inactive user; the answer is read once per
// user value (a request's), and a grant or revoke is seen by a user read
// afterwards.
func TestHasPermAsModelBackend(t *testing.T) {
	testservers.Dialects(t, func(t *testing.T, db *sqlx.DB) {
		ctx := context.Background()
		migs := append(auth.Migrations[:len(auth.Migrations):len(auth.Migrations)],
			auth.PermissionsMigration("bookshelf", "go_default_permissions", auth.Model{AppLabel: "bookshelf", Name: "book"}))
		if _, err := migrations.Migrate(ctx, db, migs...); err != nil {
			t.Fatal(err)
		}
		users := &auth.Users{DB: db, Hashers: auth.Hashers{auth.PBKDF2Hasher{Iterations: 1000}}}
		alice, err := users.CreateUser(ctx, "alice", "", "pw")
		if err != nil {
			t.Fatal(err)
		}
		bob, err := users.CreateUser(ctx, "bob", "", "pw")
		if err != nil {
			t.Fatal(err)
		}
		root, err := users.CreateSuperuser(ctx, "root", "", "pw")
		if err != nil {
			t.Fatal(err)
		}
		has := func(u *auth.User, perms ...string) bool {
			t.Helper()
			ok, err := u.HasPerms(ctx, perms...)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		reread := func(u *auth.User) *auth.User {
			t.Helper()
			again, err := users.Get(ctx, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			return again
		}
		if has(alice, "bookshelf.add_book") || !has(alice) {
			t.Error("a new user has bookshelf.add_book, or lacks the empty set")
		}
		if !has(root, "bookshelf.add_book", "no.such_perm") {
			t.Error("an active superuser lacks a permission")
		}
		if err := users.GrantPermission(ctx, alice, "bookshelf.add_book"); err != nil {
			t.Fatal(err)
		}
		if err := users.GrantPermission(ctx, alice, "bookshelf.add_book"); err != nil {
			t.Fatalf("granting again: %v", err)
		}
		if !has(alice, "bookshelf.add_book") || has(alice, "bookshelf.add_book", "bookshelf.change_book") {
			t.Error("alice's own permission")
		}
		// The answer is cached in the user value, as Django's _perm_cache.
		cached := reread(alice)
		if !has(cached, "bookshelf.add_book") {
			t.Fatal("alice re-read lacks her permission")
		}
		db.MustExec(`DELETE FROM "auth_user_user_permissions"`)
		if !has(cached, "bookshelf.add_book") {
			t.Error("the permissions were read again within one user value")
		}
		if has(reread(alice), "bookshelf.add_book") {
			t.Error("a user read after the deletion still has the permission")
		}
		// Group permissions.
		db.MustExec(db.Rebind(`INSERT INTO "auth_group" ("name") VALUES (?)`), "editors")
		db.MustExec(`INSERT INTO "auth_group_permissions" ("group_id", "permission_id") SELECT g."id", p."id" FROM "auth_group" g, "auth_permission" p WHERE p."codename" IN ('change_book', 'delete_book')`)
		db.MustExec(db.Rebind(`INSERT INTO "auth_user_groups" ("user_id", "group_id") VALUES (?, 1)`), bob.ID)
		if bob = reread(bob); !has(bob, "bookshelf.change_book", "bookshelf.delete_book") || has(bob, "bookshelf.add_book") {
			t.Error("bob's group permissions")
		}
		if has(reread(alice), "bookshelf.change_book") {
			t.Error("alice has the group's permission without being in it")
		}
		// Inactive users have none, superusers included.
		db.MustExec(`UPDATE "auth_user" SET "is_active" = false`)
		if has(reread(bob), "bookshelf.change_book") || has(reread(root), "bookshelf.add_book") {
			t.Error("an inactive user has a permission")
		}
		// Revoking leaves the group's.
		db.MustExec(`UPDATE "auth_user" SET "is_active" = true`)
		bob = reread(bob)
		if err := users.GrantPermission(ctx, bob, "bookshelf.view_book"); err != nil {
			t.Fatal(err)
		}
		if err := users.RevokePermission(ctx, bob, "bookshelf.view_book"); err != nil {
			t.Fatal(err)
		}
		if err := users.RevokePermission(ctx, bob, "bookshelf.change_book"); err != nil {
			t.Fatal(err)
		}
		if has(bob, "bookshelf.view_book") || !has(bob, "bookshelf.change_book") {
			t.Error("after the revokes")
		}
		for _, bad := range []string{"bookshelf.fly_book", "nobook", ".add_book", "bookshelf.", "book\x00shelf.add_book"} {
			if err := users.GrantPermission(ctx, bob, bad); !errors.Is(err, auth.ErrUnknownPermission) {
				t.Errorf("granting %q: %v", bad, err)
			}
		}
		// A user that was not read through Users cannot answer.
		var pu framework.PermissionsUser = &auth.User{ID: bob.ID, Active: true}
		if _, err := pu.HasPerms(ctx, "bookshelf.add_book"); err == nil {
			t.Error("an unbound user answered")
		}
	})
}
