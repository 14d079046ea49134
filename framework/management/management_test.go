package management_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-drf/drf/framework/management"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type result struct {
	code           int
	stdout, stderr string
	env            *management.Env
}

// run executes args with cmds and an environment made of vars.
func run(t *testing.T, vars map[string]string, stdin string, args []string, cmds ...management.Command) result {
	t.Helper()
	var out, errOut syncBuffer
	env := &management.Env{
		Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader(stdin),
		Getenv: func(k string) string { return vars[k] },
	}
	code := management.Execute(context.Background(), env, args, cmds...)
	return result{code, out.String(), errOut.String(), env}
}

var hello = management.Command{
	Name: "hello", Usage: "[NAME]", Help: "Greets someone.\nLonger text.",
	Run: func(ctx context.Context, env *management.Env, args []string) error {
		switch {
		case len(args) > 1:
			return &management.UsageError{Msg: "too many names"}
		case len(args) == 1 && args[0] == "fail":
			return &management.CommandError{Msg: "Cannot greet fail."}
		case len(args) == 1 && args[0] == "oops":
			return errors.New("something broke")
		case len(args) == 1:
			_, err := env.Stdout.Write([]byte("hello " + args[0] + " on " + env.DatabaseURL + "\n"))
			return err
		}
		return nil
	},
}

func TestHelpListsCommands(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		r := run(t, nil, "", args, hello, management.Migrate())
		if r.code != 0 || r.stderr != "" {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
		for _, want := range []string{"usage: manage [--database URL] <command>", "  hello    Greets someone.\n", "  migrate  Updates", "  help     "} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, r.stdout)
			}
		}
	}
	r := run(t, nil, "", []string{"help", "hello"}, hello)
	if r.code != 0 || r.stdout != "usage: manage hello [NAME]\n\nGreets someone.\nLonger text.\n" {
		t.Errorf("help hello: exit %d, %q", r.code, r.stdout)
	}
	r = run(t, nil, "", []string{"help", "nope"}, hello)
	if r.code != 2 || !strings.HasPrefix(r.stderr, "Unknown command: \"nope\"\nusage:") {
		t.Errorf("help nope: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	cases := []struct {
		args   []string
		stderr string
	}{
		{nil, "usage: manage"},
		{[]string{"nope"}, "Unknown command: \"nope\"\nusage: manage"},
		{[]string{"--bogus", "hello"}, "manage: flag provided but not defined: -bogus\nusage: manage"},
		{[]string{"--database"}, "manage: flag needs an argument: -database\nusage: manage"},
		{[]string{"hello", "a", "b"}, "manage hello: too many names\nusage: manage hello [NAME]\n"},
		{[]string{"migrate", "--fake"}, "manage migrate: flag provided but not defined: -fake\nusage: manage migrate [--noinput]\n"},
	}
	for _, c := range cases {
		r := run(t, nil, "", c.args, hello, management.Migrate())
		if r.code != 2 || !strings.HasPrefix(r.stderr, c.stderr) || r.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, r.code, r.stdout, r.stderr, c.stderr)
		}
	}
}

func TestCommandErrors(t *testing.T) {
	r := run(t, nil, "", []string{"hello", "fail"}, hello)
	if r.code != 1 || r.stderr != "CommandError: Cannot greet fail.\n" {
		t.Errorf("CommandError: exit %d, stderr %q", r.code, r.stderr)
	}
	r = run(t, nil, "", []string{"hello", "oops"}, hello)
	if r.code != 1 || r.stderr != "manage hello: something broke\n" {
		t.Errorf("plain error: exit %d, stderr %q", r.code, r.stderr)
	}
	r = run(t, nil, "", []string{"hello", "--help"}, hello, management.Migrate())
	if r.code != 0 {
		t.Errorf("hello --help is an argument to hello: exit %d", r.code)
	}
	r = run(t, nil, "", []string{"migrate", "--help"}, management.Migrate())
	if r.code != 0 || !strings.HasPrefix(r.stdout, "usage: manage migrate [--noinput]\n") {
		t.Errorf("migrate --help: exit %d, %q", r.code, r.stdout)
	}
}

func TestDatabaseSelection(t *testing.T) {
	cases := []struct {
		vars map[string]string
		args []string
		want string
	}{
		{nil, []string{"hello", "x"}, "db.sqlite3"},
		{map[string]string{"DATABASE_URL": "sqlite:///tmp/env.db"}, []string{"hello", "x"}, "sqlite:///tmp/env.db"},
		{map[string]string{"DATABASE_URL": "sqlite:///tmp/env.db"}, []string{"--database", "flag.db", "hello", "x"}, "flag.db"},
		{nil, []string{"--database=eq.db", "hello", "x"}, "eq.db"},
	}
	for _, c := range cases {
		r := run(t, c.vars, "", c.args, hello)
		if want := "hello x on " + c.want + "\n"; r.code != 0 || r.stdout != want {
			t.Errorf("%v %v: exit %d, %q; want %q", c.vars, c.args, r.code, r.stdout, want)
		}
	}
}

func TestLaterCommandReplacesEarlier(t *testing.T) {
	other := hello
	other.Run = func(ctx context.Context, env *management.Env, args []string) error {
		_, err := env.Stdout.Write([]byte("replaced\n"))
		return err
	}
	if r := run(t, nil, "", []string{"hello"}, hello, other); r.stdout != "replaced\n" {
		t.Errorf("output %q", r.stdout)
	}
}

func TestEnvDBOpensOnceAndIsClosed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.sqlite3")
	opened := 0
	cmd := management.Command{Name: "db", Run: func(ctx context.Context, env *management.Env, args []string) error {
		a, err := env.DB()
		if err != nil {
			return err
		}
		b, _ := env.DB()
		if a == b {
			opened++
		}
		return a.PingContext(ctx)
	}}
	r := run(t, nil, "", []string{"--database", path, "db"}, cmd)
	if r.code != 0 || opened != 1 {
		t.Fatalf("exit %d, stderr %q, same pool %d", r.code, r.stderr, opened)
	}
	if db, _ := r.env.DB(); db == nil || db.Ping() == nil {
		t.Error("the database is still open after Execute")
	}
	r = run(t, nil, "", []string{"help"})
	if db, err := r.env.DB(); db != nil || err == nil {
		t.Errorf("DB after Execute = %v, %v; want an error", db, err)
	}
	r = run(t, nil, "", []string{"--database", filepath.Join(path, "no", "such"), "db"}, cmd)
	if r.code != 1 || !strings.Contains(r.stderr, "store: open") {
		t.Errorf("bad database: exit %d, stderr %q", r.code, r.stderr)
	}
}
