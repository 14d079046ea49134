package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/sample"
)

// TestInspectDBOfTheSample migrates a new database, inspects its books
// table, and finds sample.Book's columns in the printed struct: the same
// columns with the same kinds of Go type, names, max_length and read-only
// key, and the same writable columns in its source.
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
	var columns []string
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSpec:
			st, ok := n.Type.(*ast.StructType)
			if !ok || n.Name.Name != "Books" {
				return true
			}
			for _, f := range st.Fields.List {
				tag, _ := strconv.Unquote(f.Tag.Value)
				st := reflect.StructTag(tag)
				fields[st.Get("db")] = st
				kinds[st.Get("db")] = kindOfExpr(f.Type)
			}
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok && id.Name == "Columns" {
				for _, e := range n.Value.(*ast.CompositeLit).Elts {
					c, _ := strconv.Unquote(e.(*ast.BasicLit).Value)
					columns = append(columns, c)
				}
			}
		}
		return true
	})

	book := reflect.TypeFor[sample.Book]()
	var want, writable []string
	for i := range book.NumField() {
		f := book.Field(i)
		col := f.Tag.Get("db")
		if col == "" {
			continue // the owner's username, which the source joins in
		}
		want = append(want, col)
		if col != "id" {
			writable = append(writable, col)
		}
		got, ok := fields[col]
		if !ok {
			t.Errorf("the printed Books has no column %q:\n%s", col, src)
			continue
		}
		if k := kindOfType(f.Type); kinds[col] != k {
			t.Errorf("column %q: printed as a %s, sample.Book holds a %s", col, kinds[col], k)
		}
		if j := f.Tag.Get("json"); j != "-" && got.Get("json") != j {
			t.Errorf("column %q: JSON name %q, sample.Book's %q", col, got.Get("json"), j)
		}
		if g, w := option(got.Get("drf"), "max_length"), option(f.Tag.Get("drf"), "max_length"); g != w {
			t.Errorf("column %q: max_length %q, sample.Book's %q", col, g, w)
		}
	}
	if len(fields) != len(want) {
		t.Errorf("the printed Books has %d columns, want %v:\n%s", len(fields), want, src)
	}
	if drf := fields["id"].Get("drf"); drf != "read_only" {
		t.Errorf("the key's drf tag is %q, want read_only", drf)
	}
	if got := fields["owner_id"].Get("json"); got != "owner" {
		t.Errorf("the foreign key's JSON name is %q, want DRF's owner", got)
	}
	if !strings.Contains(src, "// References auth_user.id (a foreign key).") {
		t.Errorf("the foreign key has no comment naming auth_user.id:\n%s", src)
	}
	if !slices.Equal(columns, writable) {
		t.Errorf("the source writes %v, sample.Book's writes %v", columns, writable)
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

// kindOfType is kindOfExpr for a field of sample.Book.
func kindOfType(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[time.Time]():
		return "time.Time"
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		return "integer"
	}
	return t.String()
}

// option returns the value of name=value in a drf tag, "" when absent.
func option(tag, name string) string {
	for _, opt := range strings.Split(tag, ",") {
		if v, ok := strings.CutPrefix(opt, name+"="); ok {
			return v
		}
	}
	return ""
}
