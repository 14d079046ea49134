package migrations_test

import (
	"context"
	"slices"
	"testing"

	"github.com/go-drf/drf/framework/migrations"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// TestPGNameAsPostgreSQL: the names pgName gives the UNIQUE and CHECK of
// a column are the ones a real PostgreSQL gives them, short and long.
func TestPGNameAsPostgreSQL(t *testing.T) {
	db, err := store.Open(testservers.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	for _, c := range [][2]string{
		{"snippets_snippet", "small"},
		{"a_very_long_table_name_for_testing_postgres_truncation_rules_x", "a_rather_long_column_name_too_yes"},
		{"short", "a_column_name_long_enough_to_be_cut_before_the_table_name_is_cut"},
	} {
		table, column := c[0], c[1]
		if _, err := db.ExecContext(ctx, `CREATE TABLE "`+table+`" ("`+column+`" integer UNIQUE CHECK ("`+column+`" >= 0))`); err != nil {
			t.Fatal(err)
		}
		var names []string
		if err := db.SelectContext(ctx, &names, `SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass ORDER BY conname`, `"`+table+`"`); err != nil {
			t.Fatal(err)
		}
		want := []string{migrations.PGName(table, column, "check"), migrations.PGName(table, column, "key")}
		if !slices.Equal(names, want) {
			t.Errorf("%s.%s: PostgreSQL names %q, pgName %q", table, column, names, want)
		}
	}
}
