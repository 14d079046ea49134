package store

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
)

// Table is one table of a database's catalog, as Inspect reads it: what
// Django's introspection reads for inspectdb.
type Table struct {
	// Name is the table's name.
	Name string
	// Columns are its columns, in the table's order.
	Columns []Column
	// PrimaryKey names the primary key's columns, in the key's order;
	// empty when the table has none.
	PrimaryKey []string
}

// Column is one column of a Table.
type Column struct {
	// Name is the column's name.
	Name string
	// Type is the column's type without its parameters, in lower case, as
	// the dialect names it: "varchar", "integer unsigned", "datetime",
	// "decimal" on SQLite (the declared type); "character varying",
	// "integer", "timestamp with time zone", "numeric", "uuid", "jsonb" on
	// PostgreSQL (information_schema's data_type, the type's own name for
	// an array or a user-defined type).
	Type string
	// Nullable is true when the column accepts NULL.
	Nullable bool
	// Default is true when the database fills the column on an insert
	// that leaves it out: a DEFAULT, a serial or identity column, or
	// SQLite's INTEGER PRIMARY KEY.
	Default bool
	// MaxLength is the n of varchar(n) or char(n); 0 when unbounded.
	MaxLength int
	// Precision and Scale are the p and s of numeric(p, s); 0 when the
	// type has none (SQLite keeps none for Django's decimal).
	Precision, Scale int
	// Unique is true when a UNIQUE constraint or unique index covers this
	// column alone (the primary key aside): Django's unique=True.
	Unique bool
	// JSON is true for an SQLite text column that a CHECK constrains to
	// JSON_VALID, as Django's JSONField creates it.
	JSON bool
	// References is the table and column a foreign key on this column
	// refers to; nil when there is none.
	References *Reference
}

// Reference is the target of a foreign key.
type Reference struct {
	// Table and Column name the referenced column.
	Table, Column string
}

// Inspect reads the catalog of db (SQLite, or PostgreSQL's current
// schema): the tables named, in that order, else every table by name
// (views and SQLite's own tables left out). A named table that does not
// exist is left out of the result; the caller compares names to report it.
func Inspect(ctx context.Context, db *sqlx.DB, tables ...string) ([]Table, error) {
	pg := DialectOf(db) == PostgreSQL
	if len(tables) == 0 {
		q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`
		if pg {
			q = `SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace ` +
				`WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema() ORDER BY c.relname`
		}
		if err := db.SelectContext(ctx, &tables, q); err != nil {
			return nil, fmt.Errorf("store: list the tables: %w", err)
		}
	}
	var out []Table
	for _, name := range tables {
		var (
			t   *Table
			err error
		)
		if pg {
			t, err = inspectPostgres(ctx, db, name)
		} else {
			t, err = inspectSQLite(ctx, db, name)
		}
		if err != nil {
			return nil, fmt.Errorf("store: inspect table %q: %w", name, err)
		}
		if t != nil {
			out = append(out, *t)
		}
	}
	return out, nil
}

// sqliteColumn is a row of SQLite's table_info pragma.
type sqliteColumn struct {
	Name    string         `db:"name"`
	Type    string         `db:"type"`
	NotNull bool           `db:"notnull"`
	Default sql.NullString `db:"dflt_value"`
	PK      int            `db:"pk"`
}

// sqliteForeignKey is a row of SQLite's foreign_key_list pragma.
type sqliteForeignKey struct {
	Table string         `db:"table"`
	From  string         `db:"from"`
	To    sql.NullString `db:"to"`
}

// typeParams splits a declared type "varchar(200)" or "decimal(10, 2)"
// into its name and its numeric parameters.
var typeParams = regexp.MustCompile(`^\s*([^(]*?)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?\s*$`)

// jsonCheck finds the columns an SQLite CHECK constrains to JSON_VALID.
var jsonCheck = regexp.MustCompile(`(?i)JSON_VALID\(\s*"([^"]+)"\s*\)`)

func inspectSQLite(ctx context.Context, db *sqlx.DB, name string) (*Table, error) {
	var schema string
	err := db.GetContext(ctx, &schema, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, name)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var cols []sqliteColumn
	if err := db.SelectContext(ctx, &cols, `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid`, name); err != nil {
		return nil, err
	}
	var fks []sqliteForeignKey
	if err := db.SelectContext(ctx, &fks, `SELECT "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq`, name); err != nil {
		return nil, err
	}
	// The columns a unique index of one column covers (Django's
	// unique=True is a UNIQUE column, so an automatic index).
	var unique []string
	err = db.SelectContext(ctx, &unique, `SELECT min(ii.name) FROM pragma_index_list(?) AS il, pragma_index_info(il.name) AS ii `+
		`WHERE il."unique" = 1 AND il.origin <> 'pk' AND il.partial = 0 GROUP BY il.name HAVING count(*) = 1`, name)
	if err != nil {
		return nil, err
	}
	json := map[string]bool{}
	for _, m := range jsonCheck.FindAllStringSubmatch(schema, -1) {
		json[m[1]] = true
	}
	t := &Table{Name: name}
	pks := map[int]string{}
	for _, c := range cols {
		col := Column{Name: c.Name, Nullable: !c.NotNull && c.PK == 0, Default: c.Default.Valid, JSON: json[c.Name],
			Unique: c.PK == 0 && slices.Contains(unique, c.Name)}
		typ, first, second := splitType(c.Type)
		col.Type = typ
		if strings.Contains(typ, "char") {
			col.MaxLength = first
		} else {
			col.Precision, col.Scale = first, second
		}
		if c.PK > 0 {
			pks[c.PK] = c.Name
		}
		t.Columns = append(t.Columns, col)
	}
	for i := 1; i <= len(pks); i++ {
		t.PrimaryKey = append(t.PrimaryKey, pks[i])
	}
	if len(t.PrimaryKey) == 1 {
		// An INTEGER PRIMARY KEY is the rowid: SQLite numbers it.
		for i := range t.Columns {
			if c := &t.Columns[i]; c.Name == t.PrimaryKey[0] && c.Type == "integer" {
				c.Default = true
			}
		}
	}
	for _, fk := range fks {
		to := fk.To.String
		if !fk.To.Valid || to == "" {
			// A foreign key without columns refers to the primary key.
			var pk []string
			if err := db.SelectContext(ctx, &pk, `SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk`, fk.Table); err != nil {
				return nil, err
			}
			if len(pk) != 1 {
				continue
			}
			to = pk[0]
		}
		for i := range t.Columns {
			if t.Columns[i].Name == fk.From {
				t.Columns[i].References = &Reference{Table: fk.Table, Column: to}
			}
		}
	}
	return t, nil
}

// splitType returns a declared type's name in lower case and its two
// numeric parameters (0 when absent).
func splitType(decl string) (name string, first, second int) {
	m := typeParams.FindStringSubmatch(decl)
	if m == nil {
		return strings.ToLower(strings.TrimSpace(decl)), 0, 0
	}
	first, _ = strconv.Atoi(m[2])
	second, _ = strconv.Atoi(m[3])
	return strings.ToLower(m[1]), first, second
}

// postgresColumn is a row of information_schema.columns.
type postgresColumn struct {
	Name      string         `db:"column_name"`
	Type      string         `db:"data_type"`
	UDT       string         `db:"udt_name"`
	Nullable  string         `db:"is_nullable"`
	Default   sql.NullString `db:"column_default"`
	Identity  string         `db:"is_identity"`
	MaxLength sql.NullInt64  `db:"character_maximum_length"`
	Precision sql.NullInt64  `db:"numeric_precision"`
	Scale     sql.NullInt64  `db:"numeric_scale"`
}

// postgresKey is one column of a primary key ("p"), foreign key ("f") or
// UNIQUE constraint ("u") of Columns columns.
type postgresKey struct {
	Kind      string         `db:"contype"`
	Columns   int            `db:"columns"`
	Column    string         `db:"attname"`
	RefTable  sql.NullString `db:"reftable"`
	RefColumn sql.NullString `db:"refcolumn"`
}

func inspectPostgres(ctx context.Context, db *sqlx.DB, name string) (*Table, error) {
	var cols []postgresColumn
	err := db.SelectContext(ctx, &cols, `SELECT column_name, data_type, udt_name, is_nullable, column_default, is_identity, `+
		`character_maximum_length, numeric_precision, numeric_scale FROM information_schema.columns `+
		`WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`, name)
	if err != nil {
		return nil, err
	}
	if len(cols) == 0 {
		return nil, nil
	}
	var keys []postgresKey
	err = db.SelectContext(ctx, &keys, `SELECT con.contype, cardinality(con.conkey) AS columns, a.attname, ft.relname AS reftable, fa.attname AS refcolumn `+
		`FROM pg_catalog.pg_constraint con `+
		`JOIN pg_catalog.pg_class t ON t.oid = con.conrelid `+
		`JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace `+
		`CROSS JOIN LATERAL unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord) `+
		`JOIN pg_catalog.pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum `+
		`LEFT JOIN pg_catalog.pg_class ft ON ft.oid = con.confrelid `+
		`LEFT JOIN pg_catalog.pg_attribute fa ON fa.attrelid = con.confrelid AND fa.attnum = con.confkey[k.ord] `+
		`WHERE n.nspname = current_schema() AND t.relname = $1 AND con.contype IN ('p', 'f', 'u') `+
		`ORDER BY con.contype = 'p' DESC, con.conname, k.ord`, name)
	if err != nil {
		return nil, err
	}
	t := &Table{Name: name}
	for _, c := range cols {
		col := Column{Name: c.Name, Type: c.Type, Nullable: c.Nullable == "YES", Default: c.Default.Valid || c.Identity == "YES"}
		if c.Type == "ARRAY" || c.Type == "USER-DEFINED" {
			col.Type = c.UDT
		}
		col.MaxLength = int(c.MaxLength.Int64)
		if c.Type == "numeric" {
			col.Precision, col.Scale = int(c.Precision.Int64), int(c.Scale.Int64)
		}
		t.Columns = append(t.Columns, col)
	}
	for _, k := range keys {
		if k.Kind == "p" {
			t.PrimaryKey = append(t.PrimaryKey, k.Column)
			continue
		}
		for i := range t.Columns {
			c := &t.Columns[i]
			switch {
			case c.Name != k.Column:
			case k.Kind == "u":
				c.Unique = c.Unique || k.Columns == 1 && !slices.Contains(t.PrimaryKey, c.Name)
			case c.References == nil:
				c.References = &Reference{Table: k.RefTable.String, Column: k.RefColumn.String}
			}
		}
	}
	return t, nil
}
