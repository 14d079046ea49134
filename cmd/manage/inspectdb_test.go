package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/files"
	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/sample"
)

// TestInspectDBOfTheSample migrates a new database, inspects its books
// table, and finds sample.Book's declaration in the printed model: the
// same columns with the same kinds of Go type, JSON names and nullability,
// the same model options that a schema holds (max_length, unique,
// primary_key, blank, the foreign key's target; not db_index, which
// Django's inspectdb does not read either, nor on_delete, which it always
// prints as do_nothing), and a Meta naming the table, unmanaged, ordered
// by id.
func TestInspectDBOfTheSample(t *testing.T) {
	dir := t.TempDir()
	if _, stderr, code := run(t, dir, "migrate"); code != 0 {
		t.Fatalf("migrate: exit %d\n%s", code, stderr)
	}
	src, stderr, code := run(t, dir, "inspectdb", "books")
	if code != 0 {
		t.Fatalf("inspectdb books: exit %d\n%s", code, stderr)
	}
	file, err := parser.ParseFile(token.NewFileSet(), "models.go", src, 0)
	if err != nil {
		t.Fatalf("inspectdb's output does not parse: %v\n%s", err, src)
	}
	fields := map[string]reflect.StructTag{} // by column
	kinds := map[string]string{}
	ast.Inspect(file, func(n ast.Node) bool {
		if n, ok := n.(*ast.TypeSpec); ok && n.Name.Name == "Books" {
			for _, f := range n.Type.(*ast.StructType).Fields.List {
				tag, _ := strconv.Unquote(f.Tag.Value)
				st := reflect.StructTag(tag)
				fields[st.Get("db")] = st
				kinds[st.Get("db")] = kindOfExpr(f.Type)
			}
		}
		return true
	})

	book, err := models.Of[sample.Book]()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range book.Fields {
		col := f.Column
		got, ok := fields[col]
		if !ok {
			t.Errorf("the printed Books has no column %q:\n%s", col, src)
			continue
		}
		if k := kindOfType(f.Struct.Type); kinds[col] != k {
			t.Errorf("column %q: printed as a %s, sample.Book holds a %s", col, kinds[col], k)
		}
		if j := f.Struct.Tag.Get("json"); j != "-" && got.Get("json") != j {
			t.Errorf("column %q: JSON name %q, sample.Book's %q", col, got.Get("json"), j)
		}
		opts := options(got.Get("model"))
		want := map[string]string{}
		if f.MaxLength > 0 {
			want["max_length"] = strconv.Itoa(f.MaxLength)
		}
		if f.Unique && !f.PrimaryKey {
			want["unique"] = ""
		}
		if f.PrimaryKey && col != "id" {
			want["primary_key"] = ""
		}
		if f.Blank {
			want["blank"] = ""
		}
		if f.Related != nil {
			want["foreign_key"] = f.Related.Table + "." + f.Related.Column
			want["on_delete"] = "do_nothing"
		}
		if !reflect.DeepEqual(opts, want) {
			t.Errorf("column %q: printed model:%q, sample.Book declares %v", col, got.Get("model"), want)
		}
	}
	if len(fields) != len(book.Fields) {
		t.Errorf("the printed Books has %d columns, sample.Book %v:\n%s", len(fields), book.Columns(), src)
	}
	if got := fields["owner_id"].Get("json"); got != "owner" {
		t.Errorf("the foreign key's JSON name is %q, want DRF's owner", got)
	}
	meta := `return models.Meta{Table: "books", Unmanaged: true, Ordering: []string{"id"}}`
	if !strings.Contains(src, "func (Books) Meta() models.Meta {\n\t"+meta+"\n}") {
		t.Errorf("the printed Books has no Meta method returning %s:\n%s", meta, src)
	}
	if strings.Contains(src, "drf:") {
		t.Errorf("the printed Books has drf tags, which its declaration implies:\n%s", src)
	}
}

// kindOfExpr is the kind of value a printed field's type holds.
func kindOfExpr(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		if strings.Contains(e.Name, "int") {
			return "integer"
		}
		return e.Name
	case *ast.SelectorExpr:
		return e.X.(*ast.Ident).Name + "." + e.Sel.Name
	case *ast.StarExpr:
		return "nullable " + kindOfExpr(e.X)
	}
	return "?"
}

// kindOfType is kindOfExpr for a field of sample.Book. A files.File (the
// cover) is the string its column holds: inspectdb, as Django's, reads a
// FileField's varchar as a CharField.
func kindOfType(t reflect.Type) string {
	switch {
	case t.Kind() == reflect.Pointer:
		return "nullable " + kindOfType(t.Elem())
	case t == reflect.TypeFor[files.File]():
		return "string"
	case t.PkgPath() == "time" && t.Name() == "Time":
		return "time.Time"
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		return "integer"
	}
	return t.String()
}

// options reads a model tag into its options, "" the value of one
// without (unique, blank).
func options(tag string) map[string]string {
	opts := map[string]string{}
	for opt := range strings.SplitSeq(tag, ",") {
		if opt != "" {
			key, value, _ := strings.Cut(opt, "=")
			opts[key] = value
		}
	}
	return opts
}
