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
// and prints a Go file of model declarations on stdout, gofmt'ed and ready
// to compile: a struct per table whose `model` tags hold what Django's
// inspectdb writes as field options, its foreign keys as relations, and a
// Meta method naming the table, unmanaged. --package names the file's
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
// pkg with a model declaration per table (a struct and its Meta method),
// and a comment for each name in missing, a table that could not be
// inspected. A model needs no source func: queryset.NewSQL[T](db,
// queryset.SQLConfig{}) derives its SQL from the declaration.
func GoModels(pkg string, tables []store.Table, missing []string) ([]byte, error) {
	g := &generator{imports: map[string]bool{importModels: true}, names: map[string]bool{}, tables: tables}
	var body bytes.Buffer
	for _, name := range missing {
		fmt.Fprintf(&body, "// Unable to inspect table %q: it does not exist.\n\n", name)
	}
	for _, t := range tables {
		g.table(&body, t)
	}
	var out bytes.Buffer
	out.WriteString("// Package " + pkg + " holds the models that \"manage inspectdb\" read from a\n" +
		"// database. Review them before use, as Django's inspectdb asks: make sure\n" +
		"// each model has one primary key, that each foreign key's on_delete is\n" +
		"// what deleting through a source should do (do_nothing here), check the\n" +
		"// fields marked as guesses, and remove Unmanaged to let migrations\n" +
		"// create, change and delete the tables. Rename the types and fields\n" +
		"// freely, but not the tables and columns.\n")
	out.WriteString("package " + pkg + "\n\n")
	if len(tables) == 0 {
		delete(g.imports, importModels)
	}
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
	tables  []store.Table   // the tables printed, for the types of the keys they reference
}

// importModels is the import of the models package, which every model's
// Meta method uses.
const importModels = "github.com/go-drf/drf/framework/models"

// table writes t's model: its struct and Meta method.
func (g *generator) table(w *bytes.Buffer, t store.Table) {
	name := unique(goName(t.Name, "Table"), g.names)
	g.names[name] = true
	key := ""
	if len(t.PrimaryKey) == 1 {
		key = t.PrimaryKey[0]
	}
	fmt.Fprintf(w, "// %s is a row of the table %q.\n", name, t.Name)
	hasID := slices.ContainsFunc(t.Columns, func(c store.Column) bool { return c.Name == "id" })
	switch {
	case len(t.PrimaryKey) > 1:
		fmt.Fprintf(w, "//\n// The table has a primary key of several columns (%s), which a model\n"+
			"// cannot declare: tag a column that identifies a row model:\"primary_key\"", oneLine(strings.Join(t.PrimaryKey, ", ")))
	case len(t.PrimaryKey) == 0:
		fmt.Fprintf(w, "//\n// The table has no primary key, which a model needs: tag a column that\n"+
			"// identifies a row model:\"primary_key\"")
	}
	switch {
	case key != "":
	case hasID:
		w.WriteString("\n// (else the column id is taken for it).\n")
	default:
		w.WriteString(".\n")
	}
	fmt.Fprintf(w, "type %s struct {\n", name)
	fields := map[string]bool{"Meta": true} // the method's name
	for _, c := range t.Columns {
		f := g.field(c, c.Name == key)
		fname := unique(goName(c.Name, "Field"), fields)
		fields[fname] = true
		for _, note := range f.notes {
			fmt.Fprintf(w, "// %s\n", note)
		}
		tags := fmt.Sprintf("db:%q json:%q", c.Name, jsonName(c))
		if len(f.model) > 0 {
			tags += fmt.Sprintf(" model:%q", strings.Join(f.model, ","))
		}
		if strings.Contains(tags, "`") {
			// A name with a backquote: the tag cannot be a raw string.
			fmt.Fprintf(w, "%s %s %s\n", fname, f.typ, strconv.Quote(tags))
		} else {
			fmt.Fprintf(w, "%s %s `%s`\n", fname, f.typ, tags)
		}
	}
	w.WriteString("}\n\n")
	w.WriteString("// Meta names the table, which migrations leave alone (Django's inspectdb\n" +
		"// writes managed = False)")
	meta := fmt.Sprintf("Table: %q, Unmanaged: true", t.Name)
	if key != "" {
		w.WriteString(", and orders the rows by the primary key, which\n// keeps the pages of a list stable.\n")
		meta += fmt.Sprintf(", Ordering: []string{%q}", key)
	} else {
		w.WriteString(".\n")
	}
	fmt.Fprintf(w, "func (%s) Meta() models.Meta {\nreturn models.Meta{%s}\n}\n\n", name, meta)
}

// field is how one column is declared.
type field struct {
	typ   string   // its Go type
	model []string // its model tag's options
	notes []string // comment lines above it
}

// field maps a column to its Go field; pk says that it is the primary key.
func (g *generator) field(c store.Column, pk bool) field {
	// A relation holds the referenced key, so it has that key's type
	// when the referenced table is among those printed; it takes no
	// option of the column's type (max_length, max_digits).
	target := c
	if ref := c.References; ref != nil {
		if rc, ok := g.column(ref.Table, ref.Column); ok {
			target = rc
		}
	}
	var f field
	typ, nullable := g.goType(target, &f)
	if ref := c.References; ref != nil {
		rel := "foreign_key="
		if c.Unique || pk {
			// A unique relation is Django's OneToOneField.
			rel = "one_to_one="
		}
		f.model = []string{rel + ref.Table + "." + ref.Column, "on_delete=do_nothing"}
	}
	if pk && c.Name != "id" {
		f.model = append([]string{"primary_key"}, f.model...)
	}
	if c.Unique && c.References == nil {
		f.model = append([]string{"unique"}, f.model...)
	}
	integer := strings.HasPrefix(typ, "int") || strings.HasPrefix(typ, "uint")
	switch {
	case pk && integer && c.References == nil && !c.Default:
		f.notes = append(f.notes, "The database does not number this key, but a model takes an integer",
			"primary key for an AutoField, which it does not write.")
	case c.Default && !(pk && integer):
		f.notes = append(f.notes, "The database has a default for this column, which the model does not",
			"know: add default=VALUE to the tag to apply it.")
	}
	if c.Nullable {
		if nullable {
			typ = "*" + typ
		} else {
			f.model = append(f.model, "null")
		}
		// Django's inspectdb makes a nullable column blank=True too.
		f.model = append(f.model, "blank")
	}
	f.typ = typ
	return f
}

// column finds the column of a table printed.
func (g *generator) column(table, column string) (store.Column, bool) {
	for _, t := range g.tables {
		if t.Name != table {
			continue
		}
		for _, c := range t.Columns {
			if c.Name == column {
				c.Nullable, c.Unique, c.References = false, false, nil
				return c, true
			}
		}
	}
	return store.Column{}, false
}

// goType is the Go type of a column's values, and whether a pointer to it
// is the column's nullable form (json.RawMessage holds NULL itself). The
// options its Django field needs (max_length, max_digits, field=KIND) and
// the notes on it go into f.
func (g *generator) goType(c store.Column, f *field) (typ string, nullable bool) {
	switch c.Type {
	case "integer", "int", "int4", "mediumint":
		return "int32", true
	case "bigint", "int8":
		return "int64", true
	case "smallint", "int2", "tinyint":
		return "int16", true
	case "integer unsigned", "int unsigned":
		return "uint32", true
	case "bigint unsigned":
		return "uint64", true
	case "smallint unsigned":
		return "uint16", true
	case "real", "double", "double precision", "float", "float4", "float8":
		return "float64", true
	case "bool", "boolean":
		return "bool", true
	case "decimal", "numeric":
		if c.Precision > 0 {
			f.model = append(f.model, fmt.Sprintf("max_digits=%d,decimal_places=%d", c.Precision, c.Scale))
		} else {
			// Django's inspectdb guesses the same.
			f.model = append(f.model, "max_digits=10,decimal_places=5")
			f.notes = append(f.notes, "max_digits and decimal_places have been guessed, as this database",
				"handles decimal fields as float.")
		}
		return g.use("github.com/shopspring/decimal", "decimal.Decimal"), true
	case "datetime", "timestamp", "timestamp with time zone", "timestamptz":
		return g.use("time", "time.Time"), true
	case "timestamp without time zone":
		f.notes = append(f.notes, "A timestamp without time zone: it reads as UTC, so write UTC times.")
		return g.use("time", "time.Time"), true
	case "uuid":
		return g.use("github.com/google/uuid", "uuid.UUID"), true
	case "json", "jsonb":
		return g.use("encoding/json", "json.RawMessage"), false
	case "inet":
		f.model = append(f.model, "field=GenericIPAddressField")
		return "string", true
	case "text", "clob", "varchar", "character varying", "nvarchar", "varchar2", "char", "character", "nchar":
		switch {
		case c.JSON:
			return g.use("encoding/json", "json.RawMessage"), false
		case c.Type == "char" && c.MaxLength == 32:
			// Django's UUIDField on SQLite is a char(32) of hex digits.
			f.notes = append(f.notes, "This field type is a guess: Django keeps a UUIDField on SQLite as char(32).")
			return g.use("github.com/google/uuid", "uuid.UUID"), true
		case c.MaxLength > 0:
			f.model = append(f.model, "max_length="+strconv.Itoa(c.MaxLength))
		case c.Type != "text" && c.Type != "clob":
			f.notes = append(f.notes, "A "+c.Type+" without a length: a TextField, since a CharField needs max_length.")
		}
		return "string", true
	case "date":
		return g.use(importModels, "models.Date"), true
	case "time", "time without time zone":
		return g.use(importModels, "models.TimeOfDay"), true
	case "time with time zone":
		f.notes = append(f.notes, "A time with time zone: the zone is dropped when read and not written.")
		return g.use(importModels, "models.TimeOfDay"), true
	case "interval":
		return g.use("time", "time.Duration"), true
	case "blob", "bytea":
		return "[]byte", true
	}
	f.notes = append(f.notes, "This field type is a guess.")
	return "string", true
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
