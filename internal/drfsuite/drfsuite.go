// Package drfsuite runs a test file of DRF's own suite ported onto the
// framework's public API: each test method is ported (and passes, or is
// a listed difference with its reason), or is listed as not portable
// with its reason. A listed difference that passes fails the run, so the
// lists stay true, and so are they held to what real DRF 3.14 and 3.18
// answer to the file's own tests (drf_suite.py).
package drfsuite

import (
	"database/sql"
	"database/sql/driver"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/XSAM/otelsql"
	"github.com/jmoiron/sqlx"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/go-drf/drf/framework"
	"github.com/go-drf/drf/framework/store"
)

// Item is one ported test method, named "Class.method" as DRF names it.
// Run returns how the framework's answers differ from DRF's assertions
// at level, none when the item passes; it calls t.Fatal only on a setup
// error of its own.
type Item struct {
	Name string
	Run  func(t *testing.T, level framework.Compatibility) []string
}

// Suite is one DRF test file.
type Suite struct {
	// File is DRF's file, "tests/test_generics.py".
	File string
	// Methods are every test method of File, "Class.method".
	Methods []string
	// Items are the ported methods.
	Items []Item
	// Differ are the ported methods the framework answers otherwise, with
	// the reason docs/drf-differences.md gives; a key "drf314:Class.method"
	// holds at the DRF 3.14 level alone.
	Differ map[string]string
	// NotPortable are the methods that cannot be written against the
	// public API, with the reason.
	NotPortable map[string]string
	// Only318 are the ported methods of a feature DRF 3.14 lacks, run at
	// the DRF 3.18 level alone, with the reason.
	Only318 map[string]string
	// Own314 are the ported methods that assert DRF 3.14's own answer at
	// that level, where DRF 3.14 fails DRF 3.18's assertions.
	Own314 []string
}

// DRF's own answers: which methods of each file real DRF passes at each
// level, as the scripts that ran them printed them (drf_suite.py into
// drf_suite_drf31x.json, and given "permissions" into
// drf_suite_permissions_drf31x.json, given "pagination" into
// drf_suite_pagination_drf31x.json).
//
//go:embed *_drf314.json *_drf318.json
var records embed.FS

// reference is what a drf_suite*.py script printed at one level.
type reference struct {
	Versions map[string]string            `json:"versions"`
	Results  map[string]map[string]string `json:"results"`
}

// results are real DRF's outcomes of s's methods at level, by method,
// from the records of the script that ran s.File.
func (s Suite) results(t *testing.T, level framework.Compatibility) map[string]string {
	t.Helper()
	suffix := map[framework.Compatibility]string{framework.DRF314: "_drf314.json", framework.DRF318: "_drf318.json"}[level]
	names, err := fs.Glob(records, "*"+suffix)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		b, err := records.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var ref reference
		if err := json.Unmarshal(b, &ref); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r, ok := ref.Results[s.File]
		if !ok {
			continue
		}
		if want := map[framework.Compatibility]string{framework.DRF314: "3.14.", framework.DRF318: "3.18."}[level]; !strings.HasPrefix(ref.Versions["drf"], want) {
			t.Fatalf("%s was made on DRF %s, not %sx", name, ref.Versions["drf"], want)
		}
		return r
	}
	t.Fatalf("no record of DRF's answers (%s) holds %s", "*"+suffix, s.File)
	return nil
}

// levels are the compatibility levels the items run at.
var levels = []struct {
	name  string
	level framework.Compatibility
}{{"drf314", framework.DRF314}, {"drf318", framework.DRF318}}

// Run checks that every method is accounted for, then runs the items at
// both compatibility levels.
func (s Suite) Run(t *testing.T) {
	t.Helper()
	known := map[string]bool{}
	for _, m := range s.Methods {
		known[m] = true
	}
	ported := map[string]bool{}
	for _, it := range s.Items {
		if !known[it.Name] || ported[it.Name] {
			t.Errorf("%s: item %s is not a method of the file, or is ported twice", s.File, it.Name)
		}
		ported[it.Name] = true
	}
	for _, m := range s.Methods {
		if _, np := s.NotPortable[m]; ported[m] == np {
			t.Errorf("%s: %s is ported %v and listed as not portable %v", s.File, m, ported[m], np)
		}
	}
	for name := range s.Differ {
		if !ported[strings.TrimPrefix(name, "drf314:")] {
			t.Errorf("%s: %s is listed as a difference but not ported", s.File, name)
		}
	}
	for name := range s.Only318 {
		if !ported[name] {
			t.Errorf("%s: %s is listed as DRF 3.18's alone but not ported", s.File, name)
		}
	}
	s.checkReference(t)
	for _, l := range levels {
		t.Run(l.name, func(t *testing.T) {
			passed, listed := 0, 0
			for _, it := range s.Items {
				if _, only := s.Only318[it.Name]; only && l.level == framework.DRF314 {
					continue
				}
				t.Run(it.Name, func(t *testing.T) {
					got := it.Run(t, l.level)
					why, differs := s.Differ[it.Name]
					if !differs && l.level == framework.DRF314 {
						why, differs = s.Differ["drf314:"+it.Name]
					}
					switch {
					case differs && len(got) == 0:
						t.Errorf("passes, but is listed as a difference (%s)", why)
					case differs:
						listed++
					case len(got) == 0:
						passed++
					default:
						t.Error(strings.Join(got, "\n"))
					}
				})
			}
			t.Logf("%s at %s: %d of %d methods ported; %d pass, %d are listed differences, %d not portable, %d DRF 3.18's alone",
				s.File, l.name, len(s.Items), len(s.Methods), passed, listed, len(s.NotPortable), len(s.Only318))
		})
	}
}

// checkReference holds the lists to real DRF's outcomes: DRF 3.18 passes
// every method of the file, and of those DRF 3.14 fails, each is not
// portable, DRF 3.18's alone, or asserts DRF 3.14's own answer there;
// none of the latter two does DRF 3.14 pass.
func (s Suite) checkReference(t *testing.T) {
	t.Helper()
	r318, r314 := s.results(t, framework.DRF318), s.results(t, framework.DRF314)
	if len(r318) != len(s.Methods) || len(r314) != len(s.Methods) {
		t.Errorf("%s: %d methods; DRF has %d (%d at 3.14)", s.File, len(s.Methods), len(r318), len(r314))
	}
	own := map[string]bool{}
	for _, m := range s.Own314 {
		own[m] = true
	}
	for _, m := range s.Methods {
		if r318[m] != "pass" {
			t.Errorf("%s: DRF 3.18 does not pass %s: %q", s.File, m, r318[m])
		}
		_, np := s.NotPortable[m]
		_, only := s.Only318[m]
		switch fails := r314[m] != "pass"; {
		case fails && !np && !only && !own[m]:
			t.Errorf("%s: DRF 3.14 fails %s (%s): list it as not portable, DRF 3.18's alone, or asserting DRF 3.14's answer", s.File, m, r314[m])
		case !fails && (only || own[m]):
			t.Errorf("%s: DRF 3.14 passes %s, listed as DRF 3.18's alone or asserting DRF 3.14's answer", s.File, m)
		}
	}
}

// Checks collects the failed assertions of an item, which its Run
// returns.
type Checks []string

// Equal records a failure when got is not want (reflect.DeepEqual).
func (c *Checks) Equal(what string, got, want any) {
	if !reflect.DeepEqual(got, want) {
		*c = append(*c, fmt.Sprintf("%s = %#v, DRF %#v", what, got, want))
	}
}

// JSON records a failure when body is not the JSON value want, compared
// as decoded values.
func (c *Checks) JSON(what, body, want string) {
	var g, w any
	if err := json.Unmarshal([]byte(body), &g); err != nil {
		*c = append(*c, fmt.Sprintf("%s = %q, not JSON; DRF %s", what, body, want))
		return
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		panic(err)
	}
	if !reflect.DeepEqual(g, w) {
		*c = append(*c, fmt.Sprintf("%s = %s, DRF %s", what, body, want))
	}
}

// Contains records a failure when body lacks part.
func (c *Checks) Contains(what, body, part string) {
	if !strings.Contains(body, part) {
		*c = append(*c, fmt.Sprintf("%s lacks %q", what, part))
	}
}

// Open opens a new SQLite database in t's temporary directory and
// returns it with a count of the statements it ran since the count was
// last taken (Django's assertNumQueries; BEGIN and COMMIT are not
// statements).
func Open(t *testing.T) (*sqlx.DB, func() int) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	db, err := store.OpenWith(filepath.Join(t.TempDir(), "db.sqlite3"), store.Options{OpenDB: func(c driver.Connector) *sql.DB {
		return otelsql.OpenDB(c, otelsql.WithTracerProvider(tp))
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	seen := 0
	return db, func() int {
		n := 0
		for _, s := range rec.Ended() {
			switch s.Name() {
			case "sql.conn.query", "sql.conn.exec", "sql.stmt.query", "sql.stmt.exec":
				n++
			}
		}
		n, seen = n-seen, n
		return n
	}
}
