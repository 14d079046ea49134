package surface

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestUnsafeOnlyInStructs: no Go file of the repository but those of
// internal/structs imports unsafe, tests included. The data path
// addresses a model's fields through structs.Addr (AddrOf, At, Add,
// Index) and structs.Field's methods, which keep the pointer arithmetic
// in one package.
func TestUnsafeOnlyInStructs(t *testing.T) {
	const root = "../.."
	allowed := filepath.Join(root, "internal", "structs")
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == allowed || path != root && strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, imp := range f.Imports {
			if name, _ := strconv.Unquote(imp.Path.Value); name == "unsafe" {
				t.Errorf("%s imports unsafe: address a model's values through structs.Addr (internal/structs)", strings.TrimPrefix(path, root+"/"))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d Go files under %s: not the repository", files, root)
	}
}
