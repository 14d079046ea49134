package conformance

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/contrib/apikey"
	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/management"
	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/testservers"
)

// ecoStep is one step of the /eco/api-key/ and /eco/perms/ script: a
// request (the row; {apikey:NAME} in a header is the key that name was
// created with on the same side), or, when manage is set, a management
// command run on both sides' databases (the reference's manage.py, the Go
// commands), compared by exit status and output.
type ecoStep struct {
	row
	manage []string
}

// ecoScript exercises HasAPIKey and DjangoModelPermissions: keys made by
// each side's create_api_key, revoked by revoke_api_key or expired;
// permissions granted and revoked by each side's commands between the
// requests.
var ecoScript = []ecoStep{
	{manage: []string{"create_api_key", "main"}},
	{manage: []string{"create_api_key", "revoked"}},
	{manage: []string{"create_api_key", "expired"}},
	{manage: []string{"revoke_api_key", "{apikey:revoked}"}},
	{manage: []string{"expire_api_key", "expired"}},
	{manage: []string{"revoke_api_key", "nosuchkey"}},
	{row: row{name: "no key", path: "/eco/api-key/books/"}},
	{row: row{name: "key", path: "/eco/api-key/books/", header: []string{"Authorization: Api-Key {apikey:main}"}}},
	{row: row{name: "key, last page", path: "/eco/api-key/books/?page=10", header: []string{"Authorization: Api-Key {apikey:main}"}}},
	{row: row{name: "key, page out of range", path: "/eco/api-key/books/?page=11", header: []string{"Authorization: Api-Key {apikey:main}"}}},
	{row: row{name: "key, HEAD", method: "HEAD", path: "/eco/api-key/books/", header: []string{"Authorization: Api-Key {apikey:main}"}}},
	{row: row{name: "key, OPTIONS", method: "OPTIONS", path: "/eco/api-key/books/", header: []string{"Authorization: Api-Key {apikey:main}"}}},
	{row: row{name: "key, POST", method: "POST", path: "/eco/api-key/books/", header: []string{"Authorization: Api-Key {apikey:main}"}, body: `{"title":"T"}`}},
	{row: row{name: "no key, POST", method: "POST", path: "/eco/api-key/books/", body: `{"title":"T"}`}},
	{row: row{name: "revoked key", path: "/eco/api-key/books/", header: []string{"Authorization: Api-Key {apikey:revoked}"}}},
	{row: row{name: "expired key", path: "/eco/api-key/books/", header: []string{"Authorization: Api-Key {apikey:expired}"}}},
	{row: row{name: "unknown key", path: "/eco/api-key/books/", header: []string{"Authorization: Api-Key abcdefgh.abcdefghabcdefghabcdefghabcdefgh"}}},
	{row: row{name: "prefix only", path: "/eco/api-key/books/", header: []string{"Authorization: Api-Key {apikey:main:prefix}"}}},
	{row: row{name: "secret changed", path: "/eco/api-key/books/", header: []string{"Authorization: Api-Key {apikey:main}x"}}},
	{row: row{name: "lower-case scheme", path: "/eco/api-key/books/", header: []string{"Authorization: api-key {apikey:main}"}}},
	{row: row{name: "scheme twice", path: "/eco/api-key/books/", header: []string{"Authorization: Api-Key {apikey:main} Api-Key x"}}},
	{row: row{name: "text before the scheme", path: "/eco/api-key/books/", header: []string{"Authorization: XApi-Key {apikey:main}"}}},
	{row: row{name: "empty key", path: "/eco/api-key/books/", header: []string{"Authorization: Api-Key "}}},
	{row: row{name: "Basic user, no key", path: "/eco/api-key/books/", header: []string{"Authorization: Basic {basic:alice}"}}},
	{row: row{name: "session user, no key", path: "/eco/api-key/books/", jar: "alice"}},
	{row: row{name: "session user and key", path: "/eco/api-key/books/", jar: "alice", header: []string{"Authorization: Api-Key {apikey:main}"}}},
	{row: row{name: "token user, no key", path: "/eco/api-key/books/", header: []string{"Authorization: Token {token:alice}"}}},
	{row: row{name: "bad Basic credentials", path: "/eco/api-key/books/", header: []string{"Authorization: Basic Ym9iOmJvYi1wYXNz"}}},

	{row: row{name: "anonymous list", path: "/eco/perms/books/"}},
	{row: row{name: "anonymous create", method: "POST", path: "/eco/perms/books/", body: `{"title":"A","author":"B","rating":3}`}},
	{row: row{name: "anonymous detail", path: "/eco/perms/books/1/"}},
	{row: row{name: "anonymous OPTIONS", method: "OPTIONS", path: "/eco/perms/books/"}},
	{row: row{name: "list", path: "/eco/perms/books/?page=2", header: []string{"Authorization: Basic {basic:alice}"}}},
	{row: row{name: "detail", path: "/eco/perms/books/3/", header: []string{"Authorization: Basic {basic:alice}"}}},
	{row: row{name: "missing detail", path: "/eco/perms/books/99999/", header: []string{"Authorization: Basic {basic:alice}"}}},
	{row: row{name: "create without add_book", method: "POST", path: "/eco/perms/books/", header: []string{"Authorization: Basic {basic:alice}"}, body: `{"title":"A","author":"B","rating":3}`}},
	{row: row{name: "create, session without add_book", method: "POST", path: "/eco/perms/books/", jar: "alice", header: []string{"X-CSRFToken: {csrf}"}, body: `{"title":"A","author":"B","rating":3}`}},
	{row: row{name: "OPTIONS without add_book", method: "OPTIONS", path: "/eco/perms/books/", header: []string{"Authorization: Basic {basic:alice}"}}},
	{row: row{name: "OPTIONS detail without change_book", method: "OPTIONS", path: "/eco/perms/books/1/", header: []string{"Authorization: Basic {basic:alice}"}}},
	{row: row{name: "superuser creates", method: "POST", path: "/eco/perms/books/", header: []string{"Authorization: Basic {basic:admin}"}, body: `{"title":"Admin's","author":"B","rating":3}`}},
	{row: row{name: "superuser OPTIONS", method: "OPTIONS", path: "/eco/perms/books/", header: []string{"Authorization: Basic {basic:admin}"}}},
	{row: row{name: "update without change_book", method: "PUT", path: "/eco/perms/books/101/", header: []string{"Authorization: Basic {basic:alice}"}, body: `{"title":"A","author":"B","rating":3}`}},
	{row: row{name: "delete of a missing book without delete_book", method: "DELETE", path: "/eco/perms/books/99999/", header: []string{"Authorization: Basic {basic:alice}"}}},
	{row: row{name: "an unlisted method", method: "TRACE", path: "/eco/perms/books/", header: []string{"Authorization: Basic {basic:alice}"}}},
	{row: row{name: "an extension method", method: "PURGE", path: "/eco/perms/books/1/", header: []string{"Authorization: Basic {basic:alice}"}}},
	{row: row{name: "an extension method, anonymous", method: "PURGE", path: "/eco/perms/books/1/"}},
	{row: row{name: "inactive user", path: "/eco/perms/books/", header: []string{"Authorization: Basic {basic:bob}"}}},

	{manage: []string{"grant_permission", "alice", "bookshelf.add_book"}},
	{manage: []string{"grant_permission", "alice", "bookshelf.add_book"}},
	{row: row{name: "create with add_book", method: "POST", path: "/eco/perms/books/", header: []string{"Authorization: Basic {basic:alice}"}, body: `{"title":"Mine","author":"Me","rating":4}`}},
	{row: row{name: "create with add_book, invalid", method: "POST", path: "/eco/perms/books/", header: []string{"Authorization: Basic {basic:alice}"}, body: `{"title":"","rating":9}`}},
	{row: row{name: "create with add_book, form", method: "POST", path: "/eco/perms/books/", header: []string{"Authorization: Token {token:alice}"}, body: "title=Form&author=F&rating=1"}},
	{row: row{name: "OPTIONS with add_book", method: "OPTIONS", path: "/eco/perms/books/", header: []string{"Authorization: Basic {basic:alice}"}}},
	{row: row{name: "patch without change_book", method: "PATCH", path: "/eco/perms/books/102/", header: []string{"Authorization: Basic {basic:alice}"}, body: `{"rating":5}`}},
	{manage: []string{"grant_permission", "alice", "bookshelf.change_book"}},
	{row: row{name: "patch with change_book", method: "PATCH", path: "/eco/perms/books/102/", header: []string{"Authorization: Basic {basic:alice}"}, body: `{"rating":5}`}},
	{row: row{name: "put with change_book", method: "PUT", path: "/eco/perms/books/101/", header: []string{"Authorization: Basic {basic:alice}"}, body: `{"title":"Renamed","author":"B","rating":2}`}},
	{row: row{name: "put with change_book, invalid", method: "PUT", path: "/eco/perms/books/101/", header: []string{"Authorization: Basic {basic:alice}"}, body: `{"title":"Renamed"}`}},
	{row: row{name: "patch of a missing book", method: "PATCH", path: "/eco/perms/books/99999/", header: []string{"Authorization: Basic {basic:alice}"}, body: `{"rating":5}`}},
	{row: row{name: "delete without delete_book", method: "DELETE", path: "/eco/perms/books/102/", header: []string{"Authorization: Basic {basic:alice}"}}},
	{manage: []string{"grant_permission", "alice", "bookshelf.delete_book"}},
	{row: row{name: "delete with delete_book", method: "DELETE", path: "/eco/perms/books/102/", header: []string{"Authorization: Basic {basic:alice}"}}},
	{row: row{name: "delete again", method: "DELETE", path: "/eco/perms/books/102/", header: []string{"Authorization: Basic {basic:alice}"}}},
	{manage: []string{"revoke_permission", "alice", "bookshelf.add_book"}},
	{manage: []string{"revoke_permission", "alice", "bookshelf.add_book"}},
	{row: row{name: "create after the revoke", method: "POST", path: "/eco/perms/books/", header: []string{"Authorization: Basic {basic:alice}"}, body: `{"title":"A","author":"B","rating":3}`}},
	{row: row{name: "list after the changes", path: "/eco/perms/books/?page=11", header: []string{"Authorization: Basic {basic:alice}"}}},
	{manage: []string{"grant_permission", "nobody", "bookshelf.add_book"}},
	{manage: []string{"grant_permission", "alice", "bookshelf.fly_book"}},
	{manage: []string{"grant_permission", "alice", "add_book"}},
	{manage: []string{"revoke_permission", "alice", "nosuch.add_book"}},
}

// apiKeyPlaceholder is {apikey:NAME} or {apikey:NAME:prefix}.
var apiKeyPlaceholder = regexp.MustCompile(`\{apikey:(\w+)(:prefix)?\}`)

// fullKey is a key create_api_key prints.
var fullKey = regexp.MustCompile(`^[A-Za-z0-9]{8}\.[A-Za-z0-9]{32}$`)

// ecoSide is one side of the script: a server, and how to run a command
// on its database.
type ecoSide struct {
	*side
	manage func(t *testing.T, args ...string) (code int, output string)
	keys   map[string]string
	expire func(t *testing.T, prefix string)
}

// runEcoScript runs the script on one side and returns its views.
func runEcoScript(t *testing.T, s *ecoSide) []view {
	t.Helper()
	fillKeys := func(v string) string {
		return apiKeyPlaceholder.ReplaceAllStringFunc(v, func(m string) string {
			p := apiKeyPlaceholder.FindStringSubmatch(m)
			key := s.keys[p[1]]
			if p[2] != "" {
				key, _, _ = strings.Cut(key, ".")
			}
			return key
		})
	}
	var views []view
	for _, st := range ecoScript {
		if st.manage == nil {
			r := st.row
			r.header = nil
			for _, h := range st.header {
				r.header = append(r.header, fillKeys(h))
			}
			a, err := s.send(r)
			if err != nil {
				t.Fatalf("%s: %s: %v", s.name, st.name, err)
			}
			views = append(views, s.view(a))
			continue
		}
		args := make([]string, len(st.manage))
		for i, a := range st.manage {
			args[i] = fillKeys(a)
		}
		if args[0] == "expire_api_key" {
			key, _, _ := strings.Cut(s.keys[args[1]], ".")
			s.expire(t, key)
			views = append(views, view{})
			continue
		}
		code, out := s.manage(t, args...)
		if args[0] == "create_api_key" && code == 0 {
			s.keys[args[1]] = strings.TrimSpace(out)
			if !fullKey.MatchString(s.keys[args[1]]) {
				t.Fatalf("%s: create_api_key printed %q", s.name, out)
			}
			out = "(a key)"
		}
		for name, key := range s.keys {
			out = strings.ReplaceAll(out, key[:8], "{"+name+" prefix}")
		}
		views = append(views, view{status: code, body: out})
	}
	return views
}

// expireKey sets the key's expiry date a day back on db.
func expireKey(t *testing.T, dsn, prefix string) {
	db, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(db.Rebind(`UPDATE "rest_framework_api_key_apikey" SET "expiry_date" = ? WHERE "prefix" = ?`),
		store.FormatTime(time.Now().Add(-24*time.Hour)), prefix); err != nil {
		t.Fatal(err)
	}
}

// permissionRows lists the content types and permissions of the
// database dsn, ids included.
func permissionRows(t *testing.T, dsn string) []string {
	db, err := store.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var rows []string
	if err := db.Select(&rows, `SELECT CAST(p."id" AS text) || ' ' || CAST(ct."id" AS text) || ' ' || ct."app_label" || '.' || `+
		`ct."model" || ' ' || p."codename" || ' ' || p."name" FROM "auth_permission" p `+
		`JOIN "django_content_type" ct ON ct."id" = p."content_type_id" ORDER BY p."id"`); err != nil {
		t.Fatal(err)
	}
	return rows
}

// withoutNames keeps the id, the content type and the codename of each
// of permissionRows.
func withoutNames(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		f := strings.SplitN(r, " ", 5)
		out[i] = strings.Join(f[:min(4, len(f))], " ")
	}
	return out
}

// referenceManage runs the DRF 3.14 reference's manage.py
// (referenceManageAt).
func referenceManage(t *testing.T, dsn string, args ...string) (int, string) {
	return referenceManageAt(t, drf314, dsn, args...)
}

// referenceManageAt runs the manage.py of the oracle o's reference on
// the database dsn (an SQLite file, or a PostgreSQL URL through a
// settings module pointing there), with the level's packages (drf318/
// first on the path at DRF 3.18, as start puts them), and returns its
// exit status and what it printed.
func referenceManageAt(t *testing.T, o oracle, dsn string, args ...string) (int, string) {
	t.Helper()
	dir := o.dir(t)
	cmd := exec.Command("/usr/bin/python3", append([]string{"manage.py"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	var path []string
	if o.drf == "3.18" && os.Getenv(o.env) == "" {
		path = append(path, filepath.Join(dir, "drf318"))
	}
	if strings.HasPrefix(dsn, "postgres://") {
		if err := exec.Command("/usr/bin/python3", "-c", "import psycopg2").Run(); err != nil {
			why := "the reference's manage.py cannot reach PostgreSQL without python3-psycopg2 (scripts/install-test-deps)"
			if os.Getenv("CI_REQUIRE_REFERENCE") == "1" {
				t.Fatal(why)
			}
			t.Skip(why)
		}
		settings := t.TempDir()
		host, port, name := pgParts(t, dsn)
		py := fmt.Sprintf("from config.settings import *  # the reference's, but for the database\n"+
			"DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql', 'NAME': %q, 'USER': 'postgres', 'HOST': %q, 'PORT': %q}}\n",
			name, host, port)
		if err := os.WriteFile(filepath.Join(settings, "eco_pg_settings.py"), []byte(py), 0o644); err != nil {
			t.Fatal(err)
		}
		path = append(path, settings)
		cmd.Env = append(cmd.Env, "DJANGO_SETTINGS_MODULE=eco_pg_settings")
	} else {
		cmd.Env = append(cmd.Env, "REFERENCE_DB="+dsn)
	}
	if len(path) > 0 {
		cmd.Env = append(cmd.Env, "PYTHONPATH="+strings.Join(path, ":"))
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), strings.TrimSpace(out.String())
	}
	if err != nil {
		t.Fatalf("manage.py %v: %v", args, err)
	}
	return 0, strings.TrimSpace(out.String())
}

// pgParts splits a testservers PostgreSQL URL.
func pgParts(t *testing.T, dsn string) (host, port, name string) {
	rest := strings.TrimPrefix(dsn, "postgres://postgres@")
	hostPort, pathQuery, _ := strings.Cut(rest, "/")
	name, _, _ = strings.Cut(pathQuery, "?")
	host, port, _ = strings.Cut(hostPort, ":")
	return host, port, name
}

// goCommands are the sample's commands of the script.
var goCommands = []management.Command{
	apikey.CreateCommand(nil), apikey.RevokeCommand(), auth.GrantPermissionCommand(), auth.RevokePermissionCommand(),
}

// goManage runs one of goCommands on the database dsn.
func goManage(dsn string, args ...string) (int, string) {
	var out bytes.Buffer
	env := &management.Env{Stdout: &out, Stderr: &out, DatabaseURL: dsn}
	code := management.Execute(context.Background(), env, args, goCommands...)
	return code, strings.TrimSpace(out.String())
}

// TestEcoAPIKeyAndPerms sends the script to each DRF reference
// (djangorestframework-api-key 3.1.0 at DRF 3.18, 2.0.0 at DRF 3.14, and
// DRF's DjangoModelPermissions) and to the Go sample at the matching
// level, on SQLite and on PostgreSQL, each side's keys and permissions
// made by its own commands, and compares each answer's status, headers
// and body, and each command's exit status and output.
func TestEcoAPIKeyAndPerms(t *testing.T) { forEachOracle(t, ecoAPIKeyAndPerms) }

func ecoAPIKeyAndPerms(t *testing.T, o oracle) {
	ref := startOracle(t, o)
	want := runEcoScript(t, &ecoSide{side: newSide("reference", ref.base), keys: map[string]string{},
		manage: func(t *testing.T, args ...string) (int, string) { return referenceManageAt(t, o, ref.db, args...) },
		expire: func(t *testing.T, prefix string) { expireKey(t, ref.db, prefix) }})
	for name, database := range map[string]func() string{
		"sqlite":     func() string { return filepath.Join(t.TempDir(), "db.sqlite3") },
		"postgresql": func() string { return testservers.Postgres(t) },
	} {
		t.Run(name, func(t *testing.T) {
			dsn := database()
			got := runEcoScript(t, &ecoSide{side: newSide("sample", startSampleAt(t, dsn, o)), keys: map[string]string{},
				manage: func(_ *testing.T, args ...string) (int, string) { return goManage(dsn, args...) },
				expire: func(t *testing.T, prefix string) { expireKey(t, dsn, prefix) }})
			gotRows, wantRows := permissionRows(t, dsn), permissionRows(t, ref.db)
			if o.level != drf314.level {
				// The names are those the sample's migration writes at
				// both levels, Django 3.2's and its packages' ("Can add
				// blacklisted token"); DRF 3.18's and simplejwt 5.5's
				// verbose names differ ("Can add Blacklisted Token"), and
				// the ids, content types and codenames are the same.
				gotRows, wantRows = withoutNames(gotRows), withoutNames(wantRows)
			}
			if strings.Join(gotRows, "\n") != strings.Join(wantRows, "\n") {
				t.Errorf("content types and permissions:\n%s\nwant (the reference's, post_migrate's):\n%s", strings.Join(gotRows, "\n"), strings.Join(wantRows, "\n"))
			}
			for i, st := range ecoScript {
				what := st.verb() + " " + st.path + " (" + st.name + ")"
				if st.manage != nil {
					what = "manage " + strings.Join(st.manage, " ")
				}
				if d := differences(want[i], got[i]); len(d) > 0 {
					t.Errorf("%03d %s: the sample differs from the reference:\n  %s", i+1, what, strings.Join(d, "\n  "))
				}
			}
		})
	}
}

// TestEcoSharedDatabase: on the Go sample's own database, SQLite and
// PostgreSQL, an API key that the reference's manage.py creates with
// rest_framework_api_key opens /eco/api-key/books/ on the Go sample, and
// a permission that its grant_permission writes into Django's tables
// takes effect there (and ends when its revoke_permission removes it).
func TestEcoSharedDatabase(t *testing.T) {
	if why := drf314.missing(drf314.dir(t)); why != "" {
		if os.Getenv("CI_REQUIRE_REFERENCE") == "1" {
			t.Fatalf("the DRF reference cannot run and CI_REQUIRE_REFERENCE=1: %s", why)
		}
		t.Skip(why)
	}
	for name, database := range map[string]func() string{
		"sqlite":     func() string { return filepath.Join(t.TempDir(), "db.sqlite3") },
		"postgresql": func() string { return testservers.Postgres(t) },
	} {
		t.Run(name, func(t *testing.T) {
			dsn := database()
			s := newSide("sample", startSample(t, dsn))
			get := func(path string, header ...string) int {
				t.Helper()
				a, err := s.send(row{path: path, header: header})
				if err != nil {
					t.Fatal(err)
				}
				return a.status
			}
			code, key := referenceManage(t, dsn, "create_api_key", "made by django")
			if code != 0 || !fullKey.MatchString(key) {
				t.Fatalf("Django's create_api_key: %d %q", code, key)
			}
			if got := get("/eco/api-key/books/", "Authorization: Api-Key "+key); got != 200 {
				t.Errorf("Django's key on the Go sample: %d", got)
			}
			if code, out := referenceManage(t, dsn, "revoke_api_key", key); code != 0 {
				t.Fatalf("Django's revoke_api_key: %d %s", code, out)
			}
			if got := get("/eco/api-key/books/", "Authorization: Api-Key "+key); got != 403 {
				t.Errorf("the key Django revoked, on the Go sample: %d", got)
			}

			create := func() int {
				t.Helper()
				a, err := s.send(row{method: "POST", path: "/eco/perms/books/", header: []string{"Authorization: Basic {basic:alice}"},
					body: `{"title":"A","author":"B","rating":3}`})
				if err != nil {
					t.Fatal(err)
				}
				return a.status
			}
			if got := create(); got != 403 {
				t.Fatalf("before the grant: %d", got)
			}
			if code, out := referenceManage(t, dsn, "grant_permission", "alice", "bookshelf.add_book"); code != 0 {
				t.Fatalf("Django's grant_permission: %d %s", code, out)
			}
			if got := create(); got != 201 {
				t.Errorf("after Django's grant: %d", got)
			}
			if code, out := referenceManage(t, dsn, "revoke_permission", "alice", "bookshelf.add_book"); code != 0 {
				t.Fatalf("Django's revoke_permission: %d %s", code, out)
			}
			if got := create(); got != 403 {
				t.Errorf("after Django's revoke: %d", got)
			}
		})
	}
}
