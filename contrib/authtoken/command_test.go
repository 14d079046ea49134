package authtoken_test

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/go-drf/drf/contrib/authtoken"
	"github.com/go-drf/drf/framework/management"
)

func runCommand(t *testing.T, dsn string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := &management.Env{Stdout: &out, Stderr: &errOut, DatabaseURL: dsn}
	code = management.Execute(context.Background(), env, append([]string{"drf_create_token"}, args...), authtoken.CreateTokenCommand())
	return code, out.String(), errOut.String()
}

var generated = regexp.MustCompile(`^Generated token ([0-9a-f]{40}) for user alice\n$`)

// The reference's output and exit statuses for the same commands.
func TestCreateTokenCommand(t *testing.T) {
	dsn := filepath.Join(t.TempDir(), "db.sqlite3")
	f := newFixture(t, dsn)

	code, out, errOut := runCommand(t, dsn, "alice")
	m := generated.FindStringSubmatch(out)
	if code != 0 || m == nil || errOut != "" {
		t.Fatalf("create: %d %q %q", code, out, errOut)
	}
	key := m[1]
	tok, err := f.tokens.ForUser(context.Background(), f.alice.ID)
	if err != nil || tok.Key != key {
		t.Fatalf("stored token %v %v, printed %s", tok, err, key)
	}
	if _, out, _ := runCommand(t, dsn, "alice"); out != "Generated token "+key+" for user alice\n" {
		t.Errorf("again: %q, want the same key", out)
	}
	for _, args := range [][]string{{"-r", "alice"}, {"alice", "--reset"}} {
		code, out, _ := runCommand(t, dsn, args...)
		m := generated.FindStringSubmatch(out)
		if code != 0 || m == nil || m[1] == key {
			t.Fatalf("%v: %d %q (old key %s)", args, code, out, key)
		}
		key = m[1]
	}
	if n := f.count(t, ""); n != 1 {
		t.Errorf("%d tokens", n)
	}

	code, out, errOut = runCommand(t, dsn, "nobody")
	if code != 1 || out != "" || errOut != "CommandError: Cannot create the Token: user nobody does not exist\n" {
		t.Errorf("unknown user: %d %q %q", code, out, errOut)
	}
	for _, args := range [][]string{{}, {"alice", "bob"}, {"--bogus", "alice"}} {
		if code, _, _ := runCommand(t, dsn, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, out, _ := runCommand(t, dsn, "--help"); code != 0 || out == "" {
		t.Errorf("--help: %d %q", code, out)
	}
	if code, out, _ := runCommand(t, dsn, "--", "-r"); code != 1 || out != "" {
		t.Errorf("-- -r names a user: %d %q", code, out)
	}
}
