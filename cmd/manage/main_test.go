package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/store"
	"github.com/go-drf/drf/internal/schematest"
	"github.com/go-drf/drf/internal/testservers"
	"github.com/go-drf/drf/sample"
)

// manageBin is the manage binary, built once for all tests.
var manageBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "manage-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	manageBin = filepath.Join(dir, "manage")
	if out, err := exec.Command("go", "build", "-o", manageBin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// command prepares the binary with args in dir, with no DATABASE_URL,
// SECRET_KEY, PASSWORD_HASHERS, ALLOWED_HOSTS or DRF_COMPAT.
func command(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command(manageBin, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DATABASE_URL=") && !strings.HasPrefix(kv, "SECRET_KEY=") && !strings.HasPrefix(kv, "PASSWORD_HASHERS=") &&
			!strings.HasPrefix(kv, "ALLOWED_HOSTS=") && !strings.HasPrefix(kv, "DRF_COMPAT=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	return cmd
}

// run runs the binary to its end.
func run(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := command(dir, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), errOut.String(), ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("manage %v: %v", args, err)
	}
	return out.String(), errOut.String(), 0
}

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestRunserverOnAFreshDirectory is `manage runserver ADDR` with nothing
// prepared: it creates db.sqlite3, migrates and loads the demo data,
// printing each step, answers within seconds, and stops cleanly on SIGINT.
func TestRunserverOnAFreshDirectory(t *testing.T) {
	dir, addr := t.TempDir(), freeAddr(t)
	cmd := command(dir, "runserver", addr)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-exited
		}
	})

	var body []byte
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/whoami/")
		if err == nil {
			body, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET /whoami/: %d %s", resp.StatusCode, body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("runserver did not answer within 20s: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if want := `{"username":null,"auth":null,"version":null}`; string(body) != want {
		t.Errorf("GET /whoami/ = %s, want %s", body, want)
	}

	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/books/", nil)
	req.SetBasicAuth("alice", "alice-pass")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var page struct{ Count int }
	err = json.NewDecoder(resp.Body).Decode(&page)
	resp.Body.Close()
	if err != nil || page.Count != 100 {
		t.Errorf("GET /books/ as alice: count %d, %v; want the 100 demo books", page.Count, err)
	}

	// Hosts outside the sample's default ALLOWED_HOSTS are refused.
	for host, want := range map[string]int{"localhost:8000": http.StatusOK, "evil.example": http.StatusBadRequest} {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/whoami/", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, want)
		}
	}

	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("runserver after SIGINT: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("runserver did not stop on SIGINT")
	}
	if _, err := os.Stat(filepath.Join(dir, "db.sqlite3")); err != nil {
		t.Errorf("no db.sqlite3 in the working directory: %v", err)
	}
	// It tells each migration and the loading, as Django's migrate does.
	var progress strings.Builder
	for _, m := range sample.Migrations() {
		fmt.Fprintf(&progress, "Applying %s... OK\n", m)
	}
	progress.WriteString("Loading the demo data: users admin, alice and bob, 100 books... OK\n")
	if !strings.HasPrefix(out.String(), progress.String()) || !strings.Contains(out.String(), "http://"+addr+"/") ||
		!strings.Contains(out.String(), "development key: set SECRET_KEY") {
		t.Errorf("runserver's output does not tell the migrations, the data, the address and the development key:\n%s", out.String())
	}
}

// An unknown hasher in PASSWORD_HASHERS stops runserver with a message.
func TestRunserverRefusesAnUnknownHasher(t *testing.T) {
	cmd := command(t.TempDir(), "runserver", freeAddr(t))
	cmd.Env = append(cmd.Env, "PASSWORD_HASHERS=argon2,sha9", "SECRET_KEY=k")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if err == nil || !strings.Contains(errOut.String(), `PASSWORD_HASHERS: auth: unknown password hasher "sha9"`) {
		t.Errorf("runserver with PASSWORD_HASHERS=argon2,sha9: %v\n%s%s", err, out.String(), errOut.String())
	}
	if strings.Contains(out.String(), "development key") {
		t.Error("the development key was announced with SECRET_KEY set")
	}
}

// A DRF_COMPAT other than 3.14 stops runserver with a message naming it.
func TestRunserverRefusesAnUnknownCompatibility(t *testing.T) {
	cmd := command(t.TempDir(), "runserver", freeAddr(t))
	cmd.Env = append(cmd.Env, "DRF_COMPAT=3.15")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	want := `CommandError: DRF_COMPAT="3.15": want "3.14" (DRF 3.14 on Django 3.2), or unset for DRF 3.18 on Django 5.2`
	if err == nil || !strings.Contains(errOut.String(), want) {
		t.Errorf("runserver with DRF_COMPAT=3.15: %v\n%s%s", err, out.String(), errOut.String())
	}
}

var generated = regexp.MustCompile(`^Generated token ([0-9a-f]{40}) for user alice\n$`)

// TestCreateToken is `manage drf_create_token USER [-r]` on a seeded
// database given by --database.
func TestCreateToken(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "other.sqlite3")
	if _, stderr, code := run(t, dir, "--database", db, "migrate"); code != 0 {
		t.Fatalf("migrate: exit %d: %s", code, stderr)
	}
	if stdout, stderr, code := run(t, dir, "--database", db, "seed", "--books", "2"); code != 0 || stdout != "Seeded 3 users and 2 books.\n" {
		t.Fatalf("seed --books 2: exit %d, %q %s", code, stdout, stderr)
	}

	key := func(args ...string) string {
		t.Helper()
		stdout, stderr, code := run(t, dir, append([]string{"--database", db, "drf_create_token"}, args...)...)
		m := generated.FindStringSubmatch(stdout)
		if code != 0 || m == nil {
			t.Fatalf("drf_create_token %v: exit %d, %q %s", args, code, stdout, stderr)
		}
		return m[1]
	}
	first := key("alice")
	if again := key("alice"); again != first {
		t.Errorf("a second drf_create_token alice gave %s, want the same %s", again, first)
	}
	reset := key("-r", "alice")
	if reset == first {
		t.Error("drf_create_token -r alice kept the old key")
	}

	conn, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var stored []string
	if err := conn.SelectContext(context.Background(), &stored, `SELECT t."key" FROM "authtoken_token" t JOIN "auth_user" u ON u."id" = t."user_id" WHERE u."username" = 'alice'`); err != nil {
		t.Fatal(err)
	}
	if len(stored) != 1 || stored[0] != reset {
		t.Errorf("alice's tokens in the database: %v, want [%s]", stored, reset)
	}

	_, stderr, code := run(t, dir, "--database", db, "drf_create_token", "nobody")
	if code != 1 || stderr != "CommandError: Cannot create the Token: user nobody does not exist\n" {
		t.Errorf("drf_create_token nobody: exit %d, %q", code, stderr)
	}
}

// TestHashedToken is `manage hashedtoken create/list/revoke` with the
// sample's device tokens, which expire.
func TestHashedToken(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "other.sqlite3")
	if _, stderr, code := run(t, dir, "--database", db, "migrate"); code != 0 {
		t.Fatalf("migrate: exit %d: %s", code, stderr)
	}
	if _, stderr, code := run(t, dir, "--database", db, "seed", "--books", "0"); code != 0 {
		t.Fatalf("seed: exit %d: %s", code, stderr)
	}
	stdout, stderr, code := run(t, dir, "--database", db, "hashedtoken", "create", "alice", "--name", "ci")
	m := regexp.MustCompile(`^Generated token drfht_([0-9a-f]{64}) for user alice \(id (\d+), expires \S+Z\)\n$`).FindStringSubmatch(stdout)
	if code != 0 || m == nil {
		t.Fatalf("hashedtoken create: exit %d, %q %s", code, stdout, stderr)
	}
	if stdout, _, code := run(t, dir, "--database", db, "hashedtoken", "list", "alice"); code != 0 || !strings.Contains(stdout, m[1][:8]+"  ci") {
		t.Errorf("hashedtoken list: exit %d, %q", code, stdout)
	}
	if stdout, _, code := run(t, dir, "--database", db, "hashedtoken", "revoke", "alice", m[2]); code != 0 || stdout != "Revoked token "+m[2]+" of user alice.\n" {
		t.Errorf("hashedtoken revoke: exit %d, %q", code, stdout)
	}
}

// TestAPIKeyAndPermissionCommands: create_api_key prints a key once,
// revoke_api_key revokes it; grant_permission and revoke_permission change
// a user's own permissions, and exit with 1 for an unknown user or
// permission, in the wording of the reference's commands.
func TestAPIKeyAndPermissionCommands(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "other.sqlite3")
	for _, args := range [][]string{{"migrate"}, {"seed", "--books", "0"}} {
		if _, stderr, code := run(t, dir, append([]string{"--database", db}, args...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	stdout, stderr, code := run(t, dir, "--database", db, "create_api_key", "ci")
	if code != 0 || !regexp.MustCompile(`^[A-Za-z0-9]{8}\.[A-Za-z0-9]{32}\n$`).MatchString(stdout) {
		t.Fatalf("create_api_key: exit %d, %q %s", code, stdout, stderr)
	}
	prefix := stdout[:8]
	if stdout, _, code := run(t, dir, "--database", db, "revoke_api_key", prefix); code != 0 || stdout != `Revoked API key "ci" (`+prefix+")\n" {
		t.Errorf("revoke_api_key: exit %d, %q", code, stdout)
	}
	for _, c := range []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"grant_permission", "alice", "bookshelf.add_book"}, 0, "Granted bookshelf.add_book to alice\n", ""},
		{[]string{"revoke_permission", "alice", "bookshelf.add_book"}, 0, "Revoked bookshelf.add_book from alice\n", ""},
		{[]string{"grant_permission", "nobody", "bookshelf.add_book"}, 1, "", "CommandError: User nobody does not exist\n"},
		{[]string{"grant_permission", "alice", "bookshelf.fly_book"}, 1, "", "CommandError: Permission bookshelf.fly_book does not exist\n"},
		{[]string{"revoke_permission", "alice", "add_book"}, 1, "", "CommandError: Permission must be APP_LABEL.CODENAME, got \"add_book\"\n"},
		{[]string{"revoke_api_key", "nokey"}, 1, "", "CommandError: No API key with prefix \"nokey\"\n"},
	} {
		stdout, stderr, code := run(t, dir, append([]string{"--database", db}, c.args...)...)
		if code != c.code || stdout != c.stdout || stderr != c.stderr {
			t.Errorf("%v: exit %d, %q %q; want %d, %q %q", c.args, code, stdout, stderr, c.code, c.stdout, c.stderr)
		}
	}
}

// TestUsage checks help and the exit status of bad command lines.
func TestUsage(t *testing.T) {
	dir := t.TempDir()
	stdout, _, code := run(t, dir, "help")
	for _, name := range []string{"migrate", "seed", "createsuperuser", "drf_create_token", "hashedtoken", "runserver",
		"create_api_key", "revoke_api_key", "grant_permission", "revoke_permission"} {
		if !strings.Contains(stdout, "  "+name+" ") {
			t.Errorf("help does not list %s:\n%s", name, stdout)
		}
	}
	if code != 0 {
		t.Errorf("help: exit %d", code)
	}
	for _, args := range [][]string{{}, {"bogus"}, {"seed", "--books", "x"}, {"seed", "extra"}, {"runserver", "1", "2"}} {
		if _, stderr, code := run(t, dir, args...); code != 2 || !strings.Contains(stderr, "usage:") {
			t.Errorf("manage %v: exit %d, stderr %q; want 2 with the usage", args, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "db.sqlite3")); err == nil {
		t.Error("a bad command line created db.sqlite3")
	}
}

// TestGenerateSchema prints the sample's document, whole and of v2, in
// YAML and JSON; the independent validator accepts each. It needs no
// database.
func TestGenerateSchema(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := run(t, dir, "generateschema")
	if code != 0 || !strings.HasPrefix(stdout, "openapi: \"3.1.0\"\n") || !strings.Contains(stdout, "  \"/url/{version}/books/\":\n") {
		t.Fatalf("generateschema: %d %s\n%s", code, stderr, stdout)
	}
	schematest.Validate(t, []byte(stdout))
	stdout, stderr, code = run(t, dir, "generateschema", "--format", "openapi-json", "--api-version", "v2", "--title", "Books v2")
	var doc struct {
		Info  struct{ Title, Version string }
		Paths map[string]any
	}
	if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil {
		t.Fatalf("generateschema --format openapi-json: %d %v %s\n%s", code, err, stderr, stdout)
	}
	if doc.Info.Title != "Books v2" || doc.Info.Version != "v2" || doc.Paths["/url/v2/books/"] == nil || doc.Paths["/ns/v1/info/"] != nil {
		t.Errorf("the v2 document: %+v", doc.Info)
	}
	schematest.Validate(t, []byte(stdout))
	if _, err := os.Stat(filepath.Join(dir, "db.sqlite3")); err == nil {
		t.Error("generateschema created a database")
	}
	if _, stderr, code := run(t, dir, "generateschema", "--api-version", "v9"); code != 1 || !strings.Contains(stderr, `unknown API version "v9"`) {
		t.Errorf("an unknown version: %d %s", code, stderr)
	}
	if _, stderr, code := run(t, dir, "generateschema", "--format", "xml"); code != 2 || !strings.Contains(stderr, `unknown format "xml"`) {
		t.Errorf("an unknown format: %d %s", code, stderr)
	}
}

// Built without cgo (CGO_ENABLED=0, no C compiler), the program runs on
// PostgreSQL, and refuses an SQLite database with a message that names
// cgo, where the build used to fail with "undefined: sqlite3.Error".
func TestWithoutCgo(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "manage-nocgo")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
	lite := exec.Command(bin, "--database", "sqlite:///"+filepath.Join(t.TempDir(), "db.sqlite3"), "migrate")
	out, err := lite.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "SQLite needs cgo, and this program was built with CGO_ENABLED=0") {
		t.Errorf("migrate on SQLite without cgo: %v\n%s", err, out)
	}
	pg := exec.Command(bin, "--database", testservers.Postgres(t), "migrate")
	if out, err := pg.CombinedOutput(); err != nil || !strings.Contains(string(out), "Applying auth.0001_initial... OK") {
		t.Errorf("migrate on PostgreSQL without cgo: %v\n%s", err, out)
	}
}
