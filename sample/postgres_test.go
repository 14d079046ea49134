package sample_test

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/go-drf/drf/internal/testservers"
	"github.com/go-drf/drf/sample"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// newPostgres returns a fresh migrated PostgreSQL database.
func newPostgres(t *testing.T) *sqlx.DB {
	t.Helper()
	return testservers.OpenPostgres(t, sample.Migrations()...)
}

// schemaQuery describes the columns, constraints and indexes of the
// sample's tables, one line each, from PostgreSQL's catalogs.
const schemaQuery = `SELECT line FROM (
  SELECT 1 AS k, table_name::text AS t, ordinal_position::int AS o,
    format('column %s.%s %s%s %s default %s', table_name, column_name, data_type,
      coalesce('(' || character_maximum_length || ')', ''),
      CASE WHEN is_nullable = 'YES' THEN 'NULL' ELSE 'NOT NULL' END, coalesce(column_default, '-')) AS line
  FROM information_schema.columns
  WHERE table_schema = 'public' AND table_name IN ('auth_user', 'authtoken_token', 'django_session', 'django_migrations', 'books')
  UNION ALL
  SELECT 2, conrelid::regclass::text, 0, format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
  FROM pg_constraint
  WHERE conrelid::regclass::text IN ('auth_user', 'authtoken_token', 'django_session', 'django_migrations', 'books')
  UNION ALL
  SELECT 3, tablename::text, 0, 'index ' || indexdef
  FROM pg_indexes
  WHERE schemaname = 'public' AND tablename IN ('auth_user', 'authtoken_token', 'django_session', 'django_migrations', 'books')
) s ORDER BY k, t, o, line`

// TestMigrationsAreDjangosOnPostgres: the sample's migrations leave
// exactly the schema that Django 3.2 and DRF 3.14's migrations leave on
// PostgreSQL (testdata/django-postgres-schema.txt is schemaQuery's answer
// on a database migrated by the reference project's `manage.py migrate`):
// the same columns in the same order, types, defaults, constraint and
// index names. The hashedtoken table of the /beyond/ routes and the
// books' cover column (bookshelf 0002_book_cover, /books/{pk}/cover/) are
// the sample's own, recorded after Django's.
func TestMigrationsAreDjangosOnPostgres(t *testing.T) {
	db := newPostgres(t)
	var lines []string
	if err := db.Select(&lines, schemaQuery); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/django-postgres-schema.txt")
	if err != nil {
		t.Fatal(err)
	}
	wantLines := strings.Split(strings.TrimSpace(string(want)), "\n")
	for i := range max(len(lines), len(wantLines)) {
		var got, exp string
		if i < len(lines) {
			got = lines[i]
		}
		if i < len(wantLines) {
			exp = wantLines[i]
		}
		if got != exp {
			t.Errorf("line %d:\n got  %s\n want %s", i+1, got, exp)
		}
	}
	var applied []string
	if err := db.Select(&applied, `SELECT "app" || '.' || "name" FROM "django_migrations" ORDER BY "id"`); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(applied, " "); got != "contenttypes.0001_initial contenttypes.0002_remove_content_type_name auth.0001_initial auth.0002_alter_permission_name_max_length auth.0003_alter_user_email_max_length auth.0004_alter_user_username_opts auth.0005_alter_user_last_login_null auth.0006_require_contenttypes_0002 auth.0007_alter_validators_add_error_messages auth.0008_alter_user_username_max_length auth.0009_alter_user_last_name_max_length auth.0010_alter_group_name_max_length auth.0011_update_proxy_permissions auth.0012_alter_user_first_name_max_length authtoken.0001_initial authtoken.0002_auto_20160226_1747 authtoken.0003_tokenproxy authtoken.0004_alter_tokenproxy_options sessions.0001_initial bookshelf.0001_initial bookshelf.0002_book_cover hashedtoken.0001_initial "+
		"token_blacklist.0001_initial token_blacklist.0002_outstandingtoken_jti_hex token_blacklist.0003_auto_20171017_2007 token_blacklist.0004_auto_20171017_2013 token_blacklist.0005_remove_outstandingtoken_jti token_blacklist.0006_auto_20171017_2113 token_blacklist.0007_auto_20171017_2214 token_blacklist.0008_migrate_to_bigautofield token_blacklist.0010_fix_migrate_to_bigautofield token_blacklist.0011_linearizes_history token_blacklist.0012_alter_outstandingtoken_user token_blacklist.0013_alter_blacklistedtoken_options_and_more "+
		"rest_framework_api_key.0001_initial rest_framework_api_key.0002_auto_20190529_2243 rest_framework_api_key.0003_auto_20190623_1952 rest_framework_api_key.0004_prefix_hashed_key "+
		"bookshelf.go_default_permissions drf.0001_lease drf.0002_idempotency_key" {
		t.Errorf("recorded migrations: %s", got)
	}
}

// TestSeedThenWriteOnPostgres: after the seed's explicit ids, a new book
// gets the next id (the sequence follows), and a second seed starts over.
func TestSeedThenWriteOnPostgres(t *testing.T) {
	db := newPostgres(t)
	c := serve(t, db)
	for range 2 {
		if r := c.Post("/books/", `{"title":"New","author":"Me","rating":4}`, "Authorization: Basic YWxpY2U6YWxpY2UtcGFzcw=="); r.Status != http.StatusCreated {
			t.Fatalf("POST /books/: %d %s", r.Status, r.Body)
		}
		if r := c.Get("/books/11/"); r.Status != http.StatusOK || !strings.Contains(r.Body, `"owner":"alice"`) {
			t.Errorf("GET /books/11/: %d %s", r.Status, r.Body)
		}
		if err := sample.Seed(context.Background(), db, 10); err != nil {
			t.Fatal(err)
		}
	}
	if r := c.Get("/books/99999999999/"); r.Status != http.StatusNotFound {
		t.Errorf("GET of an id beyond integer: %d %s", r.Status, r.Body)
	}
	if r := c.Get("/pages/cursor-orderable/?ordering=title&cursor=cD0lMDAlZmY%3D"); r.Status != http.StatusNotFound || r.Body != `{"detail":"Invalid cursor"}` {
		t.Errorf("a cursor position PostgreSQL cannot compare: %d %s", r.Status, r.Body)
	}
}
