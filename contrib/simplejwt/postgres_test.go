package simplejwt_test

import (
	"os"
	"strings"
	"testing"

	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// schemaQuery describes the columns, constraints and indexes of the
// blacklist's tables, one line each, from PostgreSQL's catalogs.
const schemaQuery = `SELECT line FROM (
  SELECT 1 AS k, table_name::text AS t, ordinal_position::int AS o,
    format('column %s.%s %s%s %s default %s', table_name, column_name, data_type,
      coalesce('(' || character_maximum_length || ')', ''),
      CASE WHEN is_nullable = 'YES' THEN 'NULL' ELSE 'NOT NULL' END, coalesce(column_default, '-')) AS line
  FROM information_schema.columns
  WHERE table_schema = 'public' AND table_name IN ('token_blacklist_outstandingtoken', 'token_blacklist_blacklistedtoken')
  UNION ALL
  SELECT 2, conrelid::regclass::text, 0, format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
  FROM pg_constraint
  WHERE conrelid::regclass::text IN ('token_blacklist_outstandingtoken', 'token_blacklist_blacklistedtoken')
  UNION ALL
  SELECT 3, tablename::text, 0, 'index ' || indexdef
  FROM pg_indexes
  WHERE schemaname = 'public' AND tablename IN ('token_blacklist_outstandingtoken', 'token_blacklist_blacklistedtoken')
) s ORDER BY k, t, o, line`

// TestMigrationsAreDjangosOnPostgres: Migrations leave exactly the tables
// simplejwt 5.2's migrations leave on PostgreSQL
// (testdata/django-postgres-schema.txt is schemaQuery's answer on a
// database the reference project's `manage.py migrate` migrated): the
// columns in their order, types, defaults, constraint and index names.
func TestMigrationsAreDjangosOnPostgres(t *testing.T) {
	f := newFixture(t, testservers.Postgres(t), theReferences)
	var lines []string
	if err := f.db.Select(&lines, schemaQuery); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/django-postgres-schema.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(lines, "\n"); got != strings.TrimSpace(string(want)) {
		t.Errorf("schema:\n%s\nwant:\n%s", got, want)
	}
	var seq []string
	if err := f.db.Select(&seq, `SELECT sequencename || ' ' || data_type FROM pg_sequences WHERE sequencename LIKE 'token_blacklist%' ORDER BY 1`); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(seq, ", "); got != "token_blacklist_blacklistedtoken_id_seq bigint, token_blacklist_outstandingtoken_id_seq bigint" {
		t.Errorf("sequences: %s", got)
	}
	var names []string
	if err := f.db.Select(&names, `SELECT "name" FROM "django_migrations" WHERE "app" = 'token_blacklist' ORDER BY "id"`); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names, " "); got != djangoMigrations+" "+migration0013 {
		t.Errorf("recorded migrations: %s", got)
	}
}

// TestPairLifeOnPostgres: the life of a pair on PostgreSQL.
func TestPairLifeOnPostgres(t *testing.T) { testPairLife(t, testservers.Postgres(t)) }
