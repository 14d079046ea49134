package framework_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLayers: the packages of framework read top to bottom, no import
// running back up (docs/design.md, "The layers"). Below the core are the
// per-request contracts (request: the Request with its user, parsers,
// negotiated renderer and versioning scheme; accesslog; reverse's route
// names) and the vocabulary the core and the policies share (exceptions,
// compat, query, store, files): they import only each other. The core
// imports only them, no data package (queryset, serializers, the throttle
// caches) and no policy's built-ins, so that a request crosses few
// packages and the core stays small. Nothing under framework imports
// contrib.
func TestLayers(t *testing.T) {
	const module = "github.com/go-drf/drf/"
	below := map[string]bool{}
	for _, p := range []string{"request", "accesslog", "reverse", "exceptions", "compat", "query", "store", "files"} {
		below[module+"framework/"+p] = true
	}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "testdata") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		core, lower := dir == ".", below[module+"framework/"+dir]
		for _, imp := range f.Imports {
			name, _ := strconv.Unquote(imp.Path.Value)
			switch {
			case strings.HasPrefix(name, module+"contrib/"):
				t.Errorf("%s imports %s: framework never imports contrib", path, name)
			case !strings.HasPrefix(name, module+"framework") || below[name]:
			case core:
				t.Errorf("%s imports %s: the core imports only the packages below it, no data package or built-in policy", path, name)
			case lower:
				t.Errorf("%s imports %s: the packages below the core import only each other", path, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
