package management

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"go/format"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-drf/drf/framework/store"
)

// InspectDB returns the "inspectdb" command, Django's inspectdb: it reads
// the tables of the database (store.Inspect), all of them or those named,
// and prints a Go file of models on stdout, gofmt'ed and ready to compile:
// a struct per table with its columns' `db`, `json` and `drf` tags, and a
// func that opens a queryset.SQLSource on it. --package names the file's
// package ("models" unless given); --database is the global option's.
// Dates, times of day, intervals and binary columns are models.Date,
// models.TimeOfDay, time.Duration and []byte (Django's DateField,
// TimeField, DurationField and BinaryField; Django's DurationField on
// SQLite is a bigint of microseconds, which stays an int64); a type it
// does not know becomes a string marked, as Django marks it, as a guess.
func InspectDB() Command {
	return Command{
		Name:  "inspectdb",
		Usage: "[--database URL] [--package NAME] [TABLE...]",
		Help: "Prints Go models for the tables of an existing database: all of them, or those named.\n\n" +
			"  --database URL  the database to read (else the global --database, $DATABASE_URL, db.sqlite3)\n" +
			"  --package NAME  the package of the printed file (default models)",
		Run: func(ctx context.Context, env *Env, args []string) error {
			fs := flag.NewFlagSet("inspectdb", flag.ContinueOnError)
			database := fs.String("database", "", "")
			pkg := fs.String("package", "models", "")
			if err := ParseFlags(fs, args); err != nil {
				return err
			}
			if !token.IsIdentifier(*pkg) {
				return &UsageError{Msg: fmt.Sprintf("--package %q is not a Go package name", *pkg)}
			}
			if *database != "" {
				env.DatabaseURL = *database
			}
			db, err := env.DB()
			if err != nil {
				return &CommandError{Msg: err.Error()}
			}
			tables, err := store.Inspect(ctx, db, fs.Args()...)
			if err != nil {
				return &CommandError{Msg: err.Error()}
			}
			var missing []string
			for _, name := range fs.Args() {
				if !slices.ContainsFunc(tables, func(t store.Table) bool { return t.Name == name }) {
					missing = append(missing, name)
				}
			}
			src, err := GoModels(*pkg, tables, missing)
			if err != nil {
				return err
			}
			_, err = env.Stdout.Write(src)
			return err
		},
	}
}

// GoModels is inspectdb's output for tables: a gofmt'ed Go file of package
// pkg with a model struct and a source func per table, and a comment for
// each name in missing, a table that could not be inspected.
func GoModels(pkg string, tables []store.Table, missing []string) ([]byte, error) {
	g := &generator{imports: map[string]bool{}, names: map[string]bool{}}
	var body bytes.Buffer
	for _, name := range missing {
		fmt.Fprintf(&body, "// Unable to inspect table %q: it does not exist.\n\n", name)
	}
	for _, t := range tables {
		g.table(&body, t)
	}
	var out bytes.Buffer
	out.WriteString("// Package " + pkg + " holds the models that \"manage inspectdb\" read from a\n" +
		"// database. Review them before use, as Django's inspectdb asks: the names,\n" +
		"// the validation in the drf tags, the foreign keys (declared here as their\n" +
		"// _id columns) and the fields marked as guesses.\n")
	out.WriteString("package " + pkg + "\n\n")
	if len(g.imports) > 0 {
		paths := make([]string, 0, len(g.imports))
		for p := range g.imports {
			paths = append(paths, p)
		}
		// The standard library first, then the others, as goimports
		// groups them.
		slices.SortFunc(paths, func(a, b string) int {
			if isStd(a) != isStd(b) {
				if isStd(a) {
					return -1
				}
				return 1
			}
			return strings.Compare(a, b)
		})
		out.WriteString("import (\n")
		for i, p := range paths {
			if i > 0 && isStd(paths[i-1]) != isStd(p) {
				out.WriteString("\n")
			}
			out.WriteString(strconv.Quote(p) + "\n")
		}
		out.WriteString(")\n\n")
	}
	out.Write(body.Bytes())
	src, err := format.Source(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("inspectdb: the generated code does not parse: %w", err)
	}
	return src, nil
}

// isStd reports whether an import path is the standard library's: its
// first element has no dot.
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// generator writes the models of one file.
type generator struct {
	imports map[string]bool // import paths used
	names   map[string]bool // the package-level names given
}

// The imports of the types inspectdb writes.
const (
	importSQLX     = "github.com/jmoiron/sqlx"
	importQueryset = "github.com/go-drf/drf/framework/queryset"
	importQuery    = "github.com/go-drf/drf/framework/query"
	importModels   = "github.com/go-drf/drf/framework/models"
)

// table writes t's struct and source func.
func (g *generator) table(w *bytes.Buffer, t store.Table) {
	// The struct and its source func share the package's names.
	name := goName(t.Name, "Table")
	for i := 2; g.names[name] || g.names[name+"Source"]; i++ {
		name = goName(t.Name, "Table") + strconv.Itoa(i)
	}
	g.names[name], g.names[name+"Source"] = true, true
	key := ""
	if len(t.PrimaryKey) == 1 {
		key = t.PrimaryKey[0]
	}
	fmt.Fprintf(w, "// %s is a row of the table %q.\ntype %s struct {\n", name, t.Name, name)
	fields := map[string]bool{}
	var writable []string
	for _, c := range t.Columns {
		f := g.field(c, c.Name == key)
		fname := unique(goName(c.Name, "Field"), fields)
		fields[fname] = true
		for _, note := range f.notes {
			fmt.Fprintf(w, "// %s\n", note)
		}
		tags := fmt.Sprintf("db:%q json:%q", c.Name, jsonName(c))
		if len(f.drf) > 0 {
			tags += fmt.Sprintf(" drf:%q", strings.Join(f.drf, ","))
		}
		if strings.Contains(tags, "`") {
			// A name with a backquote: the tag cannot be a raw string.
			fmt.Fprintf(w, "%s %s %s\n", fname, f.typ, strconv.Quote(tags))
		} else {
			fmt.Fprintf(w, "%s %s `%s`\n", fname, f.typ, tags)
		}
		if c.Name != key || !c.Default {
			writable = append(writable, c.Name)
		}
	}
	w.WriteString("}\n\n")
	switch {
	case len(t.PrimaryKey) == 0:
		fmt.Fprintf(w, "// The table %q has no primary key, which queryset.SQLSource needs.\n\n", t.Name)
		return
	case len(t.PrimaryKey) > 1:
		fmt.Fprintf(w, "// The table %q has a primary key of several columns (%s); queryset.SQLSource needs one.\n\n",
			t.Name, strings.Join(t.PrimaryKey, ", "))
		return
	}
	g.imports[importSQLX], g.imports[importQueryset], g.imports[importQuery] = true, true, true
	quoted := make([]string, len(writable))
	for i, c := range writable {
		quoted[i] = strconv.Quote(c)
	}
	fmt.Fprintf(w, "// %sSource opens the queryset.SQLSource of %q, ordered by its primary key.\n", name, t.Name)
	fmt.Fprintf(w, "func %sSource(db *sqlx.DB) (*queryset.SQLSource[%s], error) {\n", name, name)
	fmt.Fprintf(w, "return queryset.NewSQL[%s](db, queryset.SQLConfig{\nTable: %q,\n", name, t.Name)
	if key != "id" {
		fmt.Fprintf(w, "Key: %q,\n", key)
	}
	fmt.Fprintf(w, "Columns: []string{%s},\nOrdering: []query.Order{{Field: %q}},\n})\n}\n\n", strings.Join(quoted, ", "), key)
}

// field is how one column is declared.
type field struct {
	typ   string   // its Go type
	drf   []string // its drf tag's options
	notes []string // comment lines above it
}

// field maps a column to its Go field; pk says that it is the primary key.
func (g *generator) field(c store.Column, pk bool) field {
	var f field
	typ, nullable := "", true
	switch c.Type {
	case "integer", "int", "int4", "mediumint":
		typ = "int32"
	case "bigint", "int8":
		typ = "int64"
	case "smallint", "int2", "tinyint":
		typ = "int16"
	case "integer unsigned", "int unsigned":
		typ = "uint32"
	case "bigint unsigned":
		typ = "uint64"
	case "smallint unsigned":
		typ = "uint16"
	case "real", "double", "double precision", "float", "float4", "float8":
		typ = "float64"
	case "bool", "boolean":
		typ = "bool"
	case "decimal", "numeric":
		typ = g.use("github.com/shopspring/decimal", "decimal.Decimal")
		if c.Precision > 0 {
			f.drf = append(f.drf, fmt.Sprintf("max_digits=%d,decimal_places=%d", c.Precision, c.Scale))
		} else {
			f.notes = append(f.notes, "The column keeps no precision (Django's decimal on SQLite): add the model's",
				`drf:"max_digits=N,decimal_places=N" to check and format it as DRF does.`)
		}
	case "datetime", "timestamp", "timestamp with time zone", "timestamptz":
		typ = g.use("time", "time.Time")
	case "timestamp without time zone":
		typ = g.use("time", "time.Time")
		f.notes = append(f.notes, "A timestamp without time zone: it reads as UTC, so write UTC times.")
	case "uuid":
		typ = g.use("github.com/google/uuid", "uuid.UUID")
	case "json", "jsonb":
		typ, nullable = g.use("encoding/json", "json.RawMessage"), false
	case "text", "clob", "varchar", "character varying", "nvarchar", "varchar2", "char", "character", "nchar":
		switch {
		case c.JSON:
			typ, nullable = g.use("encoding/json", "json.RawMessage"), false
		case c.Type == "char" && c.MaxLength == 32:
			// Django's UUIDField on SQLite is a char(32) of hex digits.
			typ = g.use("github.com/google/uuid", "uuid.UUID")
			f.notes = append(f.notes, "This field type is a guess: Django keeps a UUIDField on SQLite as char(32).")
		default:
			typ = "string"
			if c.MaxLength > 0 {
				f.drf = append(f.drf, "max_length="+strconv.Itoa(c.MaxLength))
			}
		}
	case "date":
		typ = g.use(importModels, "models.Date")
	case "time", "time without time zone":
		typ = g.use(importModels, "models.TimeOfDay")
	case "time with time zone":
		typ = g.use(importModels, "models.TimeOfDay")
		f.notes = append(f.notes, "A time with time zone: the zone is dropped when read and not written.")
	case "interval":
		typ = g.use("time", "time.Duration")
	case "blob", "bytea":
		typ = "[]byte"
	default:
		typ = "string"
		f.notes = append(f.notes, "This field type is a guess.")
	}
	if c.References != nil {
		f.notes = append(f.notes, fmt.Sprintf("References %s.%s (a foreign key).", oneLine(c.References.Table), oneLine(c.References.Column)))
	}
	if c.Unique {
		f.drf = append([]string{"unique"}, f.drf...)
	}
	switch {
	case pk && c.Default:
		f.drf = append([]string{"read_only"}, f.drf...)
	case c.Nullable && nullable:
		typ = "*" + typ
	case c.Nullable:
		f.drf = append([]string{"allow_null"}, f.drf...)
	case !c.Default:
		f.drf = append([]string{"required"}, f.drf...)
	}
	f.typ = typ
	return f
}

// oneLine is s with its line breaks made spaces, for a // comment.
func oneLine(s string) string {
	return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
}

// use records the import of path and returns typ.
func (g *generator) use(path, typ string) string {
	g.imports[path] = true
	return typ
}

// jsonName is the name of c's field in JSON: a foreign key's without its
// "_id", as DRF's ModelSerializer names the relation.
func jsonName(c store.Column) string {
	if c.References != nil {
		if name, ok := strings.CutSuffix(c.Name, "_id"); ok && name != "" {
			return name
		}
	}
	return c.Name
}

// initialisms are the words Go spells in capitals.
var initialisms = map[string]bool{"id": true, "url": true, "uuid": true, "json": true, "api": true,
	"http": true, "ip": true, "sql": true, "html": true, "uri": true, "utc": true}

// goName CamelCases a table's or column's name as an exported Go name
// ("books_book" → "BooksBook", "owner_id" → "OwnerID"), prefixed by
// prefix when it does not start with a letter.
func goName(s, prefix string) string {
	var b strings.Builder
	for _, word := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if initialisms[strings.ToLower(word)] {
			b.WriteString(strings.ToUpper(word))
			continue
		}
		r := []rune(word)
		b.WriteString(string(unicode.ToUpper(r[0])) + string(r[1:]))
	}
	name := b.String()
	if name == "" || !unicode.IsLetter([]rune(name)[0]) || !unicode.IsUpper([]rune(name)[0]) {
		name = prefix + name
	}
	return name
}

// unique returns name, or name with the first number that makes it one
// that taken does not hold.
func unique(name string, taken map[string]bool) string {
	if !taken[name] {
		return name
	}
	for i := 2; ; i++ {
		if n := name + strconv.Itoa(i); !taken[n] {
			return n
		}
	}
}
