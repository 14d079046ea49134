package management_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/go-drf/drf/framework/management"
	"github.com/go-drf/drf/internal/testservers"
)

func TestMain(m *testing.M) { os.Exit(testservers.Main(m)) }

// inspectdbPython returns a Python with Django 3.2 or later, DRF and
// psycopg2, or skips (fails when CI_REQUIRE_DJANGO is set).
func inspectdbPython(t *testing.T) string {
	t.Helper()
	why := "no python3 with Django ≥ 3.2, DRF and psycopg2 (Debian: python3-django python3-djangorestframework python3-psycopg2; scripts/install-test-deps)"
	for _, p := range []string{os.Getenv("DJANGO_PYTHON"), "/usr/bin/python3", "python3"} {
		if p == "" {
			continue
		}
		out, err := exec.Command(p, "-c", "import django, rest_framework, psycopg2; assert django.VERSION >= (3, 2)").CombinedOutput()
		if err == nil {
			return p
		}
		why += "; " + p + ": " + strings.TrimSpace(string(out))
	}
	if os.Getenv("CI_REQUIRE_DJANGO") != "" {
		t.Fatal("CI_REQUIRE_DJANGO is set but there is " + why)
	}
	t.Skip(why)
	return ""
}

// djangoSide runs testdata/inspectdb/side.py, copied into dir, on the
// database url, and returns its stdout.
func djangoSide(t *testing.T, python, dir, url string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(python, append([]string{filepath.Join(dir, "side.py")}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "INSPECT_DATABASE_URL="+url, "PYTHONDONTWRITEBYTECODE=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("side.py %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

// inspectdb runs "manage inspectdb" with args and returns its output.
func inspectdb(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := &management.Env{Stdout: &stdout, Stderr: &stderr}
	if code := management.Execute(context.Background(), env, args, management.InspectDB()); code != 0 {
		t.Fatalf("inspectdb %v: exit %d\n%s", args, code, stderr.String())
	}
	return stdout.String()
}

// writeRow is the row the Go side writes through the generated model:
// every field of inspected.AllTypes, with values other than the Django
// side's, at the ends of their ranges; span is the DurationField, whose
// column is a bigint of microseconds on SQLite (an int64 field) and an
// interval on PostgreSQL (a time.Duration).
func writeRow(dialect string) string {
	span := `"1 01:01:01.000001"`
	if dialect == "sqlite" {
		span = "90061000001"
	}
	return `{"span": ` + span + `, "day": "2025-12-31", "clock": "23:59:59.999999", "blob": "/wA=",
	"char": "from go", "text": "ünïcode\ttext", "integer": 2147483647, "big": -9007199254740993,
	"small": 32767, "positive": 0, "flag": false, "ratio": 2.5e-8, "price": "-999999.99",
	"moment": "2025-12-31T23:59:59.999999Z", "token": "abcdef01-2345-6789-abcd-ef0123456789",
	"doc": [1, "two", {"three": 3}], "author": 2, "char_null": "c", "text_null": null,
	"integer_null": 7, "big_null": null, "flag_null": false, "ratio_null": null, "price_null": "0.01",
	"moment_null": "2000-01-01T00:00:00Z", "token_null": "00000000-0000-0000-0000-000000000001",
	"doc_null": null, "author_null": 1}`
}

// TestInspectDBOfADjangoDatabase migrates a Django project whose model
// has every field type (testdata/inspectdb) with real Django, on SQLite
// and on PostgreSQL, prints its models with inspectdb, compiles them (go
// vet) with testdata/inspectdb/roundtrip.go.txt beside them, and checks
// that a row Django stored reads, through the generated source and a
// serializer, as DRF's ModelSerializer renders it, and that a row the
// generated model writes reads back in Django as it was written.
func TestInspectDBOfADjangoDatabase(t *testing.T) {
	python := inspectdbPython(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to compile the generated models")
	}
	for _, dialect := range []string{"sqlite", "postgresql"} {
		t.Run(dialect, func(t *testing.T) {
			project := t.TempDir()
			for _, name := range []string{"settings.py", "side.py", "inspected/__init__.py", "inspected/models.py"} {
				copyFile(t, filepath.Join("testdata", "inspectdb", name), filepath.Join(project, name))
			}
			url := "sqlite:///" + filepath.Join(project, "db.sqlite3")
			if dialect == "postgresql" {
				url = testservers.Postgres(t)
			}
			djangoSide(t, python, project, url, "migrate")
			stored := decode(t, djangoSide(t, python, project, url, "create"))

			src := inspectdb(t, "inspectdb", "--database", url, "--package", "main")
			want := []string{
				"type InspectedAlltypes struct {",
				"ID       int32   `db:\"id\" json:\"id\" drf:\"read_only\"`",
				"`db:\"char\" json:\"char\" drf:\"required,unique,max_length=50\"`",
				"`db:\"text\" json:\"text\" drf:\"required\"`",
				"Big      int64   `db:\"big\" json:\"big\" drf:\"required\"`",
				"Small    int16   `db:\"small\" json:\"small\" drf:\"required\"`",
				"Moment time.Time       `db:\"moment\" json:\"moment\" drf:\"required\"`",
				"// References inspected_author.id (a foreign key).\n\tAuthorID int32 `db:\"author_id\" json:\"author\" drf:\"required\"`",
				"AuthorNullID *int32 `db:\"author_null_id\" json:\"author_null\"`",
				"DocNull   json.RawMessage `db:\"doc_null\" json:\"doc_null\" drf:\"allow_null\"`",
				"Day *models.Date `db:\"day\" json:\"day\"`",
				"Clock *models.TimeOfDay `db:\"clock\" json:\"clock\"`",
				"Blob *[]byte `db:\"blob\" json:\"blob\"`",
				"Table:    \"inspected_alltypes\",",
				"Ordering: []query.Order{{Field: \"id\"}},",
				"func DjangoMigrationsSource(db *sqlx.DB) (*queryset.SQLSource[DjangoMigrations], error) {",
			}
			if dialect == "sqlite" {
				want = append(want,
					"Positive uint32  `db:\"positive\" json:\"positive\" drf:\"required\"`",
					"Price  decimal.Decimal `db:\"price\" json:\"price\" drf:\"required\"`",
					"// This field type is a guess: Django keeps a UUIDField on SQLite as char(32).\n\tToken uuid.UUID",
					"Span int64 `db:\"span\" json:\"span\" drf:\"required\"`",
				)
			} else {
				want = append(want,
					"Positive int32   `db:\"positive\" json:\"positive\" drf:\"required\"`",
					"`db:\"price\" json:\"price\" drf:\"required,max_digits=8,decimal_places=2\"`",
					"Token uuid.UUID       `db:\"token\" json:\"token\" drf:\"required\"`",
					"Span time.Duration `db:\"span\" json:\"span\" drf:\"required\"`",
				)
			}
			if missing := lacking(src, want); missing != nil {
				t.Errorf("inspectdb's output lacks %q:\n%s", missing, src)
			}

			pkg := generatedPackage(t, src)
			goCmd(t, nil, "vet", pkg)
			out := goCmd(t, strings.NewReader(writeRow(dialect)), "run", pkg, url, jsonText(t, stored["id"]))
			var got struct {
				Read    json.RawMessage `json:"read"`
				Created int64           `json:"created"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("the round trip printed %q: %v", out, err)
			}

			// Django's row, read through the generated model: the same
			// JSON, but for the microseconds of a duration in SQLite's
			// bigint.
			read := decode(t, got.Read)
			if dialect == "sqlite" {
				if read["span"] != json.Number("93784000005") {
					t.Errorf("sqlite: Django stored span = 1 day, 2:03:04.000005, the Go model reads %s", jsonText(t, read["span"]))
				}
				read["span"] = stored["span"]
			}
			for key, v := range stored {
				if !sameValue(key, read[key], v) {
					t.Errorf("%s: Django stored %s = %s, the Go model reads %s", dialect, key, jsonText(t, v), jsonText(t, read[key]))
				}
			}
			if len(read) != len(stored) {
				t.Errorf("%s: the Go model renders %d fields, want %d: %s", dialect, len(read), len(stored), got.Read)
			}

			// The Go model's row, read by Django.
			back := decode(t, djangoSide(t, python, project, url, "show", strconv.FormatInt(got.Created, 10)))
			written := decode(t, []byte(writeRow(dialect)))
			written["span"] = "1 01:01:01.000001"
			for key, v := range written {
				if !sameValue(key, back[key], v) {
					t.Errorf("%s: the Go model wrote %s = %s, Django reads %s", dialect, key, jsonText(t, v), jsonText(t, back[key]))
				}
			}
		})
	}
}

// TestInspectDBNamesTables prints only the tables named, and says which
// of them do not exist, as Django's inspectdb does.
func TestInspectDBNamesTables(t *testing.T) {
	url := "sqlite:///" + filepath.Join(t.TempDir(), "db.sqlite3")
	db := inspectdb(t, "--database", url, "inspectdb")
	if !strings.Contains(db, "package models\n") || strings.Contains(db, "type ") {
		t.Errorf("an empty database gives:\n%s", db)
	}
	var stdout, stderr bytes.Buffer
	env := &management.Env{Stdout: &stdout, Stderr: &stderr, DatabaseURL: url}
	ctx := context.Background()
	schema := management.Command{Name: "schema", Run: func(ctx context.Context, env *management.Env, _ []string) error {
		db, err := env.DB()
		if err != nil {
			return err
		}
		_, err = db.ExecContext(ctx, `CREATE TABLE "2fa codes" ("code" varchar(6) NOT NULL, "user" integer NULL, "when" date NULL, "x" geometry NULL);`+
			`CREATE TABLE "other" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT);`+
			`CREATE TABLE "pairs" ("a" integer NOT NULL, "b" integer NOT NULL, "c" varchar(3) NULL UNIQUE, "d" integer NULL, `+
			`PRIMARY KEY ("a", "b"), UNIQUE ("a", "d"));`+
			`CREATE TABLE "session" ("session_key" varchar(40) NOT NULL PRIMARY KEY, "expire_date" datetime NOT NULL);`+
			`CREATE TABLE "session_source" ("id" integer NOT NULL PRIMARY KEY, "weight" float4 NULL DEFAULT 1, "odd`+"`"+`name" text NOT NULL)`)
		return err
	}}
	if code := management.Execute(ctx, env, []string{"schema"}, schema); code != 0 {
		t.Fatalf("schema: %s", stderr.String())
	}
	out := inspectdb(t, "--database", url, "inspectdb", "2fa codes", "missing", "pairs", "session", "session_source")
	want := []string{
		"// Unable to inspect table \"missing\": it does not exist.",
		"// Table2faCodes is a row of the table \"2fa codes\".\ntype Table2faCodes struct {",
		"Code string `db:\"code\" json:\"code\" drf:\"required,max_length=6\"`",
		"User *int32 `db:\"user\" json:\"user\"`",
		"When *models.Date `db:\"when\" json:\"when\"`",
		"// This field type is a guess.\n\tX *string `db:\"x\" json:\"x\"`",
		"// The table \"2fa codes\" has no primary key, which queryset.SQLSource needs.",
		"// The table \"pairs\" has a primary key of several columns (a, b); queryset.SQLSource needs one.",
		// A UNIQUE column is unique; a column of a UNIQUE pair is not.
		"C *string `db:\"c\" json:\"c\" drf:\"unique,max_length=3\"`",
		"D *int32 `db:\"d\" json:\"d\"`",
		// A key the database does not number is written, and required.
		"SessionKey string `db:\"session_key\" json:\"session_key\" drf:\"required,max_length=40\"`",
		"Table: \"session\",\n\t\tKey: \"session_key\",\n\t\tColumns: []string{\"session_key\", \"expire_date\"},",
		// The struct of session_source does not take the name of
		// session's source func; a default makes a column optional.
		"type SessionSource2 struct {",
		"Weight *float64 `db:\"weight\" json:\"weight\"`",
		"func SessionSource2Source(db *sqlx.DB) (*queryset.SQLSource[SessionSource2], error) {",
		"OddName string \"db:\\\"odd`name\\\" json:\\\"odd`name\\\" drf:\\\"required\\\"\"",
	}
	if missing := lacking(out, want); missing != nil {
		t.Errorf("inspectdb's output lacks %q:\n%s", missing, out)
	}
	if strings.Contains(out, "Other") {
		t.Errorf("inspectdb printed more than the table named:\n%s", out)
	}
}

// lacking returns the lines of want that src does not hold, each a run of
// its lines compared with their spaces squashed (gofmt aligns the fields).
func lacking(src string, want []string) []string {
	squash := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	src = squash(src)
	var missing []string
	for _, w := range want {
		if !strings.Contains(src, squash(w)) {
			missing = append(missing, w)
		}
	}
	return missing
}

// generatedPackage writes src and testdata/inspectdb/roundtrip.go.txt
// into a new package under testdata/inspectdb (inside the module, so that
// it compiles against this checkout), removed when t ends, and returns
// its path for the go command.
func generatedPackage(t *testing.T, src string) string {
	t.Helper()
	dir, err := os.MkdirTemp(filepath.Join("testdata", "inspectdb"), "gen")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "models.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join("testdata", "inspectdb", "roundtrip.go.txt"), filepath.Join(dir, "main.go"))
	return "./" + filepath.ToSlash(dir)
}

// goCmd runs the go command with args and stdin, and returns its stdout.
func goCmd(t *testing.T, stdin *strings.Reader, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("go", args...)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
	}
	return out
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// decode reads a JSON object, its numbers as json.Number.
func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return m
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameValue compares two decoded JSON values: numbers by value (2.5e-8
// and 2.5e-08), and the decimal fields price and price_null by value too
// ("99.5" and "99.50": SQLite keeps no decimal places for Django).
func sameValue(key string, a, b any) bool {
	if key == "price" || key == "price_null" {
		as, aok := a.(string)
		bs, bok := b.(string)
		if aok && bok {
			af, aerr := strconv.ParseFloat(as, 64)
			bf, berr := strconv.ParseFloat(bs, 64)
			return aerr == nil && berr == nil && af == bf
		}
	}
	return reflect.DeepEqual(normalize(a), normalize(b))
}

// normalize makes a decoded JSON value's numbers comparable: integers as
// int64, others as float64.
func normalize(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalize(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			out[k] = normalize(e)
		}
		return out
	}
	return v
}
